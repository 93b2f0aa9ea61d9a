"""The hook processes end when hookrun itself is killed, by whatever means.

Every other way a run ends (a timeout, a cancel, SIGINT/SIGTERM/SIGHUP) goes through
hookrun's own code, which ends every tree (:mod:`.procs`). SIGKILL does not: Codex CLI
ends a hook past its timeout that way, and the hooks hookrun started, each in a process
group of its own, would live on. So something outside hookrun must notice its death.

POSIX: a **sentinel**, a tiny process double-forked from hookrun (no exec: a fork costs
well under a millisecond, a fresh interpreter tens). It holds the read end of a pipe
whose only write end hookrun holds, and reads registrations from it (every ``DRAIN``
seconds, not as each comes: see there): a run's marker
before its first child starts, each hook's process group as it starts, and the removal
of both once hookrun has ended them itself. End of file means hookrun is gone — exited,
crashed or killed — and the sentinel ends every group still registered and (Linux,
through /proc) every process carrying a registered marker, politely, then by force after
the grace hookrun itself gives, and exits. It lives in a
session of its own (a kill of hookrun's group or a closing terminal does not take it),
and closes every file descriptor it inherited but its pipe, so it never keeps a host's
stdout or stderr open. It starts lazily, just before the first external process of the
first run that needs one: a run of in-process and trivial hooks never forks it
(``tests/cli/import_set_test.py`` keeps this module off those paths). One sentinel
serves a whole process (an embedding host's many runs); a normal exit leaves it nothing
registered, so it exits at once.

Windows: the same guarantee from the kernel: each child is put in a job object of its
own with ``JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE``; the job handle lives only in hookrun,
and when hookrun dies the system closes it and ends every process in the job (the
hook's descendants join it). Once hookrun has ended the child's run itself, the limit
is lifted before the handle is closed, so the daemon a hook may leave behind
(README, "Hostile input") lives on, as on POSIX. The kernel32 calls sit behind
:class:`JobApi`, so that the logic is tested on any OS.

What is not covered: outside Linux the sentinel reads no process environments, so
there a process that left its hook's group (``setsid``) before hookrun was killed, or a
child started in the instant between Popen's fork and its registration, is not found.
On Windows a child joins its job just after it started: what it starts in that instant
is outside the job.
"""

from __future__ import annotations

import _signal  # type: ignore[import-not-found]  # C; `signal` builds IntEnums on import
import contextlib
import os
import sys
import threading
import time
from collections.abc import Callable

from hookrun.records import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, Protocol

    class _Proc(Protocol):
        pid: int

    class JobApi(Protocol):
        """The four kernel32 operations the Windows sentinel needs."""

        def create(self) -> int: ...
        def kill_on_close(self, job: int, on: bool) -> bool: ...
        def assign(self, job: int, process: int) -> bool: ...
        def close(self, job: int) -> None: ...


# Every child of a dispatch run carries MARKER=<the run's id> in its environment
# (procs.ProcessTracker); its one home is here, where the sentinel looks for it.
MARKER = "HOOKRUN_DISPATCH_ID"
# The sentinel's name in ps/top (Linux: at most 15 bytes), instead of a copy of
# hookrun's own command line.
NAME = b"hookrun-sentry"
# Polite signal, then this long before the forced one: the grace hookrun gives a
# hook it ends itself (procs.DEFAULT_GRACE).
GRACE = 0.5
_POLL = 0.02
# How often the sentinel empties its pipe. It does not read registrations as they come:
# a reader blocked in read() is woken by every write, and on a busy machine that wake-up
# preempts hookrun — 20-40 µs a write, four writes a child, a fifth of what running
# /bin/true costs. It waits for end of file alone and reads what piled up this often,
# well before the pipe (64 KiB, hundreds of runs) could fill and make a write wait.
DRAIN = 0.1
_JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE = 0x2000
_JOB_OBJECT_EXTENDED_LIMIT_INFORMATION = 9  # JOBOBJECTINFOCLASS


# -- the sentinel's own side (pure, then the loop) ---------------------------------------


class Registry:
    """What the sentinel ends should its owner die: process groups and run markers."""

    __slots__ = ("groups", "markers")

    def __init__(self) -> None:
        self.groups: set[int] = set()
        self.markers: set[bytes] = set()


