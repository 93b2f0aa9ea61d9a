"""Cursor: ``.cursor/hooks.json``, camelCase events, snake_case answers.

Cursor cannot run here (an IDE, no headless agent on npm): this module follows its
documented contract, https://cursor.com/docs/hooks (mirrored in
mehmetbaykar/cursor-docs-skill ``skills/cursor-docs/references/hooks.md``, commit
1cc1c99), and is tested against payloads built from it. What the answer relies on:

- Exit 2 blocks (= ``permission: "deny"``); ``permission`` allow/deny with
  ``user_message`` / ``agent_message`` on preToolUse, beforeShellExecution,
  beforeMCPExecution (these three also take ``ask``; preToolUse accepts it but does not
  enforce it, so hookrun denies there), beforeReadFile and subagentStart.
- ``updated_input`` on preToolUse; ``additional_context`` on postToolUse and
  sessionStart; ``updated_mcp_tool_output`` (MCP tools only) on postToolUse;
  beforeSubmitPrompt blocks with ``continue: false``; stop/subagentStop continue the
  loop with ``followup_message``.
- No general stop: a halt denies the current action. A rewritten output of a non-MCP
  tool cannot be applied: the model is told the output is *not* redacted.
- The dedicated events (beforeShellExecution, beforeReadFile, afterFileEdit, …) map to
  PreToolUse / PostToolUse with the tool Cursor's matchers name (``Shell``, ``Read``,
  ``Write``), so one hookrun config judges them as tool calls.
"""

from __future__ import annotations

from collections.abc import Mapping

from hookrun import exitcodes
from hookrun.hosts import base, kinds
from hookrun.records import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

    from hookrun.runner.result import RunResult

TITLE = "Cursor"

EVENTS: Mapping[str, str] = {
    "preToolUse": "PreToolUse",
    "postToolUse": "PostToolUse",
    "postToolUseFailure": "PostToolUseFailure",
    "beforeShellExecution": "PreToolUse",
    "afterShellExecution": "PostToolUse",
    "beforeMCPExecution": "PreToolUse",
    "afterMCPExecution": "PostToolUse",
    "beforeReadFile": "PreToolUse",
    "afterFileEdit": "PostToolUse",
    "beforeTabFileRead": "PreToolUse",
    "afterTabFileEdit": "PostToolUse",
    "beforeSubmitPrompt": "UserPromptSubmit",
    "stop": "Stop",
    "sessionStart": "SessionStart",
    "sessionEnd": "SessionEnd",
    "subagentStart": "SubagentStart",
    "subagentStop": "SubagentStop",
    "preCompact": "PreCompact",
    "afterAgentResponse": "",
    "afterAgentThought": "",
    "workspaceOpen": "",
}

TOOLS: Mapping[str, str] = {
    "Shell": kinds.SHELL,
    "Read": kinds.READ,
    "TabRead": kinds.READ,
    "Write": kinds.WRITE,
    "TabWrite": kinds.EDIT,
    "Delete": kinds.WRITE,
    "Grep": kinds.SEARCH,
    "Task": kinds.AGENT,
}

# The dedicated events' tool, as Cursor's own matchers name it.
_EVENT_TOOL = {
    "beforeShellExecution": "Shell",
    "afterShellExecution": "Shell",
    "beforeReadFile": "Read",
    "beforeTabFileRead": "TabRead",
    "afterFileEdit": "Write",
    "afterTabFileEdit": "TabWrite",
}
_PERMISSION_EVENTS = frozenset(
    {
        "preToolUse",
        "beforeShellExecution",
        "beforeMCPExecution",
        "beforeReadFile",
        "beforeTabFileRead",
        "subagentStart",
    }
)
_ASK_EVENTS = frozenset({"beforeShellExecution", "beforeMCPExecution"})
_AGENT_MESSAGE_EVENTS = frozenset({"preToolUse", "beforeShellExecution", "beforeMCPExecution"})


