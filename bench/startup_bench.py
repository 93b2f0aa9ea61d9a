#!/usr/bin/env python3
"""Start-up of ``hookrun`` per event, as CPU time against ``python -c pass`` (issue 8).

A host starts ``hookrun`` once per event, so its start-up is hookrun's latency on
every tool call. Each case runs interleaved with ``python -c pass`` from the same
venv, and the figure is the median of the per-pair ratios of CPU time (user +
system of the child, from ``getrusage``): CPU time, unlike wall time, does not
count the time a loaded machine keeps the process waiting.

    python bench/startup_bench.py [--quick]

The cases (targets from issue 8):

* ``hookrun run``, a config of 3 inline hooks                        <= 2.5x
* ``hookrun run``, a config naming shell-guard, a benign Bash call   <= 3x
* the same config on SessionStart (no built-in runs)                 <= 2.5x
* ``hookrun policy shell-guard`` on the same Bash call               <= 3x, and faster
  than ``cc-safety-net hook -cc`` (npm, pinned in bench/package.json) on that payload.

cc-safety-net is installed into bench/node_modules with ``npm ci`` when missing; when
npm or the registry is unreachable that one figure is skipped with the reason.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from childenv import child_env

BENCH = Path(__file__).resolve().parent
CC_SAFETY_NET = BENCH / "node_modules" / ".bin" / "cc-safety-net"

INLINE = {
    "hooks": {
        "PreToolUse": [
            {"command": 'echo \'{"decision": "allow"}\''},
            {"command": 'echo \'{"context": "checked"}\''},
            {"matcher": "^edit$", "command": "exit 2"},
        ]
    }
}
GUARD = {
    "hooks": {
        "PreToolUse": [{"matcher": "Bash", "builtin": "shell-guard"}],
        "SessionStart": [{"command": "echo hi"}],
    }
}


def _payloads(cwd: str) -> tuple[bytes, bytes]:
    bash = {
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "cwd": cwd,
        "tool_input": {"command": "ls -la"},
    }
    start = {"hook_event_name": "SessionStart", "source": "startup", "cwd": cwd}
    return json.dumps(bash).encode(), json.dumps(start).encode()


def _hookrun() -> list[str]:
    exe = Path(sys.executable).with_name("hookrun")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "hookrun"]


def cpu_ms(argv: list[str], stdin: bytes, env: dict[str, str], cwd: str) -> float:
    """CPU time (user + system) of one run of ``argv``, in ms."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, input=stdin, env=env, cwd=cwd, capture_output=True, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    used = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return used * 1000.0


