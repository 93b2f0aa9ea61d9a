"""Codex CLI: ``hooks.json`` (or ``[hooks]`` in ``config.toml``), Claude-like events.

Sources: openai/codex ``codex-rs/hooks/src/engine/output_parser.rs`` and
``codex-rs/hooks/src/events/{pre_tool_use,post_tool_use}.rs`` (commits 0ea8381,
0082977) and the payloads Codex CLI 0.169 sent (tests/hosts/fixtures/codex.json).
Codex is strict, and an answer it finds invalid is dropped whole (fail-open), so:

- Only the keys its output schema knows: ``continue``, ``stopReason``,
  ``suppressOutput``, ``systemMessage``, ``decision``, ``reason``,
  ``hookSpecificOutput`` (an unknown top-level key makes the answer invalid).
- Exit 2 blocks PreToolUse only with a non-empty stderr reason; stdout is then ignored.
- PreToolUse: ``permissionDecision: "allow"`` is valid only together with
  ``updatedInput``, and ``updatedInput`` only with ``"allow"``; ``"ask"``,
  ``continue: false`` and ``stopReason`` are invalid there. So a rewrite is sent as
  allow + updatedInput, a halt and an ``ask`` become a deny (Codex cannot stop the
  turn or ask from PreToolUse), and a plain allow sends nothing.
- PostToolUse: ``decision: "block"`` + ``reason`` *replaces* the tool output the model
  sees (verified end to end), so a rewritten output (a redaction) is sent that way;
  ``updatedToolOutput`` is ignored. ``continue: false`` there does not stop the turn
  either (its stopReason replaces the output): a halt after a tool is a block.
- Sub-agents: ``agent_id`` / ``agent_type`` are sent only for a sub-agent's calls.
"""

from __future__ import annotations

from collections.abc import Mapping

from hookrun import exitcodes
from hookrun.hosts import base, kinds
from hookrun.records import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

    from hookrun.runner.result import RunResult

TITLE = "Codex CLI"

EVENTS: Mapping[str, str] = {
    "PreToolUse": "PreToolUse",
    "PermissionRequest": "PermissionRequest",
    "PostToolUse": "PostToolUse",
    "PreCompact": "PreCompact",
    "PostCompact": "PostCompact",
    "UserPromptSubmit": "UserPromptSubmit",
    "SubagentStart": "SubagentStart",
    "SubagentStop": "SubagentStop",
    "Stop": "Stop",
    "SessionStart": "SessionStart",
    "SessionEnd": "SessionEnd",
    "StopFailure": "",
    "Interrupt": "",
}

TOOLS: Mapping[str, str] = {
    "Bash": kinds.SHELL,
    "apply_patch": kinds.EDIT,
    "spawn_agent": kinds.AGENT,
    "multi_agent_v1wait_agent": kinds.AGENT,  # as Codex 0.169 names it to hooks
}

_CONTEXT_EVENTS = frozenset({"PreToolUse", "PostToolUse", "UserPromptSubmit", "SessionStart"})
_BLOCK_EVENTS = frozenset({"PostToolUse", "UserPromptSubmit", "Stop", "SubagentStop"})


def is_sub_agent(raw: Mapping[str, Any]) -> bool:
    agent_id = raw.get("agent_id")
    return isinstance(agent_id, str) and bool(agent_id)


def payload_in(host_event: str, event: str, raw: Mapping[str, Any]) -> dict[str, Any]:
    return base.common_payload(raw, HOST, host_event, event)


def answer(result: RunResult, host_event: str, payload: Mapping[str, Any]) -> base.Answer:
    event = result.event
    out: dict[str, Any] = {}
    specific: dict[str, Any] = {"hookEventName": host_event or event}
    notes: list[str] = []
    decision = result.decision
    reason = base.stop_reason(result) if decision == "deny" or result.halt else None
    if event == "PreToolUse":
        if result.halt:
            decision = "deny"  # continue:false is invalid on PreToolUse
            reason = f"{reason} ({TITLE} cannot stop the turn from PreToolUse: the tool was denied)"
        elif decision == "ask":
            decision = "deny"
            reason = (
                f"{result.reason or 'a hook asked for the user'}'s approval "
                f"({TITLE} cannot ask from a hook, so the call was denied)"
            )
        if decision == "deny":
            specific["permissionDecision"] = "deny"
            specific["permissionDecisionReason"] = reason
        elif result.updated_input is not None:
            specific["permissionDecision"] = "allow"
            specific["updatedInput"] = dict(result.updated_input)
    elif event == "PermissionRequest":
        if decision == "deny" or result.halt:
            specific["decision"] = {"behavior": "deny", "message": reason}
        elif decision == "allow":
            specific["decision"] = {"behavior": "allow"}
    else:
        if result.halt:
            out["continue"] = False
            out["stopReason"] = reason
        if event == "UserPromptSubmit" and result.updated_prompt is not None and not reason:
            decision = "deny"
            reason = base.prompt_not_rewritten(TITLE, result.updated_prompt)
        if event == "PostToolUse" and result.updated_output is not None and not reason:
            out["decision"] = "block"
            out["reason"] = base.rewritten_output(result.updated_output)
        if decision == "deny" and event in _BLOCK_EVENTS:
            out["decision"] = "block"
            out["reason"] = reason
    if result.system_message:
        out["systemMessage"] = result.system_message
    blocked = decision == "deny" or result.halt
    context = base.context_text(result)
    if context and not blocked:
        if event in _CONTEXT_EVENTS:
            specific["additionalContext"] = context
        else:
            notes.append(base.not_applied(TITLE, f"context on {host_event}"))
    if len(specific) > 1:
        out["hookSpecificOutput"] = specific
    if result.halt and event != "PreToolUse":
        # Exit 2 would make Codex ignore stdout, and with it continue:false.
        return base.Answer(out, 0, reason)
    if decision == "deny" and event in ("PreToolUse", *_BLOCK_EVENTS):
        return base.Answer(out, exitcodes.DENY, reason)
    return base.Answer(out or None, 0, "\n".join(notes) or None)


HOST = base.Host(
    name="codex",
    title=TITLE,
    events=EVENTS,
    tools=TOOLS,
    mcp_prefix="mcp__",
    payload_in=payload_in,
    answer=answer,
    sub_agent=is_sub_agent,
)