def payload_in(host_event: str, event: str, raw: Mapping[str, Any]) -> dict[str, Any]:
    renamed = dict(raw)
    if "session_id" not in raw and isinstance(raw.get("conversation_id"), str):
        renamed["session_id"] = raw["conversation_id"]
    roots = raw.get("workspace_roots")
    if "cwd" not in raw and isinstance(roots, list) and roots and isinstance(roots[0], str):
        renamed["cwd"] = roots[0]
    tool_name = _EVENT_TOOL.get(host_event)
    tool_input: Any = None
    tool_output: Any = None
    if host_event in ("beforeShellExecution", "afterShellExecution"):
        tool_input = {"command": raw.get("command")}
        if isinstance(raw.get("cwd"), str):
            tool_input["cwd"] = raw["cwd"]
        tool_output = raw.get("output")
    elif host_event in ("beforeReadFile", "beforeTabFileRead"):
        tool_input = {"file_path": raw.get("file_path")}
    elif host_event in ("afterFileEdit", "afterTabFileEdit"):
        tool_input = {"file_path": raw.get("file_path"), "edits": raw.get("edits")}
    elif host_event == "afterMCPExecution":
        tool_output = base.decoded(raw.get("result_json"))
    payload = base.common_payload(
        renamed,
        HOST,
        host_event,
        event,
        tool_name=tool_name,
        tool_input=tool_input,
        tool_output=tool_output,
    )
    if host_event in ("beforeMCPExecution", "afterMCPExecution"):
        payload["tool_kind"] = kinds.MCP
    return payload


# The Cursor event a canonical name (as a user may type it) stands for.
_BY_CANONICAL = {
    "PreToolUse": "preToolUse",
    "PostToolUse": "postToolUse",
    "PostToolUseFailure": "postToolUseFailure",
    "UserPromptSubmit": "beforeSubmitPrompt",
    "Stop": "stop",
    "SessionStart": "sessionStart",
    "SessionEnd": "sessionEnd",
    "SubagentStart": "subagentStart",
    "SubagentStop": "subagentStop",
    "PreCompact": "preCompact",
}


def answer(result: RunResult, host_event: str, payload: Mapping[str, Any]) -> base.Answer:
    event = result.event
    if host_event not in EVENTS:
        host_event = _BY_CANONICAL.get(event, host_event)
    out: dict[str, Any] = {}
    notes: list[str] = []
    decision = result.decision
    reason = base.stop_reason(result) if decision == "deny" or result.halt else None
    if decision == "ask" and host_event not in _ASK_EVENTS:
        decision = "deny"
        reason = f"{result.reason or 'a hook asked for approval'} ({TITLE} cannot ask here: denied)"
    blocked = decision == "deny" or result.halt
    if host_event in _PERMISSION_EVENTS:
        if blocked:
            out["permission"] = "deny"
            out["user_message"] = reason
            if host_event in _AGENT_MESSAGE_EVENTS:
                out["agent_message"] = reason
        elif decision is not None:
            out["permission"] = decision
        if host_event == "preToolUse" and result.updated_input is not None and not blocked:
            out["updated_input"] = dict(result.updated_input)
    elif host_event == "beforeSubmitPrompt":
        if result.updated_prompt is not None and not blocked:
            blocked = True
            reason = base.prompt_not_rewritten(TITLE, result.updated_prompt)
        if blocked:
            out["continue"] = False
            out["user_message"] = reason
    elif host_event in ("stop", "subagentStop") and decision == "deny":
        out["followup_message"] = reason
    context = base.context_text(result)
    if event == "PostToolUse" and result.updated_output is not None and not blocked:
        if payload.get("tool_kind") == kinds.MCP:
            out["updated_mcp_tool_output"] = result.updated_output
        else:
            context = "\n".join(p for p in (context, base.output_not_redacted(TITLE)) if p)
    if context and not blocked:
        if host_event in ("postToolUse", "sessionStart"):
            out["additional_context"] = context
        else:
            notes.append(base.not_applied(TITLE, f"context on {host_event}"))
    if blocked and host_event in _PERMISSION_EVENTS:
        return base.Answer(out, exitcodes.DENY, reason)
    return base.Answer(out or None, 0, "\n".join(notes) or None)


HOST = base.Host(
    name="cursor",
    title=TITLE,
    events=EVENTS,
    tools=TOOLS,
    mcp_prefix="MCP:",
    payload_in=payload_in,
    answer=answer,
    sub_agent=base.never_sub_agent,
)
