"""Reading past events: hookrun's audit log (with payloads) and its bad lines."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hookrun.replay.sources import SourceError, detect, from_audit, read


def test_audit_lines_with_payloads_become_events_and_the_rest_is_named(tmp_path: Path) -> None:
    log = tmp_path / "audit.jsonl"
    payload = {"tool_name": "Bash", "tool_input": {"command": "ls"}}
    lines = [
        {
            "event": "PreToolUse",
            "decision": "deny",
            "halt": False,
            "reason": "r",
            "hooks": [],
            "payload": payload,
            "context": ["c"],
            "updated_input": None,
        },
        {"event": "PreToolUse", "decision": None, "halt": False, "hooks": []},  # no payload
        "not json",
        {"no": "event"},
    ]
    log.write_text(
        "\n".join(x if isinstance(x, str) else json.dumps(x) for x in lines) + "\n\n",
        encoding="utf-8",
    )
    events, skipped = from_audit(str(log))
    assert [(e.origin, e.event, e.payload) for e in events] == [
        ("audit.jsonl:1", "PreToolUse", payload)
    ]
    before = events[0].before
    assert (before.decision, before.halt, before.reason, before.context) == (
        "deny",
        False,
        "r",
        ("c",),
    )
    assert before.known_input and before.updated_input is None
    assert [(s.origin, s.why) for s in skipped] == [
        ("audit.jsonl:2", 'no payload (set "audit_payload": true in the config)'),
        ("audit.jsonl:3", "not an audit record"),
        ("audit.jsonl:4", "not an audit record"),
    ]


def test_an_unknown_file_or_a_folder_is_a_clear_error(tmp_path: Path) -> None:
    other = tmp_path / "x.jsonl"
    other.write_text('{"hello": 1}\n')
    with pytest.raises(SourceError, match="not a hookrun audit log, a Claude Code transcript"):
        detect(str(other))
    with pytest.raises(SourceError, match="a folder"):
        read(str(tmp_path))
    with pytest.raises(SourceError, match="cannot read"):
        read(str(tmp_path / "missing.jsonl"))


FIXTURES = (
    Path(__file__).parent / "fixtures" / "claude-2.1.197"
)  # captured from Claude Code 2.1.197
DENIED = FIXTURES / "93abfd40-f63a-45ca-81a6-8fe57c7f86a9.jsonl"
ALLOWED = FIXTURES / "94d61497-05b3-40b0-a423-53b109223724.jsonl"
WITH_SUB_AGENT = FIXTURES / "55e45d4c-c310-412c-8887-662511fbe623.jsonl"


def test_a_claude_transcript_is_detected_from_its_first_line() -> None:
    assert detect(str(DENIED)) == "claude"


def test_a_call_a_hook_blocked_is_a_denied_pre_tool_use_event() -> None:
    events, skipped = read(str(DENIED))
    assert skipped == []
    (event,) = events
    assert event.event == "PreToolUse"
    assert event.origin == f"{DENIED.name}:6"
    assert event.payload["tool_name"] == "Bash"
    assert event.payload["tool_input"]["command"].startswith("rm -rf ")
    assert event.payload["session_id"] == "93abfd40-f63a-45ca-81a6-8fe57c7f86a9"
    assert event.before.decision == "deny"
    assert "blocked by the e2e hook" in (event.before.reason or "")


def test_a_call_that_ran_is_allowed_and_what_the_transcript_cannot_tell_stays_unknown() -> None:
    (event,) = read(str(ALLOWED))[0]
    assert event.payload["tool_input"]["command"] == "ls"
    assert (event.before.decision, event.before.halt, event.before.context) == (None, None, None)


def test_the_sub_agents_calls_follow_the_main_threads_marked_as_sub_agent_calls() -> None:
    events, _ = read(str(WITH_SUB_AGENT))
    assert [e.payload["tool_name"] for e in events] == ["Agent", "Bash"]
    main, sub = events
    assert "is_sub_agent" not in main.payload
    assert sub.payload["is_sub_agent"] is True
    assert sub.payload["agent_id"] == "a2ffd93624b13133a"
    assert sub.origin == "agent-a2ffd93624b13133a.jsonl:3"


CODEX = Path(__file__).parent / "fixtures" / "codex-0.169.0"  # captured from Codex CLI 0.169.0


def test_a_codex_session_is_detected_and_its_shell_calls_become_bash_events() -> None:
    denied = CODEX / "rollout-2026-11-23T06-28-50-01a20717-d061-7551-a38a-183212328e92.jsonl"
    assert detect(str(denied)) == "codex"
    (event,) = read(str(denied))[0]
    # As Codex's own PreToolUse hook payload names it (tests/hosts/fixtures/codex/).
    assert (event.payload["tool_name"], event.payload["tool_input"]) == (
        "Bash",
        {"command": "git -C /tmp/envcap-vbsojc8y/w/victim reset --hard"},
    )
    assert event.payload["session_id"] == "01a20717-d061-7551-a38a-183212328e92"
    assert event.before.decision == "deny"
    assert (event.before.reason or "").startswith("Command blocked by PreToolUse hook")
    allowed = CODEX / "rollout-2026-11-23T06-28-46-01a20717-be5a-7583-afbf-b90f43e49f3a.jsonl"
    (event,) = read(str(allowed))[0]
    assert (event.payload["tool_input"], event.before.decision) == ({"command": "ls"}, None)


GEMINI = Path(__file__).parent / "fixtures" / "gemini-0.61.0"  # captured from Gemini CLI 0.61.0
COPILOT = Path(__file__).parent / "fixtures" / "copilot-1.0.102"  # from Copilot CLI 1.0.102


@pytest.mark.parametrize(
    ("path", "kind", "host_event", "tool", "denied"),
    [
        (GEMINI / "deny-session.jsonl", "gemini", "BeforeTool", "run_shell_command", True),
        (GEMINI / "allow-session.jsonl", "gemini", "BeforeTool", "run_shell_command", False),
        (COPILOT / "deny-events.jsonl", "copilot", "preToolUse", "bash", True),
        (COPILOT / "allow-events.jsonl", "copilot", "preToolUse", "bash", False),
    ],
)
def test_gemini_and_copilot_sessions_give_their_own_pre_tool_payloads(
    path: Path, kind: str, host_event: str, tool: str, denied: bool
) -> None:
    assert detect(str(path)) == kind
    (event,) = read(str(path))[0]
    assert (event.host, event.host_event) == (kind, host_event)
    assert event.payload.get("tool_name", event.payload.get("toolName")) == tool
    assert (event.before.decision == "deny") is denied
    if denied:
        assert "shell-guard" in (event.before.reason or "")
