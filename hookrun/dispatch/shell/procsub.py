"""Process substitution, ``<(cmd)`` and ``>(cmd)``, run in-process (loaded on first use).

As in bash, ``cmd`` runs as a concurrent subshell (a thread here) connected to one end
of a pipe; the command the substitution is a word of sees the other end as a path:

- ``/dev/fd/N`` where an external child can open it (Linux, macOS): the end is handed
  to the child at descriptor N, as bash's child inherits it. N counts down from 63,
  bash's first number, so ``echo <(:)`` prints what bash prints.
- elsewhere (Windows, a system without ``/dev/fd``) a temporary file's path: before an
  external child that names it starts, a ``<(…)`` is drained into the file; once the
  child ended, what it wrote into a ``>(…)``'s file is fed to that substitution.

Builtins and redirections (``read``, ``mapfile``, ``source``, ``< <(…)``, ``> >(…)``)
take the pipe end itself from the shell's table (:func:`lookup`), with no process and
no file. The substitution's status is never the command's; ``$!`` names it and
``wait $!`` returns its status. The parent's end is closed once the command that
expanded it is done (the substitution then sees EOF or EPIPE); the run waits for every
substitution's thread before it ends, and a timeout or cancellation stops them with the
rest of the run (:func:`finish`).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
import threading
from collections.abc import Sequence

from hookrun.dispatch import resolve
from hookrun.dispatch.cancel import Interrupted
from hookrun.dispatch.shell.state import ShellError
from hookrun.dispatch.streams import FdSink, FdSource
from hookrun.records import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

    from hookrun.dispatch.shell.interp import Interp
    from hookrun.shellsyntax.nodes import ProcSubst

# bash's first process-substitution descriptor; later ones count down from it.
_FIRST = 63
# What a <(…) may put into its file where there is no /dev/fd (a producer without end,
# `<(yes)`, must not fill the disk): the rest is not read, and the producer then meets
# EPIPE once the command is done — as $( ) keeps only SUBSTITUTION_LIMIT bytes.
FILE_LIMIT = 256 * 1024 * 1024

# Where an external child finds a descriptor it inherited by path: not on Windows, and
# only where /dev/fd is there (a minimal container may lack it). Tests switch it.
_dev_fd: bool | None = None


def dev_fd_usable(platform: str) -> bool:
    global _dev_fd
    if resolve.is_windows(platform):
        return False
    if _dev_fd is None:
        _dev_fd = os.path.isdir("/dev/fd")
    return _dev_fd


class ProcSub:
    """One substitution: the parent's end of its pipe, the path the command sees."""

    __slots__ = ("number", "path", "ours", "reading", "job", "tmp")

    def __init__(self, number: int, path: str, ours: Any, reading: bool, job: Any) -> None:
        self.number = number
        self.path = path
        self.ours = ours  # FdSource for <( ), FdSink for >( ); None once handed over
        self.reading = reading  # <( ): the command reads what the substitution writes
        self.job = job
        self.tmp: str | None = None  # the temporary file standing for the path, if any


