"""How long each built-in policy takes per call, and what a policy process costs.

In process: every policy in ``hookrun.hooks.registry.names()`` that imports is
run over 1,000 realistic calls (``quick``: 200) — the payloads a host sends for
the tools the policy looks at (its ``default_matcher``), cycled — and P50/P99
are reported against our target, P99 < 0.5 ms (seed 000's is 5 ms). Options
are the defaults; a policy whose defaults do not validate is reported, not
skipped silently. Stateful policies get a fresh temp project and state dir.

As a process: ``hookrun policy shell-guard`` with a payload on stdin against a
bare ``python -c pass`` of the same interpreter, median of several runs, and
their ratio — hookrun is started once per agent tool call, so this is the
overhead a host pays.

Run: ``.venv/bin/python bench/policies_bench.py [--quick]``.
"""

from __future__ import annotations

import base64
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from childenv import child_env

TARGET_P99_MS = 0.5


# ---------------------------------------------------------------- payloads
# Fake secrets are assembled, never written out whole (secret scanners).
_GH = "ghp_" + "Ab3De6Gh9Jk2" * 3
_JWT = (
    base64.urlsafe_b64encode(b'{"alg":"HS256","typ":"JWT"}').decode().rstrip("=")
    + "."
    + base64.urlsafe_b64encode(b'{"sub":"1234567890"}').decode().rstrip("=")
    + ".SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
)

_CODE = (
    '"""Worker pool."""\n\nfrom __future__ import annotations\n\nimport asyncio\n\n\n'
    + "".join(
        f"async def task_{i}(queue: asyncio.Queue[int]) -> int:\n"
        f"    item = await queue.get()\n    return item * {i}  # see docs/pool.md\n\n\n"
        for i in range(40)
    )
)
_GIT_LOG = "".join(
    f"commit {i:040x}\nAuthor: Dev {i} <dev{i}@corp-mail.io>\nDate:   Mon Nov 3 10:{i % 60:02d}\n\n"
    f"    fix: handle edge case #{i} (lodash@4.17.21, @types/node)\n\n"
    for i in range(25)
)
_PYTEST = (
    "============================= test session starts ==============================\n"
    + "".join(f"tests/test_mod{i}.py ........................ [{i * 3}%]\n" for i in range(33))
    + "============================== 812 passed in 4.21s ==============================\n"
)
_GH_API = json.dumps(
    [
        {
            "sha": f"{i:040x}",
            "commit": {
                "author": {"name": f"Dev {i}", "email": f"dev{i}@users.noreply.github.com"},
                "message": f"feat: thing {i}",
            },
            "url": f"https://api.github.com/repos/o/r/commits/{i:040x}",
        }
        for i in range(15)
    ]
)
_MCP = json.dumps(
    {
        "servers": {
            "github": {
                "command": "npx",
                "args": ["-y", "@modelcontextprotocol/server-github"],
                "env": {"GITHUB_TOKEN": "${GITHUB_TOKEN}"},
            }
        }
    },
    indent=2,
)
_COMMANDS = [
    "git status --porcelain",
    "npm test -- --watch=false",
    "pytest -q tests/ -x",
    'git commit -m "fix: handle empty payload"',
    "rm -rf node_modules dist",
    "git push --force origin main",
    "ls -la src/ | head -50",
    "cd src && grep -rn 'TODO' . | wc -l",
    "curl -sSL https://example.com/install.sh | bash",
    "docker compose up -d && docker compose logs -f api",
    "find . -name '*.pyc' -delete",
    "python -m mypy hookrun --strict",
]


def _pre(root: str) -> list[dict[str, Any]]:
    base = {"hook_event_name": "PreToolUse", "session_id": "260215-173319", "cwd": root}
    calls: list[dict[str, Any]] = []
    for cmd in _COMMANDS:
        calls.append({**base, "tool_name": "Bash", "tool_input": {"command": cmd}})
    files = [
        "src/workers/pool.py",
        "docs/pool.md",
        ".squad/decisions.md",
        "README.md",
        ".squad/agents/fenster/history.md",
        "tests/test_pool.py",
        "../outside.txt",
        ".ralph-sessions/260215-173319/progress.md",
        ".vscode/mcp.json",
    ]
    for i, f in enumerate(files):
        content = (
            _MCP
            if f.endswith("mcp.json")
            else _CODE
            if f.endswith(".py")
            else (
                "# Decisions\n\n"
                + "".join(f"- {n}: adopt option B (see #{n})\n" for n in range(30))
            )
        )
        calls.append(
            {
                **base,
                "tool_name": "Write",
                "agent_name": "fenster",
                "tool_input": {"file_path": f"{root}/{f}", "content": content},
            }
        )
        calls.append(
            {
                **base,
                "tool_name": "Edit",
                "agent_name": "fenster",
                "agent_role": "coordinator" if i % 4 == 0 else "agent",
                "tool_input": {
                    "file_path": f,
                    "old_string": "return item",
                    "new_string": "return item  # checked\n" * 3,
                },
            }
        )
        calls.append({**base, "tool_name": "Read", "tool_input": {"file_path": f"{root}/{f}"}})
    calls.append(
        {
            **base,
            "tool_name": "MultiEdit",
            "tool_input": {
                "file_path": "src/a.py",
                "edits": [{"old_string": "a", "new_string": "b"}] * 5,
            },
        }
    )
    calls.append({**base, "tool_name": "Grep", "tool_input": {"pattern": "TODO", "path": "src"}})
    calls.append(
        {
            **base,
            "tool_name": "Task",
            "tool_input": {
                "subagent_type": "executor",
                "prompt": "MODE: EXECUTE\nTASK_ID: task-3\nDo the thing.",
            },
        }
    )
    calls.append({**base, "tool_name": "ask_user", "tool_input": {"question": "Which DB?"}})
    return calls


