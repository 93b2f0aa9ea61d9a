#!/usr/bin/env python3
"""Dispatch cost, measured side by side in one run (interleaved, medians over N rounds).

  inline    ``echo '{"decision":"allow"}'`` through ``dispatch.run`` (in-process shell,
            no child) vs ``subprocess.run(["sh", "-c", …])``    target: ≥ 10× faster
  external  ``/bin/true`` by path through ``dispatch.run`` (binary route, stdout and
            stderr captured, payload on stdin) vs bare ``subprocess.run(["/bin/true"])``
            target: ≤ 1.2× its time. Also shown, not judged: ``subprocess.run`` doing the
            same work as dispatch (capture_output, input=payload).

Interleaving (A, B, A, B, …) keeps machine noise from favouring either side.

    python bench/dispatch_bench.py          # full (N = 400)
    python bench/dispatch_bench.py --quick  # N = 60 (CI smoke)
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

# Runnable from a plain checkout too (python bench/dispatch_bench.py), installed or not.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hookrun.dispatch import run  # noqa: E402

PAYLOAD = b'{"event":"PreToolUse","tool_name":"bash","tool_input":{"command":"ls"}}'
INLINE = 'echo \'{"decision":"allow"}\''


def _median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000.0


def _interleaved(fns: list[Callable[[], object]], rounds: int) -> list[float]:
    """Median ms of each function, calling them in turn ``rounds`` times."""
    for fn in fns:  # warm-up: imports, first-call caches
        for _ in range(5):
            fn()
    samples: list[list[float]] = [[] for _ in fns]
    for _ in range(rounds):
        for i, fn in enumerate(fns):
            start = time.perf_counter()
            fn()
            samples[i].append(time.perf_counter() - start)
    return [_median_ms(s) for s in samples]


def main(quick: bool = False) -> list[dict[str, Any]]:
    """Run both comparisons; print them and return one dict per comparison."""
    rounds = 60 if quick else 400
    env = dict(os.environ)
    cwd = os.getcwd()
    true = shutil.which("true", path="/bin:/usr/bin") or "/bin/true"
    sh = shutil.which("sh")
    results: list[dict[str, Any]] = []

    if sh is not None:

        def inline() -> object:
            return run(INLINE, cwd=cwd, env=env, stdin=PAYLOAD, timeout=30)

        def sh_c() -> object:
            return subprocess.run([sh, "-c", INLINE], input=PAYLOAD, capture_output=True)

        ours, theirs = _interleaved([inline, sh_c], rounds)
        results.append(
            _result("inline echo: dispatch vs sh -c", ours, theirs, "speedup", 10.0, rounds)
        )

    def external() -> object:
        return run(true, cwd=cwd, env=env, stdin=PAYLOAD, timeout=30)

    def bare() -> object:
        return subprocess.run([true])

    def same_work() -> object:
        return subprocess.run([true], input=PAYLOAD, capture_output=True, env=env)

    ours, theirs, equal = _interleaved([external, bare, same_work], rounds)
    results.append(
        _result(
            "external /bin/true: dispatch vs bare subprocess.run",
            ours,
            theirs,
            "slowdown",
            1.2,
            rounds,
        )
    )
    results.append(
        _result(
            "external /bin/true: dispatch vs subprocess.run(capture_output, input) (info)",
            ours,
            equal,
            "slowdown",
            None,
            rounds,
        )
    )
    for r in results:
        _print(r)
    return results


def _result(
    name: str, ours: float, theirs: float, kind: str, target: float | None, rounds: int
) -> dict[str, Any]:
    ratio = theirs / ours if kind == "speedup" else ours / theirs
    met = None if target is None else (ratio >= target if kind == "speedup" else ratio <= target)
    return {
        "name": name,
        "ours_ms": round(ours, 4),
        "theirs_ms": round(theirs, 4),
        "kind": kind,
        "ratio": round(ratio, 2),
        "target": target,
        "met": met,
        "rounds": rounds,
    }


def _print(r: dict[str, Any]) -> None:
    sign = "≥" if r["kind"] == "speedup" else "≤"
    target = "—" if r["target"] is None else f"{sign}{r['target']}×"
    verdict = {True: "met", False: "NOT met", None: "info"}[r["met"]]
    print(
        f"{r['name']}\n"
        f"    dispatch {r['ours_ms']:.3f} ms   baseline {r['theirs_ms']:.3f} ms   "
        f"{r['kind']} {r['ratio']:.2f}×   target {target}   {verdict}   "
        f"(median of {r['rounds']}, interleaved)"
    )


if __name__ == "__main__":
    main(quick="--quick" in sys.argv[1:])
