"""What a new decision changes against the past one: short labels a person scans. Pure."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hookrun.replay.sources import Outcome
from hookrun.runner.result import RunResult


def _verdict(decision: str | None) -> str:
    return {"deny": "denied", "ask": "asked"}.get(decision or "", "allowed")


def changes(before: Outcome, after: RunResult) -> list[str]:
    """Each way ``after`` differs from ``before`` as far as the record knows ``before``.

    "allowed" covers an explicit allow and no opinion alike: for the host both let the
    call run.
    """
    out: list[str] = []
    old, new = _verdict(before.decision), _verdict(after.decision)
    if old != new:
        out.append(f"{old} → {new}")
    if before.halt is not None and before.halt != after.halt:
        out.append("halt added" if after.halt else "halt removed")
    if before.context is not None and tuple(before.context) != tuple(after.context):
        if not before.context:
            out.append("context added")
        elif not after.context:
            out.append("context removed")
        else:
            out.append("context changed")
    if before.known_input and _input(before.updated_input) != _input(after.updated_input):
        if before.updated_input is None:
            out.append("input rewritten")
        elif after.updated_input is None:
            out.append("input no longer rewritten")
        else:
            out.append("input rewritten differently")
    return out


def _input(value: Mapping[str, Any] | None) -> dict[str, Any] | None:
    return None if value is None else dict(value)