def apply(registry: Registry, data: bytes) -> bytes:
    """Apply the complete lines of ``data`` (``+g PGID``, ``-g PGID``, ``+m ID``,
    ``-m ID``) to ``registry``; returns the incomplete rest."""
    *lines, rest = data.split(b"\n")
    for line in lines:
        sign, kind, value = line[:1], line[1:3], line[3:]
        if sign not in (b"+", b"-") or not value:
            continue
        if kind == b"g ":
            try:
                group = int(value)
            except ValueError:
                continue
            if sign == b"+":
                registry.groups.add(group)
            else:
                registry.groups.discard(group)
        elif kind == b"m " and sign == b"+":
            registry.markers.add(value)
        elif kind == b"m ":
            registry.markers.discard(value)
    return rest


def collect(read: Callable[[], bytes]) -> Registry:
    """What is still registered when ``read`` reaches end of file."""
    registry = Registry()
    rest = b""
    while chunk := read():
        rest = apply(registry, rest + chunk)
    return registry


def lazy_reader(fd: int, poll: Any, interval: float = DRAIN) -> Callable[[], bytes]:
    """A ``read`` for :func:`collect` that no write wakes: the next chunk of ``fd`` once
    there is one and ``interval`` has passed, or b"" at end of file, which comes at once
    (POLLHUP; elsewhere it is seen at the next look). ``poll`` is ``select.poll``,
    imported by the caller (the sentinel runs in a fork and imports nothing)."""
    os.set_blocking(fd, False)
    poller = poll()
    # No event asked for: only POLLHUP (every write end closed) and POLLERR wake it.
    poller.register(fd, 0)

    def read() -> bytes:
        while True:
            try:
                return os.read(fd, 65536)
            except BlockingIOError:
                poller.poll(interval * 1000)

    return read


def marked_pids(markers: set[bytes], proc: str = "/proc") -> set[int]:
    """Processes whose environment holds ``MARKER=<one of markers>`` (Linux: /proc;
    elsewhere nothing is found, and the groups alone are ended)."""
    if not markers:
        return set()
    entries = [MARKER.encode() + b"=" + m + b"\0" for m in markers]
    found: set[int] = set()
    try:
        names = os.listdir(proc)
    except OSError:
        return found
    me = os.getpid()
    for name in names:
        if not name.isdigit() or int(name) == me:
            continue
        try:
            with open(f"{proc}/{name}/environ", "rb") as f:
                env = b"\0" + f.read()
        except OSError:
            continue
        if any(b"\0" + entry in env for entry in entries):
            found.add(int(name))
    return found


def end_all(
    registry: Registry,
    *,
    killpg: Callable[[int, int], None] = os.killpg,
    kill: Callable[[int, int], None] = os.kill,
    marked: Callable[[set[bytes]], set[int]] = marked_pids,
    grace: float = GRACE,
    sleep: Callable[[float], None] = time.sleep,
    clock: Callable[[], float] = time.monotonic,
) -> None:
    """TERM every group and every marker holder, wait up to ``grace`` for the groups to
    empty, then KILL what is left, looking for marker holders again.

    The markers catch a child hookrun had started but not yet registered when it was
    killed (the moment between Popen's fork and its return), and one that left its
    group with ``setsid``; looking again before KILL catches one that was between its
    fork and its exec (it carries the marker only from its exec on).
    """
    alive = set()
    for group in registry.groups:
        with contextlib.suppress(OSError):  # gone already; or not ours any more
            killpg(group, _signal.SIGTERM)
            alive.add(group)
    pids = marked(registry.markers)
    for pid in pids:
        with contextlib.suppress(OSError):
            kill(pid, _signal.SIGTERM)
    deadline = clock() + grace
    while (alive or pids) and clock() < deadline:
        sleep(_POLL)
        for group in list(alive):
            try:
                killpg(group, 0)
            except ProcessLookupError:
                alive.discard(group)
            except OSError:
                pass
        pids = marked(registry.markers)
    for group in alive:
        with contextlib.suppress(OSError):
            killpg(group, _signal.SIGKILL)
    for pid in marked(registry.markers):
        with contextlib.suppress(OSError):
            kill(pid, _signal.SIGKILL)


