"""Issue 9 items 1 and 3, through the real ``hookrun`` command: whatever bytes a hook's
answer holds, the host gets the decision the hooks made — its exit code, and a stdout
that is UTF-8 JSON — and a bad field costs the answer of the hook that sent it only."""

from __future__ import annotations

import json
import subprocess
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from conftest import Project


def _run(project: Project, *args: str, payload: dict[str, Any]) -> tuple[int, Any, str]:
    """Exit code, stdout decoded strictly (UTF-8, then JSON), stderr."""
    proc = project.popen(
        *args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    out, err = proc.communicate(json.dumps(payload).encode(), timeout=60)
    text = out.decode("utf-8")  # strict: a lone surrogate must never reach the bytes
    return proc.returncode, json.loads(text), err.decode("utf-8", "replace")


def _echo(answer: str) -> str:
    """An inline hook printing ``answer`` (JSON text, escapes kept as written)."""
    return "echo '" + answer + "'"


RM = {"tool_name": "bash", "tool_input": {"command": "rm -rf /"}}

# (hook answer as JSON text, expected exit per format, a key that must hold U+FFFD)
SURROGATE_ANSWERS = [
    pytest.param(
        r'{"decision":"deny","reason":"no \ud800"}',
        {"hookrun": 2, "claude": 2, "crush": 2},
        id="reason",
    ),
    pytest.param(
        r'{"decision":"ask","system_message":"look \udfff"}',
        # Crush cannot ask (it would run the tool): its shape denies.
        {"hookrun": 0, "claude": 0, "crush": 2},
        id="system_message",
    ),
    pytest.param(
        r'{"decision":"allow","updated_input":{"command":"ls \ud800"}}',
        {"hookrun": 0, "claude": 0, "crush": 0},
        id="updated_input-object",
    ),
    pytest.param(
        r'{"updated_input":"{\"command\": \"ls \\ud800\"}"}',
        {"hookrun": 0, "claude": 0, "crush": 0},
        id="updated_input-json-string",
    ),
    pytest.param(
        r'{"halt":true,"reason":"stop \udc80"}',
        {"hookrun": 49, "claude": 0, "crush": 49},
        id="halt-reason",
    ),
    pytest.param(
        r'{"context":["ctx \ud800"]}',
        {"hookrun": 0, "claude": 0, "crush": 0},
        id="context",
    ),
]


@pytest.mark.parametrize(("answer", "codes"), SURROGATE_ANSWERS)
@pytest.mark.parametrize("fmt", ["hookrun", "claude", "crush"])
def test_a_lone_surrogate_in_an_answer_keeps_the_decision_and_stdout_is_utf8_json(
    project: Project, answer: str, codes: dict[str, int], fmt: str
) -> None:
    project.hooks("PreToolUse", {"name": "guard", "command": _echo(answer)})
    code, out, err = _run(project, "run", "PreToolUse", "--format", fmt, payload=RM)
    assert code == codes[fmt], err
    if not (fmt == "crush" and "system_message" in answer):  # a field Crush has not
        assert "\ufffd" in json.dumps(out, ensure_ascii=False)
    assert "internal error" not in err


@pytest.mark.parametrize("tool", ["Write", "Edit", "MultiEdit", "NotebookEdit"])
def test_write_guard_denies_a_path_with_a_lone_surrogate(project: Project, tool: str) -> None:
    payload = {
        "tool_name": tool,
        "tool_input": {
            "file_path": "/etc/passwd\ud800",
            "notebook_path": "/etc/passwd\ud800",
            "content": "x",
        },
    }
    code, out, err = _run(project, "policy", "write-guard", payload=payload)
    assert (code, out["decision"]) == (2, "deny"), err
    assert "/etc/passwd\ufffd" in out["reason"]


def test_pii_scrubber_redacts_an_output_holding_a_lone_surrogate(project: Project) -> None:
    payload = {"tool_name": "Bash", "tool_output": "a@b.com \udfff"}
    code, out, err = _run(
        project, "policy", "pii-scrubber", "--event", "PostToolUse", payload=payload
    )
    assert code == 0, err
    assert out["updated_output"] == "[REDACTED:email] \ufffd"


BAD_FIELDS = [
    pytest.param(
        r'{"context_files":["a\u0000b"]}', 'field "context_files[0]" holds a NUL byte', id="nul"
    ),
    pytest.param(
        r'{"context_files":["a\ud800b"]}',
        'field "context_files[0]" holds a lone surrogate',
        id="surrogate",
    ),
    pytest.param(
        r'{"context_files":"a.txt"}', 'field "context_files" must be a list', id="not-a-list"
    ),
]


@pytest.mark.parametrize(("bad", "error"), BAD_FIELDS)
def test_a_bad_field_costs_that_hooks_answer_only(project: Project, bad: str, error: str) -> None:
    project.write("README.md", "hi")
    project.hooks(
        "PreToolUse",
        {"name": "bad", "command": _echo(bad)},
        {"name": "asker", "command": _echo('{"decision":"ask","updated_input":{"command":"ls"}}')},
        {"name": "files", "command": _echo('{"context_files":["README.md"]}')},
    )
    code, out, err = _run(project, "run", "PreToolUse", payload=RM)
    assert code == 0, err
    assert out["decision"] == "ask"
    assert out["updated_input"] == {"command": "ls"}
    assert out["context_files"] == ["README.md"]
    bad_hook, asker, files = out["hooks"]
    assert bad_hook["error"].startswith("bad envelope: " + error)
    assert (asker["error"], files["error"]) == (None, None)


def test_a_bad_field_in_a_fail_closed_hook_denies(project: Project) -> None:
    project.hooks(
        "PreToolUse",
        {"name": "bad", "on_error": "deny", "command": _echo(r'{"context_files":["a\u0000b"]}')},
    )
    code, out, _ = _run(project, "run", "PreToolUse", payload=RM)
    assert (code, out["decision"]) == (2, "deny")
