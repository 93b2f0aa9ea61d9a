"""Claude Code: its settings file as config, its hook outputs read, its shape printed."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from conftest import Project

SETTINGS = {
    "permissions": {"allow": ["Bash(npm run test:*)"]},
    "model": "opus",
    "hooks": {
        "PreToolUse": [
            {
                "matcher": "Bash",
                "hooks": [{"type": "command", "command": "./hooks/guard.py", "timeout": 30}],
            },
            {
                "matcher": "Edit|Write",
                "hooks": [
                    {
                        "type": "command",
                        "command": 'echo \'{"hookSpecificOutput": {"hookEventName": '
                        '"PreToolUse", "additionalContext": "Edits are reviewed."}}\'',
                    }
                ],
            },
        ],
        "UserPromptSubmit": [
            {"hooks": [{"type": "command", "command": "echo 'Today is release day.'"}]}
        ],
        "Stop": [{"hooks": [{"type": "command", "command": "echo 'tests are red' >&2; exit 2"}]}],
    },
}

GUARD = f"""#!{sys.executable}
import json, sys

p = json.load(sys.stdin)
cmd = p["tool_input"].get("command", "")
if cmd.startswith("git push --force"):
    print(json.dumps({{"hookSpecificOutput": {{"hookEventName": "PreToolUse",
        "permissionDecision": "deny",
        "permissionDecisionReason": "force push is not allowed"}}}}))
elif cmd == "shutdown":
    print(json.dumps({{"continue": False, "stopReason": "the agent tried to shut down"}}))
elif cmd.startswith("npm test"):
    print(json.dumps({{"hookSpecificOutput": {{"hookEventName": "PreToolUse",
        "permissionDecision": "allow",
        "updatedInput": {{"command": "npm test -- --ci"}}}}}}))
"""


@pytest.fixture
def claude(project: Project) -> Project:
    project.write(".claude/settings.json", json.dumps(SETTINGS, indent=2))
    project.write("hooks/guard.py", GUARD, executable=True)
    return project


def run(project: Project, event: str, payload: dict[str, Any], *extra: str) -> tuple[int, Any, str]:
    ran = project.run("run", event, "--config", ".claude/settings.json", *extra, payload=payload)
    return ran.code, ran.json if ran.out else None, ran.err


def test_a_claude_permission_deny_is_a_deny(claude: Project) -> None:
    code, answer, err = run(claude, "PreToolUse", claude.tool("Bash", command="git push --force"))
    assert (code, answer["decision"], err) == (2, "deny", "force push is not allowed\n")


def test_claude_updated_input_replaces_the_whole_input(claude: Project) -> None:
    payload = claude.tool("Bash", command="npm test", description="run tests")
    code, answer, _ = run(claude, "PreToolUse", payload)
    assert (code, answer["decision"]) == (0, "allow")
    assert answer["updated_input"] == {"command": "npm test -- --ci"}


def test_claude_continue_false_is_a_halt(claude: Project) -> None:
    code, answer, err = run(claude, "PreToolUse", claude.tool("Bash", command="shutdown"))
    assert (code, answer["halt"], err) == (49, True, "the agent tried to shut down\n")


@pytest.mark.parametrize(("tool", "matched"), [("Edit", True), ("Write", True), ("Editor", False)])
def test_claude_matchers_are_exact_name_lists(claude: Project, tool: str, matched: bool) -> None:
    code, answer, _ = run(claude, "PreToolUse", claude.tool(tool, file_path="a.py"))
    assert code == 0
    assert answer["context"] == (["Edits are reviewed."] if matched else [])


def test_format_claude_deny_is_exit_2_and_a_permission_decision(claude: Project) -> None:
    payload = claude.tool("Bash", command="git push --force origin main")
    code, answer, err = run(claude, "PreToolUse", payload, "--format", "claude")
    assert code == 2 and err == "force push is not allowed\n"
    assert answer["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert answer["hookSpecificOutput"]["permissionDecisionReason"] == "force push is not allowed"


def test_format_claude_halt_exits_0_so_claude_reads_continue_false(claude: Project) -> None:
    code, answer, _ = run(
        claude, "PreToolUse", claude.tool("Bash", command="shutdown"), "--format", "claude"
    )
    assert code == 0
    assert answer["continue"] is False
    assert answer["stopReason"] == "the agent tried to shut down"


def test_format_claude_allow_carries_the_updated_input(claude: Project) -> None:
    code, answer, _ = run(
        claude, "PreToolUse", claude.tool("Bash", command="npm test"), "--format", "claude"
    )
    assert code == 0
    assert answer["hookSpecificOutput"]["permissionDecision"] == "allow"
    assert answer["hookSpecificOutput"]["updatedInput"] == {"command": "npm test -- --ci"}


def test_format_claude_prompt_context_is_additional_context(claude: Project) -> None:
    payload = {"session_id": "s1", "hook_event_name": "UserPromptSubmit", "prompt": "ship it"}
    code, answer, _ = run(claude, "UserPromptSubmit", payload, "--format", "claude")
    assert code == 0
    assert answer["hookSpecificOutput"]["additionalContext"] == "Today is release day."


def test_format_claude_stop_block_is_decision_block(claude: Project) -> None:
    code, answer, err = run(claude, "Stop", {"session_id": "s1"}, "--format", "claude")
    assert (code, err) == (2, "tests are red\n")
    assert answer["decision"] == "block" and answer["reason"] == "tests are red"


def test_hookrun_run_is_itself_a_claude_hook(project: Project) -> None:
    """settings.json calls `hookrun run --format claude`, which runs the project's hooks."""
    project.hooks("PreToolUse", {"matcher": "^Bash$", "command": "echo 'nope' >&2; exit 2"})
    hook = f"{sys.executable} -m hookrun run PreToolUse --format claude"
    project.write(
        ".claude/settings.json",
        json.dumps({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": hook}]}]}}),
    )
    ran = project.run(
        "run", "PreToolUse", "--config", ".claude/settings.json",
        payload=project.tool("Bash", command="ls"),
    )  # fmt: skip
    assert (ran.code, ran.json["decision"], ran.json["reason"]) == (2, "deny", "nope")
