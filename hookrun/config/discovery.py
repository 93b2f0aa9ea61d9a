"""Where configs live when no ``--config`` is given: the user file, then the project file."""

from __future__ import annotations

import os

from hookrun.records import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path  # imported where used: pathlib is not free at start-up

PROJECT_DIR_NAME = ".hookrun"
CONFIG_NAME = "hooks.json"


def absolute_config_path(base: str, given: str) -> str:
    """``given`` (``~`` expanded) against ``base``; normalised only when that is absolute,
    because abspath() of a relative path needs a working directory that may be gone."""
    full = os.path.join(base, os.path.expanduser(given))
    return os.path.normpath(full) if os.path.isabs(full) else full


def user_config_path() -> Path:
    """``<platformdirs user config dir>/hookrun/hooks.json`` (whether or not it exists)."""
    from pathlib import Path

    from platformdirs import user_config_dir  # imported here: only discovery needs it

    return Path(user_config_dir("hookrun", appauthor=False)) / CONFIG_NAME


def find_project_root(cwd: str | os.PathLike[str]) -> Path:
    """The nearest ancestor of ``cwd`` (itself included) holding ``.hookrun/`` or ``.git``.

    ``.git`` may be a file (worktrees, submodules), so existence is what counts.
    Falls back to ``cwd`` itself when no ancestor qualifies.
    """
    from pathlib import Path

    return Path(project_root(cwd))


def project_root(cwd: str | os.PathLike[str]) -> str:
    """:func:`find_project_root` as a string, with ``os.path`` only: ``hookrun run``
    needs it on every event, and importing pathlib costs more than the search."""
    try:
        start = os.path.abspath(cwd)
    except OSError:  # a relative cwd inside a directory that was deleted: nothing to search
        return os.fspath(cwd)
    directory = start
    while True:
        if os.path.isdir(os.path.join(directory, PROJECT_DIR_NAME)) or os.path.exists(
            os.path.join(directory, ".git")
        ):
            return directory
        parent = os.path.dirname(directory)
        if parent == directory:  # the root (or a drive) searched: no marker anywhere
            return start
        directory = parent


def discover(cwd: str | os.PathLike[str]) -> list[Path]:
    """The config files that exist, in merge order: user file, then project file.

    The same file is listed once (a project whose root is the user config dir's
    owner, or a symlink to it, must not run every hook twice).
    """
    found: list[Path] = []
    candidates = [
        user_config_path(),
        find_project_root(cwd) / PROJECT_DIR_NAME / CONFIG_NAME,
    ]
    seen: set[str] = set()
    for path in candidates:
        if not path.is_file():
            continue
        key = os.path.normcase(os.path.realpath(path))
        if key not in seen:
            seen.add(key)
            found.append(path)
    return found