def ensure_cc_safety_net() -> str | None:
    """Install the pinned cc-safety-net with ``npm ci``; None when ready, else why not."""
    if CC_SAFETY_NET.exists():
        return None
    npm = shutil.which("npm")
    if npm is None:
        return "npm is not on PATH"
    try:
        done = subprocess.run(
            [npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund"],
            cwd=BENCH,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return "npm ci timed out (registry unreachable?)"
    if done.returncode != 0 or not CC_SAFETY_NET.exists():
        tail = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
        return f"npm ci failed: {tail[0]}"
    return None


def _answer_ok(argv: list[str], stdin: bytes, env: dict[str, str], cwd: str) -> str | None:
    """None when the command answers "allow" (exit 0, no deny), else what went wrong."""
    done = subprocess.run(argv, input=stdin, env=env, cwd=cwd, capture_output=True, check=False)
    if done.returncode != 0 or b"deny" in done.stdout:
        return f"exit {done.returncode}: {(done.stderr or done.stdout)[-200:]!r}"
    return None


def main(quick: bool = False) -> list[dict[str, Any]]:
    pairs = 15 if quick else 21  # issue 8: medians of at least 15 pairs
    hookrun = _hookrun()
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        # Bytecode under tmp, not in the tree; the warm-up run of each case writes it.
        env = child_env(os.path.join(tmp, "pycache"))
        (Path(tmp) / "inline.json").write_text(json.dumps(INLINE))
        (Path(tmp) / "guard.json").write_text(json.dumps(GUARD))
        bash, start = _payloads(tmp)
        cases: list[tuple[str, list[str], bytes, float]] = [
            (
                "run, 3 inline hooks",
                [*hookrun, "run", "PreToolUse", "--config", f"{tmp}/inline.json"],
                bash,
                2.5,
            ),
            (
                "run, config naming shell-guard, Bash `ls -la`",
                [*hookrun, "run", "PreToolUse", "--config", f"{tmp}/guard.json"],
                bash,
                3.0,
            ),
            (
                "run SessionStart, same config (no built-in runs)",
                [*hookrun, "run", "SessionStart", "--config", f"{tmp}/guard.json"],
                start,
                2.5,
            ),
            ("policy shell-guard, Bash `ls -la`", [*hookrun, "policy", "shell-guard"], bash, 3.0),
        ]
        skipped = ensure_cc_safety_net()
        net = [str(CC_SAFETY_NET), "hook", "-cc"]
        if skipped is None:
            skipped = _answer_ok(net, bash, env, tmp)
        bare = [sys.executable, "-c", "pass"]
        for label, argv, stdin, _ in cases:
            problem = _answer_ok(argv, stdin, env, tmp)
            if problem is not None:
                raise SystemExit(f"startup bench: {label}: {problem}")
            cpu_ms(argv, stdin, env, tmp)  # the first run may write bytecode
        cpu_ms(bare, b"", env, tmp)  # likewise the bare interpreter's own modules
        ratios: dict[str, list[float]] = {label: [] for label, *_ in cases}
        times: dict[str, list[float]] = {label: [] for label, *_ in cases}
        base: list[float] = []
        net_ms: list[float] = []
        for _ in range(pairs):
            for label, argv, stdin, _goal in cases:
                ours = cpu_ms(argv, stdin, env, tmp)
                bare_ms = cpu_ms(bare, b"", env, tmp)
                base.append(bare_ms)
                times[label].append(ours)
                if bare_ms > 0:
                    ratios[label].append(ours / bare_ms)
            if skipped is None:
                net_ms.append(cpu_ms(net, bash, env, tmp))
        for label, _argv, _stdin, goal in cases:
            rows.append(
                {
                    "case": label,
                    "ratio": round(statistics.median(ratios[label]), 2),
                    "goal": goal,
                    "median_ms": round(statistics.median(times[label]), 1),
                    "python_c_pass_ms": round(statistics.median(base), 1),
                    "pairs": pairs,
                }
            )
        policy_ms = statistics.median(times[cases[-1][0]])
        if skipped is None:
            theirs = statistics.median(net_ms)
            rows.append(
                {
                    "case": "hookrun policy shell-guard vs cc-safety-net hook -cc",
                    "ratio": round(policy_ms / theirs, 2),
                    "goal": 1.0,
                    "median_ms": round(policy_ms, 1),
                    "cc_safety_net_ms": round(theirs, 1),
                    "cc_safety_net_vs_python": round(theirs / statistics.median(base), 2),
                    "pairs": pairs,
                }
            )
        else:
            rows.append(
                {
                    "case": "hookrun policy shell-guard vs cc-safety-net hook -cc",
                    "ratio": None,
                    "goal": 1.0,
                    "skipped": skipped,
                }
            )
    return rows


def _print(rows: list[dict[str, Any]]) -> None:
    for r in rows:
        if r.get("ratio") is None:
            print(f"  {r['case']}: skipped ({r.get('skipped')})")
        elif "cc_safety_net_ms" in r:
            print(
                f"  {r['case']}: {r['ratio']:.2f}x the CPU time (goal < 1) — hookrun "
                f"{r['median_ms']} ms, cc-safety-net {r['cc_safety_net_ms']} ms "
                f"({r['cc_safety_net_vs_python']}x python -c pass)"
            )
        else:
            print(
                f"  {r['case']}: {r['ratio']:.2f}x python -c pass (goal <= {r['goal']}x; "
                f"{r['median_ms']} ms vs {r['python_c_pass_ms']} ms, {r['pairs']} pairs)"
            )


if __name__ == "__main__":
    _print(main("--quick" in sys.argv[1:]))
