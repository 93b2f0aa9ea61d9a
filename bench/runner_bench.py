#!/usr/bin/env python3
"""Runner overhead, embedded (``Runner.run``): what hookrun adds around the hooks themselves.

For N = 1, 4, 16 matching hooks, each kind:
  inprocess  ``echo '{"version": 1, "n": i}'`` — the in-process shell, no child process
  external   ``/bin/true i`` — one child process per hook (binary route, no shell)
  builtin    a trivial built-in policy — no process, no shell
it prints the median wall time of one ``Runner.run`` and that time per hook, next to the
median of one bare ``dispatch.run`` of the same command (what a single hook costs
without the runner). Then the parallel speed-up: 16 hooks each sleeping 0.2 s must
answer in ≤ 0.3 s of wall time (sequential would be 3.2 s). Last, embedded vs CLI: the
same hooks through a fresh ``hookrun run`` process, and its cold start against
``python -c pass`` (target ≤ 4×).

    python bench/runner_bench.py          # full
    python bench/runner_bench.py --quick  # fewer rounds (CI smoke)
"""

from __future__ import annotations

import functools
import os
import shutil
import statistics
import sys
import tempfile
import time
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

# Runnable from a plain checkout too (python bench/runner_bench.py), installed or not.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from childenv import child_env  # noqa: E402

from hookrun import Runner  # noqa: E402
from hookrun.config.spec import Config, HookSpec  # noqa: E402
from hookrun.hooks import registry  # noqa: E402
from hookrun.hooks.base import Policy, PolicyContext, Verdict  # noqa: E402

PAYLOAD = {"tool_name": "bash", "tool_input": {"command": "ls"}, "session_id": "bench"}
SIZES = (1, 4, 16)


def _spec(i: int, *, command: str | None = None, builtin: str | None = None) -> HookSpec:
    return HookSpec(
        event="PreToolUse",
        source=f"bench#PreToolUse[{i}]",
        name=f"h{i}",
        command=command,
        builtin=builtin,
        # Distinct options: identical builtins would be deduped to one.
        options={"n": i} if builtin else {},
    )


class _BenchOptions(NamedTuple):
    n: int = 0


def _decide(payload: Any, options: _BenchOptions, ctx: PolicyContext) -> Verdict:
    return Verdict(decision="allow")


def _register_bench_policy() -> None:
    module = types.ModuleType("hookrun_bench_policies")
    module.POLICY = Policy(  # type: ignore[attr-defined]
        name="bench-allow", options=_BenchOptions, decide=_decide
    )
    sys.modules[module.__name__] = module
    registry.ENTRIES["bench-allow"] = registry.Entry(
        "bench-allow", f"{module.__name__}:POLICY", "", ""
    )


def _true() -> str:
    return shutil.which("true") or "/bin/true"


def _commands(kind: str, n: int) -> list[HookSpec]:
    if kind == "inprocess":
        return [_spec(i, command=f'echo \'{{"version": 1, "n": {i}}}\'') for i in range(n)]
    if kind == "external":
        return [_spec(i, command=f"{_true()} {i}") for i in range(n)]
    return [_spec(i, builtin="bench-allow") for i in range(n)]


def _median_ms(fn: Callable[[], object], rounds: int) -> float:
    fn()  # warm: imports, worker threads, bashlex tables
    samples = []
    for _ in range(rounds):
        started = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - started)
    return statistics.median(samples) * 1000.0


def _runner(cwd: str, hooks: list[HookSpec]) -> Runner:
    return Runner(Config(hooks={"PreToolUse": tuple(hooks)}), cwd=cwd, project_dir=cwd)


def overhead(quick: bool) -> list[dict[str, Any]]:
    from hookrun.dispatch import run as dispatch_run

    rounds = 15 if quick else 60
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as cwd:
        for kind in ("inprocess", "external", "builtin"):
            one = _commands(kind, 1)[0]
            if one.command is not None:
                command = one.command

                def bare(command: str = command) -> object:
                    return dispatch_run(command, cwd=cwd, env=dict(os.environ), stdin=b"{}")

                bare_ms: float | None = _median_ms(bare, rounds)
            else:
                bare_ms = None
            for n in SIZES:
                runner = _runner(cwd, _commands(kind, n))
                result = runner.run("PreToolUse", PAYLOAD)
                errors = [h.error for h in result.hooks if h.error]
                if errors:
                    raise SystemExit(f"bench: {kind} hooks failed: {errors[0]}")
                ms = _median_ms(functools.partial(runner.run, "PreToolUse", PAYLOAD), rounds)
                rows.append(
                    {
                        "bench": "overhead",
                        "kind": kind,
                        "hooks": n,
                        "median_ms": round(ms, 2),
                        "per_hook_ms": round(ms / n, 3),
                        "bare_dispatch_ms": None if bare_ms is None else round(bare_ms, 2),
                    }
                )
                runner.close()
    return rows


