"""Shared helpers of the reliability suite: real ``python -m hookrun`` processes, scaled counts,
and a scan of the process table for processes tagged with a marker.

``HOOKRUN_RELIABILITY_SCALE`` (default 1.0) multiplies every count of the suite; 0.1 gives a
quick smoke run, 1.0 the issue's numbers.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import psutil

from tests.hookrun_proc import Ran, hookrun_env

REPO = Path(__file__).resolve().parents[2]

# The keys of the aggregated answer (DESIGN "The aggregated answer"; README "The answer").
ANSWER_KEYS = frozenset(
    {
        "version",
        "event",
        "decision",
        "halt",
        "reason",
        "context",
        "context_files",
        "updated_input",
        "updated_prompt",
        "updated_output",
        "system_message",
        "hooks",
    }
)
HOOK_KEYS = frozenset(
    {"name", "source", "route", "exit_code", "duration_ms", "decision", "halt", "timed_out"}
    | {"error", "reason"}
)


def scale() -> float:
    raw = os.environ.get("HOOKRUN_RELIABILITY_SCALE", "1.0")
    try:
        return max(float(raw), 0.0)
    except ValueError:
        return 1.0


def scaled(count: int, minimum: int = 1) -> int:
    """``count`` times the suite's scale, never below ``minimum``."""
    return max(minimum, round(count * scale()))


def hookrun(
    *args: str,
    cwd: Path,
    stdin: bytes = b"",
    env: dict[str, str] | None = None,
    full_env: dict[Any, Any] | None = None,
    timeout: float = 60,
) -> Ran:
    """Run ``python -m hookrun ARGS`` to completion in ``cwd``.

    ``env`` adds to :func:`hookrun_env`; ``full_env`` replaces it (str or bytes items).
    """
    proc = subprocess.run(
        [sys.executable, "-m", "hookrun", *args],
        input=stdin,
        capture_output=True,
        cwd=cwd,
        env=full_env if full_env is not None else hookrun_env(cwd.parent, env),
        timeout=timeout,
    )
    return Ran(
        proc.returncode,
        proc.stdout.decode("utf-8", "replace"),
        proc.stderr.decode("utf-8", "replace"),
    )


def assert_answer(answer: Any, event: str = "PreToolUse") -> None:
    """``answer`` is a well-formed aggregated answer (a dict from ``to_dict`` or stdout)."""
    assert isinstance(answer, dict), answer
    assert set(answer) == ANSWER_KEYS, sorted(answer)
    assert answer["version"] == 1
    assert answer["event"] == event
    assert answer["decision"] in (None, "allow", "deny", "ask")
    assert isinstance(answer["halt"], bool)
    assert answer["reason"] is None or isinstance(answer["reason"], str)
    assert isinstance(answer["context"], list)
    assert all(isinstance(c, str) for c in answer["context"])
    for hook in answer["hooks"]:
        assert set(hook) >= HOOK_KEYS, sorted(hook)
    json.dumps(answer)  # serialisable as it stands


def assert_clean_failure(ran: Ran) -> None:
    """Exit 1 with one or more ``hookrun: …``-style lines and no traceback."""
    assert ran.code == 1, ran
    assert "Traceback" not in ran.err, ran.err
    assert ran.err.strip(), "an exit 1 must say why on stderr"
    assert ran.out == "", ran.out


def marked(marker: str) -> list[psutil.Process]:
    """Live (non-zombie) processes whose argv or environment carries ``marker``."""
    found = []
    for proc in psutil.process_iter(["cmdline", "status"]):
        try:
            if proc.info["status"] == psutil.STATUS_ZOMBIE:
                continue
            if marker in " ".join(proc.info["cmdline"] or []) or marker in _environ(proc):
                found.append(proc)
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
    return found


def _environ(proc: psutil.Process) -> str:
    try:
        with open(f"/proc/{proc.pid}/environ", "rb") as f:
            return f.read().decode("utf-8", "replace")
    except OSError:
        return ""


def wait_gone(marker: str, within: float = 10.0) -> list[psutil.Process]:
    """Survivors tagged with ``marker`` after waiting up to ``within`` seconds for them to end.

    A killed process may need a moment to be reaped by its (new) parent; a survivor that is
    still there after ``within`` is a real leak.
    """
    deadline = time.monotonic() + within
    while True:
        left = marked(marker)
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.05)


def kill_all(procs: list[psutil.Process]) -> None:
    """Clean up survivors a failing test found (only the ones this test tagged)."""
    for proc in procs:
        with contextlib.suppress(psutil.Error):
            proc.kill()
