"""The sentinel: hook process groups end when hookrun dies by any means (dispatch/sentinel.py).

The pure parts (the registration protocol, the polite-then-forced kill, the Windows
job-object logic behind its seam) are tables; the POSIX sentinel itself is exercised
as a real process: started, told about real process groups, left by its owner.
The end-to-end promise (SIGKILL the real ``hookrun run`` mid-run) is in
tests/cli/hostile_sigkill_test.py.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from hookrun.dispatch import sentinel
from hookrun.dispatch.sentinel import JobSentinel, PosixSentinel

POSIX = pytest.mark.skipif(sys.platform == "win32", reason="the POSIX sentinel")
LINUX = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


@pytest.mark.parametrize(
    ("data", "groups", "markers", "rest"),
    [
        (b"+g 12\n", {12}, set(), b""),
        (b"+g 12\n+g 13\n-g 12\n", {13}, set(), b""),
        (b"+m a1-2\n+m b3\n-m a1-2\n", set(), {b"b3"}, b""),
        (b"+g 12\n+g 1", {12}, set(), b"+g 1"),  # a line cut by the pipe waits for its end
        (b"-g 99\n-m z\n", set(), set(), b""),  # forgetting the unknown is harmless
        (b"+g x\n?g 5\n\n+m \n+q 3\n+g 7\n", {7}, set(), b""),  # garbage is skipped
    ],
)
def test_registration_lines_add_and_remove_groups_and_markers(
    data: bytes, groups: set[int], markers: set[bytes], rest: bytes
) -> None:
    found = sentinel.Registry()
    assert sentinel.apply(found, data) == rest
    assert (found.groups, found.markers) == (groups, markers)


def test_collect_joins_lines_split_across_reads_and_stops_at_end_of_file() -> None:
    chunks = iter([b"+g 1", b"2\n+g 3", b"4\n-g 1", b"2\n+m i", b"d\n", b""])
    found = sentinel.collect(lambda: next(chunks))
    assert (found.groups, found.markers) == ({34}, {b"id"})


@POSIX
def test_the_lazy_reader_reads_what_piled_up_and_sees_end_of_file_at_once() -> None:
    import select

    r, w = os.pipe()
    try:
        read = sentinel.lazy_reader(r, select.poll, interval=0.01)
        os.write(w, b"+g 12\n")
        os.write(w, b"+m x\n")
        assert read() == b"+g 12\n+m x\n"
        os.close(w)
        w = -1
        # Another look would be 60 s away: end of file must wake it (POLLHUP), not time.
        read = sentinel.lazy_reader(r, select.poll, interval=60.0)
        started = time.monotonic()
        assert read() == b""
        assert time.monotonic() - started < 30
    finally:
        os.close(r)
        if w >= 0:
            os.close(w)


class FakeProcesses:
    """killpg/kill over tables of groups and marked pids: ``stubborn`` ignore SIGTERM;
    ``late`` marker holders appear only after the first look (a child between its
    fork and its exec)."""

    def __init__(self, alive: set[int], stubborn: set[int], marked: set[int] = frozenset(),
                 late: set[int] = frozenset()) -> None:  # fmt: skip
        self.alive = set(alive)
        self.stubborn = stubborn
        self.marked = set(marked)
        self.late = set(late)
        self.looks = 0
        self.sent: list[tuple[str, int, int]] = []
        self.now = 0.0

    def killpg(self, group: int, sig: int) -> None:
        if group not in self.alive:
            raise ProcessLookupError(group)
        if sig:
            self.sent.append(("group", group, sig))
        if sig == signal.SIGKILL or (sig == signal.SIGTERM and group not in self.stubborn):
            self.alive.discard(group)

    def kill(self, pid: int, sig: int) -> None:
        if pid not in self.marked:
            raise ProcessLookupError(pid)
        self.sent.append(("pid", pid, sig))
        if sig == signal.SIGKILL or pid not in self.stubborn:
            self.marked.discard(pid)

    def look(self, markers: set[bytes]) -> set[int]:
        assert markers == {b"run-1"}
        self.looks += 1
        if self.looks > 1:
            self.marked |= self.late
        return set(self.marked)

    def sleep(self, seconds: float) -> None:
        self.now += seconds


T, K = signal.SIGTERM, signal.SIGKILL


@pytest.mark.parametrize(
    ("alive", "stubborn", "marked", "late", "sent"),
    [
        # every group ends on TERM: no KILL, and no waiting out the grace
        ({10, 11}, set(), set(), set(), {("group", 10, T), ("group", 11, T)}),
        # a group that ignores TERM gets KILL after the grace; the others only TERM
        ({10, 11}, {11}, set(), set(), {("group", 10, T), ("group", 11, T), ("group", 11, K)}),
        # a group already gone is skipped
        (set(), set(), set(), set(), set()),
        # a marker holder outside the groups (unregistered, or setsid) is ended too
        ({10}, set(), {50}, set(), {("group", 10, T), ("pid", 50, T)}),
        ({10}, {50}, {50}, set(), {("group", 10, T), ("pid", 50, T), ("pid", 50, K)}),
        # one that took its marker only after the first look is killed on the second
        ({10}, {10}, set(), {51}, {("group", 10, T), ("group", 10, K), ("pid", 51, K)}),
    ],
)
def test_end_all_terms_then_kills_groups_and_marker_holders_left_after_the_grace(
    alive: set[int],
    stubborn: set[int],
    marked: set[int],
    late: set[int],
    sent: set[tuple[str, int, int]],
) -> None:
    fake = FakeProcesses(alive, stubborn, marked, late)
    registry = sentinel.Registry()
    registry.groups.update({10, 11})
    registry.markers.add(b"run-1")
    sentinel.end_all(
        registry,
        killpg=fake.killpg,
        kill=fake.kill,
        marked=fake.look,
        grace=0.5,
        sleep=fake.sleep,
        clock=lambda: fake.now,
    )
    assert set(fake.sent) == sent
    assert fake.alive == set() and fake.marked == set()
    waited = bool(stubborn & (alive | marked)) or bool(late)
    assert fake.now <= (0.5 + 0.05 if waited else 0.05)


@LINUX
def test_marked_pids_finds_a_process_by_its_marker_and_nothing_for_no_marker() -> None:
    child = subprocess.Popen(
        ["sleep", "30"], env={**os.environ, sentinel.MARKER: "t-42"}, start_new_session=True
    )
    try:
        deadline = time.monotonic() + 5
        while child.pid not in sentinel.marked_pids({b"t-42"}) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert child.pid in sentinel.marked_pids({b"t-4", b"t-42"})
        assert child.pid not in sentinel.marked_pids({b"t-4"})  # a prefix is not the marker
        assert sentinel.marked_pids(set()) == set()
    finally:
        child.kill()
        child.wait()


# -- the real POSIX sentinel ------------------------------------------------------------


def _gone(pid: int, within: float = 5.0) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            with open(f"/proc/{pid}/stat", "rb") as f:
                if f.read().rsplit(b")", 1)[1].split()[0] in (b"Z", b"X"):
                    return True
        except FileNotFoundError:
            return True
        time.sleep(0.02)
    return False


def _group(seconds: str) -> subprocess.Popen[bytes]:
    """A real process group: a sleeping leader and a sleeping member."""
    return subprocess.Popen(
        ["/bin/sh", "-c", f"sleep {seconds} & exec sleep {seconds}"], start_new_session=True
    )


def _members(group: int) -> list[int]:
    found = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat", "rb") as f:
                    fields = f.read().rsplit(b")", 1)[1].split()
            except OSError:
                continue
            if int(fields[2]) == group and fields[0] not in (b"Z", b"X"):
                found.append(int(name))
    return found


def _wait_empty(group: int, within: float = 5.0) -> bool:
    deadline = time.monotonic() + within
    while _members(group) and time.monotonic() < deadline:
        time.sleep(0.02)
    return not _members(group)


@POSIX
@LINUX
def test_when_its_owner_lets_go_the_sentinel_ends_the_registered_groups_and_exits() -> None:
    # The owner "dies" by closing its end, which is all the kernel does for a SIGKILLed one.
    guard = PosixSentinel()
    guard.ready()
    assert guard.pid is not None
    kept, ended, forgotten = _group("301.1"), _group("301.2"), _group("301.3")
    # Started, never registered by its group (hookrun killed between Popen's fork and
    # its return): found by the run's marker.
    guard.mark("i9-run-7")
    unregistered = subprocess.Popen(
        ["sleep", "301.5"], env={**os.environ, sentinel.MARKER: "i9-run-7"}, start_new_session=True
    )
    try:
        for proc in (ended, forgotten):
            guard.watch(proc)
        guard.forget(forgotten)
        os.close(guard._fd)
        assert _wait_empty(ended.pid), "a registered group outlived the sentinel's owner"
        assert _wait_empty(unregistered.pid), "a marked child outlived the sentinel's owner"
        assert _gone(guard.pid), "the sentinel outlived its job"
        assert _members(forgotten.pid), "a group hookrun had ended itself was signalled"
        assert _members(kept.pid), "an unregistered group was signalled"
    finally:
        for proc in (kept, ended, forgotten, unregistered):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def _wakeups(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("voluntary_ctxt_switches:"):
                return int(line.split()[1])
    raise AssertionError("no voluntary_ctxt_switches")


@POSIX
@LINUX
def test_registrations_do_not_wake_the_sentinel() -> None:
    # A sentinel blocked in read() was woken by every registration, and on a busy machine
    # the woken process preempted hookrun: four wake-ups for every child started.
    guard = PosixSentinel()
    try:
        guard.ready()
        pid = guard.pid
        assert pid is not None
        time.sleep(0.3)  # past its start-up: closing what it inherited, its name
        before = _wakeups(pid)
        started = time.monotonic()
        for n in range(100):  # paced as runs are: the sentinel could read each line
            guard.mark(f"run-{n}")
            time.sleep(0.001)
            guard.forget(marker=f"run-{n}")
            time.sleep(0.001)
        looks = (time.monotonic() - started) / sentinel.DRAIN + 2
        woken = _wakeups(pid) - before
        assert woken <= looks, (woken, looks)
    finally:
        os.close(guard._fd)
    assert _gone(pid)


class _CountedSentinel(PosixSentinel):
    """The real sentinel, with each write to its pipe counted (a write is a system call
    on every run that starts a process)."""

    def __init__(self) -> None:
        super().__init__()
        self.writes: list[bytes] = []

    def _send(self, line: bytes) -> None:
        self.writes.append(line)
        super()._send(line)


@POSIX
def test_a_run_tells_the_sentinel_of_its_end_in_one_write_with_its_lines_in_order() -> None:
    guard = _CountedSentinel()
    child = _group("301.6")
    try:
        guard.ready()
        guard.mark("run-9")
        guard.watch(child)
        guard.writes.clear()
        guard.forget(child, marker="run-9")
        assert guard.writes == [b"-g %d\n-m run-9\n" % child.pid]
        guard.forget(child, marker="run-9")  # forgotten already: nothing is written
        assert guard.writes == [b"-g %d\n-m run-9\n" % child.pid]
    finally:
        os.killpg(child.pid, signal.SIGKILL)
        child.wait()
        os.close(guard._fd)


@POSIX
@LINUX
def test_the_sentinel_holds_no_descriptor_but_its_pipe_and_lives_in_a_session_of_its_own(
    tmp_path: Path,
) -> None:
    # A host reading hookrun's stdout to its end must not wait for the sentinel.
    held = open(tmp_path / "held", "w")  # noqa: SIM115 - an inheritable-by-fork descriptor
    guard = PosixSentinel()
    try:
        guard.ready()
        assert guard.pid is not None
        time.sleep(0.2)  # it closes them first thing; give it the moment
        fds = os.listdir(f"/proc/{guard.pid}/fd")
        assert len(fds) == 1, fds
        assert os.readlink(f"/proc/{guard.pid}/fd/{fds[0]}").startswith("pipe:")
        # The middle process's session (so not a session leader: it can never take a
        # terminal); not hookrun's session or group.
        assert os.getsid(guard.pid) != os.getsid(0)
        assert os.getpgid(guard.pid) != os.getpgid(0)
        with open(f"/proc/{guard.pid}/comm", "rb") as f:
            assert f.read().strip() == sentinel.NAME
    finally:
        held.close()
        os.close(guard._fd)
    assert _gone(guard.pid)


@POSIX
@LINUX
def test_a_killed_sentinel_is_replaced_and_told_what_still_runs() -> None:
    guard = PosixSentinel()
    guard.ready()
    first = guard.pid
    assert first is not None
    proc = _group("301.4")
    try:
        guard.watch(proc)
        os.kill(first, signal.SIGKILL)
        assert _gone(first)
        guard.watch(_Pid(proc.pid + 10**6))  # the write fails: the sentinel is gone
        guard.ready()
        assert guard.pid not in (None, first)
        os.close(guard._fd)
        assert _wait_empty(proc.pid), "the replacement did not learn the running group"
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


@POSIX
@LINUX
def test_a_forked_copy_of_the_owner_does_not_keep_the_sentinel_waiting() -> None:
    guard = sentinel.for_platform("linux")  # registers its after-fork handler
    guard.ready()
    assert guard.pid is not None
    # The copy lives until the check below is done (it waits for this end of a pipe to
    # close), not for a time: a copy of the write end it kept would keep the sentinel
    # waiting through the whole check, however slow the machine.
    hold_r, hold_w = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - the forked copy
        code = 0 if guard._fd == -1 and guard.pid is None else 1
        os.close(hold_w)
        os.read(hold_r, 1)
        os._exit(code)
    os.close(hold_r)
    try:
        # Closed *and* forgotten: the after-fork handler this guard registered stays for
        # the life of the test process and closes guard._fd in every later fork's child
        # — a stale number there is by then another test's descriptor (fdpass's old
        # preexec children got EBADF in fds_to_children_test).
        fd, guard._fd = guard._fd, -1
        os.close(fd)
        assert _gone(guard.pid, within=30), "the fork's copy of the write end kept it alive"
    finally:
        os.close(hold_w)
        _, status = os.waitpid(child, 0)
    assert os.waitstatus_to_exitcode(status) == 0


class _Pid:
    def __init__(self, pid: int) -> None:
        self.pid = pid


# -- Windows: job objects behind the JobApi seam ----------------------------------------


class FakeJobs:
    """Records kernel32 calls; ``refuse`` fails AssignProcessToJobObject."""

    def __init__(self, *, refuse: bool = False, create: int = 77) -> None:
        self.calls: list[tuple[Any, ...]] = []
        self.refuse = refuse
        self.handle = create

    def create(self) -> int:
        self.calls.append(("create",))
        return self.handle

    def kill_on_close(self, job: int, on: bool) -> bool:
        self.calls.append(("kill_on_close", job, on))
        return True

    def assign(self, job: int, process: int) -> bool:
        self.calls.append(("assign", job, process))
        return not self.refuse

    def close(self, job: int) -> None:
        self.calls.append(("close", job))


class WinProc:
    def __init__(self, pid: int, handle: int | None) -> None:
        self.pid = pid
        if handle is not None:
            self._handle = handle


def test_windows_each_child_goes_into_a_kill_on_close_job_that_only_hookrun_holds() -> None:
    jobs = FakeJobs()
    guard = JobSentinel(jobs)
    guard.ready()
    guard.watch(WinProc(40, handle=900))
    assert jobs.calls == [("create",), ("kill_on_close", 77, True), ("assign", 77, 900)]


def test_windows_a_run_hookrun_ended_itself_lifts_the_limit_before_closing_the_job() -> None:
    # Closing with the limit on would kill a daemon the hook may leave (README).
    jobs = FakeJobs()
    guard = JobSentinel(jobs)
    guard.mark("run-1")  # markers are the POSIX sentinel's: a job holds the descendants
    guard.watch(WinProc(40, handle=900))
    jobs.calls.clear()
    guard.forget(WinProc(40, handle=900), marker="run-1")
    guard.forget(WinProc(40, handle=900))  # twice: nothing more
    assert jobs.calls == [("kill_on_close", 77, False), ("close", 77)]


@pytest.mark.parametrize(
    ("jobs", "proc", "calls"),
    [
        # a host's own job forbids nesting: the job is closed, the child runs unguarded
        (
            FakeJobs(refuse=True),
            WinProc(40, 900),
            [("create",), ("kill_on_close", 77, True), ("assign", 77, 900), ("close", 77)],
        ),
        (FakeJobs(create=0), WinProc(40, 900), [("create",)]),  # CreateJobObject failed
        (FakeJobs(), WinProc(40, None), []),  # no process handle to assign
    ],
)
def test_windows_a_child_that_cannot_be_put_in_a_job_runs_and_nothing_is_left_open(
    jobs: FakeJobs, proc: WinProc, calls: list[tuple[Any, ...]]
) -> None:
    guard = JobSentinel(jobs)
    guard.watch(proc)
    guard.forget(proc)
    assert jobs.calls == calls


def test_for_platform_picks_job_objects_on_windows_and_the_sentinel_elsewhere() -> None:
    assert isinstance(sentinel.for_platform("win32"), JobSentinel)
    assert isinstance(sentinel.for_platform("darwin"), PosixSentinel)


@pytest.mark.skipif(ctypes.sizeof(ctypes.c_void_p) != 8, reason="the 64-bit layout")
def test_the_job_limit_structure_has_the_windows_x64_layout() -> None:
    # sizeof(JOBOBJECT_EXTENDED_LIMIT_INFORMATION) is 144 on x64 and LimitFlags sits at
    # offset 16 of its first member (winnt.h); SetInformationJobObject checks the size.
    extended = sentinel.job_limit_structure()
    assert ctypes.sizeof(extended) == 144
    assert extended.BasicLimitInformation.offset == 0
    assert dict(extended._fields_)["BasicLimitInformation"].LimitFlags.offset == 16
    assert extended.IoInfo.offset == 64
    assert extended.ProcessMemoryLimit.offset == 112


def _proc_state(pid: int) -> str | None:
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
    except OSError:
        return None  # gone (reaped)
    return stat[stat.rindex(b")") + 2 :].split()[0].decode()


@POSIX
@LINUX
def test_the_middle_process_is_reaped_when_a_run_ends_not_left_a_zombie() -> None:
    """An embedding host that runs one hook keeps no defunct child of hookrun's: the
    middle process is reaped by the run's end (forget), not at the next spawn."""
    guard = PosixSentinel()
    try:
        guard.ready()
        middle = guard._middle
        assert middle > 0
        # Its exit is awaited as a state, not a time: under load it may come late.
        deadline = time.monotonic() + 30
        while _proc_state(middle) != "Z":
            assert time.monotonic() < deadline, _proc_state(middle)
            time.sleep(0.01)
        guard.mark("run-z")
        guard.forget(marker="run-z")
        assert guard._middle == 0
        assert _proc_state(middle) is None
        assert guard.pid is not None  # the sentinel's pid, read when the middle was reaped
    finally:
        os.close(guard._fd)
