"""A host embedding hookrun runs for days: ``hookrun.dispatch.run`` must give back
every descriptor a run opened (pipes to children, redirected files, here-documents,
capture pipes), on every path — normal end, timeout, background jobs it ended."""

from __future__ import annotations

import gc
import os
import sys
import threading
import time
from pathlib import Path

import pytest

from hookrun.dispatch import run
from tests.dispatch.shell.shellrun import base_env

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="counts POSIX descriptors")

_FD_DIR = "/proc/self/fd" if os.path.isdir("/proc/self/fd") else "/dev/fd"

# The shapes seen to climb in one pytest process (each through the old `run`
# fixture), and the paths around them: (source, runs, timeout).
SHAPES = [
    ("declare -x Q=1; env | grep ^Q=", 20, 30.0),
    ('{ sleep 1; echo late; } | { read -t 0.1 v; echo "$? [$v]"; }', 3, 30.0),
    ("mkdir -p d; mapfile arr < d; echo $?", 20, 30.0),
    ("time -p sh -c 'exit 3' 2>/dev/null; echo $?", 20, 30.0),
    ("mkdir -p d/e; touch d/e/f; echo d/*/f d/e/* d/nope/*", 20, 30.0),
    ('cat 3<<<"a b" <&3; cat 3<<< x; cat 10<<<$1 <&10', 20, 30.0),
    ("exec 7<<A\nseven\nA\nexec 4>out; f() { cat /dev/fd/7; }; f", 20, 30.0),
    ("while :; do :; done & echo started", 5, 30.0),
    ("sleep 30 & echo bg", 5, 30.0),
    ("while :; do echo y; done | while read -r l; do :; done", 3, 0.3),
    ('x=$(sleep 30); echo "$x"', 3, 0.3),
    ("echo start; sleep 30; echo never", 3, 0.3),
]

_RUN_THREADS = ("hookrun-background", "hookrun-stdin", "hookrun-capture")


def _open_descriptors() -> int:
    return len(os.listdir(_FD_DIR))


def _settle() -> None:
    """Let threads a run left behind (a background job it ended, a stdin feeder)
    finish, then collect: only what is still open after that is a leak."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(
        t.name in _RUN_THREADS for t in threading.enumerate()
    ):
        time.sleep(0.02)
    gc.collect()


@pytest.mark.parametrize(("source", "runs", "timeout"), SHAPES)
def test_each_run_gives_back_every_descriptor(
    source: str, runs: int, timeout: float, tmp_path: Path
) -> None:
    # One warm-up: the first run starts a process-wide watchdog (one pipe, kept).
    run("sleep 0 | cat", cwd=str(tmp_path), env=base_env(), shell="inprocess", timeout=30)
    _settle()
    before = _open_descriptors()
    for n in range(runs):
        cwd = tmp_path / str(n)
        cwd.mkdir()
        run(source, cwd=str(cwd), env=base_env(), shell="inprocess", timeout=timeout)
    _settle()
    # Fewer is fine (something of pytest's own may close meanwhile); more is a leak.
    deadline = time.monotonic() + 5
    while _open_descriptors() > before and time.monotonic() < deadline:
        time.sleep(0.05)
        gc.collect()
    assert _open_descriptors() <= before
