"""Properties that must hold for any input: parsing never crashes, aggregation obeys its
rules whatever the answers and their order."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from hookrun.runner.aggregate import aggregate
from hookrun.runner.envelope import DECISION_RANK, HookAnswer, parse_envelope, parse_stdout

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)
FIELDS = st.sampled_from(
    [
        "decision", "halt", "reason", "context", "context_files", "updated_input",
        "updated_prompt", "updated_output", "system_message", "systemMessage", "continue",
        "stopReason", "hookSpecificOutput", "version", "additionalContext",
    ]
)  # fmt: skip
ENVELOPES = st.dictionaries(FIELDS, JSON, max_size=6)


@settings(max_examples=300, deadline=None)
@given(ENVELOPES)
def test_any_object_parses_to_an_answer_or_a_recorded_error(obj: dict[str, Any]) -> None:
    answer = parse_envelope(obj)
    if answer.error is not None:
        assert answer == HookAnswer(error=answer.error)  # an error carries nothing else


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=64), st.sampled_from(["PreToolUse", "UserPromptSubmit", "X"]))
def test_any_bytes_on_stdout_parse_without_raising(data: bytes, event: str) -> None:
    assert isinstance(parse_stdout(event, data), HookAnswer)


DECISIONS = st.sampled_from([None, "allow", "ask", "deny"])
ANSWERS = st.builds(
    HookAnswer,
    decision=DECISIONS,
    halt=st.booleans(),
    reason=st.none() | st.text(min_size=1, max_size=4),
    context=st.lists(st.text(max_size=3), max_size=2).map(tuple),
    context_files=st.lists(st.sampled_from(["a", "b", "c"]), max_size=2).map(tuple),
    patch_input=st.none() | st.dictionaries(st.sampled_from("xyz"), st.integers(), max_size=2),
    updated_prompt=st.none() | st.text(max_size=3),
    replace_input=st.none(),
    updated_output=st.none(),
    has_updated_output=st.just(False),
    system_message=st.none(),
    error=st.none(),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(ANSWERS, max_size=6))
def test_aggregation_rules_hold_for_any_answers(answers: list[HookAnswer]) -> None:
    agg = aggregate(answers, {"x": 0})
    strongest = max((a.decision for a in answers), key=DECISION_RANK.__getitem__, default=None)
    assert agg.decision == strongest
    assert agg.halt == any(a.halt for a in answers)
    assert agg.context == tuple(c for a in answers for c in a.context if c.strip())
    if agg.halt or agg.decision == "deny":
        assert (agg.context_files, agg.updated_input, agg.updated_prompt) == ((), None, None)
    else:
        prompts = [a.updated_prompt for a in answers if a.updated_prompt is not None]
        assert agg.updated_prompt == (prompts[-1] if prompts else None)
        patches = [a.patch_input for a in answers if a.patch_input is not None]
        expected: dict[str, int] | None = None
        if patches:
            expected = {"x": 0}
            for patch in patches:
                expected.update(patch)
        assert agg.updated_input == expected
        assert len(set(agg.context_files)) == len(agg.context_files)


@settings(max_examples=100, deadline=None)
@given(st.lists(ANSWERS, min_size=1, max_size=5))
def test_the_decision_and_halt_do_not_depend_on_order(answers: list[HookAnswer]) -> None:
    forward, backward = aggregate(answers, None), aggregate(answers[::-1], None)
    assert (forward.decision, forward.halt) == (backward.decision, backward.halt)