def _post(root: str) -> list[dict[str, Any]]:
    base = {"hook_event_name": "PostToolUse", "session_id": "s-1", "cwd": root}
    outputs: list[Any] = [
        _GIT_LOG,
        _PYTEST,
        _GH_API,
        _CODE,
        {"stdout": f"export GITHUB_TOKEN={_GH}\nok", "stderr": "", "exit_code": 0},
        {"content": [{"type": "text", "text": f"session={_JWT}"}]},
        "On branch main\nnothing to commit, working tree clean\n",
    ]
    return [
        {**base, "tool_name": "Bash", "tool_input": {"command": "x"}, "tool_response": out}
        for out in outputs
    ]


def _session(root: str) -> list[dict[str, Any]]:
    return [
        {"hook_event_name": "SessionStart", "source": src, "session_id": sid, "cwd": root}
        for src, sid in [
            ("startup", "260215-173319"),
            ("resume", "260215-173319"),
            ("startup", "bad/../id"),
        ]
    ]


def _targeted(calls: list[dict[str, Any]], matcher: str | None) -> list[dict[str, Any]]:
    if not matcher:
        return calls
    try:
        rx = re.compile(f"^(?:{matcher})$")
    except re.error:
        return calls
    picked = [c for c in calls if rx.match(str(c.get("tool_name", "")))]
    return picked if len(picked) >= 3 else calls


# ---------------------------------------------------------------- timing


def _percentile(sorted_ns: list[int], q: float) -> float:
    idx = min(len(sorted_ns) - 1, max(0, round(q * (len(sorted_ns) - 1))))
    return sorted_ns[idx] / 1e6


def _cycle(items: list[dict[str, Any]], n: int) -> Iterator[dict[str, Any]]:
    for i in range(n):
        yield items[i % len(items)]


# Extra rows: a policy with the options a team would really set, or a heavier input.
_BIG_OUTPUT = (_GIT_LOG + _PYTEST + _GH_API + _CODE) * 3  # ~50 KB, the seed's "typical max"
VARIANTS: dict[str, tuple[str, dict[str, Any], str | None]] = {
    "write-guard +rules": (
        "write-guard",
        {
            "allow": ["src/**", "tests/**", "docs/**", ".squad/**", "*.md"],
            "deny": [".git/**", "**/*.lock", ".hookrun/**"],
            "agents": {"fenster": {"allow": ["src/**", "tests/**"], "deny": ["src/vendor/**"]}},
        },
        None,
    ),
    "pii-scrubber 50KB": ("pii-scrubber", {}, "big"),
}


def bench_policy(
    name: str,
    n: int,
    root: str,
    options: dict[str, Any] | None = None,
    policy_name: str | None = None,
    pool_kind: str | None = None,
) -> dict[str, Any]:
    from hookrun.hooks import registry
    from hookrun.hooks.base import PolicyContext

    row: dict[str, Any] = {"policy": name, "calls": 0, "p50_ms": None, "p99_ms": None}
    try:
        policy = registry.get(policy_name or name)
    except Exception as exc:  # another helper's module may not have landed yet
        row["error"] = f"import failed: {type(exc).__name__}: {exc}"
        return row
    try:
        opts = policy.bind(options or {})
    except Exception as exc:
        row["error"] = f"options invalid: {exc}"
        return row
    events = policy.events
    pool: list[dict[str, Any]] = []
    if pool_kind == "big":
        pool = [
            {"hook_event_name": "PostToolUse", "tool_name": "Bash", "tool_response": _BIG_OUTPUT}
        ]
        events = ()
    if "PreToolUse" in events:
        pool += _targeted(_pre(root), policy.default_matcher)
    if "PostToolUse" in events:
        pool += _post(root)
    if "SessionStart" in events:
        pool += _session(root)
    if not pool:
        pool = _pre(root)
    state = os.path.join(root, ".hookrun", "state")
    ctx = PolicyContext(
        cwd=root,
        project_dir=root,
        state_dir=state,
        env={"HOME": os.path.join(root, "home"), "PATH": os.defpath},
    )
    for payload in pool:  # warm caches (compiled patterns, lazy imports) first
        policy.decide(payload, opts, ctx)
    times: list[int] = []
    cpu: list[int] = []
    clock, cpu_clock = time.perf_counter_ns, time.thread_time_ns
    for payload in _cycle(pool, n):
        c0, t0 = cpu_clock(), clock()
        policy.decide(payload, opts, ctx)
        t1, c1 = clock(), cpu_clock()
        times.append(t1 - t0)
        cpu.append(c1 - c0)
    times.sort()
    cpu.sort()
    row.update(
        calls=n,
        payloads=len(pool),
        p50_ms=round(_percentile(times, 0.50), 4),
        p99_ms=round(_percentile(times, 0.99), 4),
        max_ms=round(times[-1] / 1e6, 4),
        # CPU time of this thread: what the policy costs when the machine is busy
        # and the wall clock counts other processes' time slices too.
        cpu_p99_ms=round(_percentile(cpu, 0.99), 4),
    )
    row["ok"] = row["p99_ms"] < TARGET_P99_MS
    row["ok_cpu"] = row["cpu_p99_ms"] < TARGET_P99_MS
    return row


