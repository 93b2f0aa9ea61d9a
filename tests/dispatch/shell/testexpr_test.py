"""Conditional expressions: ``test`` by argument count."""

from __future__ import annotations

import pytest

from hookrun.dispatch.shell.testexpr import ConditionError, run_test


@pytest.mark.parametrize(
    ("args", "value"),
    [
        ([], False),
        (["x"], True),
        ([""], False),
        (["-n"], True),  # one argument: a non-empty string, not an operator
        (["!", ""], True),
        (["-z", ""], True),
        (["a", "=", "a"], True),
        (["!", "a", "=", "a"], False),
        (["(", "x", ")"], True),
        (["1", "-lt", "2", "-a", "b", "=", "c"], False),
        (["1", "-lt", "2", "-o", "b", "=", "c"], True),
        (["!", "(", "a", "=", "b", ")"], True),
        (["-d", "/"], True),
        (["-e", "/nonexistent-x"], False),
        (["b", ">", "a"], True),
    ],
)
def test_test_semantics(args: list[str], value: bool) -> None:
    assert run_test(args, "/") is value


@pytest.mark.parametrize(
    "args", [["a", "-eq", "1"], ["-q", "x"], ["(", "a"], ["a", "b", "c", "d", "e"]]
)
def test_malformed_test_raises(args: list[str]) -> None:
    with pytest.raises(ConditionError):
        run_test(args, "/")
