"""What a matcher can be tested against: the tool names and event subjects hosts send.

Used only by ``hookrun check`` to flag a matcher that can never match. Hosts add
tools (MCP servers, custom tools), so a matcher that misses this list is a
warning, not an error; the MCP samples keep ``^mcp_`` style matchers quiet.
"""

from __future__ import annotations

CLAUDE_TOOLS = (
    "Bash", "BashOutput", "KillShell", "Read", "Write", "Edit", "MultiEdit", "NotebookEdit",
    "NotebookRead", "Glob", "Grep", "LS", "WebFetch", "WebSearch", "Task", "TodoWrite",
    "ExitPlanMode", "SlashCommand", "Skill", "AskUserQuestion",
)  # fmt: skip
CRUSH_TOOLS = (
    "bash", "job_output", "job_kill", "download", "edit", "multiedit", "fetch", "agentic_fetch",
    "glob", "grep", "ls", "sourcegraph", "view", "write", "agent", "diagnostics", "references",
    "todos", "web_fetch", "web_search", "lsp_diagnostics", "lsp_references",
)  # fmt: skip
# Copilot CLI / Squad SDK names and other common agent hosts' spellings.
OTHER_TOOLS = (
    "powershell", "shell", "create", "str_replace", "read_file", "write_file", "edit_file",
    "run_shell_command", "ask_user", "apply_patch", "task",
)  # fmt: skip
MCP_SAMPLES = ("mcp__server__tool", "mcp_server_tool")

TOOL_NAMES: tuple[str, ...] = CLAUDE_TOOLS + CRUSH_TOOLS + OTHER_TOOLS + MCP_SAMPLES

# Event → (what its matcher is tested against, the values hosts send).
SUBJECTS: dict[str, tuple[str, tuple[str, ...]]] = {
    "PreToolUse": ("tool name", TOOL_NAMES),
    "PostToolUse": ("tool name", TOOL_NAMES),
    "PostToolUseFailure": ("tool name", TOOL_NAMES),
    "PermissionRequest": ("tool name", TOOL_NAMES),
    "SessionStart": ("session source", ("startup", "resume", "clear", "compact")),
    "PreCompact": ("compaction trigger", ("manual", "auto", "compact")),
    "Notification": (
        "notification type",
        ("permission_prompt", "idle_prompt", "auth_success", "elicitation_dialog"),
    ),
}
