"""``hookrun run <HostEvent> --host NAME|auto`` as a host calls it: a real process, the
captured payloads of each host on stdin, one config that protects every host."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).parent / "fixtures"

# One config: a matcher naming the canonical kind, a built-in, a flat command hook and
# a Claude Code shaped entry.
CONFIG = {
    "hooks": {
        "PreToolUse": [
            {"matcher": "^shell$", "builtin": "shell-guard"},
            {"matcher": "shell", "command": 'echo \'{"context": "flat hook ran"}\''},
            {
                "matcher": "Bash",
                "hooks": [{"type": "command", "command": 'echo \'{"context": "claude entry"}\''}],
            },
        ],
        "PostToolUse": [{"builtin": "pii-scrubber"}],
        "UserPromptSubmit": [{"command": 'echo \'{"context": "branch is main"}\''}],
    }
}


def fixture(host: str, event: str, cwd: Path, **changes: Any) -> dict[str, Any]:
    payload = json.loads((FIXTURES / f"{host}.json").read_text())[event]
    payload["cwd"] = str(cwd)
    payload.update(changes)
    return payload


def hookrun(
    project: Path, *args: str, payload: dict[str, Any], env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("HOOKRUN", "GEMINI_"))}
    base["PYTHONPATH"] = str(REPO)
    base["XDG_CONFIG_HOME"] = str(project / "xdg")
    base.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "hookrun", "run", *args],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        cwd=project,
        env=base,
        timeout=60,
    )


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / ".hookrun").mkdir()
    (tmp_path / ".hookrun/hooks.json").write_text(json.dumps(CONFIG))
    return tmp_path


@pytest.mark.parametrize(
    ("host", "event", "shape"),
    [
        ("gemini", "BeforeTool", {"decision": "deny"}),
        ("claude", "PreToolUse", {"hookSpecificOutput": {"permissionDecision": "deny"}}),
        ("codex", "PreToolUse", {"hookSpecificOutput": {"permissionDecision": "deny"}}),
        ("copilot", "preToolUse", {"permissionDecision": "deny"}),
        ("copilot", "PreToolUse", {"permissionDecision": "deny"}),
    ],
)
@pytest.mark.parametrize("named", [True, False], ids=["named", "auto"])
def test_shell_guard_denies_each_hosts_destructive_shell_call_in_its_shape(
    project: Path, host: str, event: str, shape: dict[str, Any], named: bool
) -> None:
    args = [event, "--host", host] if named else [event]
    ran = hookrun(project, *args, payload=fixture(host, event, project))
    assert ran.returncode == 2, ran.stderr
    assert "shell-guard" in ran.stderr
    out = json.loads(ran.stdout)
    for key, value in shape.items():
        if isinstance(value, dict):
            for inner, expected in value.items():
                assert out[key][inner] == expected
        else:
            assert out[key] == value


def test_gemini_before_agent_runs_the_user_prompt_submit_hooks(project: Path) -> None:
    ran = hookrun(project, "BeforeAgent", payload=fixture("gemini", "BeforeAgent", project))
    assert ran.returncode == 0, ran.stderr
    out = json.loads(ran.stdout)
    assert out["hookSpecificOutput"]["additionalContext"] == "branch is main"


def test_an_allowed_call_runs_the_flat_and_the_claude_shaped_hooks(project: Path) -> None:
    payload = fixture("claude", "PreToolUse", project, tool_input={"command": "ls"})
    ran = hookrun(project, "PreToolUse", "--host", "claude", payload=payload)
    assert ran.returncode == 0, ran.stderr
    context = json.loads(ran.stdout)["hookSpecificOutput"]["additionalContext"]
    assert context == "flat hook ran\nclaude entry"


def test_a_sub_agent_call_keeps_each_dialects_meaning(project: Path) -> None:
    # Inside a sub-agent: the built-in and the Claude-shaped entry run, the flat hook
    # (no include_sub_agents) does not.
    inside = fixture("claude", "PreToolUse", project, agent_id="a1", agent_type="general-purpose")
    ran = hookrun(project, "PreToolUse", "--host", "claude", payload=inside)
    assert ran.returncode == 2 and "shell-guard" in ran.stderr  # the guard still denies
    safe = {**inside, "tool_input": {"command": "ls"}}
    ran = hookrun(project, "PreToolUse", "--host", "claude", payload=safe)
    assert json.loads(ran.stdout)["hookSpecificOutput"]["additionalContext"] == "claude entry"
    # claude --agent NAME: agent_type alone is the main thread, every hook runs.
    main = {**safe, "agent_id": None, "agent_type": "reviewer"}
    ran = hookrun(project, "PreToolUse", "--host", "claude", payload=main)
    context = json.loads(ran.stdout)["hookSpecificOutput"]["additionalContext"]
    assert context == "flat hook ran\nclaude entry"


def test_claude_redaction_reaches_updated_tool_output(project: Path) -> None:
    payload = fixture(
        "claude",
        "PostToolUse",
        project,
        tool_response={"stdout": "key AKIA2E0A8F3B244C9986", "stderr": "", "interrupted": False},
    )
    ran = hookrun(project, "PostToolUse", "--host", "claude", payload=payload)
    assert ran.returncode == 0, ran.stderr
    specific = json.loads(ran.stdout)["hookSpecificOutput"]
    assert "AKIA2E0A8F3B244C9986" not in specific["updatedToolOutput"]["stdout"]
    assert "[REDACTED:" in specific["updatedToolOutput"]["stdout"]


def test_an_unmapped_host_event_is_reported_on_stderr(project: Path) -> None:
    payload = {"hook_event_name": "BeforeModel", "cwd": str(project), "llm_request": {}}
    ran = hookrun(project, "BeforeModel", "--host", "gemini", payload=payload)
    assert ran.returncode == 0
    assert "Gemini CLI event 'BeforeModel' has no hookrun equivalent" in ran.stderr


def test_format_stays_an_alias_of_host(project: Path) -> None:
    payload = fixture("gemini", "BeforeTool", project)
    ran = hookrun(project, "BeforeTool", "--format", "gemini", payload=payload)
    assert ran.returncode == 2 and json.loads(ran.stdout)["decision"] == "deny"


def test_list_with_a_hosts_tool_name_shows_the_hooks_matching_its_kind(project: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("HOOKRUN")}
    env.update(PYTHONPATH=str(REPO), XDG_CONFIG_HOME=str(project / "xdg"))
    ran = subprocess.run(
        [sys.executable, "-m", "hookrun", "list", "PreToolUse", "--tool", "run_shell_command"],
        capture_output=True,
        text=True,
        cwd=project,
        env=env,
        timeout=60,
    )
    assert ran.returncode == 0, ran.stderr
    assert "builtin:shell-guard" in ran.stdout  # matcher ^shell$
    assert "claude entry" not in ran.stdout  # matcher Bash: a tool name, not a kind
