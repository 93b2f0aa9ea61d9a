from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING

import psutil
import pytest

from hookrun.dispatch.cancel import CancelToken, Guard, Interrupted
from hookrun.dispatch.procs import (
    MARKER,
    ProcessTracker,
    SpawnError,
    exit_status,
    new_dispatch_id,
    popen_options,
)
from tests.dispatch.conftest import Route
from tests.timing import soon_after

if TYPE_CHECKING:
    from hookrun.dispatch.procs import Child

DEVNULL = subprocess.DEVNULL


def _spawn(
    tracker: ProcessTracker,
    argv: list[str],
    cwd: str = "/",
    route: Route | None = None,
    **kw: int,
) -> Child:
    """Start ``argv``; with a ``route``, the program by path in the process's directory
    (what the posix_spawn route takes) unless ``cwd`` says another."""
    if route is not None:
        argv = route.argv(argv)
        cwd = route.cwd if cwd == "/" else cwd
    return tracker.spawn(
        argv,
        cwd=cwd,
        env=dict(os.environ),
        stdin=kw.get("stdin", DEVNULL),
        stdout=kw.get("stdout", DEVNULL),
        stderr=kw.get("stderr", DEVNULL),
    )


def _dead(pid: int) -> bool:
    try:
        return bool(psutil.Process(pid).status() == psutil.STATUS_ZOMBIE)
    except psutil.NoSuchProcess:
        return True


_GROUP = {"process_group": 0} if sys.version_info >= (3, 11) else {"start_new_session": True}


@pytest.mark.parametrize(
    ("platform", "terminal", "options"),
    [
        ("linux", True, {"start_new_session": True}),
        ("darwin", True, {"start_new_session": True}),
        ("linux", False, _GROUP),
        ("darwin", False, _GROUP),
        ("win32", True, {"creationflags": 0x200}),
        ("win32", False, {"creationflags": 0x200}),
    ],
)
def test_popen_options_give_each_child_its_own_group_and_no_terminal(
    platform: str, terminal: bool, options: dict[str, object]
) -> None:
    assert popen_options(platform, terminal=lambda: terminal) == options


