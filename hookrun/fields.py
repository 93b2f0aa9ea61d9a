"""The payload's field vocabulary: reading a payload the way every host writes it.

The runner (environment variables, matcher subjects) and the built-in policies
both read payloads through it; it lives at the top of the package, a leaf, so
neither imports the other for it.

Claude Code and Crush send ``tool_name`` + ``tool_input``; seed 001's container
hook reads ``tool`` + ``arguments``; Squad's SDK says ``toolName`` +
``arguments``. Policies read through these helpers so one policy serves all.

What a policy reads to judge a call — the tool's name, its input object, the command,
the file path — it reads *strictly*: a field that is there with the wrong type (a
``command`` that is an array, a ``tool_input`` that is a number) raises
:class:`Unreadable` instead of reading as absent. The runner makes that the hook's
error, so the policy's fail mode answers: a guard that fails closed (shell-guard,
write-guard) denies a call it cannot read rather than finding "nothing to check" in
it. The runner itself reads the same fields leniently (``strict=False``): for it a
wrong-typed field counts as absent (README "Hostile input").
"""

from __future__ import annotations

from collections.abc import Mapping

TYPE_CHECKING = False  # a leaf imports no hookrun module: typing.TYPE_CHECKING without typing

if TYPE_CHECKING:
    from typing import Any


class Unreadable(ValueError):
    """A field a policy must read is there with the wrong type: it cannot judge the call."""


def type_name(value: Any) -> str:
    """``"a string"``, ``"an array"``, … — the JSON name of a value's type, not Python's.

    For messages a person reads: the runner's (a hook's answer field, the payload) and
    the policies' (:class:`Unreadable`) name types the same way.
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, (list, tuple)):
        return "an array"
    if isinstance(value, Mapping):
        return "an object"
    return f"a {type(value).__name__}"


def _unreadable(where: str, expected: str, value: Any) -> Unreadable:
    return Unreadable(
        f'payload field "{where}" is {type_name(value)}, not {expected}: the call cannot be judged'
    )


def tool_name(payload: Mapping[str, Any], *, strict: bool = True) -> str:
    for key in ("tool_name", "tool", "toolName"):
        value = payload.get(key)
        if isinstance(value, str):
            return value
        if strict and value is not None:
            raise _unreadable(key, "a string", value)
    return ""


def tool_names(payload: Mapping[str, Any]) -> tuple[str, ...]:
    """The tool's name as the host sent it and, when hookrun's host mapping knew the
    tool, its canonical kind (``shell``, ``write``, ``edit``, ``read``, …): a policy's
    ``tools`` may list either, so the defaults guard every host's tools. Strict."""
    name = tool_name(payload)
    kind = payload.get("tool_kind")
    if isinstance(kind, str) and kind and kind != name:
        return (name, kind)
    return (name,)


def tool_input(payload: Mapping[str, Any], *, strict: bool = True) -> Mapping[str, Any]:
    """The tool's input object; ``{}`` when the payload has none.

    Strict: the first of the spellings that is there must be an object (the runner has
    already decoded one sent as a JSON string).
    """
    for key in ("tool_input", "arguments", "toolArgs", "args"):
        value = payload.get(key)
        if isinstance(value, Mapping):
            return value
        if strict and value is not None:
            raise _unreadable(key, "an object", value)
    return {}


def input_str(payload: Mapping[str, Any], *keys: str, strict: bool = True) -> str | None:
    """The first string among ``tool_input[key]`` for ``keys``.

    Strict: any of ``keys`` that is there with another type raises — which of two
    spellings the tool acts on is not for a guard to guess.
    """
    data = tool_input(payload, strict=strict)
    found = None
    for key in keys:
        value = data.get(key)
        if isinstance(value, str):
            if not strict:
                return value
            found = value if found is None else found
        elif strict and value is not None:
            raise _unreadable(f"tool_input.{key}", "a string", value)
    return found


def file_path(payload: Mapping[str, Any], *, strict: bool = True) -> str | None:
    """The target path of a file tool (Claude ``file_path``, Squad ``path``, …)."""
    return input_str(
        payload, "file_path", "path", "filePath", "notebook_path", "filename", strict=strict
    )


def command(payload: Mapping[str, Any], *, strict: bool = True) -> str | None:
    """The shell command of a shell tool."""
    return input_str(payload, "command", "cmd", "script", strict=strict)


def field_str(payload: Mapping[str, Any], *keys: str) -> str | None:
    for key in keys:
        value = payload.get(key)
        if isinstance(value, str):
            return value
    return None


def session_id(payload: Mapping[str, Any]) -> str:
    return field_str(payload, "session_id", "sessionId") or ""


def agent_name(payload: Mapping[str, Any]) -> str | None:
    return field_str(payload, "agent_name", "agentName", "agent")


def agent_role(payload: Mapping[str, Any]) -> str | None:
    return field_str(payload, "agent_role", "agentRole", "role", "session_role")