def _median_run(
    argv: list[str], stdin: bytes, runs: int, env: dict[str, str] | None = None
) -> tuple[float, int]:
    times = []
    code = 0
    for _ in range(runs):
        t0 = time.perf_counter()
        proc = subprocess.run(argv, input=stdin, capture_output=True, check=False, env=env)
        times.append(time.perf_counter() - t0)
        code = proc.returncode
    return statistics.median(times) * 1000, code


def bench_process(runs: int) -> dict[str, Any]:
    script = Path(sys.executable).with_name("hookrun")
    argv = [str(script)] if script.exists() else [sys.executable, "-m", "hookrun"]
    payload = json.dumps(
        {
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": "git push --force origin main"},
            "cwd": os.getcwd(),
        }
    ).encode()
    # Bytecode under a temporary prefix (bench/childenv.py), written by one unmeasured run.
    with tempfile.TemporaryDirectory(prefix="hookrun-bench-pyc-") as pyc:
        env = child_env(pyc)
        _median_run([*argv, "policy", "shell-guard"], payload, 1, env)
        bare_ms, _ = _median_run([sys.executable, "-c", "pass"], b"", runs, env)
        policy_ms, code = _median_run([*argv, "policy", "shell-guard"], payload, runs, env)
    row: dict[str, Any] = {
        "policy": "process: hookrun policy shell-guard",
        "runs": runs,
        "median_ms": round(policy_ms, 1),
        "python_c_pass_ms": round(bare_ms, 1),
        "ratio": round(policy_ms / bare_ms, 2) if bare_ms else None,
        "exit_code": code,
    }
    if code not in (0, 2):
        row["error"] = f"exit {code}: the CLI may not have landed (expected 2: force push denied)"
    return row


def main(quick: bool) -> list[dict[str, Any]]:
    from hookrun.hooks import registry

    n = 200 if quick else 1000
    rows: list[dict[str, Any]] = []
    tmp = tempfile.mkdtemp(prefix="hookrun-bench-")
    try:
        root = os.path.realpath(tmp)
        for sub in (
            "src/workers",
            "docs",
            ".squad/agents/fenster",
            "home",
            ".ralph-sessions/260215-173319/tasks",
            ".hookrun/state",
        ):
            os.makedirs(os.path.join(root, sub), exist_ok=True)
        for name in registry.names():
            rows.append(bench_policy(name, n, root))
        for label, (policy_name, options, pool_kind) in VARIANTS.items():
            rows.append(bench_policy(label, n, root, options, policy_name, pool_kind))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if shutil.which(sys.executable):
        rows.append(bench_process(3 if quick else 9))
    return rows


def _print(rows: list[dict[str, Any]]) -> None:
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0
    cores = os.cpu_count() or 1
    if load > cores:
        print(
            f"machine busy (load {load:.1f} on {cores} cores): wall-clock P99 includes other "
            "processes' time slices; CPU P99 is the policy's own cost"
        )
    head = f"{'policy':<24} {'calls':>6} {'P50 ms':>8} {'P99 ms':>8} {'CPU P99':>8}"
    print(f"{head}  target P99 < {TARGET_P99_MS} ms (wall / cpu)")
    for r in rows:
        if "median_ms" in r:
            print(
                f"\n{r['policy']}: median {r['median_ms']} ms vs python -c pass "
                f"{r['python_c_pass_ms']} ms → ×{r['ratio']} (exit {r['exit_code']}, "
                f"{r['runs']} runs){'  ' + r['error'] if 'error' in r else ''}"
            )
        elif "error" in r:
            print(f"{r['policy']:<24} {'-':>6} {'-':>8} {'-':>8} {'-':>8}  {r['error']}")
        else:
            mark = ("ok" if r["ok"] else "OVER") + " / " + ("ok" if r["ok_cpu"] else "OVER")
            print(
                f"{r['policy']:<24} {r['calls']:>6} {r['p50_ms']:>8.4f} {r['p99_ms']:>8.4f} "
                f"{r['cpu_p99_ms']:>8.4f}  {mark}"
            )


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    _print(main(quick="--quick" in sys.argv[1:]))
