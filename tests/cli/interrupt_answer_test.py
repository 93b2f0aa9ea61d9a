"""`hookrun run` interrupted (SIGINT / SIGTERM / SIGHUP) after a hook said no: the deny
or halt stands. Exiting 128 + N instead, as it did, is what every host reads as "the
hook failed, carry on": a deny turned into a non-blocking error, found by hand with a
denying hook next to a slow one (a host's own cancel, a hook's ``kill $PPID``).

Likewise a hook that fails closed (``on_error: deny``, or ``--fail-closed``) stopped by
the interrupt before it answered, on an event that can block: a deny, as when hookrun
cannot compute an answer at all. Anything else still exits 128 + N
(tests/cli/cli_signals_test.py). Real signals to a real ``python -m hookrun``.
"""

from __future__ import annotations

import json
import signal
import subprocess
import time
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from conftest import Project

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGHUP"), reason="POSIX signals")

PAYLOAD = {
    "session_id": "s1",
    "hook_event_name": "PreToolUse",
    "tool_name": "Bash",
    "tool_input": {"command": "ls"},
}
# Run by the in-process shell: says no, then leaves a mark (its answer is taken as it ends).
DENIER = {
    "name": "denier",
    "command": 'echo \'{"decision":"deny","reason":"no way"}\'; : > said',
    "timeout": 60,
}
HALTER = {"name": "halter", "command": "echo stop-the-turn >&2; : > said; exit 49", "timeout": 60}


def _slow(**extra: Any) -> dict[str, Any]:
    """A hook that waits for the other one's mark, says it is there, then hangs."""
    wait = "while [ ! -e said ]; do sleep 0.01; done; : > ready; sleep 300"
    return {"name": "slow", "command": wait, "timeout": 600, **extra}


def _interrupt(
    project: Project,
    sig: signal.Signals,
    *args: str,
    settle: float = 1.0,
    event: str = "PreToolUse",
    payload: dict[str, Any] = PAYLOAD,
) -> tuple[int, bytes, str]:
    """Run ``event``, send ``sig`` once ``ready`` exists and ``settle`` more seconds have
    passed (the other hook's answer taken by then), return what hookrun answered."""
    out_path, err_path = project.root.parent / "out", project.root.parent / "err"
    with out_path.open("wb") as out, err_path.open("wb") as err:
        proc = project.popen("run", event, *args, stdin=subprocess.PIPE, stdout=out, stderr=err)
    try:
        assert proc.stdin is not None
        proc.stdin.write(json.dumps(payload).encode())
        proc.stdin.close()
        ready = project.root / "ready"
        end = time.monotonic() + 60
        while not ready.exists() and time.monotonic() < end and proc.poll() is None:
            time.sleep(0.02)
        assert ready.exists(), "the slow hook never started"
        time.sleep(settle)
        proc.send_signal(sig)
        proc.wait(timeout=60)
        return proc.returncode, out_path.read_bytes(), err_path.read_text()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


SIGNALS = [signal.SIGINT, signal.SIGTERM, signal.SIGHUP]


@pytest.mark.timeout(120)
@pytest.mark.parametrize("sig", SIGNALS, ids=lambda s: s.name)
@pytest.mark.parametrize("host", ["hookrun", "claude", "gemini"])
def test_a_deny_given_before_the_interrupt_stands(
    project: Project, sig: signal.Signals, host: str
) -> None:
    project.hooks("PreToolUse", DENIER, _slow())
    code, out, err = _interrupt(project, sig, "--host", host)
    assert code == 2, (code, out, err)
    assert err.splitlines()[0] == "no way", err
    assert "interrupted: every hook was stopped; the deny stands" in err
    answer = json.loads(out)
    if host == "hookrun":
        assert (answer["decision"], answer["reason"]) == ("deny", "no way")
    elif host == "claude":
        specific = answer["hookSpecificOutput"]
        assert (specific["permissionDecision"], specific["permissionDecisionReason"]) == (
            "deny",
            "no way",
        )
    else:
        assert (answer["decision"], answer["reason"]) == ("deny", "no way")


@pytest.mark.timeout(120)
def test_a_halt_given_before_the_interrupt_stands(project: Project) -> None:
    project.hooks("PreToolUse", HALTER, _slow())
    code, out, err = _interrupt(project, signal.SIGTERM, "--host", "hookrun")
    assert code == 49, (code, out, err)
    assert json.loads(out)["halt"] is True
    assert "stop-the-turn" in err
    assert "interrupted: every hook was stopped; the halt given before it stands" in err


@pytest.mark.timeout(120)
@pytest.mark.parametrize("host", ["hookrun", "claude"])
def test_a_fail_closed_hook_stopped_before_it_answered_denies(project: Project, host: str) -> None:
    project.hooks("PreToolUse", _slow(on_error="deny"))
    (project.root / "said").write_text("")
    code, out, err = _interrupt(project, signal.SIGTERM, "--host", host, settle=0.2)
    assert code == 2, (code, out, err)
    reason = (
        "hookrun was interrupted by SIGTERM before hook slow, which fails closed, answered: denied"
    )
    assert err.splitlines()[0] == reason, err
    assert reason.encode() in out


@pytest.mark.timeout(120)
def test_fail_closed_flag_denies_an_interrupted_run(project: Project) -> None:
    project.hooks("PreToolUse", _slow())
    (project.root / "said").write_text("")
    code, out, err = _interrupt(project, signal.SIGINT, "--fail-closed", settle=0.2)
    assert code == 2, (code, out, err)
    assert "interrupted by SIGINT before a hook (--fail-closed) answered: denied" in err


@pytest.mark.timeout(120)
@pytest.mark.parametrize(
    ("event", "hook"),
    [
        ("PreToolUse", _slow()),  # no hook fails closed: the interrupt is the answer
        ("Notification", _slow(on_error="deny")),  # an event that cannot block
    ],
    ids=["fails-open", "cannot-block"],
)
def test_otherwise_an_interrupt_still_exits_128_plus_n(
    project: Project, event: str, hook: dict[str, Any]
) -> None:
    project.hooks(event, hook)
    (project.root / "said").write_text("")
    payload = {"session_id": "s1", "message": "hi"} if event == "Notification" else PAYLOAD
    code, out, err = _interrupt(project, signal.SIGTERM, settle=0.2, event=event, payload=payload)
    assert code == 143, (code, out, err)
    assert err.strip().splitlines()[-1] == "hookrun: interrupted: every hook was stopped", err
