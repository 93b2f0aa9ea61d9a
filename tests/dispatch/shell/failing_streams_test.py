"""A shell whose output cannot be written: a closed pipe is exit 141 (as a shell killed by
SIGPIPE), any other failure of the stream is exit 2 with one line on stderr — never a
Python traceback, whichever entry point (``run_argv``, ``run_script``) met it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from hookrun.dispatch.cancel import Guard
from hookrun.dispatch.procs import ProcessTracker
from hookrun.dispatch.shell import Shell
from hookrun.dispatch.streams import BufferSource, CaptureSink, FdSink
from tests.dispatch.shell.shellrun import base_env


class ClosedFileSink:
    """Output to a Python file object that was closed: every write raises ValueError."""

    def write(self, data: bytes) -> None:
        raise ValueError("I/O operation on closed file")

    def flush(self) -> None:
        pass

    def fileno(self) -> int:
        raise ValueError("I/O operation on closed file")

    def close(self) -> None:
        pass


def _shell(stdout: object, stderr: CaptureSink, cwd: str) -> tuple[Shell, ProcessTracker]:
    procs = ProcessTracker()
    shell = Shell(
        cwd=cwd,
        env=base_env(),
        stdin=BufferSource(b""),
        stdout=stdout,  # type: ignore[arg-type]  # the point: a sink that fails
        stderr=stderr,
        procs=procs,
        guard=Guard(30),
    )
    return shell, procs


@pytest.mark.parametrize(
    ("entry", "code", "message"),
    [
        (
            "argv",
            2,
            "hookrun: internal error in the in-process shell: "
            "ValueError: I/O operation on closed file\n",
        ),
        ("script", 2, "I/O operation on closed file"),
    ],
)
def test_a_stream_that_fails_is_exit_2_and_one_message(
    tmp_path: Path, entry: str, code: int, message: str
) -> None:
    err = CaptureSink(1 << 16)
    shell, procs = _shell(ClosedFileSink(), err, str(tmp_path))
    try:
        status = shell.run_argv(["echo", "x"]) if entry == "argv" else shell.run_script("echo x")
    finally:
        procs.end_all()
    err.finish(10)
    text = err.data.decode()
    assert status == code
    assert message in text
    assert "Traceback" not in text
    assert text.count("\n") == 1


@pytest.mark.parametrize("source", ["echo x", "echo a; echo b; echo c"])
def test_writing_to_a_pipe_nobody_reads_is_exit_141(tmp_path: Path, source: str) -> None:
    r, w = os.pipe()
    os.close(r)
    err = CaptureSink(1 << 16)
    shell, procs = _shell(FdSink(w), err, str(tmp_path))
    try:
        status = shell.run_script(source)
    finally:
        procs.end_all()
        os.close(w)
    assert status == 141


def test_an_empty_argv_runs_nothing_and_succeeds(tmp_path: Path) -> None:
    out, err = CaptureSink(64), CaptureSink(64)
    shell, procs = _shell(out, err, str(tmp_path))
    assert shell.run_argv([]) == 0
    out.finish(10)
    err.finish(10)
    assert (out.data, err.data) == (b"", b"")
