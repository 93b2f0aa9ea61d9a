"""What every host module is made of: the :class:`Host` record, the :class:`Answer` it
gives back, and the few helpers their answer functions share.

A host module is a pure mapping (no I/O): the host's event names ↔ canonical events,
its tool names ↔ canonical tool kinds, its payload → hookrun's payload, and hookrun's
aggregated answer → the host's stdout JSON, exit code and stderr line, with exactly
the fields that host applies for that event. Where a host cannot apply a field, the
module answers with the safe behaviour and says so (:func:`not_applied`): hookrun
never tells the model that an effect happened when the host did not apply it.

NamedTuples: value types that cross the boundary between the runner and the CLI.
"""

from __future__ import annotations

from collections.abc import Mapping

from hookrun import cjson, exitcodes
from hookrun.hosts import kinds
from hookrun.records import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from hookrun.runner.result import RunResult

    PayloadIn = Callable[[str, str, Mapping[str, Any]], dict[str, Any]]
    AnswerOut = Callable[[RunResult, str, Mapping[str, Any]], "Answer"]
    SubAgent = Callable[[Mapping[str, Any]], bool]

_ABOUT_SUB_AGENTS = frozenset({"SubagentStart", "SubagentStop"})


class Answer(NamedTuple):
    """What ``hookrun run`` hands back to a host: stdout JSON (None = print nothing),
    the exit code, and the line for stderr (None = nothing)."""

    stdout: Mapping[str, Any] | None
    exit_code: int = 0
    stderr: str | None = None


class Host(NamedTuple):
    """One agent host's contract, as data plus three pure functions."""

    name: str  # the --host value
    title: str  # for messages: "Claude Code"
    events: Mapping[str, str]  # the host's event name → canonical event ("" = none)
    tools: Mapping[str, str]  # the host's tool name → canonical kind
    mcp_prefix: str  # tool names starting with it are MCP tools ("" = none)
    payload_in: PayloadIn  # (host event, canonical event, raw payload) → hookrun payload
    answer: AnswerOut  # (result, host event, hookrun payload) → Answer
    sub_agent: SubAgent  # is this call made inside a sub-agent?

    def canonical_event(self, host_event: str) -> str | None:
        """The canonical event for the host's own spelling, None when it has none."""
        return self.events.get(host_event) or None

    def tool_kind(self, tool_name: str | None) -> str | None:
        """The canonical kind of one of this host's tools (None: unknown tool)."""
        if not tool_name:
            return None
        found = self.tools.get(tool_name)
        if found is not None:
            return found
        if self.mcp_prefix and tool_name.startswith(self.mcp_prefix):
            return kinds.MCP
        return None


# -- payload helpers -----------------------------------------------------------------------


def decoded(value: Any) -> Any:
    """A JSON string of an object decoded (hosts pass tool arguments both ways)."""
    if isinstance(value, str) and value.lstrip().startswith(("{", "[")):
        try:
            return cjson.loads(value)
        except (ValueError, RecursionError):
            return value
    return value


def common_payload(
    raw: Mapping[str, Any],
    host: Host,
    host_event: str,
    event: str,
    *,
    tool_name: str | None = None,
    tool_input: Any = None,
    tool_output: Any = None,
) -> dict[str, Any]:
    """hookrun's payload: every field the host sent, plus hookrun's names for them.

    ``tool_input`` is decoded when the host sent it as a JSON string; the tool's result
    is also given as ``tool_output`` (the host's own field stays); ``tool_kind`` names
    the canonical kind; ``host`` and ``host_event`` say where the event came from;
    ``is_sub_agent`` is derived the host's way unless the payload says it (never on
    SubagentStart/SubagentStop: those are the parent's events *about* a sub-agent).
    """
    payload = dict(raw)
    name = tool_name if tool_name is not None else raw.get("tool_name")
    if isinstance(name, str) and name:
        payload["tool_name"] = name
        kind = host.tool_kind(name)
        if kind is not None:
            payload["tool_kind"] = kind
    if tool_input is None:
        tool_input = raw.get("tool_input")
    if tool_input is not None:
        payload["tool_input"] = decoded(tool_input)
    if tool_output is None:
        tool_output = raw.get("tool_output", raw.get("tool_response"))
    if tool_output is not None:
        payload["tool_output"] = tool_output
    payload["host"] = host.name
    payload["host_event"] = host_event
    if raw.get("is_sub_agent") is None:  # a wrong type is the runner's to report
        payload["is_sub_agent"] = event not in _ABOUT_SUB_AGENTS and host.sub_agent(raw)
    return payload


def never_sub_agent(raw: Mapping[str, Any]) -> bool:
    """For hosts whose hooks never fire inside a sub-agent, or do not say so."""
    return False


# -- answer helpers ------------------------------------------------------------------------


def context_text(result: RunResult) -> str | None:
    """Context entries plus a "referenced files" note, for hosts with no context_files
    field: the paths reach the model as text, which is what context_files is for."""
    parts = list(result.context)
    if result.context_files:
        parts.append("Referenced files:\n" + "\n".join(f"- {p}" for p in result.context_files))
    return "\n".join(parts) if parts else None


def stop_reason(result: RunResult) -> str:
    """The deny/halt reason; never empty (Codex ignores an exit 2 without one)."""
    if result.reason and result.reason.strip():
        return result.reason.strip()
    deciders = [h.name for h in result.hooks if h.decision == "deny" or h.halt]
    verb = "halted" if result.halt else "denied"
    return f"{verb} by hook {', '.join(deciders) or '?'} (no reason given)"


def not_applied(title: str, what: str) -> str:
    """The note a host module adds when the host cannot apply what a hook asked."""
    return f"hookrun: {title} cannot apply {what}; it was not applied."


def output_not_redacted(title: str) -> str:
    """Context for a rewritten tool output the host cannot apply (a redaction)."""
    return (
        f"hookrun: a hook rewrote this tool's output (e.g. to redact secrets or personal data), "
        f"but {title} cannot replace a tool's output: the output above is NOT redacted. "
        "Do not repeat, store or send the sensitive values it contains."
    )


def rewritten_output(value: Any, *text_keys: str) -> str:
    """A rewritten tool output as the text a host shows the model *instead of* the
    original (Gemini's and Codex's block reason): the text field of the host's result
    object when it has one, else the value itself (JSON for a structure)."""
    if isinstance(value, Mapping):
        for key in text_keys:
            text = value.get(key)
            if isinstance(text, str):
                value = text
                break
    text = value if isinstance(value, str) else cjson.dumps(value, ensure_ascii=False)
    return "hookrun: a hook rewrote this tool's output (sensitive values redacted):\n" + text


def prompt_not_rewritten(title: str, prompt: str) -> str:
    """The block reason when a hook rewrote the prompt and the host cannot apply it."""
    return (
        f"hookrun: a hook rewrote this prompt, but {title} cannot replace a prompt, "
        f"so it was blocked instead. The rewritten prompt is:\n{prompt}"
    )


def deny_answer(result: RunResult, stdout: Mapping[str, Any] | None) -> Answer:
    """Exit 2 with the reason on stderr, which every host reads as a block."""
    return Answer(stdout, exitcodes.DENY, stop_reason(result))