def _close_inherited(keep: int) -> None:  # pragma: no cover - runs in the forked sentinel
    """Close every descriptor but ``keep``: a host's pipes, hookrun's capture pipes."""
    try:
        fds = [int(name) for name in os.listdir("/dev/fd")]  # the listing's own fd is shut
    except OSError:  # no /dev/fd
        fds = list(range(0, min(os.sysconf("SC_OPEN_MAX"), 65536)))
    for fd in fds:
        if fd != keep:
            with contextlib.suppress(OSError):
                os.close(fd)


def _sentinel_main(read_fd: int, poll: Any) -> None:  # pragma: no cover - the forked sentinel
    # hookrun's own handlers were inherited and would start a cancel thread here.
    with contextlib.suppress(ValueError, OSError):
        _signal.signal(_signal.SIGINT, _signal.SIG_IGN)
        _signal.signal(_signal.SIGTERM, _signal.SIG_DFL)
        _signal.signal(_signal.SIGHUP, _signal.SIG_IGN)
    _close_inherited(read_fd)
    with contextlib.suppress(OSError):
        comm = os.open("/proc/self/comm", os.O_WRONLY)
        os.write(comm, NAME)
        os.close(comm)
    end_all(collect(lazy_reader(read_fd, poll)))


def _fork_sentinel(read_fd: int, status_fd: int, poll: Any) -> None:  # pragma: no cover - fork
    """The middle process: new session, fork the sentinel, report its pid, exit."""
    code = 0
    try:
        os.setsid()
        pid = os.fork()
        if pid == 0:
            try:
                _sentinel_main(read_fd, poll)
            finally:
                os._exit(0)
        os.write(status_fd, b"%d" % pid)
    except BaseException:  # noqa: BLE001 - nothing may escape a forked child
        code = 1
    finally:
        os._exit(code)


# -- hookrun's side -------------------------------------------------------------------


