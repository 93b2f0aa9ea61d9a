"""What the rest of hookrun sees of a config: validated, compiled, immutable.

The pydantic models of the config package describe what the user *wrote*; this
module is the boundary type the runner consumes. Everything here is already
checked: matchers are compiled (a Claude Code matcher is turned into the
equivalent regex), timeouts are seconds, ``include_sub_agents`` has its
global default applied, paths are absolute.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

OnError = Literal["allow", "deny"]


@dataclass(frozen=True)
class HookSpec:
    event: str  # canonical event name, or the custom name as written
    source: str  # "<config path>#PreToolUse[2]" or "…#PreToolUse[0].hooks[1]" (Claude shape)
    name: str  # as given, else derived from the command's first word or the builtin's name
    command: str | None  # exactly one of command / builtin is set
    builtin: str | None  # canonical policy name (aliases resolved)
    options: Mapping[str, Any] = field(default_factory=dict)  # the builtin's "with"
    matcher: str | None = None  # as written (for display)
    matcher_re: re.Pattern[str] | None = None  # compiled; None matches everything
    timeout: float = 30.0  # seconds
    on_error: OnError = "allow"
    env: Mapping[str, str] = field(default_factory=dict)
    include_sub_agents: bool = False
    config_path: str = ""
    dialect: Literal["hookrun", "claude", "crush"] = "hookrun"

    def matches(self, subject: str | None) -> bool:
        """Search the matcher in ``subject`` (tool name, source, trigger, type).

        A hook with a matcher never matches an event that has no subject.
        """
        if self.matcher_re is None:
            return True
        return subject is not None and self.matcher_re.search(subject) is not None


@dataclass(frozen=True)
class ConfigIssue:
    """A warning or error about a config, with where it is."""

    severity: Literal["error", "warning"]
    path: str  # the config file
    location: str  # "12:17" (line:column) or "" when unknown
    json_path: str  # "hooks.PreToolUse[2].matcher" or ""
    message: str

    def __str__(self) -> str:
        where = self.path
        if self.location:
            where += f":{self.location}"
        head = f"{where}: {self.json_path}: " if self.json_path else f"{where}: "
        return f"config {self.severity}: {head}{self.message}"


@dataclass(frozen=True)
class Config:
    hooks: Mapping[str, tuple[HookSpec, ...]]  # canonical event → hooks in config order
    audit_log: str | None = None  # absolute path; the last file that sets it wins
    paths: tuple[str, ...] = ()  # the files this was loaded from, in order
    warnings: tuple[ConfigIssue, ...] = ()

    def for_event(self, event: str) -> tuple[HookSpec, ...]:
        return self.hooks.get(event, ())
