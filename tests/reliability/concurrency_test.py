"""Concurrency: 50 ``hookrun run`` processes at once append to one audit log (every line there,
parseable, none torn — lines longer than PIPE_BUF included), and 20 processes updating the same
policy state file lose no update (through ``hookrun policy ask-user-limit`` and through the
state API). About 20 s at scale 1.0 on 2 cores.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from hookrun.hooks import ask_user
from tests.reliability.helpers import REPO, hookrun_env, scaled

LONG = "x" * 9000  # two pages: a torn write would show


def _start_all(
    argvs: list[list[str]], cwd: Path, env: dict[str, str], stdin: list[bytes]
) -> list[subprocess.CompletedProcess[bytes]]:
    procs = [
        subprocess.Popen(
            argv,
            cwd=cwd,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )  # fmt: skip
        for argv in argvs
    ]
    # Feed every process before reading any, so they all really run at once (payloads and
    # answers are far below a pipe's buffer).
    for proc, data in zip(procs, stdin, strict=True):
        assert proc.stdin is not None
        proc.stdin.write(data)
        proc.stdin.close()
    done = []
    for proc in procs:
        proc.stdin = None  # closed above; communicate would flush it
        out, err = proc.communicate(timeout=120)
        done.append(subprocess.CompletedProcess(proc.args, proc.returncode, out, err))
    return done


def test_fifty_hookrun_runs_at_once_write_every_audit_line_whole(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    (root / ".hookrun").mkdir(parents=True)
    (root / ".hookrun" / "hooks.json").write_text(
        json.dumps(
            {
                "audit_log": ".hookrun/audit.jsonl",
                "hooks": {
                    "PreToolUse": [
                        {"name": "ctx", "command": "echo '{\"context\": \"seen\"}'"},
                        {"name": "long-deny", "matcher": "^deny$",
                         "command": f"echo {LONG} >&2; exit 2"},
                    ]
                },
            }
        )
    )  # fmt: skip
    count = scaled(50, 2)
    payloads = [
        json.dumps(
            {"session_id": f"s{i}", "tool_name": "deny" if i % 2 else "bash", "tool_input": {}}
        ).encode()
        for i in range(count)
    ]
    argv = [sys.executable, "-m", "hookrun", "run", "PreToolUse"]
    done = _start_all([argv] * count, root, hookrun_env(tmp_path), payloads)
    for i, proc in enumerate(done):
        assert proc.returncode == (2 if i % 2 else 0), proc.stderr
        assert b"Traceback" not in proc.stderr

    raw = (root / ".hookrun" / "audit.jsonl").read_bytes()
    assert raw.endswith(b"\n")
    lines = raw.decode("utf-8").splitlines()
    records = [json.loads(line) for line in lines]  # a torn line fails to parse here
    assert len(records) == count
    assert sorted(r["session"] for r in records) == sorted(f"s{i}" for i in range(count))
    for r in records:
        deny = r["tool"] == "deny"
        assert r["decision"] == ("deny" if deny else None), r
        assert (LONG in (r["reason"] or "")) == deny
    print(f"\naudit: {count} concurrent runs, {len(raw)} bytes, {len(records)} whole lines")


def test_twenty_ask_user_limit_processes_lose_no_count(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    (root / ".hookrun").mkdir(parents=True)
    count = scaled(20, 2)
    argv = [
        sys.executable, "-m", "hookrun", "policy", "ask-user-limit",
        "--with", "max_per_session=100000", "--tool", "ask_user",
        "--input", '{"question": "which database should I use?"}', "--session-id", "shared",
    ]  # fmt: skip
    done = _start_all([argv] * count, root, hookrun_env(tmp_path), [b""] * count)
    for proc in done:
        assert proc.returncode == 0, proc.stderr
        assert b"Traceback" not in proc.stderr
    state_dir = str(root / ".hookrun" / "state")
    assert ask_user.count_of(state_dir, "shared") == count


UPDATER = """
import sys
from hookrun.hooks import state

def bump(data):
    data["n"] = data.get("n", 0) + 1
    data.setdefault("writers", []).append(sys.argv[2])

for _ in range(int(sys.argv[3])):
    state.update(sys.argv[1], bump)
"""


def test_twenty_processes_on_the_state_api_lose_no_update(tmp_path: Path) -> None:
    path = tmp_path / "state" / "counter.json"
    path.parent.mkdir()
    count, each = scaled(20, 2), 10
    argvs = [[sys.executable, "-c", UPDATER, str(path), f"w{i}", str(each)] for i in range(count)]
    env = hookrun_env(tmp_path, {"PYTHONPATH": str(REPO)})
    done = _start_all(argvs, tmp_path, env, [b""] * count)
    for proc in done:
        assert proc.returncode == 0, proc.stderr
    data = json.loads(path.read_text())
    assert data["n"] == count * each
    assert sorted(data["writers"]) == sorted(f"w{i}" for i in range(count) for _ in range(each))
