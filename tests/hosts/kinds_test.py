"""Built-in policies judge the canonical kind: one config's guards fire on each host's
own tools (through the host mapping, the real runner and the real policies)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hookrun import Runner
from hookrun.config import load
from hookrun.hosts import bridge

CONFIG = {
    "hooks": {
        "PreToolUse": [
            {"matcher": "^shell$", "builtin": "shell-guard"},
            {"matcher": "^(write|edit)$", "builtin": "write-guard", "with": {"allow": ["src/**"]}},
        ]
    }
}


@pytest.fixture
def runner(tmp_path: Path) -> Runner:
    (tmp_path / "src").mkdir()
    (tmp_path / "hooks.json").write_text(json.dumps(CONFIG))
    return Runner(load(["hooks.json"], cwd=tmp_path), cwd=tmp_path, project_dir=tmp_path)


# (host, host event, payload without cwd) — each host's own tool names and input shapes.
WRITES = [
    ("claude", "PreToolUse", {"hook_event_name": "PreToolUse", "tool_name": "Write",
                              "tool_input": {"file_path": "docs/x.md", "content": "x"}}),
    ("gemini", "BeforeTool", {"hook_event_name": "BeforeTool", "tool_name": "write_file",
                              "tool_input": {"file_path": "docs/x.md", "content": "x"}}),
    ("gemini", "BeforeTool", {"hook_event_name": "BeforeTool", "tool_name": "replace",
                              "tool_input": {"file_path": "docs/x.md", "old_string": "a",
                                             "new_string": "b"}}),
    ("copilot", "preToolUse", {"sessionId": "s", "toolName": "create",
                               "toolArgs": {"path": "docs/x.md", "file_text": "x"}}),
    ("crush", "PreToolUse", {"event": "PreToolUse", "tool_name": "write",
                             "tool_input": {"file_path": "docs/x.md", "content": "x"}}),
    ("cursor", "preToolUse", {"hook_event_name": "preToolUse", "conversation_id": "c",
                              "tool_name": "Write",
                              "tool_input": {"file_path": "docs/x.md", "content": "x"}}),
]  # fmt: skip

SHELLS = [
    ("claude", "PreToolUse", {"tool_name": "Bash", "tool_input": {"command": "rm -rf ~"}}),
    ("codex", "PreToolUse", {"tool_name": "Bash", "tool_input": {"command": "rm -rf ~"}}),
    ("gemini", "BeforeTool", {"tool_name": "run_shell_command",
                              "tool_input": {"command": "rm -rf ~"}}),
    ("copilot", "preToolUse", {"toolName": "powershell", "toolArgs": '{"command": "rm -rf ~"}'}),
    ("cursor", "beforeShellExecution", {"command": "rm -rf ~"}),
    ("crush", "PreToolUse", {"event": "PreToolUse", "tool_name": "bash",
                             "tool_input": {"command": "rm -rf ~"}}),
]  # fmt: skip


def decide(runner: Runner, host: str, event: str, raw: dict[str, Any]) -> Any:
    inbound = bridge.map_in(host, event, {**raw, "cwd": str(runner.cwd)}, {})
    return runner.run(inbound.event, inbound.payload)


@pytest.mark.parametrize(("host", "event", "raw"), WRITES, ids=[f"{h}-{e}" for h, e, _ in WRITES])
def test_write_guard_fires_on_each_hosts_file_tools(
    runner: Runner, host: str, event: str, raw: dict[str, Any]
) -> None:
    result = decide(runner, host, event, raw)
    assert result.decision == "deny", result.to_dict()
    assert "write-guard" in (result.reason or "")
    allowed = json.loads(json.dumps(raw).replace("docs/x.md", "src/x.md"))
    assert decide(runner, host, event, allowed).decision is None


@pytest.mark.parametrize(("host", "event", "raw"), SHELLS, ids=[f"{h}-{e}" for h, e, _ in SHELLS])
def test_shell_guard_fires_on_each_hosts_shell(
    runner: Runner, host: str, event: str, raw: dict[str, Any]
) -> None:
    result = decide(runner, host, event, raw)
    assert result.decision == "deny" and "shell-guard" in (result.reason or "")


@pytest.mark.parametrize(
    ("matcher", "tool", "runs"),
    [
        ("^shell$", "Bash", True),  # names a kind: the kind of Claude's Bash
        ("^(write|edit)$", "replace", True),  # Gemini's edit tool
        ("^Bash$", "run_shell_command", False),  # a tool name: only that name
        ("^(?!Bash$)", "Bash", False),  # a negative tool-name matcher keeps its meaning
        ("^(?!Bash$)", "Read", True),
        ("^mcp__github", "mcp__github__create_issue", True),
    ],
)
def test_a_matcher_naming_a_kind_is_also_searched_in_the_kind(
    tmp_path: Path, matcher: str, tool: str, runs: bool
) -> None:
    hook = {"matcher": matcher, "command": 'echo \'{"context": "ran"}\''}
    (tmp_path / "hooks.json").write_text(json.dumps({"hooks": {"PreToolUse": [hook]}}))
    runner = Runner(load(["hooks.json"], cwd=tmp_path), cwd=tmp_path)
    host = "gemini" if tool in ("replace", "run_shell_command") else "claude"
    event = "BeforeTool" if host == "gemini" else "PreToolUse"
    inbound = bridge.map_in(host, event, {"tool_name": tool, "cwd": str(tmp_path)}, {})
    assert (runner.run(inbound.event, inbound.payload).context == ("ran",)) is runs