def start(sh: Interp, p: ProcSubst) -> str:
    """Start ``p`` in a subshell of ``sh`` and return the path the command sees."""
    from hookrun.dispatch.shell.interp import _close_all, _Job, _run_stage, _Stage

    sh.guard.check()

    reading = p.op == "<("
    r, w = os.pipe()
    io = sh.io.copy()
    ours: Any
    theirs: Any
    if reading:
        ours, theirs = FdSource(r), FdSink(w)
        io.stdout = theirs
    else:
        ours, theirs = FdSink(w), FdSource(r)
        io.stdin = theirs
    taken = {q.number for q in sh.psubs} | set(io.fds)
    number = _FIRST
    while number in taken and number > 3:
        number -= 1
    sub = sh.subshell(io)
    sub.background = True  # stops, if still running, once the run is over
    job = _Job()
    job.process = sub.process
    if len(p.stmts) == 1 and sh._starts_a_program(p.stmts[0]):
        # One program (bash execs it): `kill $!` signals that child, as bash's would.
        sub.spawn_hook = lambda proc: setattr(job, "proc", proc)
    result = _Stage(owned=[theirs])
    if sh.exec_owned:  # (a descriptor `exec` opened: the substitution's own copy)
        from hookrun.dispatch.shell.interp import _own_copies

        _own_copies(io, result.owned)

    def run() -> None:
        stmts = p.stmts
        if reading and len(stmts) == 1 and stmts[0].cmd is None and len(stmts[0].redirects) == 1:
            r = stmts[0].redirects[0]
            if r.op == "<" and r.fd in (None, 0):  # bash 5.2: `<(<file)` is the file, as $(<file)
                stmts = ()
                try:
                    text = sub._read_file_subst(r)
                    theirs.write(text.encode("utf-8", "surrogateescape"))
                except OSError:
                    pass
                except ShellError as exc:  # the name's expansion failed
                    sub.error(exc.message, io)
                    sub.subst_status = exc.status
                result.status = sub.subst_status or 0
        if stmts:
            _run_stage(sub, stmts, io, result)
        else:
            _close_all(result.owned)
        job.status = result.status

    t = threading.Thread(target=run, name="hookrun-procsub", daemon=True)
    job.thread = t
    notes = sh.notes
    if notes.psubs is None:
        notes.psubs = []
    if dev_fd_usable(sh.platform):
        path = f"/dev/fd/{number}"
    else:
        path = os.path.join(_temp_dir(sh), f"sub{len(notes.psubs)}-{number}")
    ps = ProcSub(number, path, ours, reading, job)
    notes.psubs.append(ps)
    sh.psubs = (*sh.psubs, ps)  # (a new tuple: the mark exec_call took is the old one)
    t.start()
    job.pid = t.ident or 0
    # For `wait $!` (not `jobs`, not `wait`). A thread's ident is reused once it ended:
    # an older job under the same number is dropped.
    sh.psub_jobs = [*(j for j in sh.psub_jobs[-63:] if j.pid != job.pid), job]
    sh.state.last_bg_pid = job.pid
    return path


def _temp_dir(sh: Interp) -> str:
    notes = sh.notes
    if notes.psub_dir is None:
        notes.psub_dir = tempfile.mkdtemp(prefix="hookrun-psub-")
    return notes.psub_dir


def lookup(sh: Interp, path: str) -> Any:
    """The pipe end a builtin or redirection uses for ``path``, None if it names none."""
    for ps in reversed(sh.psubs):
        if ps.path == path and ps.ours is not None:
            return ps.ours
    return None


def read_all(sh: Interp, path: str) -> str | None:
    """All a ``<(…)`` named by ``path`` writes (``source <(cmd)``), None if none is."""
    stream = lookup(sh, path)
    if stream is None or not hasattr(stream, "readline"):
        return None
    chunks: list[bytes] = []

    def drain() -> None:
        with contextlib.suppress(OSError):
            while chunk := stream.read(65536):
                chunks.append(chunk)

    _wait_for(sh, drain)
    return b"".join(chunks).decode("utf-8", "surrogateescape")


def child_fds(sh: Interp, fds: dict[int, Any]) -> dict[int, Any]:
    """The descriptors an external child gets, with the substitutions' ends at their N."""
    out = dict(fds)
    for ps in sh.psubs:
        if ps.ours is not None and ps.path.startswith("/dev/fd/") and ps.number not in out:
            out[ps.number] = ps.ours
    return out


def end(sh: Interp, keep: tuple[ProcSub, ...]) -> None:
    """Close the parent's end of every substitution not in ``keep`` (the command that
    expanded them is done): a reader sees EOF, a writer EPIPE."""
    for ps in sh.psubs:
        if ps not in keep:
            _close(ps)
    sh.psubs = keep


# Held while a parent's end is closed: the run's end may close what a thread's command
# is closing too, and a descriptor closed twice may be another's by then.
_closing = threading.Lock()


