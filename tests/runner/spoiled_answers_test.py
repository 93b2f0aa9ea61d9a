"""What the runner makes of a hook answer spoiled after the fact, or one that only
looks broken, run through the Runner with real shebang scripts (in-process, so the
coverage gate measures it):

- a hook that printed a complete deny (or halt) and was then killed by a signal: the
  deny stands, with the kill named — a guard that crashed after saying no still
  blocks; an allow printed before the kill is not taken (the hook's on_error decides);
- JSON with an integer past Python's int-string limit (4300 digits) is JSON all the
  same: the answer is read (json alone raises ValueError there; without the fallback a deny
  next to such a number would be lost under on_error: allow);
- ``context_files`` holding a NUL byte or a lone surrogate is a bad answer naming the
  field, not a crash later in os.path.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hookrun import RunResult
from tests.runner.api_test import BASH, hook, runner, script


def _run(root: Path, body: str, on_error: str = "allow") -> RunResult:
    command = script(root, "answer.py", body)
    return runner(root, hook(command, on_error=on_error)).run("PreToolUse", BASH)


_KILLED_AFTER = """
import json, os, signal, sys
sys.stdout.write(json.dumps({answer}))
sys.stdout.flush()
os.kill(os.getpid(), signal.{signal})
"""


@pytest.mark.parametrize("on_error", ["allow", "deny"])
def test_a_deny_printed_before_the_hook_was_killed_stands(tmp_path: Path, on_error: str) -> None:
    body = _KILLED_AFTER.format(
        answer='{"decision": "deny", "reason": "no force push"}', signal="SIGKILL"
    )
    result = _run(tmp_path, body, on_error)
    assert (result.decision, result.reason) == ("deny", "no force push")
    (ran,) = result.hooks
    assert ran.exit_code == 137
    assert ran.error == (
        "killed by signal 9 after its answer; the complete deny printed before it stands"
    )


def test_a_halt_printed_before_the_hook_was_killed_stands(tmp_path: Path) -> None:
    body = _KILLED_AFTER.format(answer='{"halt": True, "reason": "stop now"}', signal="SIGTERM")
    result = _run(tmp_path, body)
    assert (result.halt, result.reason, result.decision) == (True, "stop now", None)
    assert result.hooks[0].error == (
        "killed by signal 15 after its answer; the complete halt printed before it stands"
    )


@pytest.mark.parametrize(("on_error", "decision"), [("allow", None), ("deny", "deny")])
def test_an_allow_printed_before_the_hook_was_killed_is_not_taken(
    tmp_path: Path, on_error: str, decision: str | None
) -> None:
    body = _KILLED_AFTER.format(answer='{"decision": "allow"}', signal="SIGKILL")
    result = _run(tmp_path, body, on_error)
    assert result.decision == decision
    assert result.hooks[0].error == "exit 137"


_HUGE = "7" * 5000  # past sys.get_int_max_str_digits()'s default of 4300


def test_a_deny_beside_an_integer_of_5000_digits_is_read(tmp_path: Path) -> None:
    body = f"""
import sys
sys.stdout.write('{{"decision": "deny", "reason": "big", "n": {_HUGE}}}')
"""
    result = _run(tmp_path, body)
    assert (result.decision, result.reason) == ("deny", "big")
    assert result.hooks[0].error is None


def test_context_beside_an_integer_of_5000_digits_reaches_the_model(tmp_path: Path) -> None:
    body = f"""
import sys
sys.stdout.write('{{"context": "see the ledger", "n": [-{_HUGE}]}}')
"""
    result = _run(tmp_path, body)
    assert result.context == ("see the ledger",)
    assert result.hooks[0].error is None


@pytest.mark.parametrize(
    ("files", "index", "what"),
    [
        pytest.param(r'["README.md", "a\\u0000b"]', 1, "a NUL byte", id="nul"),
        pytest.param(r'["\\udc80x"]', 0, "a lone surrogate", id="surrogate"),
    ],
)
@pytest.mark.parametrize("on_error", ["allow", "deny"])
def test_a_context_file_no_file_system_can_name_is_a_bad_answer(
    tmp_path: Path, files: str, index: int, what: str, on_error: str
) -> None:
    body = f"""
import sys
sys.stdout.write('{{"context_files": {files}}}')
"""
    result = _run(tmp_path, body, on_error)
    problem = f'bad envelope: field "context_files[{index}]" holds {what}: not a file path'
    assert result.hooks[0].error == problem
    assert result.context_files == ()
    assert result.decision == (None if on_error == "allow" else "deny")
