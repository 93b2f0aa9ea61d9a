"""Which host uses which event name: a static table, so that ``--host auto`` loads
only the module of the host it picks, not all seven (issue 8: every tool call pays
for what ``hookrun run`` imports).

Detection (:mod:`hookrun.hosts.detect`) needs two facts about every host at once —
the event names only one host uses, and whether a host knows a name — and the
bridge needs the names a host has that mean no canonical event. They are written
out here; ``tests/hosts/owners_test.py`` derives both tables from the host modules'
``EVENTS`` and fails when a module changes and this table does not.
"""

from __future__ import annotations

from collections.abc import Mapping

# A host's own event name → the hosts (not the neutral one) whose EVENTS hold it.
OWNERS: Mapping[str, tuple[str, ...]] = {
    "AfterAgent": ("gemini",),
    "afterAgentResponse": ("cursor",),
    "afterAgentThought": ("cursor",),
    "afterFileEdit": ("cursor",),
    "afterMCPExecution": ("cursor",),
    "AfterModel": ("gemini",),
    "afterShellExecution": ("cursor",),
    "afterTabFileEdit": ("cursor",),
    "AfterTool": ("gemini",),
    "agentStop": ("copilot",),
    "BeforeAgent": ("gemini",),
    "beforeMCPExecution": ("cursor",),
    "BeforeModel": ("gemini",),
    "beforeReadFile": ("cursor",),
    "beforeShellExecution": ("cursor",),
    "beforeSubmitPrompt": ("cursor",),
    "beforeTabFileRead": ("cursor",),
    "BeforeTool": ("gemini",),
    "BeforeToolSelection": ("gemini",),
    "ErrorOccurred": ("copilot",),
    "errorOccurred": ("copilot",),
    "Interrupt": ("codex",),
    "Notification": ("claude", "gemini"),
    "notification": ("copilot",),
    "PermissionRequest": ("claude", "codex", "copilot"),
    "permissionRequest": ("copilot",),
    "PostCompact": ("claude", "codex"),
    "PostToolUse": ("claude", "codex", "copilot"),
    "postToolUse": ("copilot", "cursor"),
    "PostToolUseFailure": ("claude", "copilot"),
    "postToolUseFailure": ("copilot", "cursor"),
    "PreCompact": ("claude", "codex", "copilot"),
    "preCompact": ("copilot", "cursor"),
    "PreCompress": ("gemini",),
    "PreToolUse": ("claude", "codex", "copilot", "crush"),
    "preToolUse": ("copilot", "cursor"),
    "SessionEnd": ("claude", "gemini", "codex", "copilot"),
    "sessionEnd": ("copilot", "cursor"),
    "SessionStart": ("claude", "gemini", "codex", "copilot"),
    "sessionStart": ("copilot", "cursor"),
    "Stop": ("claude", "codex", "copilot"),
    "stop": ("cursor",),
    "StopFailure": ("codex",),
    "SubagentStart": ("claude", "codex"),
    "subagentStart": ("copilot", "cursor"),
    "SubagentStop": ("claude", "codex", "copilot"),
    "subagentStop": ("copilot", "cursor"),
    "UserPromptSubmit": ("claude", "codex", "copilot"),
    "userPromptSubmitted": ("copilot",),
    "userPromptTransformed": ("copilot",),
    "workspaceOpen": ("cursor",),
}

# Host event names with no canonical equivalent (their host maps them to "").
UNMAPPED: frozenset[str] = frozenset(
    {
        "AfterModel",
        "BeforeModel",
        "BeforeToolSelection",
        "Interrupt",
        "StopFailure",
        "afterAgentResponse",
        "afterAgentThought",
        "userPromptTransformed",
        "workspaceOpen",
    }
)
