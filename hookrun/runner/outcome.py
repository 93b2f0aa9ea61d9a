"""How a hook ended (exit code, timeout, crash) → its answer, with ``on_error`` applied.

Pure. The exit-code contract is Crush's and Claude Code's: 0 = read stdout, 2 = deny
with stderr as the reason (only where the host can still refuse), 49 = halt the
turn. Anything else is the hook failing, which counts as "no opinion" (fail-open)
unless the hook says ``on_error: deny`` (fail-closed).
"""

from __future__ import annotations

from hookrun import exitcodes
from hookrun.runner.envelope import HookAnswer, parse_stdout
from hookrun.runner.events import BLOCKING_EVENTS

# 49 sits in an empty slice of the exit-code space: above the generic errors (1–30),
# below the sysexits range (64–78) and the killed-by-signal range (128+), so no tool
# exits with it by accident (Crush's choice, kept so Crush hooks run unchanged).

_STDERR_SHOWN = 300  # characters of stderr quoted in an error; the rest is noise


def _tail(stderr: bytes) -> str:
    text = stderr.decode("utf-8", "replace").strip()
    if len(text) > _STDERR_SHOWN:
        text = "…" + text[-_STDERR_SHOWN:]
    return text


def failed(name: str, on_error: str, problem: str) -> HookAnswer:
    """The answer of a hook that could not give one."""
    if on_error == "deny":
        return HookAnswer(
            decision="deny",
            reason=f"hook {name} failed ({problem}) and is set to on_error: deny",
            error=problem,
        )
    return HookAnswer(error=problem)


def interpret(
    *,
    event: str,
    name: str,
    on_error: str,
    exit_code: int,
    stdout: bytes,
    stderr: bytes,
    timeout: float,
    timed_out: bool = False,
    cancelled: bool = False,
    error: str | None = None,
    truncated: bool = False,
) -> HookAnswer:
    """One finished command → its answer. ``error`` is dispatch's own explanation."""
    if cancelled:
        # The whole run is being interrupted; on_error is about the hook, not the host.
        return HookAnswer(error="cancelled")
    if timed_out:
        return failed(name, on_error, f"timed out after {timeout:g}s")
    if error is not None:
        return failed(name, on_error, error)
    if exit_code == 0:
        answer = parse_stdout(event, stdout)
        if answer.error is None:
            return answer
        problem = answer.error
        if truncated:
            problem += " (stdout was cut at the capture limit)"
        return failed(name, on_error, problem)
    reason = stderr.decode("utf-8", "replace").strip()
    if exit_code == exitcodes.DENY:
        if event in BLOCKING_EVENTS:
            return HookAnswer(decision="deny", reason=reason or f"denied by hook {name}")
        problem = f"exit 2 (deny) on {event}, which cannot be blocked"
        return failed(name, on_error, f"{problem}: {reason}" if reason else problem)
    if exit_code == exitcodes.HALT:
        return HookAnswer(halt=True, reason=reason or f"turn halted by hook {name}")
    detail = _tail(stderr)
    problem = f"exit {exit_code}" + (f": {detail}" if detail else "")
    return failed(name, on_error, problem)
