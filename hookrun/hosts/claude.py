"""Claude Code: ``.claude/settings.json`` hooks, PascalCase events, ``hookSpecificOutput``.

Sources: the hooks reference (code.claude.com/docs/en/hooks, mirrored in
ericbuess/claude-code-docs) and the payloads Claude Code 2.1 sent in
tests/hosts/fixtures/claude.json. What the answer relies on:

- Exit 2 blocks on PreToolUse, UserPromptSubmit, Stop, SubagentStop (stderr is the
  reason the model sees); the stdout JSON is still read, and cannot undo the block.
- A halt is ``continue: false`` + ``stopReason``. On PreToolUse that alone ends the
  turn only *after* the tool ran, and a deny makes Claude Code ignore it (the model is
  asked again) — verified with Claude Code 2.1.197. The one answer that both keeps
  the effect from happening and ends the turn is, for a shell call, ``allow`` with the
  command replaced by the no-op ``true`` plus ``continue: false``; for any other tool a
  halt is a deny (``continue: false`` is sent too, and the turn goes on).
- A rewritten tool output is ``hookSpecificOutput.updatedToolOutput`` (every tool;
  ``updatedMCPToolOutput`` is applied to MCP tools only).
- Claude Code cannot replace a prompt: a rewritten prompt blocks the prompt and
  gives the rewrite in the reason, rather than letting the original through.
- No ``context_files`` field: the files are listed in ``additionalContext``.
- Sub-agents: ``agent_id`` is present only inside a sub-agent's call; ``agent_type``
  also on the main thread of ``claude --agent NAME``, so it does not count.
"""

from __future__ import annotations

from collections.abc import Mapping

from hookrun import exitcodes
from hookrun.hosts import base, kinds
from hookrun.records import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

    from hookrun.runner.result import RunResult

TITLE = "Claude Code"

EVENTS: Mapping[str, str] = {
    name: name
    for name in (
        "PreToolUse",
        "PostToolUse",
        "PostToolUseFailure",
        "PermissionRequest",
        "UserPromptSubmit",
        "SessionStart",
        "SessionEnd",
        "Stop",
        "SubagentStart",
        "SubagentStop",
        "Notification",
        "PreCompact",
        "PostCompact",
    )
}

TOOLS: Mapping[str, str] = {
    "Bash": kinds.SHELL,
    "PowerShell": kinds.SHELL,
    "Write": kinds.WRITE,
    "Edit": kinds.EDIT,
    "MultiEdit": kinds.EDIT,
    "NotebookEdit": kinds.EDIT,
    "Read": kinds.READ,
    "NotebookRead": kinds.READ,
    "Glob": kinds.SEARCH,
    "Grep": kinds.SEARCH,
    "LS": kinds.SEARCH,
    "WebFetch": kinds.FETCH,
    "WebSearch": kinds.FETCH,
    "Task": kinds.AGENT,
    "Agent": kinds.AGENT,
    "TodoWrite": kinds.TODO,
    "AskUserQuestion": kinds.ASK,
}

# Events whose deny is a top-level {"decision": "block", "reason": …}.
BLOCK_EVENTS = frozenset(
    {"PostToolUse", "PostToolUseFailure", "UserPromptSubmit", "Stop", "SubagentStop", "PreCompact"}
)
# Events where exit 2 blocks (elsewhere it is only an error shown to the user).
# (PostToolUse: the tool already ran; exit 2 shows stderr to the model, as the JSON's
# reason does.)
EXIT2_EVENTS = frozenset(
    {"PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop", "SubagentStop", "PreCompact"}
)
# Events whose hookSpecificOutput takes additionalContext.
CONTEXT_EVENTS = frozenset(
    {
        "PreToolUse",
        "PostToolUse",
        "PostToolUseFailure",
        "UserPromptSubmit",
        "SessionStart",
        "SubagentStart",
    }
)


def is_sub_agent(raw: Mapping[str, Any]) -> bool:
    """Inside a sub-agent's call: ``agent_id`` is set (``agent_type`` alone is ``--agent``)."""
    agent_id = raw.get("agent_id")
    return isinstance(agent_id, str) and bool(agent_id)


# A shell command that does nothing, in every shell Claude Code's Bash tool uses.
NO_OP_COMMAND = "true"


def _no_op_input(payload: Mapping[str, Any]) -> dict[str, Any] | None:
    """The shell call's input with its command replaced by a no-op, None for other tools."""
    tool_input = payload.get("tool_input")
    if payload.get("tool_kind") != kinds.SHELL or not isinstance(tool_input, Mapping):
        return None
    if not isinstance(tool_input.get("command"), str):
        return None
    return {**tool_input, "command": NO_OP_COMMAND}


def payload_in(host_event: str, event: str, raw: Mapping[str, Any]) -> dict[str, Any]:
    return base.common_payload(raw, HOST, host_event, event)


