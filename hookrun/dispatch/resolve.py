"""Where a command word points: path-prefix rules, PATH/PATHEXT lookup, file plans.

INTERFACE STUB — owned by the dispatch/process-control work. Every platform rule
lives here, behind a ``platform`` argument (``sys.platform`` by default) so the
Windows branch is tested on Linux by passing ``"win32"``.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class FilePlan:
    """How to run a path-prefixed command word.

    kind: ``"shebang"`` (argv is interpreter + its args + script + args),
    ``"binary"`` (argv is the file + args), ``"script"`` (shebang-less: run
    ``source`` in the in-process shell with ``$0`` = path and ``$1…`` = args),
    ``"error"`` (nothing runs: ``exit_code`` and ``message`` say why).
    ``route`` is the value for Completed.route (``shebang:python3``, ``binary``,
    ``script``).
    """

    kind: str
    argv: tuple[str, ...] = ()
    route: str = ""
    source: str = ""
    exit_code: int = 0
    message: str = ""


def is_path_word(word: str, platform: str = sys.platform) -> bool:
    """True when ``word`` names a file (``./``, ``../``, ``/``, ``~/``; Windows forms too)."""
    if word.startswith(("./", "../", "/", "~/")):
        return True
    return False


def plan_file(
    path: str,
    args: Sequence[str],
    *,
    cwd: str,
    env: Mapping[str, str],
    platform: str = sys.platform,
) -> FilePlan:
    """Read at most 128 bytes of ``path`` and decide how to run it."""
    raise NotImplementedError


def find_executable(
    name: str, *, env: Mapping[str, str], cwd: str, platform: str = sys.platform
) -> str | None:
    """PATH lookup (PATHEXT on Windows). None when not found."""
    import shutil

    return shutil.which(name, path=env.get("PATH"))
