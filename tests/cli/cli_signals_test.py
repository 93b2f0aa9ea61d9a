"""SIGINT / SIGTERM / SIGHUP to `hookrun run` in flight: every hook's tree ends, then exit
130 / 143 / 129."""

from __future__ import annotations

import contextlib
import signal
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path
from typing import TYPE_CHECKING

import psutil
import pytest

from hookrun.cli.signals import cancel_on_signals
from hookrun.dispatch.cancel import CancelToken

if TYPE_CHECKING:
    from conftest import Project

# A hook that starts a child and a grandchild, each sleeping, then hangs itself.
TREE = """#!{py}
import subprocess, sys, time

marker = sys.argv[1] if len(sys.argv) > 1 else "{marker}"
inner = "import subprocess, time; subprocess.Popen(['sleep', '300']); time.sleep(300)"
subprocess.Popen([sys.executable, "-c", inner, marker])
subprocess.Popen(["sleep", "300"])
open("{ready}", "a").write("x")
time.sleep(300)
"""


# hookrun's sentinel (hookrun/dispatch/sentinel.py) is a fork of hookrun, so it carries
# hookrun's environment; it is no process of the run (no HOOKRUN_RUN_ID), and is
# checked on its own.
SENTINEL = "hookrun-sentry"


def marked(marker: str, *, sentinel: bool = False) -> list[psutil.Process]:
    """The run's processes (``sentinel``: hookrun's sentinel instead)."""
    found = []
    for proc in psutil.process_iter(["cmdline", "environ", "name"]):
        try:
            if (proc.info["name"] == SENTINEL) is not sentinel:
                continue
            if (
                marker in " ".join(proc.info["cmdline"] or [])
                or (proc.info["environ"] or {}).get("HOOKRUN_TEST_MARKER") == marker
            ):
                found.append(proc)
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
    return found


@pytest.mark.parametrize(
    ("sig", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143), (signal.SIGHUP, 129)]
)
def test_a_signal_stops_every_hook_tree_then_exits_128_plus_n(
    project: Project, tmp_path: Path, sig: signal.Signals, code: int
) -> None:
    marker = f"hookrun-test-{uuid.uuid4().hex}"
    ready = tmp_path / "ready"
    project.write(
        "hooks/tree.py", TREE.format(py=sys.executable, marker=marker, ready=ready), executable=True
    )
    project.hooks(
        "PreToolUse",
        {"name": "tree1", "command": f"./hooks/tree.py {marker}", "timeout": 600},
        {"name": "tree2", "command": f"./hooks/tree.py {marker} again", "timeout": 600},
    )
    proc = project.popen(
        "run", "PreToolUse",
        env={"HOOKRUN_TEST_MARKER": marker},
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    try:
        assert proc.stdin is not None and proc.stderr is not None
        proc.stdin.write(b'{"tool_name": "bash", "tool_input": {}}')
        proc.stdin.close()
        deadline = time.monotonic() + 60
        while (not ready.exists() or len(ready.read_text()) < 2) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert ready.exists() and len(ready.read_text()) == 2, "the hooks never started"
        time.sleep(0.3)  # let the grandchildren start too
        assert len(marked(marker)) >= 6  # hookrun + 2 × (hook, child, grandchild sleep, sleep)
        run_ids = {
            (p.environ() or {}).get("HOOKRUN_RUN_ID") for p in marked(marker) if p.pid != proc.pid
        }
        assert len(run_ids) == 1 and None not in run_ids  # every process of the run is marked
        start = time.monotonic()
        proc.send_signal(sig)
        returncode = proc.wait(timeout=30)
        assert time.monotonic() - start < 20  # generous: the suite may share 2 cores
        err = proc.stderr.read()
        assert returncode == code, err
        assert b"hookrun: interrupted" in err
        survivors = [p for p in marked(marker) if p.status() != psutil.STATUS_ZOMBIE]
        assert survivors == []
        # Nothing left registered: the sentinel sees hookrun's end and exits at once.
        deadline = time.monotonic() + 30  # a poll: it ends when the sentinel does
        while _live(marked(marker, sentinel=True)) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert _live(marked(marker, sentinel=True)) == []
    finally:  # never leave processes behind, even when the test fails
        proc.kill()
        for p in marked(marker) + marked(marker, sentinel=True):
            with contextlib.suppress(psutil.NoSuchProcess):
                p.kill()


def _live(procs: list[psutil.Process]) -> list[psutil.Process]:
    alive = []
    for p in procs:
        try:
            if p.status() != psutil.STATUS_ZOMBIE:
                alive.append(p)
        except psutil.NoSuchProcess:
            continue
    return alive


def test_off_the_main_thread_no_handler_is_installed_and_the_block_runs() -> None:
    """Python takes signal handlers only in the main thread: a host calling main() from
    a worker thread runs without them, and without an error."""
    before = signal.getsignal(signal.SIGTERM)
    seen: list[object] = []

    def body() -> None:
        with cancel_on_signals(CancelToken()) as received:
            seen.append(signal.getsignal(signal.SIGTERM))
            seen.append(received.exit_code)

    worker = threading.Thread(target=body)
    worker.start()
    worker.join(10)
    assert seen == [before, None]
    assert signal.getsignal(signal.SIGTERM) is before
