"""phase-gate (seed 000 P17): no file writes while the session waits for the user.

Squad's Init Mode must "not create any files until the user confirms"; any
workflow with a confirmation step has the same need. The current phase comes
from, first match wins (the source closest to this very call wins):

1. the payload: ``phase``, ``session_phase``, ``sessionPhase`` (the host knows best);
2. the environment variable ``phase_env`` (default ``HOOKRUN_PHASE``);
3. the state file ``.hookrun/state/phase`` (first line; a script or a person writes
   it: ``echo init-phase-1 > .hookrun/state/phase``, removes it to lift the gate);
4. the ``phase`` option (a fixed phase for this config).

During a phase listed in ``gated_phases`` (default ``init-phase-1``), write tools
are denied except for paths matching ``allow`` (globs). Shell commands are not
gated (commands that write are shell-guard's concern).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any, NamedTuple

from hookrun import fields as pl
from hookrun.hooks import file_edit, state
from hookrun.hooks.base import ALLOW, Policy, PolicyContext, Verdict

PHASE_FILE = "phase"
PAYLOAD_FIELDS = ("phase", "session_phase", "sessionPhase")


class PhaseGateOptions(NamedTuple):
    gated_phases: tuple[str, ...] = ("init-phase-1",)
    phase: str | None = None
    phase_env: str = "HOOKRUN_PHASE"
    tools: tuple[str, ...] = file_edit.WRITE_TOOLS
    allow: tuple[str, ...] = ()
    reason: str = "Awaiting user confirmation."


def _phase_file(state_dir: str) -> str | None:
    path = os.path.join(state_dir, PHASE_FILE)
    try:
        with open(path, encoding="utf-8") as f:
            first = f.readline().strip()
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as e:
        reason = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
        raise state.StateError(
            f"phase-gate: cannot read the phase file {path}: {reason} — fix it or delete it"
        ) from None
    return first or None


def current_phase(
    payload: Mapping[str, Any], opts: PhaseGateOptions, ctx: PolicyContext
) -> tuple[str, str] | None:
    """(phase, where it came from), by the documented precedence; None when unknown."""
    from_payload = pl.field_str(payload, *PAYLOAD_FIELDS)
    if from_payload:
        return from_payload, "payload"
    from_env = ctx.env.get(opts.phase_env)
    if from_env:
        return from_env, f"${opts.phase_env}"
    from_file = _phase_file(ctx.state_dir)
    if from_file:
        return from_file, ".hookrun/state/phase"
    if opts.phase:
        return opts.phase, "config"
    return None


def decide(payload: Mapping[str, Any], opts: PhaseGateOptions, ctx: PolicyContext) -> Verdict:
    tool = pl.tool_name(payload)
    if not file_edit.any_tool_in(pl.tool_names(payload), opts.tools):
        return ALLOW
    found = current_phase(payload, opts, ctx)
    if found is None:
        return ALLOW
    phase, source = found
    if phase.casefold() not in {p.casefold() for p in opts.gated_phases}:
        return ALLOW
    norm = file_edit.target(payload, ctx)
    shown = (norm.rel if norm and norm.rel else pl.file_path(payload)) or "a file"
    allowed = (
        norm is not None
        and norm.rel is not None
        and file_edit.matches_any(norm.rel, opts.allow, ignore_case=norm.ignore_case)
    )
    if allowed:
        return ALLOW
    return Verdict(
        decision="deny",
        rule="phase-gate",
        reason=(
            f"phase-gate: {opts.reason} No file is created or changed during phase "
            f"'{phase}' (from {source}): {tool} {shown} was not run. Ask the user to "
            "confirm, then continue."
        ),
    )


POLICY: Policy[PhaseGateOptions] = Policy(
    name="phase-gate",
    options=PhaseGateOptions,
    decide=decide,
)
