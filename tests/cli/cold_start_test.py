"""What a cold ``hookrun run`` with three inline hooks imports — and what it must not.

Hosts start ``hookrun run`` once per agent tool call, so its start-up is the
product's latency (issue 5: at most 4x ``python3 -c pass``). Timing is the bench's
job (bench/run_all.py); here the cause is pinned: each module below costs from a
millisecond (pathlib, dataclasses + inspect) to several bare Python start-ups
(typer, pydantic, bashlex), and none is needed to answer this event.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]

# The bench's first config (bench/startup_bench.py) in spirit: inline only, the third
# one selected by a matcher.
HOOKS = {
    "hooks": {
        "PreToolUse": [
            {"command": 'echo \'{"decision": "allow"}\''},
            {"command": 'echo \'{"context": "checked"}\''},
            {"matcher": "^bash$", "command": "printf '{}'"},
        ]
    }
}
PAYLOAD = {"tool_name": "bash", "tool_input": {"command": "ls"}}

# Never on this path, config given or discovered.
HEAVY = (
    "bashlex",  # the inline hooks are plain words: split_simple, no parser
    "psutil",  # only to end a process tree after a timeout or a cancel
    "pydantic",  # only when a config needs explaining or a builtin policy loads
    "typer",  # the fast command-line reader handles `run`
    "click",
    "asyncio",
    "concurrent.futures",
    "dataclasses",  # with inspect, ast, dis, tokenize: ~0.5x a bare start
    "inspect",
    "pathlib",  # with urllib.parse and ipaddress
    "urllib.parse",
    "tempfile",
    "uuid",
    "logging",
    "difflib",
    "hookrun.hooks.registry",  # no builtin policy in this config
)

# What the console script runs, plus a report of sys.modules once the command returned.
RUN = """
import json, sys
report = sys.argv.pop()
from hookrun.cli.main import main
code = main()
with open(report, "w") as out:
    json.dump({"exit": code, "modules": sorted(sys.modules)}, out)
"""


def _imported(tmp_path: Path, *options: str) -> tuple[int, dict[str, Any], set[str]]:
    (tmp_path / "hooks.json").write_text(json.dumps(HOOKS))
    report = tmp_path / "modules.json"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run(
        [sys.executable, "-c", RUN, "run", "PreToolUse", *options, "--cwd", str(tmp_path)]
        + [str(report)],
        input=json.dumps(PAYLOAD).encode(),
        capture_output=True,
        env=env,
        check=False,
        timeout=60,
    )
    assert done.stderr == b""
    seen = json.loads(report.read_text())
    return seen["exit"], json.loads(done.stdout), set(seen["modules"])


def test_run_with_three_inline_hooks_and_config_imports_nothing_heavy(tmp_path: Path) -> None:
    code, answer, modules = _imported(tmp_path, "--config", "hooks.json")
    # The run really happened: every hook ran in-process and answered.
    assert (code, answer["decision"], answer["context"]) == (0, "allow", ["checked"])
    assert [h["route"] for h in answer["hooks"]] == ["inprocess"] * 3
    assert sorted(m for m in HEAVY if m in modules) == []
    # With --config given, the user config dir is never looked up.
    assert "platformdirs" not in modules


def test_run_with_a_discovered_config_imports_nothing_heavy_but_the_discovery(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / ".hookrun").mkdir()
    (tmp_path / ".hookrun" / "hooks.json").write_text(json.dumps(HOOKS))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))  # no user config
    code, answer, modules = _imported(tmp_path)
    assert (code, answer["decision"], answer["context"]) == (0, "allow", ["checked"])
    # Discovery finds the user config dir as platformdirs would, without importing it
    # (with tempfile, pathlib …: about a bare start), and works in os.path strings.
    assert sorted(m for m in HEAVY if m in modules) == []
    assert not {"platformdirs", "pathlib"} & modules