class PosixSentinel:
    """hookrun's end of the pipe: starts the sentinel and tells it about groups."""

    def __init__(self, fork: Callable[[], int] = os.fork) -> None:
        self._fork = fork
        self._lock = threading.Lock()
        self._fd = -1
        self._owner = 0  # the pid that started it: a forked copy of hookrun starts its own
        self._lines: set[bytes] = set()  # what is registered: b"g PGID", b"m MARKER"
        self._pid: int | None = None  # the sentinel's, once the middle process said it
        self._middle = 0  # the middle process, until reaped
        self._status = -1  # where the middle process writes the sentinel's pid

    def ready(self) -> None:
        """Start the sentinel unless this process has a live one."""
        # Looked at first without the lock (every spawn asks): a sentinel that dies just
        # after is found by the next write, as it is after a locked look.
        if self._fd < 0 or self._owner != os.getpid():
            with self._lock:
                if self._fd < 0 or self._owner != os.getpid():
                    self._start()

    def mark(self, marker: str) -> None:
        """Register a run's marker (``MARKER=marker`` in its children's environment),
        before its first child: the sentinel then finds a child hookrun was killed too
        early to register."""
        line = b"m " + marker.encode()
        with self._lock:
            if line not in self._lines:
                self._lines.add(line)
                self._send(b"+%s\n" % line)

    def watch(self, proc: _Proc) -> None:
        """Register the group of ``proc`` (a group leader: its pid is the group's id)."""
        line = b"g %d" % proc.pid
        with self._lock:
            self._lines.add(line)
            self._send(b"+%s\n" % line)
            if self._middle or self._status >= 0:
                self._collect(block=False)

    def forget(self, proc: _Proc | None = None, marker: str | None = None) -> None:
        """hookrun ended this group (and this run) itself: the sentinel must never signal
        them again (a pid is reused; a daemon the hook left may live, README)."""
        group = None if proc is None else b"g %d" % proc.pid
        mark = None if marker is None else b"m " + marker.encode()
        with self._lock:
            lines = self._lines
            out = b""
            if group is not None and group in lines:
                lines.discard(group)
                out = b"-%s\n" % group
            if mark is not None and mark in lines:
                lines.discard(mark)
                out += b"-%s\n" % mark
            if out:  # one write, not one per line: each is a system call on every run
                self._send(out)
            if self._middle:
                # The middle process exits as soon as it has forked the sentinel: reaped
                # at the end of the first run, not left a zombie in an embedding host
                # until its next child (or for good, if it starts none).
                self._collect(block=False)

    @property
    def pid(self) -> int | None:
        """The sentinel's pid (tests, diagnostics); waits for the middle process to say it."""
        with self._lock:
            self._collect(block=True)
            return self._pid

    def _start(self) -> None:
        if self._fd >= 0 and self._owner == os.getpid():
            with contextlib.suppress(OSError):
                os.close(self._fd)
        self._fd, self._pid = -1, None
        self._collect(block=True)  # a previous middle process, if still unread
        import select  # loaded with subprocess already: a child is about to start

        read_fd, write_fd = os.pipe()
        status_r, status_w = os.pipe()
        try:
            # A fork of a process with threads: the child runs only os.* calls and
            # code already imported (no import, no lock another thread may hold),
            # then exits with os._exit, so nothing of hookrun's state is touched.
            middle = self._fork()
            if middle == 0:  # pragma: no cover - the forked child
                os.close(write_fd)
                os.close(status_r)
                _fork_sentinel(read_fd, status_w, select.poll)
        except OSError:
            for fd in (write_fd, status_r):
                os.close(fd)
            return  # no sentinel (out of processes): hookrun runs as it did without one
        finally:
            os.close(read_fd)
            os.close(status_w)
        # Not waited for here: under load the middle process may take tens of ms to be
        # scheduled, and the hook need not wait. The sentinel holds the read end from its
        # fork on; should the middle fail, writes fail and the next spawn starts another.
        self._fd, self._owner = write_fd, os.getpid()
        self._middle, self._status = middle, status_r
        # A sentinel restarted after the last one died learns what is still running.
        if self._lines:
            self._send(b"".join(b"+" + line + b"\n" for line in sorted(self._lines)))

    def _collect(self, *, block: bool) -> None:
        """Reap the middle process and read the sentinel's pid it reported, once it has
        exited (``block``: waiting for it)."""
        if self._middle:
            try:
                done, _ = os.waitpid(self._middle, 0 if block else os.WNOHANG)
            except ChildProcessError:  # reaped by someone else (an embedding host)
                done = self._middle
            if not done:
                return
            self._middle = 0
        if self._status >= 0:
            with contextlib.suppress(OSError, ValueError):
                self._pid = int(os.read(self._status, 32))
            os.close(self._status)
            self._status = -1

    def _send(self, line: bytes) -> None:
        if self._fd < 0 or self._owner != os.getpid():
            return
        try:
            os.write(self._fd, line)  # < PIPE_BUF: one atomic write
        except OSError:  # the sentinel was killed: the next spawn starts another
            with contextlib.suppress(OSError):
                os.close(self._fd)
            self._fd, self._pid = -1, None


def _forget_in_forked_child(sentinel: PosixSentinel) -> None:  # pragma: no cover - in a fork
    # A fork of hookrun (an embedding host's multiprocessing) must not keep the parent's
    # sentinel waiting: its copy of the write end goes, and it starts its own if needed.
    for fd in (sentinel._fd, sentinel._status):
        if fd >= 0:
            with contextlib.suppress(OSError):
                os.close(fd)
    sentinel._fd, sentinel._status, sentinel._middle, sentinel._pid = -1, -1, 0, None
    sentinel._lines = set()
    sentinel._lock = threading.Lock()


class JobSentinel:
    """Windows: one kill-on-close job object per child, held only by hookrun."""

    def __init__(self, api: JobApi | None = None) -> None:
        self._api = api
        self._lock = threading.Lock()
        self._jobs: dict[int, int] = {}

    def ready(self) -> None:
        """Nothing to start: the kernel is the sentinel."""

    def watch(self, proc: _Proc) -> None:
        handle = getattr(proc, "_handle", None)  # subprocess.Popen's process handle
        if handle is None:
            return
        api = self._jobs_api()
        job = api.create()
        if not job:
            return
        if not (api.kill_on_close(job, True) and api.assign(job, int(handle))):
            api.close(job)  # e.g. a host's job that forbids nesting: run unguarded
            return
        with self._lock:
            self._jobs[proc.pid] = job

    def mark(self, marker: str) -> None:
        """Nothing to do: a child's descendants join its job by themselves."""

    def forget(self, proc: _Proc | None = None, marker: str | None = None) -> None:
        if proc is None:
            return
        with self._lock:
            job = self._jobs.pop(proc.pid, None)
        if job is not None:
            api = self._jobs_api()
            # Closing the handle with the limit on would end a daemon the hook left.
            api.kill_on_close(job, False)
            api.close(job)

    def _jobs_api(self) -> JobApi:
        if self._api is None:  # pragma: no cover - Windows only
            self._api = Kernel32Jobs()
        return self._api


