"""Gemini CLI: ``settings.json`` hooks with its own event names (``BeforeTool``, …).

Sources: google-gemini/gemini-cli ``docs/hooks/reference.md`` and
``packages/core/src/hooks/{types,hookRunner,hookAggregator}.ts``,
``packages/core/src/core/coreToolHookTriggers.ts`` (commit 5411f11, 2026-08-21), and
the payloads Gemini CLI 0.61 sent (tests/hosts/fixtures/gemini.json). What the answer
relies on:

- stdout is parsed as JSON whatever the exit code; only when stdout is not JSON does
  the exit code decide (2 = block with stderr as the reason). So every answer carries
  its decision in the JSON, and a deny also exits 2 with the reason on stderr.
- ``decision: "deny"`` + ``reason``: BeforeTool blocks the tool (the model gets
  "Tool execution blocked: <reason>"); AfterTool replaces the tool's result with
  "Tool result blocked: <reason>"; BeforeAgent discards the prompt; AfterAgent retries.
- ``continue: false`` + ``stopReason`` stops the agent loop (on BeforeTool without
  running the tool).
- ``hookSpecificOutput.tool_input`` is merged over the tool's arguments (BeforeTool);
  ``hookSpecificOutput.additionalContext`` is appended to the tool result (AfterTool),
  to the prompt (BeforeAgent) or the session (SessionStart).
- AfterAgent ``decision: "deny"`` retries the turn with the reason, with no cap
  (verified: it looped until killed): a deny while ``stop_hook_active`` is already set
  is not sent again, and stderr says so.
- No ``ask`` (the decision is parsed and never acted on), no prompt rewrite, no
  output rewrite: an ``ask`` denies; a rewritten output becomes an AfterTool deny
  whose reason *is* the rewritten output (so the model sees the redacted text and
  never the original); a rewritten prompt blocks the prompt.
- BeforeModel, AfterModel and BeforeToolSelection have no canonical event: they run
  the hooks configured under those names.
"""

from __future__ import annotations

from collections.abc import Mapping

from hookrun import exitcodes
from hookrun.hosts import base, kinds
from hookrun.records import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

    from hookrun.runner.result import RunResult

TITLE = "Gemini CLI"

EVENTS: Mapping[str, str] = {
    "BeforeTool": "PreToolUse",
    "AfterTool": "PostToolUse",
    "BeforeAgent": "UserPromptSubmit",
    "AfterAgent": "Stop",
    "SessionStart": "SessionStart",
    "SessionEnd": "SessionEnd",
    "Notification": "Notification",
    "PreCompress": "PreCompact",
    "BeforeModel": "",
    "AfterModel": "",
    "BeforeToolSelection": "",
}

TOOLS: Mapping[str, str] = {
    "run_shell_command": kinds.SHELL,
    "write_file": kinds.WRITE,
    "replace": kinds.EDIT,
    "read_file": kinds.READ,
    "read_many_files": kinds.READ,
    "glob": kinds.SEARCH,
    "grep_search": kinds.SEARCH,
    "grep": kinds.SEARCH,
    "list_directory": kinds.SEARCH,
    "web_fetch": kinds.FETCH,
    "google_web_search": kinds.FETCH,
    "invoke_agent": kinds.AGENT,
    "delegate_to_agent": kinds.AGENT,
    "write_todos": kinds.TODO,
    "ask_user": kinds.ASK,
}

# Events where a deny/halt changes what happens (elsewhere flow control is ignored).
_FLOW_EVENTS = frozenset({"PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop"})
_CONTEXT_EVENTS = frozenset({"PostToolUse", "UserPromptSubmit", "SessionStart"})


def payload_in(host_event: str, event: str, raw: Mapping[str, Any]) -> dict[str, Any]:
    return base.common_payload(raw, HOST, host_event, event)


def answer(result: RunResult, host_event: str, payload: Mapping[str, Any]) -> base.Answer:
    event = result.event
    out: dict[str, Any] = {}
    notes: list[str] = []
    decision = result.decision
    reason: str | None = base.stop_reason(result) if decision == "deny" or result.halt else None
    if decision == "ask" and event == "PreToolUse":
        decision = "deny"
        reason = (
            f"{result.reason or 'a hook asked for the user'}'s approval "
            f"({TITLE} cannot ask from a hook, so the call was denied)"
        ).lstrip()
    if event == "UserPromptSubmit" and result.updated_prompt is not None and decision != "deny":
        decision = "deny"
        reason = base.prompt_not_rewritten(TITLE, result.updated_prompt)
    if (
        event == "PostToolUse"
        and result.updated_output is not None
        and decision != "deny"
        and not result.halt
    ):
        # Gemini replaces the result with the deny reason: the redacted text, and only it.
        decision = "deny"
        reason = base.rewritten_output(result.updated_output, "llmContent")
    if (
        event == "Stop"
        and decision == "deny"
        and not result.halt
        and payload.get("stop_hook_active") is True
    ):
        # Gemini CLI has no cap on AfterAgent retries (verified: 16+ loops in -p until
        # killed): a block while a retry is already running is not sent again.
        decision = None
        notes.append(
            f"hookrun: {TITLE} would retry without end: a second AfterAgent block in a row "
            f"was not sent ({reason})"
        )
        reason = None
    if result.halt:
        out["continue"] = False
        out["stopReason"] = reason
    if decision == "deny" or result.halt:
        out["decision"] = "deny"
        out["reason"] = reason
    elif decision == "allow":
        out["decision"] = "allow"
    if result.system_message:
        out["systemMessage"] = result.system_message
    specific: dict[str, Any] = {}
    blocked = decision == "deny" or result.halt
    if event == "PreToolUse" and result.updated_input is not None and not blocked:
        specific["tool_input"] = dict(result.updated_input)
    context = base.context_text(result)
    if context and not blocked:
        if event in _CONTEXT_EVENTS:
            specific["additionalContext"] = context
        else:
            notes.append(base.not_applied(TITLE, f"context on {host_event}"))
    if specific:
        specific["hookEventName"] = host_event
        out["hookSpecificOutput"] = specific
    if blocked and event in _FLOW_EVENTS:
        return base.Answer(out, exitcodes.DENY, reason)
    return base.Answer(out or None, 0, "\n".join(notes) or None)


HOST = base.Host(
    name="gemini",
    title=TITLE,
    events=EVENTS,
    tools=TOOLS,
    mcp_prefix="mcp_",
    payload_in=payload_in,
    answer=answer,
    sub_agent=base.never_sub_agent,
)
