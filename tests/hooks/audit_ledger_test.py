from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hookrun.hooks import audit_ledger, registry
from hookrun.hooks.base import PolicyContext, Verdict
from hookrun.hooks.state import StateError
from tests.hooks.together import in_processes


def _ctx(tmp_path: Path) -> PolicyContext:
    return PolicyContext(str(tmp_path), str(tmp_path), str(tmp_path / ".hookrun/state"), {})


def _log(tmp_path: Path, payload: dict[str, Any], **opts: Any) -> Verdict:
    return audit_ledger.decide(payload, audit_ledger.POLICY.bind(opts), _ctx(tmp_path))


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


TOOLS = Path(".hookrun/logs/tool-usage.jsonl")
DENIALS = Path(".hookrun/logs/policy-denials.jsonl")


def test_one_line_per_tool_call_with_the_documented_fields(tmp_path: Path) -> None:
    payload = {
        "hook_event_name": "PostToolUse",
        "session_id": "s1",
        "agent_name": "Backend",
        "tool_name": "Bash",
        "tool_input": {"command": "npm test"},
        "tool_response": {"exit_code": 0, "stdout": "ok"},
        "duration_ms": 812,
    }
    assert _log(tmp_path, payload) == Verdict()
    assert _log(tmp_path, payload) == Verdict()
    lines = _lines(tmp_path / TOOLS)
    assert len(lines) == 2
    first = lines[0]
    assert first.pop("time").endswith("Z")
    assert first == {
        "event": "PostToolUse",
        "session": "s1",
        "agent": "Backend",
        "tool": "Bash",
        "args": {"command": "npm test"},
        "exit_code": 0,
        "status": "ok",
        "duration_ms": 812,
    }


@pytest.mark.parametrize(
    ("payload", "status", "exit_code", "error"),
    [
        ({"tool_response": {"exit_code": 2, "stderr": "boom"}}, "error", 2, "boom"),
        ({"tool_response": {"exitCode": 0}}, "ok", 0, None),
        ({"tool_response": {"is_error": True, "error": "ENOENT"}}, "error", None, "ENOENT"),
        ({"tool_response": {"success": False}}, "error", None, None),
        (
            {"hook_event_name": "PostToolUseFailure", "error": "tool crashed"},
            "error",
            None,
            "tool crashed",
        ),
        ({"error": {"code": 1}}, "error", None, '{"code": 1}'),
        ({"tool_response": "plain text output"}, "ok", None, None),
        ({}, "ok", None, None),
    ],
)
def test_status_exit_code_and_error_come_from_the_payload(
    tmp_path: Path, payload: dict[str, Any], status: str, exit_code: int | None, error: str | None
) -> None:
    _log(tmp_path, {"tool_name": "Bash", **payload})
    line = _lines(tmp_path / TOOLS)[0]
    assert (line["status"], line.get("exit_code"), line.get("error")) == (status, exit_code, error)


def test_args_are_bounded_and_secrets_and_contents_are_redacted(tmp_path: Path) -> None:
    payload = {
        "tool_name": "Write",
        "tool_input": {
            "file_path": "src/" + "x" * 500 + ".py",
            "content": "print('secret stuff')\n" * 100,
            "api_key": "sk-" + "a" * 40,
            "nested": {"deep": {"deeper": {"x": 1}}, "list": list(range(30))},
            "count": 3,
            "flag": True,
        },
    }
    _log(tmp_path, payload, max_arg_chars=20)
    args = _lines(tmp_path / TOOLS)[0]["args"]
    assert args["file_path"] == "src/" + "x" * 16 + "…(+487 chars)"
    assert args["content"] == "[REDACTED:2200 chars]"
    assert args["api_key"] == "[REDACTED:43 chars]"
    assert args["nested"]["deep"] == '{"deeper": {"x": 1}}'
    assert args["nested"]["list"][-1] == "…(+10 items)" and len(args["nested"]["list"]) == 21
    assert (args["count"], args["flag"]) == (3, True)
    assert "secret stuff" not in (tmp_path / TOOLS).read_text()
    assert "a" * 40 not in (tmp_path / TOOLS).read_text()


