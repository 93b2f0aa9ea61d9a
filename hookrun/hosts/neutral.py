"""hookrun's own shape (``--host hookrun``): the full aggregated answer, for a Python or
Go orchestrator, a person at a terminal, or a host hookrun does not know.

Every field is sent (``hookrun run`` prints :meth:`RunResult.to_dict`); exit 0 allow /
ask / no opinion, 2 deny, 49 halt, with the reason on stderr. Tool names of every host
map to their kinds (so ``bash`` and ``Bash`` are both ``shell``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from hookrun import exitcodes
from hookrun.hosts import base, claude, codex, copilot, crush, cursor, gemini

if TYPE_CHECKING:
    from hookrun.runner.result import RunResult

TITLE = "hookrun"

# Every host's tool names: a payload from any of them gets its kind.
TOOLS: Mapping[str, str] = {
    **crush.TOOLS,
    **copilot.TOOLS,
    **cursor.TOOLS,
    **gemini.TOOLS,
    **codex.TOOLS,
    **claude.TOOLS,
}
_FOLDED = {name.casefold(): kind for name, kind in TOOLS.items()}


# Host-only spellings (Gemini's BeforeTool, Copilot's agentStop, Cursor's
# beforeShellExecution) mean their canonical event here too.
EVENTS: Mapping[str, str] = {
    name: canonical
    for table in (cursor.EVENTS, copilot.EVENTS, gemini.EVENTS)
    for name, canonical in table.items()
    if canonical and name != canonical
}


def tool_kind(name: str) -> str | None:
    found = TOOLS.get(name) or _FOLDED.get(name.casefold())
    if found is None and name.startswith(("mcp__", "mcp_", "MCP:")):
        return "mcp"
    return found


def payload_in(host_event: str, event: str, raw: Mapping[str, Any]) -> dict[str, Any]:
    payload = base.common_payload(raw, HOST, host_event, event)
    name = payload.get("tool_name")
    if "tool_kind" not in payload and isinstance(name, str):
        kind = tool_kind(name)
        if kind is not None:
            payload["tool_kind"] = kind
    return payload


def answer(result: RunResult, host_event: str, payload: Mapping[str, Any]) -> base.Answer:
    code = result.exit_code
    reason = base.stop_reason(result) if code in (exitcodes.DENY, exitcodes.HALT) else None
    return base.Answer(result.to_dict(), code, reason)


def _sub_agent(raw: Mapping[str, Any]) -> bool:
    return raw.get("is_sub_agent") is True


HOST = base.Host(
    name="hookrun",
    title=TITLE,
    events=EVENTS,  # and any spelling of a canonical event (hookrun.config.normalize_event)
    tools=TOOLS,
    mcp_prefix="mcp",
    payload_in=payload_in,
    answer=answer,
    sub_agent=_sub_agent,
)
