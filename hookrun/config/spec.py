"""What the rest of hookrun sees of a config: validated, compiled, immutable.

The pydantic models of the config package describe what the user *wrote*; this
module is the boundary type the runner consumes. Everything here is already
checked: matchers are compiled (a Claude Code matcher is turned into the
equivalent regex; :mod:`hookrun.config.matchers` picks a linear-time engine),
timeouts are seconds, ``include_sub_agents`` has its global default applied,
paths are absolute.

The classes are :class:`~hookrun.frozen.Frozen` rather than dataclasses: this module
is on the start-up path of every ``hookrun run`` (see :mod:`hookrun.frozen`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from hookrun.config.matchers import Matcher
from hookrun.frozen import Frozen, set_fields

OnError = Literal["allow", "deny"]


Dialect = Literal["hookrun", "claude", "crush"]
# How `bash …`/`sh …` and bash/sh scripts run (hookrun.dispatch.standin.MODES).
ShellMode = Literal["auto", "inprocess"]


class HookSpec(Frozen):
    event: str  # canonical event name, or the custom name as written
    source: str  # "<config path>#PreToolUse[2]" or "…#PreToolUse[0].hooks[1]" (Claude shape)
    name: str  # as given, else derived from the command's first word or the builtin's name
    command: str | None  # exactly one of command / builtin is set
    builtin: str | None  # canonical policy name (aliases resolved)
    options: Mapping[str, Any]  # the builtin's "with" (default: a new empty dict)
    matcher: str | None  # as written (for display)
    compiled_matcher: Matcher | None  # None matches everything; see hookrun.config.matchers
    timeout: float  # seconds
    on_error: OnError
    env: Mapping[str, str]  # default: a new empty dict
    include_sub_agents: bool
    config_path: str
    dialect: Dialect
    shell: ShellMode

    def __init__(
        self,
        event: str,
        source: str,
        name: str,
        command: str | None,
        builtin: str | None,
        options: Mapping[str, Any] | None = None,
        matcher: str | None = None,
        compiled_matcher: Matcher | None = None,
        timeout: float = 30.0,
        on_error: OnError = "allow",
        env: Mapping[str, str] | None = None,
        include_sub_agents: bool = False,
        config_path: str = "",
        dialect: Dialect = "hookrun",
        shell: ShellMode = "auto",
    ) -> None:
        set_fields(
            self,
            event=event,
            source=source,
            name=name,
            command=command,
            builtin=builtin,
            options={} if options is None else options,
            matcher=matcher,
            compiled_matcher=compiled_matcher,
            timeout=timeout,
            on_error=on_error,
            env={} if env is None else env,
            include_sub_agents=include_sub_agents,
            config_path=config_path,
            dialect=dialect,
            shell=shell,
        )

    def matches(self, subject: str | None) -> bool:
        """Search the matcher in ``subject`` (tool name, source, trigger, type).

        A hook with a matcher never matches an event that has no subject.
        """
        if self.compiled_matcher is None:
            return True
        return subject is not None and self.compiled_matcher.search(subject)


Severity = Literal["error", "warning"]


class ConfigIssue(Frozen):
    """A warning or error about a config, with where it is."""

    severity: Severity
    path: str  # the config file
    location: str  # "12:17" (line:column) or "" when unknown
    json_path: str  # "hooks.PreToolUse[2].matcher" or ""
    message: str

    def __init__(
        self, severity: Severity, path: str, location: str, json_path: str, message: str
    ) -> None:
        set_fields(
            self,
            severity=severity,
            path=path,
            location=location,
            json_path=json_path,
            message=message,
        )

    def __str__(self) -> str:
        where = self.path
        if self.location:
            where += f":{self.location}"
        head = f"{where}: {self.json_path}: " if self.json_path else f"{where}: "
        return f"config {self.severity}: {head}{self.message}"


class Config(Frozen):
    hooks: Mapping[str, tuple[HookSpec, ...]]  # canonical event → hooks in config order
    audit_log: str | None  # absolute path; the last file that sets it wins
    paths: tuple[str, ...]  # the files this was loaded from, in order
    warnings: tuple[ConfigIssue, ...]
    # The "telemetry" key (true / false / an object, see hookrun.telemetry); None = unset.
    # The last file that sets it wins.
    telemetry: bool | Mapping[str, Any] | None
    audit_payload: bool  # audit lines keep the (scrubbed) payload; the last file that sets it wins

    def __init__(
        self,
        hooks: Mapping[str, tuple[HookSpec, ...]],
        audit_log: str | None = None,
        paths: tuple[str, ...] = (),
        warnings: tuple[ConfigIssue, ...] = (),
        telemetry: bool | Mapping[str, Any] | None = None,
        audit_payload: bool = False,
    ) -> None:
        set_fields(
            self,
            hooks=hooks,
            audit_log=audit_log,
            paths=paths,
            warnings=warnings,
            telemetry=telemetry,
            audit_payload=audit_payload,
        )

    def for_event(self, event: str) -> tuple[HookSpec, ...]:
        return self.hooks.get(event, ())
