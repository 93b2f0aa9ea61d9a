"""GitHub Copilot CLI: ``.github/hooks/*.json``, camelCase events (or PascalCase ones).

Sources: github/docs ``content/copilot/reference/hooks-reference.md`` (commit 05da5bc)
and the payloads Copilot CLI 1.0 sent (tests/hosts/fixtures/copilot.json). What the
answer relies on:

- Copilot reads only its own top-level fields — ``permissionDecision``,
  ``permissionDecisionReason``, ``modifiedArgs``, ``additionalContext``,
  ``modifiedResult``, ``decision``/``reason``, ``behavior``/``message``/``interrupt`` —
  never ``hookSpecificOutput``, and ignores stderr: the reason must be in the JSON.
- It reads stdout even on exit 2; exit 2 (and any crash) denies preToolUse and
  permissionRequest. Elsewhere exit 2 is a warning, so only those two exit 2.
- camelCase events send ``sessionId``/``toolName``/``toolArgs``/``toolResult``; the
  PascalCase events (as in a ``.claude/settings.json`` Copilot also reads) send a
  Claude-like snake_case payload with Claude tool names (``Bash``) — both map here.
- preToolUse cannot stop the turn: a halt denies the tool (``permissionRequest``'s
  ``interrupt`` is the one stop it has). A rewritten output is ``modifiedResult``; a
  deny on postToolUse replaces the result with the reason. On ``userPromptSubmitted``
  ``additionalContext`` reaches the model (verified with 1.0.102, although the docs say
  command hooks' output is dropped there); a block or a prompt rewrite is not applied.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from hookrun import exitcodes
from hookrun.hosts import base, claude, kinds
from hookrun.records import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

    from hookrun.runner.result import RunResult

TITLE = "Copilot CLI"

EVENTS: Mapping[str, str] = {
    "preToolUse": "PreToolUse",
    "postToolUse": "PostToolUse",
    "postToolUseFailure": "PostToolUseFailure",
    "permissionRequest": "PermissionRequest",
    "userPromptSubmitted": "UserPromptSubmit",
    "userPromptTransformed": "",
    "sessionStart": "SessionStart",
    "sessionEnd": "SessionEnd",
    "agentStop": "Stop",
    "subagentStart": "SubagentStart",
    "subagentStop": "SubagentStop",
    "errorOccurred": "ErrorOccurred",
    "preCompact": "PreCompact",
    "notification": "Notification",
    # The VS Code compatible (PascalCase) spellings.
    "PreToolUse": "PreToolUse",
    "PostToolUse": "PostToolUse",
    "PostToolUseFailure": "PostToolUseFailure",
    "PermissionRequest": "PermissionRequest",
    "UserPromptSubmit": "UserPromptSubmit",
    "SessionStart": "SessionStart",
    "SessionEnd": "SessionEnd",
    "Stop": "Stop",
    "SubagentStop": "SubagentStop",
    "ErrorOccurred": "ErrorOccurred",
    "PreCompact": "PreCompact",
}

TOOLS: Mapping[str, str] = {
    "bash": kinds.SHELL,
    "powershell": kinds.SHELL,
    "create": kinds.WRITE,
    "edit": kinds.EDIT,
    "str_replace_editor": kinds.EDIT,
    "apply_patch": kinds.EDIT,
    "view": kinds.READ,
    "grep": kinds.SEARCH,
    "rg": kinds.SEARCH,
    "glob": kinds.SEARCH,
    "web_fetch": kinds.FETCH,
    "web_search": kinds.FETCH,
    "task": kinds.AGENT,
    "ask_user": kinds.ASK,
    "update_todo": kinds.TODO,
    **claude.TOOLS,  # PascalCase events name tools the Claude way
}

_RENAMES = (
    ("sessionId", "session_id"),
    ("transcriptPath", "transcript_path"),
    ("toolName", "tool_name"),
    ("hookName", "hook_event_name"),
)
_CONTEXT_EVENTS = frozenset(
    {"PostToolUse", "SessionStart", "SubagentStart", "Notification", "UserPromptSubmit"}
)


def is_sub_agent(raw: Mapping[str, Any]) -> bool:
    """``agent_id`` (PascalCase payloads) or ``agentId`` (camelCase) inside a sub-agent."""
    agent_id = raw.get("agent_id", raw.get("agentId"))
    return isinstance(agent_id, str) and bool(agent_id)


def payload_in(host_event: str, event: str, raw: Mapping[str, Any]) -> dict[str, Any]:
    renamed = dict(raw)
    for theirs, ours in _RENAMES:
        if theirs in raw and ours not in raw:
            renamed[ours] = raw[theirs]
    tool_input = raw.get("tool_input", raw.get("toolArgs", raw.get("toolInput")))
    tool_output = raw.get("tool_result", raw.get("toolResult"))
    return base.common_payload(
        renamed, HOST, host_event, event, tool_input=tool_input, tool_output=tool_output
    )


def _result_text(value: Any) -> str:
    if isinstance(value, Mapping):
        for key in ("textResultForLlm", "text_result_for_llm"):
            text = value.get(key)
            if isinstance(text, str):
                return text
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


def answer(result: RunResult, host_event: str, payload: Mapping[str, Any]) -> base.Answer:
    event = result.event
    out: dict[str, Any] = {}
    notes: list[str] = []
    decision = result.decision
    reason = base.stop_reason(result) if decision == "deny" or result.halt else None
    blocked = decision == "deny" or result.halt
    exit_code = 0
    if event == "PreToolUse":
        if blocked:
            out["permissionDecision"] = "deny"
            out["permissionDecisionReason"] = reason
            if result.halt:
                notes.append(f"hookrun: {TITLE} cannot stop the turn from preToolUse: denied")
            exit_code = exitcodes.DENY
        elif decision is not None:
            out["permissionDecision"] = decision
            if result.reason:
                out["permissionDecisionReason"] = result.reason
        if result.updated_input is not None and not blocked:
            out["modifiedArgs"] = dict(result.updated_input)
    elif event == "PermissionRequest":
        if blocked:
            out["behavior"] = "deny"
            out["message"] = reason
            if result.halt:
                out["interrupt"] = True
            exit_code = exitcodes.DENY
        elif decision == "allow":
            out["behavior"] = "allow"
    elif event == "PostToolUse":
        if blocked:
            out["modifiedResult"] = {
                "resultType": "success",
                "textResultForLlm": f"Tool result blocked: {reason}",
            }
        elif result.updated_output is not None:
            out["modifiedResult"] = {
                "resultType": "success",
                "textResultForLlm": _result_text(result.updated_output),
            }
    elif event in ("Stop", "SubagentStop") and decision == "deny":
        out["decision"] = "block"
        out["reason"] = reason
    elif event == "UserPromptSubmit" and (blocked or result.updated_prompt is not None):
        what = "a blocked prompt" if blocked else "a rewritten prompt"
        notes.append(base.not_applied(TITLE, f"{what} on userPromptSubmitted"))
    context = base.context_text(result)
    if context and not blocked:
        if event in _CONTEXT_EVENTS or event == "PreToolUse":
            out["additionalContext"] = context
        else:
            notes.append(base.not_applied(TITLE, f"context on {host_event}"))
    stderr = "\n".join(p for p in (reason if exit_code else None, *notes) if p) or None
    return base.Answer(out or None, exit_code, stderr)


HOST = base.Host(
    name="copilot",
    title=TITLE,
    events=EVENTS,
    tools=TOOLS,
    mcp_prefix="",
    payload_in=payload_in,
    answer=answer,
    sub_agent=is_sub_agent,
)