def answer(result: RunResult, host_event: str, payload: Mapping[str, Any]) -> base.Answer:
    """Claude Code's hook output JSON and exit code for ``result``."""
    event = result.event
    out: dict[str, Any] = {}
    specific: dict[str, Any] = {"hookEventName": host_event or event}
    notes: list[str] = []
    decision = result.decision
    reason = base.stop_reason(result) if decision == "deny" or result.halt else None
    prompt_block: str | None = None
    if event == "UserPromptSubmit" and result.updated_prompt is not None and decision != "deny":
        prompt_block = base.prompt_not_rewritten(TITLE, result.updated_prompt)
    if result.halt:
        out["continue"] = False
        out["stopReason"] = reason
    if result.system_message:
        out["systemMessage"] = result.system_message
    if event == "PreToolUse" and result.halt and _no_op_input(payload) is not None:
        specific["permissionDecision"] = "allow"
        specific["permissionDecisionReason"] = reason
        specific["updatedInput"] = _no_op_input(payload)
        out["hookSpecificOutput"] = specific
        return base.Answer(out, 0, reason)
    if event == "PreToolUse":
        if result.halt:
            decision = "deny"  # continue:false alone lets the tool run first
        if decision is not None:
            specific["permissionDecision"] = decision
            if decision == "deny":
                specific["permissionDecisionReason"] = reason
            elif result.reason:
                specific["permissionDecisionReason"] = result.reason
        if result.updated_input is not None and decision != "deny":
            specific["updatedInput"] = dict(result.updated_input)
    elif event == "PermissionRequest":
        if result.halt or decision == "deny":
            specific["decision"] = {"behavior": "deny", "message": reason}
            if result.halt:
                specific["decision"]["interrupt"] = True
        elif decision == "allow":
            allowed: dict[str, Any] = {"behavior": "allow"}
            if result.updated_input is not None:
                allowed["updatedInput"] = dict(result.updated_input)
            specific["decision"] = allowed
    elif event in BLOCK_EVENTS and (decision == "deny" or prompt_block):
        out["decision"] = "block"
        out["reason"] = reason if decision == "deny" else prompt_block
    if event == "PostToolUse" and result.updated_output is not None and decision != "deny":
        specific["updatedToolOutput"] = result.updated_output
    context = base.context_text(result)
    if context and event in CONTEXT_EVENTS and decision != "deny" and not result.halt:
        specific["additionalContext"] = context
    elif context and decision != "deny" and not result.halt:
        notes.append(base.not_applied(TITLE, f"context on {host_event or event}"))
    if len(specific) > 1:
        out["hookSpecificOutput"] = specific
    blocked = decision == "deny" and not result.halt
    if blocked and event in EXIT2_EVENTS:
        return base.Answer(out, exitcodes.DENY, reason)
    if prompt_block:
        return base.Answer(out, exitcodes.DENY, prompt_block)
    return base.Answer(out or None, 0, "\n".join(notes) or (reason if result.halt else None))


HOST = base.Host(
    name="claude",
    title=TITLE,
    events=EVENTS,
    tools=TOOLS,
    mcp_prefix="mcp__",
    payload_in=payload_in,
    answer=answer,
    sub_agent=is_sub_agent,
)


# -- The answer when ``--host auto`` cannot tell them apart ------------------------
#
# The answer when ``--host auto`` cannot tell Claude Code, Codex CLI and Copilot CLI's
# PascalCase mode apart (their payloads differ only in a few optional fields, and
# Copilot and Cursor also run the hooks of ``.claude/settings.json``).
#
# It is written so that every candidate reads it the way it was meant:
#
# - A deny (and a halt on PreToolUse) exits 2 with the reason on stderr — Claude Code
#   and Codex block on it, Codex ignoring stdout — and carries the top-level
#   ``permissionDecision``/``permissionDecisionReason`` that Copilot reads (even on exit
#   2), next to Claude's ``hookSpecificOutput`` (which Copilot ignores).
# - Otherwise Claude Code's shape, restricted to what Codex accepts: an ``ask`` denies
#   (Codex cannot ask), a rewritten input goes with ``permissionDecision: "allow"``
#   (Codex drops ``updatedInput`` without it).
#
# (Here, as it is Claude Code's answer restricted: every such run loads this module, and
# a module of its own cost ~0.35M instructions of start-up, issue 8.)

CANDIDATES = ("claude", "codex", "copilot")


def ambiguous_answer(result: RunResult, host_event: str, payload: Mapping[str, Any]) -> base.Answer:
    event = result.event
    if event == "PreToolUse" and result.decision == "ask":
        result = result._replace(
            decision="deny",
            reason=f"{result.reason or 'a hook asked for approval'} "
            "(the host could not be told apart, and not every candidate can ask: denied)",
        )
    if event == "PreToolUse" and (result.decision == "deny" or result.halt):
        reason = base.stop_reason(result)
        out: dict[str, Any] = {
            "permissionDecision": "deny",
            "permissionDecisionReason": reason,
            "hookSpecificOutput": {
                "hookEventName": host_event or event,
                "permissionDecision": "deny",
                "permissionDecisionReason": reason,
            },
        }
        if result.halt:
            out["continue"] = False
            out["stopReason"] = reason
        return base.Answer(out, exitcodes.DENY, reason)
    given = answer(result, host_event, payload)
    out = dict(given.stdout or {})
    specific = out.get("hookSpecificOutput")
    if (
        event == "PreToolUse"
        and isinstance(specific, dict)
        and "updatedInput" in specific
        and "permissionDecision" not in specific
    ):
        out["hookSpecificOutput"] = {**specific, "permissionDecision": "allow"}
    return base.Answer(out or None, given.exit_code, given.stderr)
