"""Comparing a case's expectation with a run's answer: only what the case names counts."""

from __future__ import annotations

from typing import Any

import pytest

from hookrun.configtests.expect import differences
from hookrun.runner.envelope import HookAnswer
from hookrun.runner.result import HookResult, RunResult

RESULT = RunResult(
    "PreToolUse",
    decision="deny",
    reason="rm -rf / deletes the root",
    context=("be careful", "second"),
    updated_input=None,
    hooks=(
        HookResult("guard", "c#0", "builtin:shell-guard", 2, 1.0, HookAnswer(decision="deny")),
        HookResult("log", "c#1", "inprocess", 1, 1.0, HookAnswer(error="exit 1")),
    ),
)


@pytest.mark.parametrize(
    ("expect", "want"),
    [
        ({"decision": "deny"}, []),
        ({"decision": "allow"}, ["decision: expected allow, got deny"]),
        ({"decision": "none"}, ["decision: expected none, got deny"]),
        ({"halt": True}, ["halt: expected true, got false"]),
        ({"exit_code": 2}, []),
        ({"exit_code": 0}, ["exit_code: expected 0, got 2"]),
        ({"reason_contains": ["rm -rf", "root"]}, []),
        (
            {"reason_contains": "nope"},
            ['reason: expected to contain "nope", got "rm -rf / deletes the root"'],
        ),
        ({"context_contains": "second"}, []),
        ({"updated_input": None}, []),
        (
            {"updated_input": {"command": "ls"}},
            ['updated_input: expected {"command": "ls"}, got null'],
        ),
        ({"hooks_ran": ["guard", "log"]}, []),
        (
            {"hooks_ran": ["log", "guard"]},
            ['hooks_ran: expected ["log", "guard"], got ["guard", "log"]'],
        ),
        ({"hooks_not_ran": ["guard"]}, ['hooks_not_ran: "guard" ran']),
        ({"no_errors": True}, ['no_errors: hook "log" failed: exit 1']),
        ({"context_files": []}, []),
    ],
)
def test_each_expectation_is_compared_with_the_answer(
    expect: dict[str, Any], want: list[str]
) -> None:
    assert differences(expect, RESULT) == want


def test_a_case_with_no_decision_expected_none_passes_on_no_opinion() -> None:
    assert differences({"decision": "none"}, RunResult("Stop")) == []
    assert differences({"decision": None}, RunResult("Stop")) == []
