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
    ("data", "groups", "rest"),
    [
        (b"+12\n", {12}, b""),
        (b"+12\n+13\n-12\n", {13}, b""),
        (b"+12\n+1", {12}, b"+1"),  # a line cut by the pipe waits for its end
        (b"-99\n", set(), b""),  # forgetting what was never registered is harmless
        (b"+x\n?5\n\n+7\n", {7}, b""),  # garbage lines are skipped, not fatal
    ],
)
def test_registration_lines_add_and_remove_groups(
    data: bytes, groups: set[int], rest: bytes
) -> None:
    found: set[int] = set()
    assert sentinel.apply(found, data) == rest
    assert found == groups


def test_collect_joins_lines_split_across_reads_and_stops_at_end_of_file() -> None:
    chunks = iter([b"+1", b"2\n+3", b"4\n-1", b"2\n", b""])
    assert sentinel.collect(lambda: next(chunks)) == {34}


class FakeGroups:
    """killpg over a table of groups: ``stubborn`` ones ignore SIGTERM."""

    def __init__(self, alive: set[int], stubborn: set[int]) -> None:
        self.alive = set(alive)
        self.stubborn = stubborn
        self.sent: list[tuple[int, int]] = []
        self.now = 0.0

    def killpg(self, group: int, sig: int) -> None:
        if group not in self.alive:
            raise ProcessLookupError(group)
        if sig:
            self.sent.append((group, sig))
        if sig == signal.SIGKILL or (sig == signal.SIGTERM and group not in self.stubborn):
            self.alive.discard(group)

    def sleep(self, seconds: float) -> None:
        self.now += seconds


@pytest.mark.parametrize(
    ("alive", "stubborn", "sent"),
    [
        # every group ends on TERM: no KILL, and no waiting out the grace
        ({10, 11}, set(), {(10, signal.SIGTERM), (11, signal.SIGTERM)}),
        # a group that ignores TERM gets KILL after the grace; the others only TERM
        ({10, 11}, {11}, {(10, signal.SIGTERM), (11, signal.SIGTERM), (11, signal.SIGKILL)}),
        # a group already gone is skipped
        (set(), set(), set()),
    ],
)
def test_end_groups_terms_then_kills_what_is_left_after_the_grace(
    alive: set[int], stubborn: set[int], sent: set[tuple[int, int]]
) -> None:
    fake = FakeGroups(alive, stubborn)
    sentinel.end_groups(
        [10, 11], killpg=fake.killpg, grace=0.5, sleep=fake.sleep, clock=lambda: fake.now
    )
    assert set(fake.sent) == sent
    assert fake.alive == set()
    assert fake.now <= (0.5 + 0.05 if stubborn else 0.05)


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
    try:
        for proc in (ended, forgotten):
            guard.watch(proc)
        guard.forget(forgotten)
        os.close(guard._fd)
        assert _wait_empty(ended.pid), "a registered group outlived the sentinel's owner"
        assert _gone(guard.pid), "the sentinel outlived its job"
        assert _members(forgotten.pid), "a group hookrun had ended itself was signalled"
        assert _members(kept.pid), "an unregistered group was signalled"
    finally:
        for proc in (kept, ended, forgotten):
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


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
    child = os.fork()
    if child == 0:  # pragma: no cover - the forked copy
        code = 0 if guard._fd == -1 and guard.pid is None else 1
        time.sleep(3)
        os._exit(code)
    try:
        os.close(guard._fd)
        assert _gone(guard.pid, within=2.5), "the fork's copy of the write end kept it alive"
    finally:
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
    guard.watch(WinProc(40, handle=900))
    jobs.calls.clear()
    guard.forget(WinProc(40, handle=900))
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
