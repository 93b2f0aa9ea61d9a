"""What the user wrote → a validated, compiled :class:`Config`.

``load`` reads JSONC files in the hookrun, Crush or Claude Code dialect;
``discover`` finds the user and project files; ``check`` adds the deeper checks
of ``hookrun check``; ``json_schema`` exports the dialect. pydantic is imported
only when a file is actually validated, so importing this package stays cheap.
"""

from __future__ import annotations

from hookrun.config.checks import check
from hookrun.config.discovery import discover, find_project_root, user_config_path
from hookrun.config.errors import ConfigError
from hookrun.config.events import KNOWN_EVENTS, TOOL_EVENTS, normalize_event, suggest_event
from hookrun.config.loader import load
from hookrun.config.schema import json_schema
from hookrun.config.spec import Config, ConfigIssue, HookSpec

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
