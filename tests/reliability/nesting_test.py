"""Deeply nested JSON — the one input Python's json module answers with ``RecursionError``
instead of ``ValueError`` — as payload, as a pre-serialised ``tool_input``, and as hook stdout:
a payload error or a hook's "no opinion", never an exception escaping ``Runner.run`` and never
an "internal error" that loses the hook's real exit code."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hookrun.runner import PayloadError, Runner
from tests.reliability.helpers import assert_answer, assert_clean_failure, hookrun, hookrun_env

DEPTH = 100_000


def _deep_list(depth: int) -> Any:
    value: Any = []
    for _ in range(depth):
        value = [value]
    return value


DEEP_TEXT = "[" * DEPTH + "]" * DEPTH


def _runner(tmp_path: Path, hooks: list[dict[str, Any]]) -> Runner:
    (tmp_path / "hooks.json").write_text(json.dumps({"hooks": {"PreToolUse": hooks}}))
    return Runner.from_paths([tmp_path / "hooks.json"], cwd=tmp_path)


def test_a_deeply_nested_payload_object_is_still_answered(tmp_path: Path) -> None:
    # Issue 9: any JSON value in a payload field gets the hooks' answer, never "no answer"
    # (runner/payload.py encodes any depth through runner/wire.py).
    runner = _runner(tmp_path, [{"command": 'echo \'{"decision": "deny"}\''}])
    payload = {"tool_name": "bash", "tool_input": {"command": "ls", "x": _deep_list(5000)}}
    result = runner.run("PreToolUse", payload)
    assert result.decision == "deny"
    assert [hook.error for hook in result.hooks] == [None]
    assert_answer(result.to_dict())


def test_a_deeply_nested_tool_input_string_is_a_payload_error_or_an_answer(
    tmp_path: Path,
) -> None:
    runner = _runner(tmp_path, [{"command": "echo '{}'"}])
    try:
        result = runner.run("PreToolUse", {"tool_name": "bash", "tool_input": DEEP_TEXT})
    except PayloadError:
        return
    assert_answer(result.to_dict())


def test_a_deeply_nested_payload_on_stdin_is_exit_1_with_a_clear_line(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    (root / ".hookrun").mkdir(parents=True)
    (root / ".hookrun" / "hooks.json").write_text(
        json.dumps({"hooks": {"PreToolUse": [{"command": "echo '{}'"}]}})
    )
    stdin = ('{"tool_name": "bash", "tool_input": {"x": ' + DEEP_TEXT + "}}").encode()
    ran = hookrun("run", "PreToolUse", cwd=root, stdin=stdin, env=hookrun_env(tmp_path))
    assert_clean_failure(ran)
    assert "nested too deeply" in ran.err, ran.err


@pytest.mark.parametrize(
    "stdout",
    [DEEP_TEXT, '{"updated_input": "' + "[" * DEPTH + "]" * DEPTH + '"}'],
    ids=["stdout", "updated-input-string"],
)
def test_a_hook_printing_deeply_nested_json_is_no_opinion_with_its_real_exit_code(
    tmp_path: Path, stdout: str
) -> None:
    (tmp_path / "deep.json").write_text(stdout)
    runner = _runner(tmp_path, [{"name": "deep", "command": f"cat {tmp_path / 'deep.json'}"}])
    result = runner.run("PreToolUse", {"tool_name": "bash", "tool_input": {"command": "ls"}})
    assert_answer(result.to_dict())
    hook = result.hooks[0]
    assert hook.exit_code == 0, hook
    assert hook.route == "inprocess", hook
    assert hook.error and "internal error" not in hook.error, hook
