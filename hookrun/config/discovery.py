"""Where configs live when no ``--config`` is given: the user file, then the project file."""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping

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


# kind → the XDG variable that names it, the folder under $HOME elsewhere, on macOS.
_USER_DIRS = {
    "config": ("XDG_CONFIG_HOME", ".config", "Library/Application Support"),
    "cache": ("XDG_CACHE_HOME", ".cache", "Library/Caches"),
}


def cheap_user_dir(kind: str, env: Mapping[str, str], platform: str) -> str | None:
    """platformdirs' ``user_config_dir`` or ``user_cache_dir`` of ``hookrun`` on POSIX,
    without importing platformdirs; None where that takes more (Windows, or no
    absolute ``$HOME``), and then the caller asks platformdirs or does without.

    Every ``hookrun run`` without ``--config`` looks up the user config dir, and
    importing platformdirs (with tempfile, pathlib …) cost about a whole bare Python
    start (callgrind). tests/config/discovery_test.py compares this with platformdirs'
    own Unix and macOS classes.
    """
    if platform == "win32":
        return None
    variable, under_home, on_macos = _USER_DIRS[kind]
    base = env.get(variable, "")
    if not base.startswith("/"):  # platformdirs ignores a relative XDG value
        home = env.get("HOME", "")
        if not home.startswith("/"):
            return None
        base = os.path.join(home, on_macos if platform == "darwin" else under_home)
    return os.path.join(base, "hookrun")


def user_config_file() -> str:
    """``<platformdirs user config dir>/hookrun/hooks.json`` (whether or not it exists)."""
    folder = cheap_user_dir("config", os.environ, sys.platform)
    if folder is None:
        from platformdirs import user_config_dir  # imported here: only discovery needs it

        folder = user_config_dir("hookrun", appauthor=False)
    return os.path.join(folder, CONFIG_NAME)


def user_config_path() -> Path:
    """:func:`user_config_file` as a Path."""
    from pathlib import Path

    return Path(user_config_file())


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
    from pathlib import Path

    return [Path(path) for path in discover_files(cwd)]


def discover_files(cwd: str | os.PathLike[str]) -> list[str]:
    """:func:`discover` with ``os.path`` only: ``hookrun run`` without ``--config``
    calls it on every event, and importing pathlib costs more than the search."""
    found: list[str] = []
    candidates = [
        user_config_file(),
        os.path.join(project_root(cwd), PROJECT_DIR_NAME, CONFIG_NAME),
    ]
    seen: set[str] = set()
    for path in candidates:
        if not os.path.isfile(path):
            continue
        key = os.path.normcase(os.path.realpath(path))
        if key not in seen:
            seen.add(key)
            found.append(path)
    return found
