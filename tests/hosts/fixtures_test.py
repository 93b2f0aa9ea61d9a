"""Every payload a real host sent (tests/hosts/fixtures, captured from Claude Code 2.1,
Codex CLI 0.169, Copilot CLI 1.0 and Gemini CLI 0.61 by the issue-10 runs) is
recognised by ``--host auto`` and mapped to the canonical event and payload."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hookrun.hosts import bridge, detect

FIXTURES = Path(__file__).parent / "fixtures"


def captured() -> list[tuple[str, str, dict[str, Any]]]:
    cases = []
    for path in sorted(FIXTURES.glob("*.json")):
        for event, payload in json.loads(path.read_text()).items():
            cases.append((path.stem, event, payload))
    return cases


CASES = captured()
IDS = [f"{host}-{event}" for host, event, _ in CASES]

CANONICAL = {
    "BeforeTool": "PreToolUse",
    "AfterTool": "PostToolUse",
    "BeforeAgent": "UserPromptSubmit",
    "AfterAgent": "Stop",
    "PreCompress": "PreCompact",
    "preToolUse": "PreToolUse",
    "postToolUse": "PostToolUse",
    "sessionStart": "SessionStart",
    "sessionEnd": "SessionEnd",
    "userPromptSubmitted": "UserPromptSubmit",
    "agentStop": "Stop",
    "permissionRequest": "PermissionRequest",
}


def test_every_host_has_captured_payloads() -> None:
    assert {host for host, _, _ in CASES} == {"claude", "codex", "copilot", "gemini"}


@pytest.mark.parametrize(("host", "event", "payload"), CASES, ids=IDS)
def test_auto_recognises_the_host_that_sent_each_captured_payload(
    host: str, event: str, payload: dict[str, Any]
) -> None:
    found = detect.detect(event, payload, {})
    assert found.host == host, found.why


@pytest.mark.parametrize(("host", "event", "payload"), CASES, ids=IDS)
def test_each_captured_event_maps_to_its_canonical_event_and_payload(
    host: str, event: str, payload: dict[str, Any]
) -> None:
    inbound = bridge.map_in(host, event, payload, {})
    assert inbound.event == CANONICAL.get(event, event)
    assert not inbound.unmapped
    mapped = inbound.payload
    assert mapped["host"] == host and mapped["host_event"] == event
    assert mapped["session_id"] == payload.get("session_id", payload.get("sessionId"))
    if inbound.event in ("PreToolUse", "PostToolUse", "PermissionRequest"):
        # Every captured tool call is a shell call, whatever the host names its shell tool.
        assert mapped["tool_kind"] == "shell"
        assert isinstance(mapped["tool_input"], dict) and "command" in mapped["tool_input"]
    if inbound.event == "PostToolUse":
        assert mapped["tool_output"] is not None
    assert mapped["is_sub_agent"] is False


def test_a_nested_hookrun_ignores_the_environment_its_parent_set() -> None:
    claude_pre = json.loads((FIXTURES / "claude.json").read_text())["PreToolUse"]
    env = {"HOOKRUN": "1", "GEMINI_SESSION_ID": "x", "CRUSH": "1", "AGENT": "crush"}
    assert detect.detect("PreToolUse", claude_pre, env).host == "claude"


@pytest.mark.parametrize(
    ("env", "event", "payload", "host"),
    [
        ({"GEMINI_SESSION_ID": "s"}, "SessionStart", {"hook_event_name": "SessionStart"}, "gemini"),
        ({"CURSOR_VERSION": "1.7"}, "preToolUse", {"tool_name": "Shell"}, "cursor"),
        ({"CRUSH": "1", "AGENT": "crush"}, "PreToolUse", {"tool_name": "bash"}, "crush"),
        # An inherited variable does not win over an event that host never sends.
        ({"GEMINI_SESSION_ID": "s"}, "agentStop", {"sessionId": "s"}, "copilot"),
        ({}, "PreToolUse", {"event": "PreToolUse", "tool_name": "bash"}, "crush"),
        ({}, "preToolUse", {"conversation_id": "c", "hook_event_name": "preToolUse"}, "cursor"),
        ({}, "beforeShellExecution", {"command": "ls"}, "cursor"),
        # Claude Code's session variable counts only when it is this payload's session:
        (
            {"CLAUDE_CODE_SESSION_ID": "s1"},
            "PreToolUse",
            {"session_id": "s1", "hook_event_name": "PreToolUse"},
            "claude",
        ),
        (
            {"CLAUDE_CODE_SESSION_ID": "s1"},
            "PreToolUse",
            {"session_id": "s2", "turn_id": "t", "hook_event_name": "PreToolUse"},
            "codex",
        ),
        ({}, "PreToolUse", {"hook_event_name": "PreToolUse", "tool_name": "Bash"}, "ambiguous"),
        ({}, "PreToolUse", {"tool_name": "bash", "tool_input": {}}, "hookrun"),
    ],
)
def test_the_detection_table(
    env: dict[str, str], event: str, payload: dict[str, Any], host: str
) -> None:
    assert detect.detect(event, payload, env).host == host


def test_a_claude_sub_agent_call_is_told_apart_from_the_main_thread_of_claude_agent() -> None:
    pre = json.loads((FIXTURES / "claude.json").read_text())["PreToolUse"]
    inside = {**pre, "agent_id": "a7784052ceb8a4d1a", "agent_type": "general-purpose"}
    main_thread = {**pre, "agent_type": "security-reviewer"}  # claude --agent NAME
    assert bridge.map_in("claude", "PreToolUse", inside, {}).payload["is_sub_agent"] is True
    assert bridge.map_in("claude", "PreToolUse", main_thread, {}).payload["is_sub_agent"] is False
    # SubagentStop carries agent_id too, but it is the parent's event about the sub-agent.
    stop = {**pre, "hook_event_name": "SubagentStop", "agent_id": "a1"}
    assert bridge.map_in("claude", "SubagentStop", stop, {}).payload["is_sub_agent"] is False


def test_a_host_event_without_a_canonical_name_is_reported_not_silently_empty() -> None:
    inbound = bridge.map_in("gemini", "BeforeModel", {"hook_event_name": "BeforeModel"}, {})
    assert inbound.unmapped and inbound.event == "BeforeModel"
    note = inbound.note(0)
    assert note is not None and "Gemini CLI" in note and "BeforeModel" in note


def test_the_configs_host_aliases_are_the_host_modules_own_mapping() -> None:
    from hookrun.config.events import HOST_ALIASES
    from hookrun.hosts import HOSTS

    titles = {host.title: host for host in HOSTS.values()}
    for alias, (canonical, title) in HOST_ALIASES.items():
        assert titles[title].events[alias] == canonical


def test_hooks_configured_under_a_hosts_own_event_name_run_for_it(tmp_path: Path) -> None:
    from hookrun import Runner
    from hookrun.config import load

    (tmp_path / "hooks.json").write_text(
        json.dumps({"hooks": {"BeforeTool": [{"command": 'echo \'{"context": "ran"}\''}]}})
    )
    config = load(["hooks.json"], cwd=tmp_path)
    assert any("Gemini CLI's name" in str(w) for w in config.warnings)
    payload = {"tool_name": "run_shell_command", "tool_input": {"command": "ls"}}
    inbound = bridge.map_in("gemini", "BeforeTool", {**payload, "cwd": str(tmp_path)}, {})
    result = Runner(config, cwd=tmp_path).run(inbound.event, inbound.payload)
    assert result.context == ("ran",)


def per_event_fixtures() -> list[tuple[str, str, str, dict[str, Any]]]:
    """The e2e suite's captures, one file per event: fixtures/<host>/<Event>[.<variant>].json
    (``subagent``: a call inside a sub-agent; ``agent-main``: the main thread of
    ``claude --agent NAME``)."""
    cases = []
    for path in sorted(FIXTURES.glob("*/*.json")):
        if path.parent.name == "configs":
            continue
        event = path.name.split(".")[0]
        cases.append((path.parent.name, event, path.stem, json.loads(path.read_text())))
    return cases


PER_EVENT = per_event_fixtures()


@pytest.mark.parametrize(
    ("host", "event", "name", "payload"),
    PER_EVENT,
    ids=[f"{h}-{n}" for h, _, n, _ in PER_EVENT],
)
def test_each_captured_event_is_recognised_and_its_sub_agent_flag_derived(
    host: str, event: str, name: str, payload: dict[str, Any]
) -> None:
    assert detect.detect(event, payload, {}).host == host
    inbound = bridge.map_in("auto", event, payload, {})
    inside = ".subagent" in name and event not in ("SubagentStart", "SubagentStop")
    assert inbound.payload["is_sub_agent"] is inside
    if inbound.event in ("PreToolUse", "PostToolUse") and payload.get("tool_name") == "Bash":
        assert inbound.payload["tool_kind"] == "shell"