def job_limit_structure() -> Any:
    """JOBOBJECT_EXTENDED_LIMIT_INFORMATION as a ctypes structure (any OS: its layout
    is tested here, used on Windows)."""
    import ctypes  # only on Windows, at the first child

    class Basic(ctypes.Structure):
        _fields_ = [
            ("PerProcessUserTimeLimit", ctypes.c_int64),
            ("PerJobUserTimeLimit", ctypes.c_int64),
            ("LimitFlags", ctypes.c_uint32),
            ("MinimumWorkingSetSize", ctypes.c_size_t),
            ("MaximumWorkingSetSize", ctypes.c_size_t),
            ("ActiveProcessLimit", ctypes.c_uint32),
            ("Affinity", ctypes.c_size_t),
            ("PriorityClass", ctypes.c_uint32),
            ("SchedulingClass", ctypes.c_uint32),
        ]

    class IoCounters(ctypes.Structure):
        _fields_ = [
            (name, ctypes.c_uint64)
            for name in (
                "ReadOperationCount",
                "WriteOperationCount",
                "OtherOperationCount",
                "ReadTransferCount",
                "WriteTransferCount",
                "OtherTransferCount",
            )
        ]

    class Extended(ctypes.Structure):
        _fields_ = [
            ("BasicLimitInformation", Basic),
            ("IoInfo", IoCounters),
            ("ProcessMemoryLimit", ctypes.c_size_t),
            ("JobMemoryLimit", ctypes.c_size_t),
            ("PeakProcessMemoryUsed", ctypes.c_size_t),
            ("PeakJobMemoryUsed", ctypes.c_size_t),
        ]

    return Extended


class Kernel32Jobs:  # pragma: no cover - Windows only
    """:class:`JobApi` through ctypes."""

    def __init__(self) -> None:
        import ctypes
        from ctypes import wintypes

        self._ctypes = ctypes
        k32 = ctypes.WinDLL("kernel32", use_last_error=True)  # type: ignore[attr-defined,unused-ignore]
        k32.CreateJobObjectW.restype = wintypes.HANDLE
        k32.CreateJobObjectW.argtypes = (wintypes.LPVOID, wintypes.LPCWSTR)
        k32.SetInformationJobObject.restype = wintypes.BOOL
        k32.SetInformationJobObject.argtypes = (
            wintypes.HANDLE,
            ctypes.c_int,
            wintypes.LPVOID,
            wintypes.DWORD,
        )
        k32.AssignProcessToJobObject.restype = wintypes.BOOL
        k32.AssignProcessToJobObject.argtypes = (wintypes.HANDLE, wintypes.HANDLE)
        k32.CloseHandle.restype = wintypes.BOOL
        k32.CloseHandle.argtypes = (wintypes.HANDLE,)
        self._k32 = k32
        self._info = job_limit_structure()

    def create(self) -> int:
        # No security attributes: the handle is not inheritable, so no child keeps
        # the job open after hookrun is gone.
        return int(self._k32.CreateJobObjectW(None, None) or 0)

    def kill_on_close(self, job: int, on: bool) -> bool:
        info = self._info()
        info.BasicLimitInformation.LimitFlags = _JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE if on else 0
        return bool(
            self._k32.SetInformationJobObject(
                job,
                _JOB_OBJECT_EXTENDED_LIMIT_INFORMATION,
                self._ctypes.byref(info),
                self._ctypes.sizeof(info),
            )
        )

    def assign(self, job: int, process: int) -> bool:
        return bool(self._k32.AssignProcessToJobObject(job, process))

    def close(self, job: int) -> None:
        self._k32.CloseHandle(job)


def for_platform(platform: str = sys.platform) -> PosixSentinel | JobSentinel:
    if platform == "win32":
        return JobSentinel()
    sentinel = PosixSentinel()
    os.register_at_fork(after_in_child=lambda: _forget_in_forked_child(sentinel))
    return sentinel


SENTINEL = for_platform()
