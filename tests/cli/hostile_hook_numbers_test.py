"""A hook's deny stays a deny in every host's shape when its JSON holds an integer past
Python's digit limit (4,300 digits since 3.11): valid JSON, which the hosts' own parsers
(JavaScript, serde_json) read as a float — hookrun read the whole answer as "not JSON"
and the deny became no opinion (exit 0). Through the real ``hookrun run``, one process
per host, with each host's payload."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from hookrun.runner.envelope import parse_stdout

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests/hosts/fixtures"
BIG = "9" * 5000

# (host, event, the payload's source, the deny's shape in stdout)
HOSTS = [
    (
        "claude",
        "PreToolUse",
        ("claude", "PreToolUse"),
        ("hookSpecificOutput", "permissionDecision"),
    ),
    ("codex", "PreToolUse", ("codex", "PreToolUse"), ("hookSpecificOutput", "permissionDecision")),
    ("gemini", "BeforeTool", ("gemini", "BeforeTool"), ("decision",)),
    ("copilot", "preToolUse", ("copilot", "preToolUse"), ("permissionDecision",)),
    ("cursor", "beforeShellExecution", None, ("permission",)),
    ("crush", "PreToolUse", None, ("decision",)),
    ("hookrun", "PreToolUse", None, ("decision",)),
]


def _payload(host: str, event: str, source: tuple[str, str] | None, cwd: Path) -> dict[str, Any]:
    if source is not None:
        payload: dict[str, Any] = json.loads((FIXTURES / f"{source[0]}.json").read_text())[
            source[1]
        ]
    elif host == "cursor":
        payload = {"hook_event_name": event, "command": "ls", "workspace_roots": [str(cwd)]}
    else:
        payload = {"hook_event_name": event, "tool_name": "bash", "tool_input": {"command": "ls"}}
    payload["cwd"] = str(cwd)
    return payload


@pytest.mark.parametrize(("host", "event", "source", "shape"), HOSTS, ids=[h[0] for h in HOSTS])
def test_a_deny_with_a_long_integer_field_is_a_deny(
    tmp_path: Path, host: str, event: str, source: tuple[str, str] | None, shape: tuple[str, ...]
) -> None:
    hook = tmp_path / "deny.sh"
    hook.write_text(
        "#!/bin/sh\n"
        f"""echo '{{"decision":"deny","reason":"not here","trace_id":{BIG}}}'\n"""
    )
    hook.chmod(0o755)
    (tmp_path / ".hookrun").mkdir()
    config = {"hooks": {"PreToolUse": [{"command": str(hook)}]}}
    (tmp_path / ".hookrun/hooks.json").write_text(json.dumps(config))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HOOKRUN", "GEMINI_"))}
    env.update(
        PYTHONPATH=str(REPO),
        XDG_CONFIG_HOME=str(tmp_path / "xdg"),
        XDG_CACHE_HOME=str(tmp_path / "cache"),
    )
    ran = subprocess.run(
        [sys.executable, "-m", "hookrun", "run", event, "--host", host],
        input=json.dumps(_payload(host, event, source, tmp_path)),
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=60,
        check=False,
    )
    assert ran.returncode == 2, ran.stderr
    out = json.loads(ran.stdout)
    for key in shape:
        out = out[key]
    assert out == "deny"
    assert "not here" in ran.stderr


def test_the_long_integer_is_read_as_json() -> None:
    answer = parse_stdout("PreToolUse", '{"decision": "deny", "n": -' + BIG + "}")
    assert answer.decision == "deny"
    assert answer.error is None
    assert parse_stdout("PreToolUse", '{"decision": "deny", "n": ' + BIG + " x}").decision is None