def speedup(quick: bool) -> dict[str, Any]:
    sleep = shutil.which("sleep") or "/bin/sleep"
    with tempfile.TemporaryDirectory() as cwd:
        # GNU sleep sums its arguments; the tiny second one only makes each command
        # string distinct (identical commands are deduped to one run).
        hooks = [_spec(i, command=f"{sleep} 0.2 0.0000{i:02d}") for i in range(16)]
        runner = _runner(cwd, hooks)
        runner.run("PreToolUse", PAYLOAD)  # warm
        walls = []
        for _ in range(2 if quick else 5):
            started = time.perf_counter()
            result = runner.run("PreToolUse", PAYLOAD)
            walls.append(time.perf_counter() - started)
            errors = [h.error for h in result.hooks if h.error]
            if errors:
                raise SystemExit(f"bench: sleep hooks failed: {errors[0]}")
        runner.close()
    wall = statistics.median(walls)
    return {
        "bench": "parallel",
        "hooks": 16,
        "each_s": 0.2,
        "sequential_s": 3.2,
        "wall_s": round(wall, 3),
        "speedup": round(3.2 / wall, 1),
        "ok": wall <= 0.3,
    }


def _paired_ms(
    a: list[str], b: list[str], stdin: bytes, env: dict[str, str], rounds: int
) -> tuple[float, float]:
    """Median wall times of ``a`` and ``b``, run alternately so that both see the same
    machine load (a ratio of two medians taken minutes apart means little on a shared
    box)."""
    import subprocess

    def once(argv: list[str]) -> float:
        started = time.perf_counter()
        subprocess.run(argv, input=stdin, env=env, capture_output=True, check=False)
        return time.perf_counter() - started

    once(a), once(b)  # warm: bytecode, page cache
    times_a, times_b = [], []
    for _ in range(rounds):
        times_a.append(once(a))
        times_b.append(once(b))
    return statistics.median(times_a) * 1000.0, statistics.median(times_b) * 1000.0


def cli(quick: bool) -> list[dict[str, Any]]:
    """Embedded vs CLI: the same N in-process hooks through ``hookrun run`` (a fresh
    process per event, as a non-Python host calls it), and the cold start of
    ``hookrun run`` with one inline hook against ``python -c pass``."""
    import json
    import subprocess

    rounds = 7 if quick else 25
    root = str(Path(__file__).resolve().parent.parent)
    # Bytecode under a temporary prefix, not measured compiling nor written into the tree.
    pyc = tempfile.mkdtemp(prefix="hookrun-bench-pyc-")
    env = child_env(pyc)
    env["PYTHONPATH"] = root + os.pathsep + os.environ.get("PYTHONPATH", "")
    payload = json.dumps(PAYLOAD).encode()
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as cwd:
        for n in SIZES:
            hooks = [{"command": f'echo \'{{"version": 1, "n": {i}}}\''} for i in range(n)]
            path = os.path.join(cwd, f"hooks{n}.json")
            with open(path, "w", encoding="utf-8") as fh:
                json.dump({"hooks": {"PreToolUse": hooks}}, fh)
            argv = [sys.executable, "-m", "hookrun", "run", "PreToolUse", "--config", path]
            check = subprocess.run(argv, input=payload, env=env, capture_output=True, check=False)
            if check.returncode != 0:
                raise SystemExit(f"bench: hookrun run failed: {check.stderr.decode()[-300:]}")
            base = [sys.executable, "-c", "pass"]
            base_ms, ms = _paired_ms(base, argv, payload, env, rounds)
            runner = _runner(cwd, _commands("inprocess", n))
            embedded = _median_ms(functools.partial(runner.run, "PreToolUse", PAYLOAD), rounds)
            runner.close()
            rows.append(
                {
                    "bench": "cli",
                    "hooks": n,
                    "cli_ms": round(ms, 1),
                    "embedded_ms": round(embedded, 2),
                    "python_pass_ms": round(base_ms, 1),
                    "cold_start_ratio": round(ms / base_ms, 2),
                }
            )
    shutil.rmtree(pyc, ignore_errors=True)
    return rows


def main(quick: bool) -> list[dict[str, Any]]:
    _register_bench_policy()
    rows = overhead(quick)
    head = ("kind", "hooks", "median ms", "per hook ms", "bare dispatch ms")
    print(f"{head[0]:<10} {head[1]:>5} {head[2]:>10} {head[3]:>12} {head[4]:>17}")
    for row in rows:
        bare = "-" if row["bare_dispatch_ms"] is None else f"{row['bare_dispatch_ms']:.2f}"
        print(
            f"{row['kind']:<10} {row['hooks']:>5} {row['median_ms']:>10.2f} "
            f"{row['per_hook_ms']:>12.3f} {bare:>17}"
        )
    par = speedup(quick)
    verdict = "ok" if par["ok"] else "TOO SLOW"
    print(
        f"parallel: 16 hooks x sleep 0.2 s -> wall {par['wall_s']:.3f} s "
        f"(sequential 3.2 s, speed-up {par['speedup']}x; target <= 0.3 s: {verdict})"
    )
    cli_rows = cli(quick)
    for row in cli_rows:
        print(
            f"cli: {row['hooks']:>2} in-process hooks: hookrun run {row['cli_ms']:.1f} ms "
            f"(embedded {row['embedded_ms']:.2f} ms); python -c pass {row['python_pass_ms']:.1f} ms"
            f" -> {row['cold_start_ratio']:.2f}x (target <= 4x)"
        )
    return [*rows, par, *cli_rows]


if __name__ == "__main__":
    main(quick="--quick" in sys.argv[1:])