def _close(ps: ProcSub) -> None:
    with _closing:
        ours, ps.ours = ps.ours, None
        if ours is not None:
            with contextlib.suppress(OSError):
                ours.close()


def take(ps: ProcSub) -> Any:
    """The parent's end of ``ps``, now the caller's to close (``exec 3< <(cmd)``): the
    substitution's path no longer names it; its thread is still waited for."""
    with _closing:
        ours, ps.ours = ps.ours, None
    return ours


# -- where /dev/fd is not: temporary files -------------------------------------
def before_child(sh: Interp, argv: Sequence[str]) -> list[ProcSub]:
    """Fill the file of each ``<(…)`` ``argv`` names (all its output, waited for) and
    create an empty one for each ``>(…)``; returns the ``>(…)`` ones to feed after."""
    after: list[ProcSub] = []
    for ps in sh.psubs:
        if ps.ours is None or ps.tmp is not None or not any(ps.path in a for a in argv):
            continue
        ps.tmp = ps.path
        if ps.reading:
            with open(ps.path, "wb") as fh:
                _copy(sh, ps.ours, fh)
        else:
            with open(ps.path, "wb"):
                pass
            after.append(ps)
    return after


def after_child(sh: Interp, pending: Sequence[ProcSub]) -> None:
    """Feed what the child wrote into each ``>(…)``'s file to that substitution."""
    for ps in pending:
        with _closing:
            sink, ps.ours = ps.ours, None
        if sink is None:
            continue

        def feed(path: str = ps.path, sink: Any = sink) -> None:
            try:
                with open(path, "rb") as fh:
                    while chunk := fh.read(65536):
                        sink.write(chunk)
            except OSError:
                pass  # the substitution stopped reading (EPIPE)
            finally:
                with contextlib.suppress(OSError):
                    sink.close()

        t = threading.Thread(target=feed, name="hookrun-procsub", daemon=True)
        assert sh.notes.psubs is not None
        sh.notes.psubs.append(t)
        t.start()


def _copy(sh: Interp, source: Any, fh: Any) -> None:
    def drain() -> None:
        left = FILE_LIMIT
        with contextlib.suppress(OSError):
            while left > 0 and (chunk := source.read(min(65536, left))):
                fh.write(chunk)
                left -= len(chunk)

    _wait_for(sh, drain)


def _wait_for(sh: Interp, fn: Any) -> None:
    """Run ``fn`` (a blocking read) in a helper thread, so a timeout still stops us."""
    t = threading.Thread(target=fn, name="hookrun-procsub", daemon=True)
    t.start()
    while t.is_alive():
        t.join(0.05)
        sh.guard.check()


# -- the end of a run ------------------------------------------------------------
def finish(sh: Interp) -> None:
    """Close what is left open and wait for every substitution's thread: their output
    is part of the run's, as bash's host reads until they closed its stdout too. After
    a timeout or cancellation each stops at its next command (the run's guard), its
    children ended by the run's process tracker; waited for a bounded time then."""
    try:
        sh.guard.check()
        interrupted = False
    except Interrupted:
        interrupted = True
    end(sh, ())
    notes = sh.notes
    started, notes.psubs = notes.psubs or [], None
    threads: list[threading.Thread] = []
    for x in started:  # (a ProcSub, or the thread feeding one after a child)
        if isinstance(x, ProcSub):
            _close(x)
            x = x.job.thread
        if x is not None:
            threads.append(x)
    try:
        for t in threads:
            while t.is_alive():
                t.join(0.05)
                if not interrupted:
                    try:
                        sh.guard.check()
                    except Interrupted:
                        interrupted = True
                        raise
    finally:
        if interrupted:
            for t in threads:
                t.join(2.0)
        if notes.psub_dir is not None:
            shutil.rmtree(notes.psub_dir, ignore_errors=True)
            notes.psub_dir = None
    # A substitution stopped by the timeout gave its reader an early EOF, and the
    # script may have ended on it: the run timed out all the same (never an answer).
    sh.guard.check()
