"""Feeding one child's stdin and draining its stdout/stderr on the calling thread.

A file hook (``./hooks/check.py``) is one child with three pipes. The general
streams in :mod:`hookrun.dispatch.streams` give each pipe a thread, which is
right for the shell (a builtin may write while a child runs) but costs about
0.25 ms per thread start — most of the price of running a 1 ms program. Here,
as in :meth:`subprocess.Popen.communicate`, one ``poll`` loop on the calling
thread does all three, so a file hook costs what ``subprocess.run`` costs. On Linux
the child's pidfd is in the same poll: the loop sees the child exit and keeps the
deadline itself, without the watchdog's thread or a blocking waitpid.

POSIX only (``select.poll`` on pipes); on Windows dispatch uses the threaded
streams.
"""

from __future__ import annotations

import os
import select
import subprocess  # noqa: F401 - see below
import time
from collections.abc import Mapping, Sequence
from typing import NamedTuple

from hookrun.dispatch.cancel import Guard, wait_bound
from hookrun.dispatch.procs import ProcessTracker, exit_status, pidfd_of
from hookrun.dispatch.streams import CaptureSink
from hookrun.records import TYPE_CHECKING

if TYPE_CHECKING:
    from hookrun.dispatch.procs import Child

# subprocess is not used here: the Popen route (a hook in another directory) and the
# kill path import it. Loaded with this module, it is loaded by api.prepare_imports in
# the calling thread, never first by a worker a Ctrl-C can cut short inside an import.

_CHUNK = 64 * 1024
# Idle wake-up: only to notice that the child exited while something else (an
# escaped descendant) still holds its pipes. Data and EOF wake the loop at once.
_IDLE = 0.1
# After the child exited, how long its pipes may stay open before the rest of
# its output is abandoned: a process outside its group is holding them.
EOF_WAIT = 0.1
_IN = select.POLLIN | select.POLLHUP | select.POLLERR
_OUT = select.POLLOUT | select.POLLERR | select.POLLHUP


class Pumped(NamedTuple):  # not a dataclass: imported on every hookrun run
    """How a pumped run ended: the child's status and whether the pipes reached EOF."""

    status: int
    eof: bool


def run_child(
    tracker: ProcessTracker,
    argv: Sequence[str],
    *,
    cwd: str,
    env: Mapping[str, str],
    payload: bytes,
    stdout: CaptureSink,
    stderr: CaptureSink,
    guard: Guard,
) -> Pumped:
    """Spawn ``argv`` through ``tracker``, pump its pipes, wait for it.

    Raises :class:`~hookrun.dispatch.procs.SpawnError` and
    :class:`~hookrun.dispatch.cancel.Interrupted` as the tracker does. The sinks
    are used as bounded buffers only (their ``write``); they never get a pipe.

    Linux: the child's pidfd is polled with its pipes, so the loop itself sees the
    child exit and the deadline pass (a ``poll`` timeout): no watchdog alarm (whose
    thread a first run would start), no waitpid that blocks. Elsewhere, or without a
    pidfd, the shared watchdog ends the tree at the deadline, which ends the loop.
    """
    in_r, in_w = os.pipe()
    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    try:
        proc = tracker.spawn(
            argv, cwd=cwd, env=env, stdin=in_r, stdout=out_w, stderr=err_w, watch=False
        )
    except BaseException:
        for fd in (in_r, in_w, out_r, out_w, err_r, err_w):
            os.close(fd)
        raise
    for fd in (in_r, out_w, err_w):
        os.close(fd)
    pidfd = pidfd_of(proc.pid)
    try:
        # The token (cancel from another thread) ends the tree through its callback; the
        # deadline is the loop's own when there is a pidfd, else the watchdog's.
        if guard.token is not None or (pidfd < 0 and guard.deadline is not None):
            tracker.watch(guard, deadline=pidfd < 0)  # (else it would have nothing to arm)
        eof = _pump(proc, in_w, payload, {out_r: stdout, err_r: stderr}, pidfd, guard, tracker)
    finally:
        if pidfd >= 0:
            os.close(pidfd)
    if pidfd < 0:
        return Pumped(tracker.wait(proc, guard), eof)
    # The pidfd said the child exited: this waitpid collects it at once.
    guard.check()
    status = exit_status(proc.wait())
    guard.check()
    return Pumped(status, eof)


