"""The fast path of validation: plain Python checks for the exact types a valid config has.

``load()`` runs once per event, and importing pydantic and building the models costs
more than everything else ``hookrun run`` does for a small config. So a hook entry
is first checked here; only when something is not *exactly* as expected is it
validated by the pydantic models (:mod:`hookrun.config.models`), which then say
what is wrong, with the same meaning. This module only ever accepts: it never
reports. A test pins that whatever it accepts, the models accept with the same values.
"""

from __future__ import annotations

import json
import math

from hookrun.records import TYPE_CHECKING, NamedTuple

HOOK_KEYS: frozenset[str] = frozenset(
    {"matcher", "name", "command", "builtin", "with", "timeout", "on_error", "env",
     "include_sub_agents", "shell"}
)  # fmt: skip
# "prompt" belongs to Claude Code's prompt hooks, which hookrun reports as skipped.
CLAUDE_HOOK_KEYS: frozenset[str] = (HOOK_KEYS - {"matcher"}) | {"type", "prompt"}
CLAUDE_ENTRY_KEYS: frozenset[str] = frozenset({"matcher", "hooks"})
FILE_KEYS: frozenset[str] = frozenset(
    {
        "version",
        "include_sub_agents",
        "timeout",
        "audit_log",
        "audit_payload",
        "telemetry",
        "shell",
        "hooks",
    }
)
# The `telemetry` object's fields and the JSON type each must have (hookrun.telemetry
# reads them); "str_map" = an object of strings.
TELEMETRY_KEYS: dict[str, str] = {
    "endpoint": "str",
    "headers": "str_map",
    "service_name": "str",
    "resource_attributes": "str_map",
    "timeout_ms": "pos_int",
    "traces": "bool",
    "logs": "bool",
}


class Hook(NamedTuple):
    """The fields of one hook entry, any dialect (same names as the pydantic models)."""

    name: str | None = None
    command: str | None = None
    builtin: str | None = None
    with_: dict[str, Any] | None = None
    timeout: float | None = None
    on_error: Literal["allow", "deny"] | None = None
    env: dict[str, str] | None = None
    include_sub_agents: bool | None = None
    matcher: str | None = None
    type: str | None = None
    shell: Literal["auto", "inprocess"] | None = None


class ClaudeEntry(NamedTuple):
    matcher: str | None
    hooks: list[Hook]


class Settings(NamedTuple):
    version: int | None = None
    include_sub_agents: bool | None = None
    timeout: float | None = None
    audit_log: str | None = None
    audit_payload: bool | None = None
    shell: Literal["auto", "inprocess"] | None = None


_MAX_FAST_SECONDS = 1e9
_SHELLS = (None, "auto", "inprocess")  # the bash stand-in modes (hookrun.dispatch.standin)


class _Reject(Exception):
    pass


def _opt_str(raw: dict[str, Any], key: str) -> str | None:
    value = raw.get(key)
    if value is None or type(value) is str:
        return value
    raise _Reject


def _opt_bool(raw: dict[str, Any], key: str) -> bool | None:
    value = raw.get(key)
    if value is None or type(value) is bool:
        return value
    raise _Reject


def _opt_seconds(raw: dict[str, Any], key: str) -> float | None:
    value = raw.get(key)
    if value is None:
        return None
    # Bounded so that float() of a huge int cannot overflow; the models judge the rest.
    if type(value) in (int, float) and 0 < value <= _MAX_FAST_SECONDS and math.isfinite(value):
        return float(value)
    raise _Reject


def _hook(raw: dict[str, Any], *, claude: bool) -> Hook:
    options = raw.get("with")
    if options is not None and type(options) is not dict:
        raise _Reject
    env = raw.get("env")
    if env is not None and (type(env) is not dict or any(type(v) is not str for v in env.values())):
        raise _Reject
    on_error = raw.get("on_error")
    if on_error not in (None, "allow", "deny"):
        raise _Reject
    shell = raw.get("shell")
    if shell not in _SHELLS:
        raise _Reject
    return Hook(
        name=_opt_str(raw, "name"),
        command=_opt_str(raw, "command"),
        builtin=_opt_str(raw, "builtin"),
        with_=options,
        timeout=_opt_seconds(raw, "timeout"),
        on_error=on_error,
        env=env,
        include_sub_agents=_opt_bool(raw, "include_sub_agents"),
        matcher=None if claude else _opt_str(raw, "matcher"),
        type=_opt_str(raw, "type") if claude else None,
        shell=shell,
    )


def hook(raw: dict[str, Any]) -> Hook | None:
    """A flat (hookrun/Crush) hook entry, or None when the models must look at it."""
    try:
        return _hook(raw, claude=False)
    except _Reject:
        return None


def claude_entry(raw: dict[str, Any]) -> ClaudeEntry | None:
    """A Claude Code entry (matcher + inner hooks), or None when the models must look at it."""
    inner = raw.get("hooks")
    if type(inner) is not list or any(type(item) is not dict for item in inner):
        return None
    try:
        return ClaudeEntry(_opt_str(raw, "matcher"), [_hook(item, claude=True) for item in inner])
    except _Reject:
        return None


def settings(raw: dict[str, Any]) -> Settings | None:
    """The top-level settings, or None when the models must look at them."""
    version = raw.get("version")
    if version is not None and (type(version) is not int or version != 1):
        return None
    shell = raw.get("shell")
    if shell not in _SHELLS:
        return None
    try:
        return Settings(
            version=version,
            include_sub_agents=_opt_bool(raw, "include_sub_agents"),
            timeout=_opt_seconds(raw, "timeout"),
            audit_log=_opt_str(raw, "audit_log"),
            audit_payload=_opt_bool(raw, "audit_payload"),
            shell=shell,
        )
    except _Reject:
        return None


def telemetry(value: dict[str, Any]) -> dict[str, Any] | None:
    """The ``telemetry`` object when every field is exactly as valid, else None."""
    for key, item in value.items():
        kind = TELEMETRY_KEYS.get(key)
        ok = (
            (kind == "str" and type(item) is str)
            or (kind == "bool" and type(item) is bool)
            or (kind == "pos_int" and type(item) is int and 0 < item <= 60_000)
            or (
                kind == "str_map"
                and type(item) is dict
                and all(type(v) is str for v in item.values())
            )
        )
        if not ok:
            return None
    return value


def json_type(value: object) -> str:
    """The JSON name of a Python value's type, for "got …" in messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return f"number {json.dumps(value)}"
    if isinstance(value, str):
        from hookrun.config.quote import quote

        return f"string {quote(value)}"[:60]
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def from_model(model: object, cls: type[_T]) -> _T:
    """The plain tuple ``cls`` with the same-named fields of a validated pydantic model."""
    return cls(**{name: getattr(model, name, None) for name in cls._fields})


if TYPE_CHECKING:
    from typing import Any, Literal, TypeVar

    _T = TypeVar("_T", Hook, Settings)
