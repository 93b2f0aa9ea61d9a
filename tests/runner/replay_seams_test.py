"""The runner seams `hookrun test` and `hookrun replay` stand on, in-process.

A scratch state directory for the built-ins, no process started, and audit lines that
keep the (scrubbed) payload — each with real hooks and real files.
"""

from __future__ import annotations

import json
from pathlib import Path

from hookrun import Runner
from hookrun.config import load

TOKEN = "ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5"


def _config(tmp_path: Path, value: dict[str, object]) -> Path:
    path = tmp_path / "hooks.json"
    path.write_text(json.dumps(value), encoding="utf-8")
    return path


def test_an_audit_line_keeps_the_payload_with_secrets_redacted(tmp_path: Path) -> None:
    config = load(
        [
            _config(
                tmp_path,
                {
                    "audit_log": "audit.jsonl",
                    "audit_payload": True,
                    "hooks": {
                        "PreToolUse": [{"command": 'echo \'{"context": "k ' + TOKEN + "\"}'"}]
                    },
                },
            )
        ],
        cwd=tmp_path,
    )
    assert config.audit_payload is True
    with Runner(config, cwd=tmp_path, project_dir=tmp_path) as runner:
        runner.run("PreToolUse", {"tool_name": "Bash", "tool_input": {"command": f"echo {TOKEN}"}})
    text = (tmp_path / "audit.jsonl").read_text(encoding="utf-8")
    line = json.loads(text)
    assert TOKEN not in text
    assert line["payload"]["tool_input"]["command"].startswith("echo [REDACTED:")
    assert line["context"][0].startswith("k [REDACTED:")
    assert line["updated_input"] is None


def test_without_the_opt_in_an_audit_line_has_no_payload(tmp_path: Path) -> None:
    config = load(
        [_config(tmp_path, {"audit_log": "audit.jsonl", "hooks": {"Stop": [{"command": "true"}]}})],
        cwd=tmp_path,
    )
    with Runner(config, cwd=tmp_path, project_dir=tmp_path) as runner:
        runner.run("Stop", {})
    assert "payload" not in json.loads((tmp_path / "audit.jsonl").read_text(encoding="utf-8"))


def test_refusing_processes_keeps_builtins_and_fails_every_external_command(tmp_path: Path) -> None:
    script = tmp_path / "guard.sh"
    script.write_text("#!/bin/sh\ntouch ran-script\nexit 2\n", encoding="utf-8")
    script.chmod(0o755)
    config = load(
        [
            _config(
                tmp_path,
                {
                    "hooks": {
                        "PreToolUse": [
                            {"name": "script", "command": "./guard.sh", "on_error": "deny"},
                            {
                                "name": "inline",
                                "command": 'touch ran-inline; echo \'{"context": "c"}\'',
                            },
                        ]
                    }
                },
            )
        ],
        cwd=tmp_path,
    )
    with Runner(
        config, cwd=tmp_path, project_dir=tmp_path, refuse_processes="not run (replay)"
    ) as runner:
        result = runner.run("PreToolUse", {"tool_name": "Bash", "tool_input": {}})
    script_hook, inline_hook = result.hooks
    assert script_hook.exit_code == 126 and "not run (replay)" in (script_hook.error or "")
    assert result.decision == "deny"  # on_error: deny still decides when the script cannot run
    assert inline_hook.exit_code == 0 and result.context == ("c",)  # builtins ran
    assert not (tmp_path / "ran-script").exists()
    assert not (tmp_path / "ran-inline").exists()


def test_a_scratch_state_dir_takes_every_write_of_the_built_ins(tmp_path: Path) -> None:
    config = load(
        [
            _config(
                tmp_path,
                {
                    "hooks": {
                        "PreToolUse": [
                            {"builtin": "ask-user-limit", "with": {"max_per_session": 1}}
                        ]
                    }
                },
            )
        ],
        cwd=tmp_path,
    )
    scratch = tmp_path / "scratch"
    ask = {"session_id": "s", "tool_name": "AskUserQuestion", "tool_input": {}}
    with Runner(config, cwd=tmp_path, project_dir=tmp_path, state_dir=scratch) as runner:
        first, second = runner.run("PreToolUse", ask), runner.run("PreToolUse", ask)
    assert (first.decision, second.decision) == (None, "deny")
    assert list(scratch.iterdir())  # the counter lives here…
    assert not (tmp_path / ".hookrun").exists()  # …and not in the project