def _pump(
    proc: Child,
    in_w: int,
    payload: bytes,
    sinks: dict[int, CaptureSink],
    pidfd: int,
    guard: Guard,
    tracker: ProcessTracker,
) -> bool:
    """Move bytes until both outputs reach EOF (True) or are abandoned (False), and,
    with a ``pidfd``, until the child exited. Closes the pipes.

    With a pidfd the poll sleeps until data, EOF, the child's exit or the deadline (it
    then ends the tree, :meth:`ProcessTracker.interrupt`, and goes on until the child is
    gone). Without one it wakes every ``_IDLE`` to ask waitpid whether the child exited.
    """
    poller = select.poll()
    stdin_open = True
    os.set_blocking(in_w, False)
    deadline = guard.deadline if pidfd >= 0 else None
    monotonic = time.monotonic
    try:
        # Most payloads fit in the pipe buffer: written and closed before the
        # loop, the child sees EOF without the loop ever watching stdin.
        view, stdin_open = _feed(in_w, memoryview(payload))
        if stdin_open:
            poller.register(in_w, _OUT)
        for fd in sinks:
            poller.register(fd, _IN)
        if pidfd >= 0:
            poller.register(pidfd, select.POLLIN)
        open_outs = len(sinks)
        running = pidfd >= 0  # the loop also waits for the pidfd to say "exited"
        exited_at: float | None = None
        # On the main thread a signal's handler must get its turn: no wait there lasts
        # longer than this (wait_bound; asked once, the thread does not change).
        bound = wait_bound(None)
        while True:
            if pidfd < 0:
                wait: float | None = _IDLE
            elif exited_at is not None:
                wait = max(0.0, exited_at + EOF_WAIT - monotonic())
            elif deadline is not None:
                wait = max(0.0, deadline - monotonic())
            else:
                wait = None
            if bound is not None and (wait is None or wait > bound):
                wait = bound
            for fd, _ in poller.poll(-1 if wait is None else wait * 1000):
                sink = sinks.get(fd)
                if sink is not None:
                    chunk = os.read(fd, _CHUNK)
                    if chunk:
                        sink.write(chunk)
                    else:
                        poller.unregister(fd)
                        open_outs -= 1
                elif fd == pidfd:
                    poller.unregister(pidfd)
                    running = False
                    exited_at = monotonic()
                else:  # stdin
                    view, stdin_open = _feed(in_w, view)
                    if not stdin_open:
                        poller.unregister(in_w)
            if not open_outs and not running:
                return True
            now = monotonic()  # (one clock read for the three checks)
            if pidfd < 0:
                # A waitpid(WNOHANG) per wake-up: cheap, and it bounds the case of a
                # descendant that keeps writing after the child itself is gone.
                if exited_at is None and proc.poll() is not None:
                    exited_at = now
            elif deadline is not None and running and now >= deadline:
                # The watchdog's job, done here: end the tree (on a thread of its own,
                # grace then force) and go on until the child is gone.
                tracker.interrupt("timeout")
                deadline = None
            if exited_at is not None and now - exited_at >= EOF_WAIT:
                return False
    finally:
        if stdin_open:
            os.close(in_w)
        for fd in sinks:
            os.close(fd)


def _feed(fd: int, view: memoryview) -> tuple[memoryview, bool]:
    """Write what the pipe takes now; close it when done or when the reader left."""
    try:
        while view:
            view = view[os.write(fd, view[:_CHUNK]) :]
    except BlockingIOError:
        return view, True
    except OSError:
        pass  # EPIPE: the child exited or closed stdin, which is its right
    os.close(fd)
    return view, False
