"""`hookrun replay` through the real command: decisions flip, and nothing changes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

RECORDING = {
    "audit_log": ".hookrun/audit.jsonl",
    "audit_payload": True,
    "hooks": {"PreToolUse": [{"name": "log", "command": "true"}]},
}
STRICTER = {
    "hooks": {
        "PreToolUse": [
            {"name": "guard", "matcher": "^Bash$", "builtin": "shell-guard"},
            {"name": "toucher", "command": 'touch touched.txt; echo \'{"context": "seen"}\''},
        ]
    }
}
TOKEN = "ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5"


def _record(project: Any, *commands: str) -> bytes:
    project.config(RECORDING)
    for command in commands:
        ran = project.run("run", "PreToolUse", payload=project.tool("Bash", command=command))
        assert ran.code == 0, ran.err
    return (project.root / ".hookrun" / "audit.jsonl").read_bytes()


def test_the_audit_log_keeps_each_payload_with_secrets_redacted(project: Any) -> None:
    log = _record(project, f"curl -H 'Authorization: token {TOKEN}' https://api.github.com")
    line = json.loads(log.splitlines()[-1])
    command = line["payload"]["tool_input"]["command"]
    assert TOKEN not in log.decode()
    assert "[REDACTED:" in command and command.startswith("curl -H 'Authorization: token ")
    assert (line["context"], line["updated_input"]) == ([], None)


def test_a_stricter_config_shows_what_it_would_deny_and_changes_nothing(project: Any) -> None:
    log = _record(project, "git push --force origin main", "ls -la")
    state = project.write(".hookrun/state/lockout.json", '{"version": 1, "entries": []}\n')
    state_bytes = state.read_bytes()
    project.config(STRICTER, ".hookrun/stricter.json")
    ran = project.run("replay", ".hookrun/audit.jsonl", "--config", ".hookrun/stricter.json")
    assert ran.code == 0, ran.err
    assert "replayed 2 events from .hookrun/audit.jsonl: 2 would change" in ran.out
    push = next(line for line in ran.out.splitlines() if "git push --force" in line)
    assert "allowed → denied" in push and "git.force-push" in push
    assert "summary: allowed → denied 1, context added 2" in ran.out
    # Nothing changed: no audit line, the state as it was, no process started.
    assert (project.root / ".hookrun" / "audit.jsonl").read_bytes() == log
    assert state.read_bytes() == state_bytes
    assert not (project.root / "touched.txt").exists()
    assert "no process was started" in ran.out


def test_allow_commands_lets_hooks_run_for_real(project: Any) -> None:
    _record(project, "ls")
    project.config(STRICTER, ".hookrun/stricter.json")
    ran = project.run(
        "replay", ".hookrun/audit.jsonl", "--config", ".hookrun/stricter.json", "--allow-commands"
    )
    assert ran.code == 0, ran.err
    assert (project.root / "touched.txt").exists()


def test_json_output_lists_each_change_and_what_was_skipped(project: Any) -> None:
    _record(project, "rm -rf /")
    with (project.root / ".hookrun" / "audit.jsonl").open("a") as handle:
        handle.write('{"event": "Stop", "decision": null, "hooks": []}\n')
    project.config(STRICTER, ".hookrun/stricter.json")
    ran = project.run(
        "replay", ".hookrun/audit.jsonl", "--config", ".hookrun/stricter.json", "--json"
    )
    answer = json.loads(ran.out)
    assert (answer["events"], answer["changed"]) == (1, 1)
    row = answer["rows"][0]
    assert row["changes"] == ["allowed → denied", "context added"]
    assert (row["before"]["decision"], row["after"]["decision"]) == (None, "deny")
    assert row["after"]["deciders"] == ["guard"]
    assert answer["skipped"] == [
        {"origin": "audit.jsonl:2", "why": 'no payload (set "audit_payload": true in the config)'}
    ]


def test_a_source_that_is_neither_is_one_clear_line(project: Any) -> None:
    project.write("notes.jsonl", '{"a": 1}\n')
    project.config({"hooks": {}})
    ran = project.run("replay", "notes.jsonl")
    assert ran.code == 1
    assert "not a hookrun audit log, a Claude Code transcript or a Codex, Gemini" in ran.err


CLAUDE = Path(__file__).resolve().parents[1] / "replay" / "fixtures" / "claude-2.1.197"


def test_a_real_claude_transcript_replays_as_pre_tool_use_events(project: Any) -> None:
    # Captured from Claude Code 2.1.197: the main thread delegates to a sub-agent,
    # whose `ls` ran; a deny-everything-Bash hook now would deny it.
    project.config(
        {
            "hooks": {
                "PreToolUse": [
                    {
                        "name": "no-bash",
                        "matcher": "^Bash$",
                        "include_sub_agents": True,
                        "command": 'echo \'{"decision": "deny", "reason": "no shell"}\'',
                    }
                ]
            }
        }
    )
    source = CLAUDE / "55e45d4c-c310-412c-8887-662511fbe623.jsonl"
    ran = project.run("replay", str(source), "--json")
    answer = json.loads(ran.out)
    assert ran.code == 0, ran.err
    assert answer["events"] == 2  # the Agent call and the sub-agent's Bash call
    (row,) = answer["rows"]
    assert row["origin"] == "agent-a2ffd93624b13133a.jsonl:3"
    assert row["changes"] == ["allowed → denied"]
    assert row["after"]["reason"] == "no shell"


def test_a_call_a_hook_denied_then_is_allowed_by_a_config_without_that_hook(project: Any) -> None:
    project.config({"hooks": {}})
    source = CLAUDE / "93abfd40-f63a-45ca-81a6-8fe57c7f86a9.jsonl"
    ran = project.run("replay", str(source))
    assert ran.code == 0, ran.err
    assert "1 would change" in ran.out
    assert "denied → allowed" in ran.out


FIXTURES = Path(__file__).resolve().parents[1] / "replay" / "fixtures"


def test_gemini_and_copilot_sessions_are_mapped_like_their_hosts_calls(project: Any) -> None:
    # A matcher on the canonical kind only matches because replay maps each host's
    # payload in as `hookrun run --host` does (run_shell_command / bash → shell).
    project.config(
        {
            "hooks": {
                "PreToolUse": [
                    {
                        "name": "no-shell",
                        "matcher": "^shell$",
                        "command": 'echo \'{"decision": "deny", "reason": "no shell"}\'',
                    }
                ]
            }
        }
    )
    for source in (
        FIXTURES / "gemini-0.61.0" / "allow-session.jsonl",
        FIXTURES / "copilot-1.0.102" / "allow-events.jsonl",
    ):
        ran = project.run("replay", str(source), "--json")
        assert ran.code == 0, ran.err
        (row,) = json.loads(ran.out)["rows"]
        assert row["changes"] == ["allowed → denied"], row
        assert row["subject"].endswith(" ls")
