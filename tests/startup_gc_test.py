"""The garbage collector's pause while the ``hookrun`` command starts (hookrun/startup_gc.py).

Each case runs in a process of its own: a freeze is for the life of a process, and
this one is pytest's.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

_UNIT = """
import gc, json, sys
from hookrun import startup_gc
seen = {}
if sys.argv[1] == "host-turned-it-off":
    gc.disable()
startup_gc.resume()  # before any pause: an embedding host's process
seen["untouched"] = [gc.isenabled(), gc.get_freeze_count()]
startup_gc.pause()
seen["paused"] = [gc.isenabled(), gc.get_freeze_count()]
startup_gc.resume()
seen["resumed"] = [gc.isenabled(), gc.get_freeze_count() > 0]
gc.freeze_count_after = gc.get_freeze_count()
startup_gc.resume()  # once only
seen["again"] = [gc.isenabled(), gc.get_freeze_count() == gc.freeze_count_after]
print(json.dumps(seen))
"""


def _unit(mode: str) -> dict[str, list[object]]:
    done = subprocess.run(
        [sys.executable, "-c", _UNIT, mode],
        capture_output=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        check=True,
        timeout=60,
    )
    result: dict[str, list[object]] = json.loads(done.stdout)
    return result


def test_pause_turns_the_collector_off_and_resume_freezes_start_up_and_turns_it_on() -> None:
    assert _unit("on") == {
        "untouched": [True, 0],  # resume without a pause does nothing
        "paused": [False, 0],
        "resumed": [True, True],
        "again": [True, True],
    }


def test_a_collector_the_host_turned_off_stays_off() -> None:
    assert _unit("host-turned-it-off") == {
        "untouched": [False, 0],
        "paused": [False, 0],
        "resumed": [False, False],
        "again": [False, True],
    }


# The console script's entry (hookrun.__main__.main), with every collection recorded:
# its generation, and whether start-up was frozen by then (the pause had ended).
_COMMAND = """
import atexit, gc, json, sys
report, sys.argv = sys.argv[1], ["hookrun", *sys.argv[2:]]
log = []
def note(phase, info):
    if phase == "start":
        log.append([info["generation"], gc.get_freeze_count() > 0])
gc.callbacks.append(note)
before = []
def write():
    with open(report, "w") as out:
        json.dump({"before_main": before, "in_main": log[len(before):],
                   "enabled_at_exit": gc.isenabled()}, out)
atexit.register(write)  # hookrun's own exit runs atexit handlers, then os._exit
from hookrun.__main__ import main
before.extend(log)
main()
"""


def test_the_command_collects_nothing_while_it_starts_and_collects_while_its_hooks_run(
    tmp_path: Path,
) -> None:
    # A hook that allocates for a while in the in-process shell: the collector must be
    # on then, as it would be in any long run.
    loop = 'i=0; while [ "$i" -lt 3000 ]; do i=$((i + 1)); done; echo \'{"decision": "allow"}\''
    config = {"hooks": {"PreToolUse": [{"command": loop}]}}
    (tmp_path / "hooks.json").write_text(json.dumps(config))
    payload = {"hook_event_name": "PreToolUse", "tool_name": "Bash", "cwd": str(tmp_path)}
    report = tmp_path / "gc.json"
    done = subprocess.run(
        [sys.executable, "-c", _COMMAND, str(report), "run", "PreToolUse"]
        + ["--config", str(tmp_path / "hooks.json"), "--host", "hookrun"],
        input=json.dumps(payload).encode(),
        capture_output=True,
        env={
            **os.environ,
            "PYTHONPATH": str(REPO),
            "XDG_CACHE_HOME": str(tmp_path / "cache"),
            "XDG_CONFIG_HOME": str(tmp_path / "config"),
        },
        cwd=tmp_path,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["decision"] == "allow"
    seen = json.loads(report.read_text())
    # From main() on: no collection before the freeze (start-up), some after it (the hook).
    assert [frozen for _, frozen in seen["in_main"] if not frozen] == []
    assert len(seen["in_main"]) >= 1
    assert seen["enabled_at_exit"] is True
