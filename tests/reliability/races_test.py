"""Races in lazy imports: a ``hookrun run`` starts its hooks on parallel threads, and the first
ones to need bashlex (in-process shell, shell-guard) import it at the same moment in a fresh
process — which is every ``hookrun run``. Eight threads call the loader at once, in fresh
processes with a cold and a warm table cache."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.reliability.helpers import hookrun_env

RACE = """
import threading
from hookrun.bashlex_loader import load

barrier = threading.Barrier(8)
errors = []

def go():
    barrier.wait()
    try:
        load().parse("ls -l | wc -l")
    except Exception as exc:
        errors.append(f"{type(exc).__name__}: {exc}")

threads = [threading.Thread(target=go) for _ in range(8)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(len(errors), errors[:1])
"""


def test_eight_threads_loading_bashlex_at_once_all_get_a_working_parser(tmp_path: Path) -> None:
    for attempt in range(20):  # the race loses ~40% of the time; 20 tries all but always show it
        env = hookrun_env(tmp_path / f"home{attempt % 2}")  # cold cache, then warm ones
        proc = subprocess.run(
            [sys.executable, "-c", RACE], capture_output=True, env=env, timeout=60
        )
        assert proc.returncode == 0, proc.stderr
        count, _, first = proc.stdout.decode().partition(" ")
        assert count == "0", f"attempt {attempt}: {count} of 8 threads failed: {first}"
