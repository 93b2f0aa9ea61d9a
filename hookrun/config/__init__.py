"""What the user wrote → a validated, compiled :class:`Config`.

``load`` reads JSONC files in the hookrun, Crush or Claude Code dialect;
``discover`` finds the user and project files; ``check`` adds the deeper checks
of ``hookrun check``; ``json_schema`` exports the dialect. pydantic is imported
only when a file needs the models (a mistake to explain, a builtin's policy), and
``check``/``json_schema`` only when used, so that ``hookrun run`` stays cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hookrun.config.discovery import discover, find_project_root, user_config_path
from hookrun.config.errors import ConfigError
from hookrun.config.events import KNOWN_EVENTS, TOOL_EVENTS, normalize_event, suggest_event
from hookrun.config.loader import load
from hookrun.config.spec import Config, ConfigIssue, HookSpec

if TYPE_CHECKING:
    from hookrun.config.checks import check
    from hookrun.config.schema import json_schema

__all__ = [
    "KNOWN_EVENTS",
    "TOOL_EVENTS",
    "Config",
    "ConfigError",
    "ConfigIssue",
    "HookSpec",
    "check",
    "discover",
    "find_project_root",
    "json_schema",
    "load",
    "normalize_event",
    "suggest_event",
    "user_config_path",
]


def __getattr__(name: str) -> Any:
    if name == "check":
        from hookrun.config.checks import check

        return check
    if name == "json_schema":
        from hookrun.config.schema import json_schema

        return json_schema
    raise AttributeError(f"module 'hookrun.config' has no attribute {name!r}")
