"""Races in lazy imports: a ``hookrun run`` starts its hooks on parallel threads, and the first
ones to need the shell front end (in-process shell, shell-guard) load tree-sitter and the bash
grammar at the same moment in a fresh process — which is every ``hookrun run``. Eight threads
parse at once, in fresh processes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.reliability.helpers import hookrun_env

RACE = """
import threading
from hookrun.shellsyntax import parse

barrier = threading.Barrier(8)
errors = []

def go():
    barrier.wait()
    try:
        parse("ls -l | wc -l; [ -n x ] && cat <<EOF\\n$HOME\\nEOF\\n")
    except Exception as exc:
        errors.append(f"{type(exc).__name__}: {exc}")

threads = [threading.Thread(target=go) for _ in range(8)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(len(errors), errors[:1])
"""


def test_eight_threads_loading_the_front_end_at_once_all_get_a_working_parser(
    tmp_path: Path,
) -> None:
    for attempt in range(20):  # a lazy-import race loses often; 20 tries all but always show it
        env = hookrun_env(tmp_path / f"home{attempt % 2}")
        proc = subprocess.run(
            [sys.executable, "-c", RACE], capture_output=True, env=env, timeout=60
        )
        assert proc.returncode == 0, proc.stderr
        count, _, first = proc.stdout.decode().partition(" ")
        assert count == "0", f"attempt {attempt}: {count} of 8 threads failed: {first}"
