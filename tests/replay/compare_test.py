"""What replay calls a change: a table of past outcomes against new answers."""

from __future__ import annotations

import pytest

from hookrun.replay.compare import changes
from hookrun.replay.sources import Outcome
from hookrun.runner.result import RunResult

ALLOWED = Outcome(None, False, None, (), None, True)
DENIED = Outcome("deny", False, "no", (), None, True)
UNKNOWN = Outcome(None, None, None, None, None, False)  # a transcript's "it ran"


@pytest.mark.parametrize(
    ("before", "after", "want"),
    [
        (ALLOWED, RunResult("PreToolUse"), []),
        (ALLOWED, RunResult("PreToolUse", decision="allow"), []),  # allow = no opinion for the host
        (ALLOWED, RunResult("PreToolUse", decision="deny"), ["allowed → denied"]),
        (DENIED, RunResult("PreToolUse"), ["denied → allowed"]),
        (DENIED, RunResult("PreToolUse", decision="ask"), ["denied → asked"]),
        (ALLOWED, RunResult("PreToolUse", halt=True), ["halt added"]),
        (ALLOWED, RunResult("PreToolUse", context=("x",)), ["context added"]),
        (ALLOWED._replace(context=("x",)), RunResult("PreToolUse"), ["context removed"]),
        (
            ALLOWED._replace(context=("x",)),
            RunResult("PreToolUse", context=("y",)),
            ["context changed"],
        ),
        (ALLOWED, RunResult("PreToolUse", updated_input={"a": 1}), ["input rewritten"]),
        (
            ALLOWED._replace(updated_input={"a": 1}),
            RunResult("PreToolUse"),
            ["input no longer rewritten"],
        ),
        # What the record does not know is not reported as a change.
        (UNKNOWN, RunResult("PreToolUse", halt=True, context=("x",), updated_input={"a": 1}), []),
        (UNKNOWN, RunResult("PreToolUse", decision="deny"), ["allowed → denied"]),
    ],
)
def test_changes_name_each_difference_the_record_can_tell(
    before: Outcome, after: RunResult, want: list[str]
) -> None:
    assert changes(before, after) == want
