"""Which config files a command uses, and loading them with CLI-grade errors.

``--config`` paths (repeatable, in order) win; without them, discovery (the user
file, then the project's ``.hookrun/hooks.json``). The config package is imported
here, inside functions, so ``hookrun --version`` never pays for pydantic.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from hookrun.cli import CliError
from hookrun.records import TYPE_CHECKING

if TYPE_CHECKING:
    from hookrun.config.spec import Config


def resolve_cwd(*candidates: str | None) -> str:
    """The first given directory (``--cwd``, then the payload's ``cwd``), else ours.

    A named directory that does not exist is an error, not a silent fallback: the
    project's hooks would quietly not be found.
    """
    for candidate in candidates:
        if candidate:
            # os.path, not pathlib: this runs on every `hookrun run`, and importing
            # pathlib (with urllib.parse and ipaddress) costs more than the run's work.
            path = os.path.expanduser(candidate)
            if not os.path.isdir(path):
                raise CliError(
                    f"working directory {candidate!r} does not exist or is not a directory "
                    '(from --cwd or the payload\'s "cwd")'
                )
            return os.path.realpath(path)
    try:
        return os.getcwd()
    except OSError as exc:  # the directory we were started in was deleted
        raise CliError(
            f"cannot read the current directory ({exc.strerror}); pass --cwd DIR"
        ) from None


def short_path(path: str, cwd: str, home: str | None = None) -> str:
    """``path`` as people read it: relative under ``cwd``, ``~/…`` under home, else as is.

    Config messages and hook sources (``.hookrun/hooks.json#PreToolUse[0]``) use the
    path *as given*, so discovered files are given in this short form; the config
    loader resolves them against ``cwd`` and expands ``~``.
    """
    home = home if home is not None else os.path.expanduser("~")
    for base, prefix in ((cwd, ""), (home, "~")):
        try:
            rel = os.path.relpath(path, base)
        except ValueError:  # another drive on Windows
            continue
        if not rel.startswith(os.pardir) and not os.path.isabs(rel):
            return os.path.join(prefix, rel) if prefix else rel
    return path


def config_files(configs: Sequence[str], cwd: str) -> list[str]:
    """The files to load: ``--config`` as given, else what discovery finds."""
    if configs:
        return list(configs)
    from hookrun.config.discovery import discover_files

    return [short_path(path, cwd) for path in discover_files(cwd)]


def where_discovery_looks(cwd: str) -> list[str]:
    """The two places discovery reads, for "no config found" messages."""
    from hookrun.config.discovery import project_root, user_config_file

    project = os.path.join(project_root(cwd), ".hookrun", "hooks.json")
    return [user_config_file(), project]


def load_config(configs: Sequence[str], cwd: str) -> Config:
    """Load the command's config; a broken one becomes a CliError with every issue."""
    from hookrun.config.cache import load  # the loader's answer, kept between runs
    from hookrun.config.spec import ConfigError  # not config.errors: a hit needs none of it

    try:
        return load(config_files(configs, cwd), cwd=cwd)
    except ConfigError as exc:
        raise CliError(str(exc)) from None


def project_dir(cwd: str) -> str:
    """The project root of ``cwd`` (nearest ancestor with ``.hookrun/`` or ``.git``)."""
    from hookrun.config.discovery import project_root

    return project_root(cwd)
