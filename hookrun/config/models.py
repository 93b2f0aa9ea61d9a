"""pydantic models of what a user writes: the hookrun dialect (a superset of Crush's) and
Claude Code's nested settings shape.

These models check types only; the rules that span fields (exactly one of
``command``/``builtin``, regexes that compile, did-you-mean for unknown keys) live in
:mod:`hookrun.config.loader`, which walks the file so that every message gets a
line:column. ``extra="ignore"`` because unknown keys are warnings, reported by the
loader with their position, never fatal.

This module imports pydantic: import it only where a config is actually validated.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field
from pydantic_core import ErrorDetails

from hookrun.config.plain import json_type

# Strict: a JSON config says what it means — "10" is not a number, 1 is not true.
_MODEL_CONFIG = ConfigDict(strict=True, extra="ignore", frozen=True)

_TIMEOUT_DOC = "Seconds before the hook is ended (a value over 3600 is probably milliseconds)."
_SHELL_DOC = (
    'How `bash …`, `sh …` and bash/sh scripts run: "auto" (default) with the real bash/sh, '
    'or hookrun\'s in-process shell where that program is not on PATH; "inprocess" always '
    "in-process (the same result on every OS, no bash needed)."
)


class _HookFields(BaseModel):
    """What every hook entry can say, in every dialect."""

    model_config = _MODEL_CONFIG

    name: str | None = Field(None, description="Shown in traces; defaults to the command's name.")
    command: str | None = Field(
        None, description="A shell command (exactly one of command/builtin)."
    )
    builtin: str | None = Field(
        None, description="A built-in policy name (see `hookrun policies`)."
    )
    with_: dict[str, Any] | None = Field(
        None, alias="with", description="Options of the built-in policy."
    )
    timeout: float | None = Field(None, gt=0, allow_inf_nan=False, description=_TIMEOUT_DOC)
    on_error: Literal["allow", "deny"] | None = Field(
        None,
        description="What a crash, timeout or unparsable answer means: allow (fail-open) or deny.",
    )
    env: dict[str, str] | None = Field(None, description="Extra environment variables.")
    include_sub_agents: bool | None = Field(
        None, description="Also run for sub-agent tool calls (overrides the file's default)."
    )
    shell: Literal["auto", "inprocess"] | None = Field(
        None,
        description=_SHELL_DOC + ' Overrides the file\'s "shell".',
    )


class HookModel(_HookFields):
    """One hook in the hookrun / Crush shape: ``{"matcher": "^bash$", "command": "…"}``."""

    matcher: str | None = Field(
        None, description="Python regex searched in the tool name (or source/trigger/type)."
    )


class ClaudeHookModel(_HookFields):
    """One inner hook of a Claude Code entry: ``{"type": "command", "command": "…"}``."""

    type: str | None = Field(
        None, description='Claude Code hook type; hookrun runs "command" hooks.'
    )


class ClaudeEntryModel(BaseModel):
    """A Claude Code entry: a matcher and the hooks it selects."""

    model_config = _MODEL_CONFIG

    matcher: str | None = Field(
        None,
        description='Claude Code matcher: "*", "" or omitted = all; "Edit|Write" = exact names; '
        "anything else a regex.",
    )
    hooks: list[ClaudeHookModel]


class TelemetryModel(BaseModel):
    """Where spans and logs of every run go (OpenTelemetry, OTLP/HTTP)."""

    model_config = _MODEL_CONFIG

    endpoint: str | None = Field(
        None, description="OTLP/HTTP base URL, e.g. http://localhost:4318 (/v1/traces is added)."
    )
    headers: dict[str, str] | None = Field(None, description="HTTP headers sent to the collector.")
    service_name: str | None = Field(None, description='service.name (default "hookrun").')
    resource_attributes: dict[str, str] | None = Field(
        None, description="More resource attributes (team, environment, …)."
    )
    timeout_ms: int | None = Field(
        None, gt=0, le=60_000, description="Most time an export may add to a run (default 100)."
    )
    traces: bool | None = Field(None, description="false: send no spans.")
    logs: bool | None = Field(None, description="false: send no log records.")


class FileSettings(BaseModel):
    """The top-level settings of a hookrun file (``hooks`` is walked by the loader)."""

    model_config = _MODEL_CONFIG

    version: Literal[1] | None = Field(None, description="Config format version (1).")
    include_sub_agents: bool | None = Field(
        None, description="Default for hooks that do not say: run for sub-agent calls too."
    )
    timeout: float | None = Field(
        None, gt=0, allow_inf_nan=False, description="Default seconds per hook (30 if unset)."
    )
    audit_log: str | None = Field(
        None, description="JSON Lines trail of every run, relative to the project directory."
    )
    audit_payload: bool | None = Field(
        None,
        description=(
            "Keep each event's payload in the audit log (secrets redacted), so that "
            "`hookrun replay` can re-decide it."
        ),
    )
    shell: Literal["auto", "inprocess"] | None = Field(
        None, description=_SHELL_DOC + " Default for every command hook of this file."
    )
    telemetry: bool | TelemetryModel | None = Field(
        None,
        description=(
            "OpenTelemetry export of every run (needs hookrun[otel]): true, false, or where to "
            "send. Overrides OTEL_* (which some hosts strip from a hook's environment)."
        ),
    )


class ConfigFile(FileSettings):
    """The whole file, for the JSON Schema export."""

    hooks: dict[str, list[HookModel | ClaudeEntryModel]] | None = Field(
        None, description="Event name → hooks in order (hookrun, Crush or Claude Code shape)."
    )


def describe(error: ErrorDetails) -> str:
    """A pydantic error as one human sentence (what was expected, what was found)."""
    kind = error["type"]
    got = json_type(error.get("input"))
    field = str(error["loc"][-1]) if error["loc"] else ""
    expected = {
        "string_type": "a string",
        "bool_type": "true or false",
        "float_type": "a number",
        "int_type": "a whole number",
        # the *_parsing kinds come from policies' own (lax) option models
        "int_parsing": "a whole number",
        "float_parsing": "a number",
        "bool_parsing": "true or false",
        "int_from_float": "a whole number",
        "dict_type": "an object",
        "model_type": "an object",
        "model_attributes_type": "an object",
        "list_type": "a list",
        "tuple_type": "a list",
        "set_type": "a list",
        "frozen_set_type": "a list",
    }.get(kind)
    if expected is not None:
        return f"expected {expected}, got {got}"
    if kind == "literal_error":
        choices = str((error.get("ctx") or {}).get("expected", "")).replace("'", '"')
        return f"expected {choices}, got {got}"
    if kind in ("greater_than", "finite_number") and field == "timeout":
        return f"expected a positive number of seconds, got {got}"
    if kind == "missing":
        return "required"
    return f"{error['msg']}, got {got}"
