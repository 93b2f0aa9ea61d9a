"""A FIFO in a hook run by the in-process shell: it never keeps hookrun past the hook's
deadline or a cancel, and what it does with a writer or a reader there is what bash does.

The shell runs in the hookrun process: a blocking open or read of a FIFO nobody opens
at the other end was never ended by anything (no process to kill), through the hook's
timeout, a cancel, and the SIGTERM of ``hookrun run``. Real FIFOs, real bash.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from hookrun.dispatch.api import Completed, run
from hookrun.dispatch.cancel import CancelToken

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX FIFOs")

# What each waits for: nobody opens the FIFO's other end, or nobody writes to it.
NOBODY_THERE = [
    "read x < ./f; echo got",
    "echo hi > ./f",
    "echo hi >> ./f",
    "exec 3<./f; read -u 3 x",
    "exec 3<./f; cat <&3",
    "x=$(< ./f)",
    "source ./f",
    ". ./f",
    "mapfile a < ./f",
    "while read -r line; do :; done < ./f",
    "exec 3<>./f; read -u 3 x",  # a writer is there (itself), and never writes
    "read -t 30 x < ./f",
    # a reader there (itself) that never reads: the builtin's writes fill the pipe
    "exec 3<>./f; printf '%0200000d' 0 >&3",
    "exec 3<>./f; for i in 1 2 3 4 5 6 7 8; do printf '%010000d' $i >&3; done",
]

# The hook's deadline, and how long the run may take past it on a loaded machine before
# it counts as hung (a FIFO wait that ignores the deadline takes for ever).
DEADLINE = 0.5
HUNG = 30.0


def _unblock(fifo: Path) -> None:
    """Let a wait the code under test failed to end finish: open both ends once."""
    for flags in (os.O_RDONLY | os.O_NONBLOCK, os.O_WRONLY | os.O_NONBLOCK):
        with contextlib.suppress(OSError):
            os.close(os.open(fifo, flags))


def _run_bounded(fifo: Path, src: str, **kwargs: object) -> tuple[Completed | None, float]:
    """``run(src)`` on a thread; None if it has not returned after HUNG seconds."""
    box: list[Completed] = []
    started = time.monotonic()
    thread = threading.Thread(
        target=lambda: box.append(
            run(src, cwd=str(fifo.parent), env=dict(os.environ), shell="inprocess", **kwargs)  # type: ignore[arg-type]
        ),
        daemon=True,
    )
    thread.start()
    thread.join(HUNG)
    if thread.is_alive():
        _unblock(fifo)
        thread.join(5)
        return None, HUNG
    return box[0], time.monotonic() - started


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "f"
    os.mkfifo(path)
    return path


@pytest.mark.timeout(120)
@pytest.mark.parametrize("src", NOBODY_THERE)
def test_a_fifo_nobody_serves_ends_at_the_hooks_deadline(fifo: Path, src: str) -> None:
    done, took = _run_bounded(fifo, src, timeout=DEADLINE)
    assert done is not None, f"{src!r} still waiting {HUNG:g} s after a {DEADLINE:g} s deadline"
    assert done.timed_out and done.exit_code == 124, (done, took)


@pytest.mark.timeout(120)
@pytest.mark.parametrize("src", ["read x < ./f", "echo hi > ./f", "x=$(< ./f)"])
def test_a_fifo_nobody_serves_ends_on_a_cancel(fifo: Path, src: str) -> None:
    token = CancelToken()
    timer = threading.Timer(0.3, token.cancel)
    timer.start()
    try:
        done, took = _run_bounded(fifo, src, cancel=token)
    finally:
        timer.cancel()
    assert done is not None, f"{src!r} still waiting {HUNG:g} s after a cancel"
    assert done.cancelled, (done, took)


# Each with the other end served by a process of the hook's own: the output must be
# bash's (the real bash runs the same text in the same directory).
SERVED = [
    '(sleep 0.2; echo hi > ./f) & read x < ./f; echo "got $x"; wait',
    "cat ./f > out.txt & echo hello > ./f; wait; cat out.txt",
    '(sleep 0.2; printf "a\\nb\\n" > ./f) & mapfile -t a < ./f; echo "${#a[@]} ${a[1]}"; wait',
    '(sleep 0.1; echo "echo sourced" > ./f) & source ./f; wait',
    '(sleep 0.1; echo data > ./f) & x=$(< ./f); echo "[$x]"; wait',
    'exec 3<>./f; echo z >&3; read -u 3 y; echo "$y"',
    "(sleep 0.2; exec 4>./f; echo one >&4; sleep 0.3; echo two >&4) & "
    'exec 3<./f; read -u 3 a; read -u 3 b; echo "$a $b"; wait',
    '(sleep 0.1; exec 4>./f) & read x < ./f; echo "eof $? [$x]"; wait',
    '(sleep 0.1; printf "no newline" > ./f) & read x < ./f; echo "$? [$x]"; wait',
    '(sleep 0.1; cat ./f) & echo "to the reader" > ./f; wait',
    # An external command given the read end: bash's open waited for the writer, so
    # cat reads what it writes (a read end opened before any writer reads end of file).
    "(sleep 0.2; echo late > ./f) & exec 3<./f; cat <&3; wait",
    "(sleep 0.2; echo late > ./f) & cat < ./f; wait",
    # A builtin's writes larger than the pipe, a reader that reads them all.
    "(sleep 0.2; wc -c < ./f) & printf '%0200000d' 7 > ./f; wait",
    "cat ./f | tail -c 20 & exec 3>./f; for i in $(seq 30); do printf '%05000d\\n' $i >&3; done; "
    "exec 3>&-; wait",
]


# Builtins writing more than the pipe holds to a FIFO whose reader is not a process of
# the hook (nothing kills it at the deadline) and never reads.
FULL_PIPE = [
    "printf '%0200000d' 0 > ./f",
    "exec 3>./f; while :; do echo line >&3; done",
    "x=$(printf '%080000d' 1); echo \"$x\" >> ./f",
]


@pytest.mark.timeout(120)
@pytest.mark.parametrize("src", FULL_PIPE)
def test_a_fifo_whose_outside_reader_never_reads_ends_at_the_deadline(fifo: Path, src: str) -> None:
    reader = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import os, sys, time; os.open(sys.argv[1], os.O_RDONLY); time.sleep(120)",
            str(fifo),
        ]
    )
    try:
        done, took = _run_bounded(fifo, src, timeout=DEADLINE)
    finally:
        reader.kill()
        reader.wait()
    assert done is not None, f"{src!r} still writing {HUNG:g} s after a {DEADLINE:g} s deadline"
    assert done.timed_out and done.exit_code == 124, (done, took)


@pytest.mark.timeout(120)
@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash as the oracle")
@pytest.mark.parametrize("src", SERVED)
def test_a_served_fifo_reads_and_writes_as_in_bash(fifo: Path, src: str) -> None:
    bash = subprocess.run(
        ["bash", "-c", src], cwd=fifo.parent, capture_output=True, timeout=HUNG, check=False
    )
    (fifo.parent / "out.txt").unlink(missing_ok=True)
    done, _ = _run_bounded(fifo, src, timeout=HUNG)
    assert done is not None
    assert (done.stdout, done.stderr, done.exit_code) == (bash.stdout, bash.stderr, bash.returncode)


@pytest.mark.timeout(120)
@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="counts /proc/self/fd")
def test_an_interrupted_fifo_wait_leaves_no_thread_and_no_descriptor(fifo: Path) -> None:
    def fds() -> int:
        return len(os.listdir("/proc/self/fd"))

    def openers() -> list[threading.Thread]:
        return [t for t in threading.enumerate() if t.name == "hookrun-fifo" and t.is_alive()]

    run("true", cwd=str(fifo.parent), env=dict(os.environ), shell="inprocess")  # warm up
    before = fds()
    for src in ("read x < ./f", "exec 3<./f", "x=$(< ./f)", "echo hi > ./f"):
        done, _ = _run_bounded(fifo, src, timeout=DEADLINE)
        assert done is not None and done.timed_out, src
    end = time.monotonic() + 10
    while (openers() or fds() > before) and time.monotonic() < end:
        time.sleep(0.05)
    assert openers() == []
    assert fds() <= before
