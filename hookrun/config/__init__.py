"""What the user wrote → a validated, compiled :class:`Config`. A leaf: it imports no
other hookrun package but the built-ins' static table (:mod:`hookrun.hooks.registry`,
which imports nothing), to resolve a ``builtin`` name and its fail mode.

``load`` reads JSONC files in the hookrun, Crush or Claude Code dialect;
``discover`` finds the user and project files; ``json_schema`` exports the dialect.
The deeper checks of ``hookrun check``, which need dispatch's routing and the
policies, live above this package in :mod:`hookrun.checks`. pydantic is imported
only when a file needs the models (a mistake to explain), and ``json_schema`` only
when used, so that ``hookrun run`` stays cheap.
"""

from __future__ import annotations

from hookrun.records import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

    from hookrun.config.discovery import discover, find_project_root, user_config_path
    from hookrun.config.events import KNOWN_EVENTS, TOOL_EVENTS, normalize_event, suggest_event
    from hookrun.config.loader import load
    from hookrun.config.schema import json_schema
    from hookrun.config.spec import Config, ConfigError, ConfigIssue, HookSpec

__all__ = [
    "KNOWN_EVENTS",
    "TOOL_EVENTS",
    "Config",
    "ConfigError",
    "ConfigIssue",
    "HookSpec",
    "discover",
    "find_project_root",
    "json_schema",
    "load",
    "normalize_event",
    "suggest_event",
    "user_config_path",
]

# Each name, and the submodule that defines it. Resolved on first use: importing any
# submodule (``hookrun.config.spec``, as the runner and ``hookrun policy`` do) runs
# this file, and must not load the JSONC reader, the loader or discovery with it.
_WHERE = {
    "discover": "discovery",
    "find_project_root": "discovery",
    "user_config_path": "discovery",
    "ConfigError": "spec",
    "KNOWN_EVENTS": "events",
    "TOOL_EVENTS": "events",
    "normalize_event": "events",
    "suggest_event": "events",
    "load": "loader",
    "json_schema": "schema",
    "Config": "spec",
    "ConfigIssue": "spec",
    "HookSpec": "spec",
}


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'hookrun.config' has no attribute {name!r}")
    # __import__, not importlib.import_module: see hookrun.hosts.get.
    return getattr(__import__(f"hookrun.config.{module}", fromlist=[name]), name)
