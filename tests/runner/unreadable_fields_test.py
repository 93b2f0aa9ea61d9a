"""A fail-closed built-in given a field it cannot read denies, in the embedding API too.

tests/cli/wrong_typed_fields_test.py pins this through ``hookrun run`` subprocesses,
which the coverage gate does not measure; here the same config, loaded from a real
file by the real loader (no ``on_error`` written: each policy's own fail mode), runs
in-process through :class:`hookrun.Runner`. A ``command`` that is a list, a
``tool_input`` that is a number, a ``file_path`` that is not a string: the guard
cannot judge the call, so the call is denied with the field named — never waved
through as a non-blocking error. The same hook with ``on_error: allow`` written by the
user is that user's choice: no opinion, the error recorded.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hookrun import Runner
from hookrun.config import load

HOOKS = [
    {"name": "shell", "builtin": "shell-guard"},
    {"name": "write", "builtin": "write-guard", "matcher": "^(Write|Edit)$"},
]

ROWS = [
    ({"tool_name": "Bash", "tool_input": 5}, '"tool_input" is a number, not an object'),
    ({"tool_name": "Bash", "tool_input": ["rm", "-rf", "/"]}, '"tool_input" is an array'),
    (
        {"tool_name": "Bash", "tool_input": {"command": ["rm", "-rf", "/"]}},
        '"tool_input.command" is an array, not a string',
    ),
    (
        {"tool_name": "Write", "tool_input": {"file_path": 5, "content": "x"}},
        '"tool_input.file_path" is a number, not a string',
    ),
    (
        {"tool_name": "Edit", "tool_input": {"file_path": "a.txt", "path": ["/etc/passwd"]}},
        '"tool_input.path" is an array, not a string',
    ),
]
IDS = ["input-number", "input-array", "command-array", "file-path-number", "second-path"]


def _runner(root: Path, hooks: list[dict[str, Any]]) -> Runner:
    path = root / "hooks.json"
    path.write_text(json.dumps({"hooks": {"PreToolUse": hooks}}), encoding="utf-8")
    return Runner(load([path], cwd=root), cwd=root, project_dir=root)


@pytest.mark.parametrize(("payload", "reason"), ROWS, ids=IDS)
def test_a_fail_closed_builtin_denies_a_call_it_cannot_read(
    tmp_path: Path, payload: dict[str, Any], reason: str
) -> None:
    with _runner(tmp_path, HOOKS) as runner:
        result = runner.run("PreToolUse", payload)
    assert (result.decision, result.exit_code) == ("deny", 2), result.to_dict()
    assert reason in (result.reason or "")
    errors = [h.error for h in result.hooks if h.error]
    assert errors and all("cannot be judged" in e for e in errors), errors


@pytest.mark.parametrize(("payload", "reason"), ROWS, ids=IDS)
def test_on_error_allow_written_by_the_user_makes_it_an_error_not_a_deny(
    tmp_path: Path, payload: dict[str, Any], reason: str
) -> None:
    hooks = [{**h, "on_error": "allow"} for h in HOOKS]
    with _runner(tmp_path, hooks) as runner:
        result = runner.run("PreToolUse", payload)
    assert (result.decision, result.exit_code) == (None, 0), result.to_dict()
    errors = [h.error or "" for h in result.hooks]
    assert any(reason in e for e in errors), errors


def test_a_readable_call_beside_a_wrong_typed_common_field_is_judged(tmp_path: Path) -> None:
    payload = {"tool_name": "Bash", "session_id": [], "tool_input": {"command": "rm -rf /"}}
    with _runner(tmp_path, HOOKS) as runner:
        result = runner.run("PreToolUse", payload)
    assert (result.decision, result.exit_code) == ("deny", 2)
    assert [h.error for h in result.hooks] == [None]  # judged, not failed (write: no match)
