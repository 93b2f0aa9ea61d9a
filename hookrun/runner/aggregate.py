"""Every selected hook's answer, in config order → the event's one answer. Pure.

The answers arrive in a list indexed by config position, whatever order the hooks
finished in, so the composition is deterministic: a slow first hook's patch still
loses to a fast later one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from hookrun.records import TYPE_CHECKING, NamedTuple
from hookrun.runner.envelope import DECISION_RANK, HookAnswer

if TYPE_CHECKING:
    from typing import Any

    from hookrun.runner.envelope import Decision


class Aggregate(NamedTuple):
    decision: Decision | None = None
    halt: bool = False
    reason: str | None = None
    context: tuple[str, ...] = ()
    context_files: tuple[str, ...] = ()  # as written, exact duplicates removed
    updated_input: Mapping[str, Any] | None = None  # the whole new input; None = unchanged
    updated_prompt: str | None = None
    updated_output: Any = None
    system_message: str | None = None


def _reasons(answers: Sequence[HookAnswer], decision: Decision | None, blocked: bool) -> list[str]:
    """The reasons that explain the outcome.

    On deny or halt, the reasons of the hooks that denied or halted (an "allow" hook's
    "auto-approved" would only confuse). Otherwise the reasons of the hooks that gave
    the winning decision; with no decision at all, every reason given.
    """
    out: list[str] = []
    for answer in answers:
        if not answer.reason:
            continue
        if blocked:
            keep = answer.halt or answer.decision == "deny"
        else:
            keep = decision is None or answer.decision == decision
        if keep:
            out.append(answer.reason)
    return out


def aggregate(answers: Sequence[HookAnswer], tool_input: Mapping[str, Any] | None) -> Aggregate:
    """Compose answers given in config order (DESIGN "Aggregation", rules 1–8).

    1. decision: deny > ask > allow > none. 2. halt is sticky. 3. reasons join with
    "\\n". 4. context entries flatten, empties dropped. 5. context_files concatenate,
    deduped (resolution against the file system is :mod:`context_files`' job).
    6. updated_input patches shallow-merge in order onto ``tool_input``; a Claude
    ``updatedInput`` replaces the whole input at its place in that order.
    7. updated_prompt / updated_output: last writer wins. 8. on deny or halt, 5–7 are
    dropped.
    """
    decision: Decision | None = None
    halt = False
    context: list[str] = []
    files: list[str] = []
    current: dict[str, Any] = dict(tool_input or {})
    input_changed = False
    prompt: str | None = None
    output: Any = None
    system: list[str] = []
    for answer in answers:
        if DECISION_RANK[answer.decision] > DECISION_RANK[decision]:
            decision = answer.decision
        halt = halt or answer.halt
        context.extend(c for c in answer.context if c.strip())
        files.extend(f for f in answer.context_files if f not in files)
        if answer.replace_input is not None:
            current = dict(answer.replace_input)
            input_changed = True
        if answer.patch_input is not None:
            current.update(answer.patch_input)
            input_changed = True
        if answer.updated_prompt is not None:
            prompt = answer.updated_prompt
        if answer.has_updated_output:
            output = answer.updated_output
        if answer.system_message:
            system.append(answer.system_message)

    blocked = halt or decision == "deny"
    reasons = _reasons(answers, decision, blocked)
    if blocked:
        return Aggregate(
            decision=decision,
            halt=halt,
            reason="\n".join(reasons) or None,
            context=tuple(context),
            system_message="\n".join(system) or None,
        )
    return Aggregate(
        decision=decision,
        halt=halt,
        reason="\n".join(reasons) or None,
        context=tuple(context),
        context_files=tuple(files),
        updated_input=current if input_changed else None,
        updated_prompt=prompt,
        updated_output=output,
        system_message="\n".join(system) or None,
    )
