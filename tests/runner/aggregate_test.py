from __future__ import annotations

from typing import Any

import pytest

from hookrun.runner.aggregate import Aggregate, aggregate
from hookrun.runner.envelope import HookAnswer as A

TOOL_INPUT = {"command": "rm -rf build", "timeout": 5}


@pytest.mark.parametrize(
    ("decisions", "expected"),
    [
        ([], None),
        ([None, None], None),
        ([None, "allow"], "allow"),
        (["allow", "ask"], "ask"),
        (["ask", "allow"], "ask"),
        (["allow", "deny", "ask"], "deny"),
        (["deny", "allow"], "deny"),
        ([None, "deny", None], "deny"),
    ],
)
def test_rule1_decision_precedence_deny_ask_allow_none(
    decisions: list[Any], expected: str | None
) -> None:
    assert aggregate([A(decision=d) for d in decisions], None).decision == expected


def test_rule2_halt_is_sticky_whatever_comes_after() -> None:
    agg = aggregate([A(halt=True, reason="stop"), A(decision="allow"), A()], None)
    assert agg.halt is True
    assert agg.reason == "stop"


@pytest.mark.parametrize(
    ("answers", "reason"),
    [
        ([A(decision="deny", reason="a"), A(decision="deny", reason="b")], "a\nb"),
        ([A(decision="allow", reason="auto-approved"), A(decision="deny", reason="no")], "no"),
        (
            [
                A(halt=True, reason="h"),
                A(decision="deny", reason="d"),
                A(decision="ask", reason="q"),
            ],
            "h\nd",
        ),
        (
            [A(decision="ask", reason="check this"), A(decision="allow", reason="fine")],
            "check this",
        ),
        ([A(decision="allow", reason="x"), A(decision="allow", reason="y")], "x\ny"),
        ([A(reason="note")], "note"),
        ([A(decision="deny")], None),
    ],
    ids=[
        "deny-reasons-joined",
        "allow-reason-hidden-on-deny",
        "halt-and-deny-reasons",
        "ask-reason-only",
        "allow-reasons",
        "reason-without-decision",
        "deny-without-reason",
    ],
)
def test_rule3_reasons_join_with_newline(answers: list[A], reason: str | None) -> None:
    assert aggregate(answers, None).reason == reason


def test_rule4_context_flattens_in_config_order_dropping_empties() -> None:
    agg = aggregate([A(context=("a", "b")), A(), A(context=("", "c"))], None)
    assert agg.context == ("a", "b", "c")


def test_rule5_context_files_concatenate_and_dedupe_in_order() -> None:
    agg = aggregate([A(context_files=("b", "a")), A(context_files=("a", "c"))], None)
    assert agg.context_files == ("b", "a", "c")


@pytest.mark.parametrize(
    ("answers", "expected"),
    [
        ([A()], None),
        ([A(patch_input={"command": "ls"})], {"command": "ls", "timeout": 5}),
        (
            [A(patch_input={"command": "ls", "x": 1}), A(patch_input={"command": "pwd"})],
            {"command": "pwd", "timeout": 5, "x": 1},
        ),
        ([A(replace_input={"command": "ls"})], {"command": "ls"}),
        (
            [A(patch_input={"x": 1}), A(replace_input={"command": "ls"}), A(patch_input={"y": 2})],
            {"command": "ls", "y": 2},
        ),
        (
            [A(replace_input={"command": "ls"}), A(patch_input={"command": "pwd"})],
            {"command": "pwd"},
        ),
        ([A(patch_input={})], dict(TOOL_INPUT)),
    ],
    ids=[
        "no-patch-is-null",
        "patch-merges-shallow",
        "later-patch-wins-on-same-key",
        "claude-replace",
        "replace-at-its-place-in-order",
        "patch-after-replace",
        "empty-patch-still-reports-input",
    ],
)
def test_rule6_updated_input_patches_merge_in_config_order(
    answers: list[A], expected: dict[str, Any] | None
) -> None:
    assert aggregate(answers, TOOL_INPUT).updated_input == expected


def test_rule6_patch_merge_is_shallow_nested_objects_are_replaced() -> None:
    agg = aggregate([A(patch_input={"opts": {"b": 2}})], {"opts": {"a": 1}})
    assert agg.updated_input == {"opts": {"b": 2}}


def test_rule6_original_tool_input_is_not_mutated() -> None:
    original = {"command": "x"}
    aggregate([A(patch_input={"command": "y"})], original)
    assert original == {"command": "x"}


def test_rule7_updated_prompt_and_output_last_writer_wins() -> None:
    agg = aggregate(
        [
            A(updated_prompt="first", updated_output="o1", has_updated_output=True),
            A(updated_prompt="second"),
            A(updated_output={"c": 2}, has_updated_output=True),
            A(),
        ],
        None,
    )
    assert agg.updated_prompt == "second"
    assert agg.updated_output == {"c": 2}


def test_rule7_an_empty_string_is_still_a_write() -> None:
    agg = aggregate([A(updated_prompt="x"), A(updated_prompt="")], None)
    assert agg.updated_prompt == ""


MUTATIONS = A(
    context=("ctx",),
    context_files=("README.md",),
    patch_input={"command": "ls"},
    updated_prompt="p",
    updated_output="o",
    has_updated_output=True,
)


@pytest.mark.parametrize(
    "blocker",
    [A(decision="deny", reason="no"), A(halt=True, reason="no")],
    ids=["deny", "halt"],
)
def test_rule8_deny_or_halt_drops_files_input_prompt_output_but_keeps_context(
    blocker: A,
) -> None:
    agg = aggregate([MUTATIONS, blocker], TOOL_INPUT)
    assert agg == Aggregate(
        decision=blocker.decision, halt=blocker.halt, reason="no", context=("ctx",)
    )


def test_ask_keeps_mutations() -> None:
    agg = aggregate([MUTATIONS, A(decision="ask")], TOOL_INPUT)
    assert agg.updated_input == {"command": "ls", "timeout": 5}
    assert agg.context_files == ("README.md",)


def test_errors_count_as_no_opinion() -> None:
    agg = aggregate([A(error="exit 1"), A(decision="allow")], None)
    assert agg.decision == "allow"
    assert agg.reason is None


def test_system_messages_join() -> None:
    agg = aggregate([A(system_message="a"), A(), A(system_message="b")], None)
    assert agg.system_message == "a\nb"


def test_order_is_the_list_order_not_anything_else() -> None:
    # The runner passes answers by config position; swapping them swaps the winner.
    first, second = A(updated_prompt="slow-first"), A(updated_prompt="fast-second")
    assert aggregate([first, second], None).updated_prompt == "fast-second"
    assert aggregate([second, first], None).updated_prompt == "slow-first"
