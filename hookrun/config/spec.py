"""What the rest of hookrun sees of a config: validated, compiled, immutable.

The pydantic models of the config package describe what the user *wrote*; this
module is the boundary type the runner consumes. Everything here is already
checked: matchers are compiled (a Claude Code matcher is turned into the
equivalent regex; :mod:`hookrun.config.matchers` picks a linear-time engine),
timeouts are seconds, ``include_sub_agents`` has its global default applied,
paths are absolute.

The classes are NamedTuples, not dataclasses: this module is on the start-up path
of every ``hookrun run``, and ``dataclasses`` (with ``inspect``) costs half a bare
Python start-up. The dict defaults below are shared and never mutated.
"""

from __future__ import annotations

from collections.abc import Mapping

from hookrun.config.matchers import Matcher
from hookrun.records import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any, Literal

    OnError = Literal["allow", "deny"]
    Dialect = Literal["hookrun", "claude", "crush"]
    # How `bash …`/`sh …` and bash/sh scripts run (hookrun.dispatch.standin.MODES).
    ShellMode = Literal["auto", "inprocess"]
    Severity = Literal["error", "warning"]


class HookSpec(NamedTuple):
    event: str  # canonical event name, or the custom name as written
    source: str  # "<config path>#PreToolUse[2]" or "…#PreToolUse[0].hooks[1]" (Claude shape)
    name: str  # as given, else derived from the command's first word or the builtin's name
    command: str | None  # exactly one of command / builtin is set
    builtin: str | None  # canonical policy name (aliases resolved)
    options: Mapping[str, Any] = {}  # the builtin's "with"
    matcher: str | None = None  # as written (for display)
    compiled_matcher: Matcher | None = None  # None matches everything; see hookrun.config.matchers
    timeout: float = 30.0  # seconds
    on_error: OnError = "allow"
    env: Mapping[str, str] = {}
    include_sub_agents: bool = False
    config_path: str = ""
    dialect: Dialect = "hookrun"
    shell: ShellMode = "auto"

    def matches(self, subject: str | None) -> bool:
        """Search the matcher in ``subject`` (tool name, source, trigger, type).

        A hook with a matcher never matches an event that has no subject.
        """
        if self.compiled_matcher is None:
            return True
        return subject is not None and self.compiled_matcher.search(subject)


class ConfigIssue(NamedTuple):
    """A warning or error about a config, with where it is."""

    severity: Severity
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


class ConfigError(Exception):
    """A config that cannot be used. ``issues`` lists every error (and the warnings seen
    on the way), each with file, line:column and JSON path; ``str()`` shows them one per line."""

    def __init__(self, issues: Iterable[ConfigIssue]) -> None:
        self.issues: list[ConfigIssue] = list(issues)
        super().__init__("\n".join(str(issue) for issue in self.issues))

    @property
    def errors(self) -> list[ConfigIssue]:
        return [issue for issue in self.issues if issue.severity == "error"]


class Config(NamedTuple):
    hooks: Mapping[str, tuple[HookSpec, ...]]  # canonical event → hooks in config order
    audit_log: str | None = None  # absolute path; the last file that sets it wins
    paths: tuple[str, ...] = ()  # the files this was loaded from, in order
    warnings: tuple[ConfigIssue, ...] = ()
    telemetry: bool | Mapping[str, Any] | None = None
    # Audit lines keep the (scrubbed) payload; the last file that sets it wins.
    audit_payload: bool = False

    def for_event(self, event: str) -> tuple[HookSpec, ...]:
        return self.hooks.get(event, ())
