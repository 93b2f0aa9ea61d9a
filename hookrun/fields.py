"""The payload's field vocabulary: reading a payload the way every host writes it.

The runner (environment variables, matcher subjects) and the built-in policies
both read payloads through it; it lives at the top of the package, a leaf, so
neither imports the other for it.

Claude Code and Crush send ``tool_name`` + ``tool_input``; seed 001's container
hook reads ``tool`` + ``arguments``; Squad's SDK says ``toolName`` +
``arguments``. Policies read through these helpers so one policy serves all.
"""

from __future__ import annotations

from collections.abc import Mapping

TYPE_CHECKING = False  # a leaf imports no hookrun module: typing.TYPE_CHECKING without typing

if TYPE_CHECKING:
    from typing import Any


def tool_name(payload: Mapping[str, Any]) -> str:
    for key in ("tool_name", "tool", "toolName"):
        value = payload.get(key)
        if isinstance(value, str):
            return value
    return ""


def tool_names(payload: Mapping[str, Any]) -> tuple[str, ...]:
    """The tool's name as the host sent it and, when hookrun's host mapping knew the
    tool, its canonical kind (``shell``, ``write``, ``edit``, ``read``, …): a policy's
    ``tools`` may list either, so the defaults guard every host's tools."""
    name = tool_name(payload)
    kind = payload.get("tool_kind")
    if isinstance(kind, str) and kind and kind != name:
        return (name, kind)
    return (name,)


def tool_input(payload: Mapping[str, Any]) -> Mapping[str, Any]:
    for key in ("tool_input", "arguments", "toolArgs", "args"):
        value = payload.get(key)
        if isinstance(value, Mapping):
            return value
    return {}


def input_str(payload: Mapping[str, Any], *keys: str) -> str | None:
    """The first string among ``tool_input[key]`` for ``keys``."""
    data = tool_input(payload)
    for key in keys:
        value = data.get(key)
        if isinstance(value, str):
            return value
    return None


def file_path(payload: Mapping[str, Any]) -> str | None:
    """The target path of a file tool (Claude ``file_path``, Squad ``path``, …)."""
    return input_str(payload, "file_path", "path", "filePath", "notebook_path", "filename")


def command(payload: Mapping[str, Any]) -> str | None:
    """The shell command of a shell tool."""
    return input_str(payload, "command", "cmd", "script")


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
