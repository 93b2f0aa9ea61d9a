"""hookrun's own shape (``--host hookrun``): the full aggregated answer, for a Python or
Go orchestrator, a person at a terminal, or a host hookrun does not know.

Every field is sent (``hookrun run`` prints :meth:`RunResult.to_dict`); exit 0 allow /
ask / no opinion, 2 deny, 49 halt, with the reason on stderr. Tool names of every host
map to their kinds (so ``bash`` and ``Bash`` are both ``shell``).
"""

from __future__ import annotations

from collections.abc import Mapping

from hookrun import exitcodes
from hookrun.hosts import base, kinds
from hookrun.records import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

    from hookrun.runner.result import RunResult

TITLE = "hookrun"

# Every host's tool names: a payload from any of them gets its kind. Written out, not
# merged from the host modules at import (which would load all seven on every
# `hookrun policy` and `--host hookrun` run); tests/hosts/owners_test.py derives it
# from them: later hosts win, in the order crush, copilot, cursor, gemini, codex, claude.
TOOLS: Mapping[str, str] = {
    "bash": kinds.SHELL,
    "write": kinds.WRITE,
    "edit": kinds.EDIT,
    "multiedit": kinds.EDIT,
    "view": kinds.READ,
    "glob": kinds.SEARCH,
    "grep": kinds.SEARCH,
    "ls": kinds.SEARCH,
    "fetch": kinds.FETCH,
    "agentic_fetch": kinds.FETCH,
    "web_fetch": kinds.FETCH,
    "web_search": kinds.FETCH,
    "download": kinds.FETCH,
    "sourcegraph": kinds.FETCH,
    "agent": kinds.AGENT,
    "todos": kinds.TODO,
    "question": kinds.ASK,
    "powershell": kinds.SHELL,
    "create": kinds.WRITE,
    "str_replace_editor": kinds.EDIT,
    "apply_patch": kinds.EDIT,
    "rg": kinds.SEARCH,
    "task": kinds.AGENT,
    "ask_user": kinds.ASK,
    "update_todo": kinds.TODO,
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
    "Shell": kinds.SHELL,
    "TabRead": kinds.READ,
    "TabWrite": kinds.EDIT,
    "Delete": kinds.WRITE,
    "run_shell_command": kinds.SHELL,
    "write_file": kinds.WRITE,
    "replace": kinds.EDIT,
    "read_file": kinds.READ,
    "read_many_files": kinds.READ,
    "grep_search": kinds.SEARCH,
    "list_directory": kinds.SEARCH,
    "google_web_search": kinds.FETCH,
    "invoke_agent": kinds.AGENT,
    "delegate_to_agent": kinds.AGENT,
    "write_todos": kinds.TODO,
    "spawn_agent": kinds.AGENT,
    "multi_agent_v1wait_agent": kinds.AGENT,
}
_FOLDED = {name.casefold(): kind for name, kind in TOOLS.items()}


# Host-only spellings (Gemini's BeforeTool, Copilot's agentStop, Cursor's
# beforeShellExecution) mean their canonical event here too: every host table's
# names whose canonical event is another name (a static copy, as TOOLS).
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
    "permissionRequest": "PermissionRequest",
    "userPromptSubmitted": "UserPromptSubmit",
    "agentStop": "Stop",
    "errorOccurred": "ErrorOccurred",
    "notification": "Notification",
    "BeforeTool": "PreToolUse",
    "AfterTool": "PostToolUse",
    "BeforeAgent": "UserPromptSubmit",
    "AfterAgent": "Stop",
    "PreCompress": "PreCompact",
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
