"""``context_files`` a hook named → the ones worth telling the agent about.

Resolved against the event's cwd, confined to the project dir (a hook must not be
able to point the agent at ``~/.ssh/id_rsa``; symlinks are followed before the
check for the same reason), missing files dropped, duplicates removed.
"""

from __future__ import annotations

import os
from collections.abc import Iterable


def _inside(path: str, root: str) -> bool:
    try:
        return os.path.commonpath([path, root]) == root
    except ValueError:  # pragma: win32 no cover — different drives
        return False


def resolve(paths: Iterable[str], *, cwd: str, project_dir: str) -> tuple[str, ...]:
    """Existing files inside ``project_dir``, in order, each once.

    Shown relative to ``cwd`` when under it (what the agent's own tools expect),
    absolute otherwise.
    """
    root = os.path.realpath(project_dir)
    seen: set[str] = set()
    out: list[str] = []
    for path in paths:
        full = os.path.normpath(os.path.join(cwd, os.path.expanduser(path)))
        real = os.path.realpath(full)
        if real in seen or not _inside(real, root) or not os.path.exists(real):
            continue
        seen.add(real)
        out.append(os.path.relpath(full, cwd) if _inside(full, cwd) else full)
    return tuple(out)