# Run in a process of its own: with "tty", it first makes a new pseudo-terminal its
# controlling terminal, as a host in a terminal window has one. Then hookrun starts a
# child that reports its group, its session and whether it can open the terminal.
_TERMINAL_PROBE = """
import os, sys
if sys.argv[1] == "tty":
    main, sub = os.openpty()  # the probe leads a session of its own, with no terminal yet
    os.close(os.open(os.ttyname(sub), os.O_RDWR))  # a session leader's first tty: its own
from hookrun.dispatch.cancel import Guard
from hookrun.dispatch.procs import ProcessTracker, has_terminal
child = (
    "import os\\n"
    "try:\\n os.close(os.open('/dev/tty', os.O_RDONLY | os.O_NONBLOCK)); tty = 'tty'\\n"
    "except OSError: tty = 'no-tty'\\n"
    "print(os.getpgrp() == os.getpid(), os.getsid(0) == os.getpid(), tty)"
)
from hookrun.dispatch import procs
r, w = os.pipe()
tracker = ProcessTracker()
if sys.argv[2] == "posix_spawn":  # the program by path, run where hookrun is
    os.chdir("/")
    proc = tracker.spawn([sys.executable, "-c", child], cwd="/", env=dict(os.environ),
                         stdin=-3, stdout=w, stderr=-3)
else:
    procs._POSIX_SPAWN = False
    proc = tracker.spawn([sys.executable, "-c", child], cwd="/", env=dict(os.environ),
                         stdin=0, stdout=w, stderr=2)
os.close(w)
tracker.wait(proc, Guard())
print(has_terminal(), os.read(r, 200).decode().strip(), type(proc).__name__)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX terminals and sessions")
@pytest.mark.parametrize("way", [("popen", "Popen"), ("posix_spawn", "Spawned")])
@pytest.mark.parametrize(
    ("tty", "expected"),
    [
        # A terminal to leave: a session of its own, and the terminal is out of reach
        # (in a background group it would be stopped by SIGTTIN on a read).
        ("tty", "True True True no-tty"),
        # None: a group of its own is the same promise (a session too before 3.11).
        ("no-tty", f"False True {sys.version_info < (3, 11)} no-tty"),
    ],
)
def test_a_child_leads_its_own_group_and_never_reaches_hookruns_terminal(
    tty: str, expected: str, way: tuple[str, str]
) -> None:
    probe = subprocess.run(
        [sys.executable, "-c", _TERMINAL_PROBE, tty, way[0]],
        capture_output=True,
        text=True,
        timeout=60,
        start_new_session=True,  # whatever terminal pytest has, the probe starts without
        env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])},
    )
    assert probe.returncode == 0, probe.stderr
    assert probe.stdout.strip() == f"{expected} {way[1]}"


@pytest.mark.parametrize(("returncode", "status"), [(0, 0), (3, 3), (-9, 137), (-15, 143)])
def test_exit_status_reports_signals_as_128_plus_n(returncode: int, status: int) -> None:
    assert exit_status(returncode) == status


def test_new_dispatch_id_differs_per_run_and_per_process() -> None:
    ids = {new_dispatch_id() for _ in range(1000)}
    assert len(ids) == 1000
    code = "from hookrun.dispatch.procs import new_dispatch_id as n; print(n())"
    other = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])},
    ).stdout.strip()
    assert other not in ids
    assert other.split("-")[0] != next(iter(ids)).split("-")[0]


def test_spawned_child_leads_its_own_group_and_carries_the_run_marker(
    tmp_path: Path, route: Route
) -> None:
    tracker = ProcessTracker()
    r, w = os.pipe()
    code = "import os; print(os.getpgrp() == os.getpid(), os.environ['HOOKRUN_DISPATCH_ID'])"
    proc = _spawn(tracker, [sys.executable, "-c", code], route=route, stdout=w)
    os.close(w)
    assert tracker.wait(proc, Guard()) == 0
    with os.fdopen(r) as fh:
        assert fh.read().split() == ["True", tracker.dispatch_id]
    assert MARKER == "HOOKRUN_DISPATCH_ID"


def test_wait_returns_the_exit_code_or_128_plus_signal(route: Route) -> None:
    tracker = ProcessTracker()
    assert tracker.wait(_spawn(tracker, ["sh", "-c", "exit 7"], route=route), Guard()) == 7
    assert tracker.wait(_spawn(tracker, ["sh", "-c", "kill -9 $$"], route=route), Guard()) == 137


@pytest.mark.parametrize(
    ("argv", "cwd", "exit_code", "message"),
    [
        (["no-such-command-xyz"], "/", 127, "no-such-command-xyz: command not found"),
        (["{tmp}/plain.txt"], "/", 126, "plain.txt: permission denied"),
        (["{tmp}/noexec.bin"], "/", 126, "noexec.bin: cannot execute"),
        (["/"], "/", 126, "/: permission denied"),
        (["true"], "/no/such/dir", 126, "cannot run in /no/such/dir"),
        (["echo", "a\0b"], "/", 126, "echo:"),
    ],
)
def test_spawn_reports_unstartable_commands_as_126_or_127(
    tmp_path: Path, argv: list[str], cwd: str, exit_code: int, message: str
) -> None:
    (tmp_path / "plain.txt").write_text("hi\n")
    (tmp_path / "noexec.bin").write_bytes(b"\0\1\2garbage")
    (tmp_path / "noexec.bin").chmod(0o755)
    argv = [a.format(tmp=tmp_path) for a in argv]
    tracker = ProcessTracker()
    with pytest.raises(SpawnError) as info:
        _spawn(tracker, argv, cwd=cwd)
    assert info.value.exit_code == exit_code
    assert message in info.value.message
    assert tracker.procs == []


def test_end_all_ends_background_jobs_of_a_child_that_already_exited(
    tmp_path: Path, route: Route
) -> None:
    tracker = ProcessTracker()
    pidfile = tmp_path / "pid"
    proc = _spawn(tracker, ["sh", "-c", f"sleep 300 & echo $! > {pidfile}"], route=route)
    assert tracker.wait(proc, Guard()) == 0
    bg = int(pidfile.read_text())
    assert not _dead(bg)
    tracker.end_all()
    assert _dead(bg)
    assert tracker.procs == []


def test_end_all_forces_a_child_that_ignores_sigterm_after_the_grace(
    tmp_path: Path, route: Route
) -> None:
    tracker = ProcessTracker()
    ready = tmp_path / "ready"
    proc = _spawn(tracker, ["sh", "-c", f"trap '' TERM; touch {ready}; sleep 300"], route=route)
    while not ready.exists():
        time.sleep(0.01)
    started = time.monotonic()
    tracker.end_all(grace=0.3)
    elapsed = time.monotonic() - started
    assert elapsed > 0.25  # the grace was given
    soon_after(elapsed, 0.3, idle_bound=2.5)
    assert proc.returncode == -9


def test_end_all_finds_an_escaped_orphan_through_the_marker(tmp_path: Path, route: Route) -> None:
    tracker = ProcessTracker()
    pidfile = tmp_path / "pid"
    # The subshell exits at once: the sleep has no parent of ours and a session
    # of its own, so neither the group nor the descendants reach it.
    script = f"(setsid sleep 300 & echo $! > {pidfile}) ; sleep 300"
    proc = _spawn(tracker, ["bash", "-c", script], route=route)
    while not pidfile.exists() or not pidfile.read_text().strip():
        time.sleep(0.01)
    orphan = int(pidfile.read_text())
    assert psutil.Process(orphan).ppid() != proc.pid
    tracker.end_all(grace=0.2)
    assert _dead(orphan)
    assert proc.poll() is not None


def test_interrupt_unblocks_a_wait_and_refuses_later_spawns(route: Route) -> None:
    tracker = ProcessTracker()
    token = CancelToken()
    proc = _spawn(tracker, ["sleep", "300"], route=route)
    threading.Timer(0.2, token.cancel).start()
    started = time.monotonic()
    with pytest.raises(Interrupted) as info:
        tracker.wait(proc, Guard(token=token))
    assert info.value.reason == "cancelled"
    soon_after(time.monotonic() - started, 0.2, idle_bound=2)
    with pytest.raises(Interrupted):
        _spawn(tracker, ["true"], route=route)
    tracker.end_all()
    assert proc.returncode is not None


def test_wait_with_a_deadline_returns_soon_after_it(route: Route) -> None:
    tracker = ProcessTracker()
    proc = _spawn(tracker, ["sleep", "300"], route=route)
    started = time.monotonic()
    with pytest.raises(Interrupted) as info:
        tracker.wait(proc, Guard(timeout=0.3))
    assert info.value.reason == "timeout"
    soon_after(time.monotonic() - started, 0.3, idle_bound=2)
    assert tracker.stopped == "timeout"
    tracker.end_all()


def test_unwatch_disarms_the_deadline_so_a_finished_run_is_left_alone(route: Route) -> None:
    tracker = ProcessTracker()
    guard = Guard(timeout=0.2)
    assert tracker.wait(_spawn(tracker, ["true"], route=route), guard) == 0
    tracker.unwatch()
    time.sleep(0.4)
    assert tracker.stopped is None


def test_a_clean_run_does_not_import_psutil(tmp_path: Path) -> None:
    code = (
        "import os, sys, subprocess\n"
        "from hookrun.dispatch.procs import ProcessTracker\n"
        "from hookrun.dispatch.cancel import Guard\n"
        "t = ProcessTracker()\n"
        "p = t.spawn(['true'], cwd='/', env=dict(os.environ), stdin=subprocess.DEVNULL,"
        " stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n"
        "t.wait(p, Guard(timeout=5)); t.unwatch(); t.end_all()\n"
        "print('psutil' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])},
    ).stdout
    assert out.strip() == "False"


@pytest.mark.parametrize("platform", ["linux", "darwin"])
def test_scan_finds_parents_and_marker_holders_even_with_odd_command_names(
    tmp_path: Path, platform: str
) -> None:
    from hookrun.dispatch.procs import _scan

    odd = tmp_path / "a) b (c"  # the kernel's comm field is "(a) b (c)"
    shutil.copy(shutil.which("sleep") or "/bin/sleep", odd)
    tracker = ProcessTracker()
    shell = _spawn(tracker, ["sh", "-c", f"'{odd}' 300 & wait"])
    try:
        deadline = time.monotonic() + 5
        while not psutil.Process(shell.pid).children() and time.monotonic() < deadline:
            time.sleep(0.01)
        (child,) = psutil.Process(shell.pid).children()
        ppids, marked = _scan(psutil, tracker.dispatch_id, platform)
        assert ppids[child.pid] == shell.pid
        assert {shell.pid, child.pid} <= marked
        assert os.getpid() not in marked
        _, others = _scan(psutil, new_dispatch_id(), platform)
        assert shell.pid not in others
    finally:
        tracker.end_all(grace=0.1)