@pytest.mark.parametrize(
    ("payload", "recorded", "reason"),
    [
        (
            {"hook_event_name": "PermissionRequest", "decision": "deny", "reason": "rm -rf /"},
            True,
            "rm -rf /",
        ),
        (
            {"permissionDecision": "deny", "permissionDecisionReason": "force push"},
            True,
            "force push",
        ),
        (
            {"hook_event_name": "PostToolUseFailure", "error": "Blocked by hook: no writes"},
            True,
            "Blocked by hook: no writes",
        ),
        ({"denied": True, "rule": "git.force-push"}, True, None),
        ({"decision": "allow"}, False, None),
        ({"hook_event_name": "PostToolUseFailure", "error": "file not found"}, False, None),
        ({}, False, None),
    ],
)
def test_the_denial_ledger_records_only_denied_calls(
    tmp_path: Path, payload: dict[str, Any], recorded: bool, reason: str | None
) -> None:
    _log(tmp_path, {"tool_name": "Bash", "tool_input": {"command": "x"}, **payload}, kind="denials")
    path = tmp_path / DENIALS
    assert path.exists() is recorded
    assert not (tmp_path / TOOLS).exists()
    if recorded:
        line = _lines(path)[0]
        assert line["reason"] == reason and line["tool"] == "Bash"
        assert line["rule"] == payload.get("rule")


def test_the_path_is_configurable_and_relative_to_the_project(tmp_path: Path) -> None:
    _log(tmp_path, {"tool_name": "Read"}, path=".ralph-sessions/x/logs/tool-usage.jsonl")
    assert len(_lines(tmp_path / ".ralph-sessions/x/logs/tool-usage.jsonl")) == 1


def test_an_unwritable_ledger_is_a_state_error(tmp_path: Path) -> None:
    (tmp_path / ".hookrun").write_text("a file")
    with pytest.raises(StateError, match=r"\.hookrun is not a directory"):
        _log(tmp_path, {"tool_name": "Read"})


def test_the_policy_is_registered_fail_open_for_post_tool_use() -> None:
    policy = registry.get("audit-ledger")
    assert policy is audit_ledger.POLICY
    assert policy.on_error == "allow" and policy.events[0] == "PostToolUse"


def _log_worker(barrier: Any, root: str, i: int) -> None:
    ctx = PolicyContext(root, root, "", {})
    opts = audit_ledger.POLICY.bind({"max_arg_chars": 5000})
    barrier.wait()
    for j in range(25):
        payload = {
            "tool_name": "Bash",
            "session_id": str(i),
            "tool_input": {"command": f"{j} " + "y" * 4000},
        }
        audit_ledger.decide(payload, opts, ctx)


def test_twenty_processes_logging_at_once_write_every_line_whole(tmp_path: Path) -> None:
    in_processes(_log_worker, [(str(tmp_path), i) for i in range(20)])
    lines = _lines(tmp_path / TOOLS)
    assert len(lines) == 500
    assert {(x["session"], x["args"]["command"].split()[0]) for x in lines} == {
        (str(i), str(j)) for i in range(20) for j in range(25)
    }


@pytest.mark.parametrize(
    ("payload", "env", "folder"),
    [
        ({"ralph_session_id": "260215-173319", "session_id": "uuid"}, {}, "260215-173319"),
        ({"session_id": "abc"}, {"RALPH_SESSION_ID": "260215-173319"}, "260215-173319"),
        ({"session_id": "../../etc"}, {}, "_.._etc"),
        ({}, {}, "no-session"),
    ],
)
def test_the_path_may_name_the_session_folder_safely(
    tmp_path: Path, payload: dict[str, Any], env: dict[str, str], folder: str
) -> None:
    ctx = PolicyContext(str(tmp_path), str(tmp_path), str(tmp_path / ".hookrun/state"), env)
    opts = audit_ledger.POLICY.bind({"path": ".ralph-sessions/{session_id}/logs/tool-usage.jsonl"})
    audit_ledger.decide({"tool_name": "Read", **payload}, opts, ctx)
    assert len(_lines(tmp_path / ".ralph-sessions" / folder / "logs" / "tool-usage.jsonl")) == 1
