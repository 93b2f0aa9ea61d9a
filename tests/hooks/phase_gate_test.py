from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from hookrun.hooks import phase_gate, registry
from hookrun.hooks.base import PolicyContext, Verdict
from hookrun.hooks.state import StateError


def _decide(
    tmp_path: Path,
    payload: dict[str, Any],
    env: dict[str, str] | None = None,
    phase_file: str | None = None,
    **opts: Any,
) -> Verdict:
    state_dir = tmp_path / ".hookrun" / "state"
    if phase_file is not None:
        state_dir.mkdir(parents=True, exist_ok=True)
        (state_dir / "phase").write_text(phase_file)
    ctx = PolicyContext(str(tmp_path), str(tmp_path), str(state_dir), env or {})
    return phase_gate.decide(payload, phase_gate.POLICY.bind(opts), ctx)


def _write(path: str = "team.md", tool: str = "Write", **extra: Any) -> dict[str, Any]:
    return {"tool_name": tool, "tool_input": {"file_path": path, "content": "x"}, **extra}


@pytest.mark.parametrize(
    ("payload", "env", "phase_file", "opts", "denied"),
    [
        (_write(phase="init-phase-1"), None, None, {}, True),
        (_write(session_phase="init-phase-1"), None, None, {}, True),
        (_write(sessionPhase="INIT-PHASE-1"), None, None, {}, True),
        (_write(tool="edit"), {"HOOKRUN_PHASE": "init-phase-1"}, None, {}, True),
        (_write(tool="create"), None, "init-phase-1\n", {}, True),
        (_write(), None, None, {"phase": "init-phase-1"}, True),
        (_write(phase="planning"), None, None, {"gated_phases": ["planning"]}, True),
        (_write(), {"SQUAD_PHASE": "init-phase-1"}, None, {"phase_env": "SQUAD_PHASE"}, True),
        # not gated
        (_write(phase="team-mode"), None, None, {}, False),
        (_write(), None, None, {}, False),
        (_write(tool="Read", phase="init-phase-1"), None, None, {}, False),
        (
            {"tool_name": "Bash", "tool_input": {"command": "touch x"}, "phase": "init-phase-1"},
            None,
            None,
            {},
            False,
        ),
        (
            _write(".squad/team.md", phase="init-phase-1"),
            None,
            None,
            {"allow": [".squad/**"]},
            False,
        ),
        (_write(), None, "\n", {}, False),
    ],
)
def test_writes_are_denied_during_a_gated_phase_only(
    tmp_path: Path,
    payload: dict[str, Any],
    env: dict[str, str] | None,
    phase_file: str | None,
    opts: dict[str, Any],
    denied: bool,
) -> None:
    verdict = _decide(tmp_path, payload, env, phase_file, **opts)
    assert (verdict.decision == "deny") is denied


@pytest.mark.parametrize(
    ("payload_phase", "env_phase", "file_phase", "option", "source"),
    [
        ("init-phase-1", "team-mode", "team-mode", "team-mode", "payload"),
        (None, "init-phase-1", "team-mode", "team-mode", "$HOOKRUN_PHASE"),
        (None, None, "init-phase-1", "team-mode", ".hookrun/state/phase"),
        (None, None, None, "init-phase-1", "config"),
    ],
)
def test_phase_sources_take_precedence_payload_env_file_option(
    tmp_path: Path,
    payload_phase: str | None,
    env_phase: str | None,
    file_phase: str | None,
    option: str,
    source: str,
) -> None:
    payload = _write(**({"phase": payload_phase} if payload_phase else {}))
    env = {"HOOKRUN_PHASE": env_phase} if env_phase else {}
    verdict = _decide(tmp_path, payload, env, file_phase, phase=option)
    assert verdict.decision == "deny"
    assert verdict.reason is not None and f"(from {source})" in verdict.reason


def test_the_reason_says_awaiting_confirmation_and_what_was_stopped(tmp_path: Path) -> None:
    verdict = _decide(tmp_path, _write("docs/plan.md", phase="init-phase-1"))
    assert verdict.reason == (
        "phase-gate: Awaiting user confirmation. No file is created or changed during phase "
        "'init-phase-1' (from payload): Write docs/plan.md was not run. Ask the user to "
        "confirm, then continue."
    )
    custom = _decide(tmp_path, _write(phase="init-phase-1"), reason="Roster not confirmed.")
    assert custom.reason is not None and custom.reason.startswith(
        "phase-gate: Roster not confirmed."
    )


def test_an_unreadable_phase_file_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / ".hookrun" / "state" / "phase").mkdir(parents=True)
    with pytest.raises(StateError, match="cannot read the phase file"):
        _decide(tmp_path, _write())


def test_the_policy_is_registered() -> None:
    assert registry.get("phase-gate") is phase_gate.POLICY
