"""The posix_spawn route (procs.spawn_route): where it is taken, and that its children
get exactly what Popen's get — group, signals, descriptors, environment, errors."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from hookrun.dispatch import procs
from hookrun.dispatch.cancel import Guard
from hookrun.dispatch.procs import ProcessTracker, Spawned, SpawnError, spawn_route
from tests.dispatch.conftest import Route

posix_only = pytest.mark.skipif(not hasattr(os, "posix_spawn"), reason="POSIX")
linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")

ENV = {"PATH": "/usr/bin:/bin", "HOME": "/root"}
HERE = os.getcwd()


@pytest.mark.parametrize(
    ("platform", "program", "cwd", "stdio", "fds", "env", "expected"),
    [
        ("linux", "/bin/true", HERE, (5, 6, 7), None, ENV, "posix_spawn"),
        ("darwin", "/bin/true", HERE, (5, 6, 7), None, ENV, "posix_spawn"),
        ("linux", "./hook", HERE, (5, 6, -3), None, ENV, "posix_spawn"),
        ("linux", "/bin/true", HERE, (-3, -3, -3), None, ENV, "posix_spawn"),
        # Windows: CreateProcess through Popen, always.
        ("win32", "/bin/true", HERE, (5, 6, 7), None, ENV, "popen"),
        ("win32", "C:/bin/true.exe", HERE, (5, 6, 7), None, ENV, "popen"),
        # A PATH name: posix_spawnp would search hookrun's PATH, not the child's.
        ("linux", "true", HERE, (5, 6, 7), None, ENV, "popen"),
        # Another directory: posix_spawn cannot chdir.
        ("linux", "/bin/true", "/", (5, 6, 7), None, ENV, "popen"),
        ("darwin", "/bin/true", HERE + "/.", (5, 6, 7), None, ENV, "popen"),
        # Streams among 0-2 (hookrun's own), or a Popen constant other than DEVNULL.
        ("linux", "/bin/true", HERE, (0, 6, 7), None, ENV, "popen"),
        ("linux", "/bin/true", HERE, (5, 6, 2), None, ENV, "popen"),
        ("linux", "/bin/true", HERE, (-1, 6, 7), None, ENV, "popen"),
        # Descriptors moved to other numbers (fdpass), names Popen and posix_spawn
        # judge differently.
        ("linux", "/bin/true", HERE, (5, 6, 7), {3: 8}, ENV, "popen"),
        ("linux", "/bin/true", HERE, (5, 6, 7), None, {**ENV, "": "x"}, "popen"),
        ("linux", "/bin/true", HERE, (5, 6, 7), None, {**ENV, "=C:": "x"}, "popen"),
        ("linux", "/bin/true", HERE, (5, 6, 7), None, {**ENV, "A=B": "x"}, "popen"),
    ],
)
def test_the_route_is_posix_spawn_only_where_it_keeps_every_guarantee(
    platform: str,
    program: str,
    cwd: str,
    stdio: tuple[int, int, int],
    fds: dict[int, int] | None,
    env: dict[str, str],
    expected: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(procs, "_POSIX_SPAWN", True)  # Windows' os has none: the platform says
    monkeypatch.chdir(HERE)
    assert spawn_route(program, program, cwd, stdio, fds, env, platform) == expected


@pytest.mark.parametrize(
    ("libc", "reports"),
    [
        ("glibc 2.36", True),
        ("glibc 2.24", True),
        ("glibc 2.23", False),  # fork/vfork: a failed exec is only exit status 127
        ("glibc 2.17", False),
        ("glibc 3.0", True),
        ("glibc", False),
        ("glibc x.y", False),
        (None, True),  # not glibc (musl: clone and a pipe, as glibc since 2.24)
        (ValueError, True),  # no such name (macOS, the BSDs: a system call)
    ],
)
def test_posix_spawn_is_used_only_where_it_says_why_a_child_could_not_start(
    libc: object, reports: bool
) -> None:
    def confstr(name: str) -> str | None:
        assert name == "CS_GNU_LIBC_VERSION"
        if libc is ValueError:
            raise ValueError("unrecognized configuration name")
        return libc  # type: ignore[return-value]

    assert procs.spawn_reports_errors(confstr) is reports


def test_the_route_asks_the_c_library_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(procs, "_POSIX_SPAWN", None)
    monkeypatch.setattr(procs, "spawn_reports_errors", lambda: False)
    assert spawn_route("/bin/true", "/bin/true", os.getcwd(), (5, 6, 7), None, ENV) == "popen"
    assert procs._POSIX_SPAWN is False
    if hasattr(os, "posix_spawn"):
        monkeypatch.setattr(procs, "_POSIX_SPAWN", None)
        monkeypatch.setattr(procs, "spawn_reports_errors", lambda: True)
        route = spawn_route("/bin/true", "/bin/true", os.getcwd(), (5, 6, 7), None, ENV)
        assert route == "posix_spawn"


def test_without_posix_spawn_in_os_the_route_is_popen(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(procs, "_POSIX_SPAWN", False)
    assert spawn_route("/bin/true", "/bin/true", os.getcwd(), (5, 6, 7), None, ENV) == "popen"


def _status_lines(route: Route, argv: list[str]) -> str:
    tracker = ProcessTracker()
    r, w = os.pipe()
    try:
        proc = tracker.spawn(
            route.argv(argv), cwd=route.cwd, env=dict(os.environ), stdin=-3, stdout=w, stderr=-3
        )
    finally:
        os.close(w)
    with os.fdopen(r, "rb") as fh:
        out = fh.read().decode()
    assert tracker.wait(proc, Guard()) == 0
    tracker.end_all()
    assert isinstance(proc, Spawned) == (route.name == "posix_spawn")
    return out


# A probe process of its own, so the dispositions can be set as a host might have them:
# SIGHUP ignored (nohup), SIGUSR2 blocked in the spawning thread. Python itself ignores
# SIGPIPE and SIGXFSZ; Popen's children get those back at the default (restore_signals).
_SIGNAL_PROBE = """
import os, signal, subprocess, sys
from hookrun.dispatch import procs
from hookrun.dispatch.cancel import Guard
os.chdir("/")
signal.signal(signal.SIGHUP, signal.SIG_IGN)
signal.signal(signal.SIGUSR1, lambda *_: None)  # caught here: the default in a child
signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGUSR2})

def child(direct, vfork=False):
    procs._POSIX_SPAWN = direct
    procs._VFORK = vfork
    tracker = procs.ProcessTracker()
    r, w = os.pipe()
    proc = tracker.spawn(["/bin/cat", "/proc/self/status"], cwd="/", env=dict(os.environ),
                         stdin=-3, stdout=w, stderr=-3)
    os.close(w)
    out = os.fdopen(r).read()
    tracker.wait(proc, Guard())
    tracker.end_all()
    lines = [ln for ln in out.splitlines() if ln.startswith(("SigIgn", "SigBlk", "SigCgt"))]
    return type(proc).__name__, lines

plain = subprocess.run(["/bin/cat", "/proc/self/status"], capture_output=True, text=True)
print(repr(child(True)))
print(repr(child(False)))
wanted = ("SigIgn", "SigBlk", "SigCgt")
print(repr([ln for ln in plain.stdout.splitlines() if ln.startswith(wanted)]))
print(repr(child(True, procs._vfork_usable())))
"""


@linux_only
def test_a_spawned_child_gets_the_signal_dispositions_and_mask_a_popen_child_gets() -> None:
    probe = subprocess.run(
        [sys.executable, "-c", _SIGNAL_PROBE],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])},
    )
    assert probe.returncode == 0, probe.stderr
    direct, popen, plain, vfork = (eval(line) for line in probe.stdout.splitlines())  # noqa: S307
    assert (direct[0], popen[0]) == ("Spawned", "Popen")
    assert popen[1] == plain
    # Popen's own primitive (Linux): exactly what a Popen child gets, no exception.
    assert vfork == ("Spawned", popen[1])
    fields = dict(line.split(":\t") for line in direct[1])
    like_popen = dict(line.split(":\t") for line in popen[1])
    ignored, blocked = int(fields["SigIgn"], 16), int(fields["SigBlk"], 16)
    bit = lambda sig: 1 << (sig - 1)  # noqa: E731
    import signal

    # The one difference: glibc's posix_spawn leaves the C library's own signals (32
    # and 33 on Linux, which no program can name: outside signal.valid_signals())
    # ignored in the child, and no attribute can reset them (sigaddset refuses them).
    # A program that uses them installs its handler (glibc, musl, Go all do).
    reserved = sum(bit(n) for n in range(1, signal.NSIG) if n not in signal.valid_signals())
    assert ignored & ~reserved == int(like_popen["SigIgn"], 16) & ~reserved
    assert (fields["SigBlk"], fields["SigCgt"]) == (like_popen["SigBlk"], like_popen["SigCgt"])
    assert ignored & bit(signal.SIGHUP)  # inherited, as Popen's child inherits it
    assert not ignored & (bit(signal.SIGPIPE) | bit(signal.SIGXFSZ))  # restored
    assert not ignored & bit(signal.SIGUSR1)  # a handler is not inherited
    assert blocked & bit(signal.SIGUSR2)  # the spawning thread's mask, as Popen's
    assert int(fields["SigCgt"], 16) == 0


@posix_only
def test_no_inherited_descriptor_reaches_the_child(route: Route, tmp_path: Path) -> None:
    """A host may start hookrun holding inheritable descriptors above 2: Popen's
    close_fds keeps them from hooks, and so must the posix_spawn route."""
    held = [os.open(tmp_path / f"held{i}", os.O_CREAT | os.O_RDWR) for i in range(3)]
    try:
        for fd in held:
            os.set_inheritable(fd, True)
        listing = "ls /proc/self/fd" if os.path.isdir("/proc/self/fd") else "ls /dev/fd"
        seen = _status_lines(route, ["sh", "-c", listing])
        got = {int(name) for name in seen.split()}
    finally:
        for fd in held:
            os.close(fd)
    assert not got & set(held)
    # 0-2, and the descriptor ls reads the directory through.
    assert {0, 1, 2} <= got and len(got) <= 4


@pytest.mark.parametrize(
    ("platform", "listed"), [("linux", True), ("darwin", True), ("freebsd14", False)]
)
def test_inherited_descriptors_are_found_only_where_every_one_is_listed(
    platform: str, listed: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    fd = os.open(os.devnull, os.O_RDONLY)
    try:
        os.set_inheritable(fd, True)
        seen: list[str] = []
        real = os.listdir

        def listdir(path: str) -> list[str]:
            seen.append(path)
            return real("/proc/self/fd" if os.path.isdir("/proc/self/fd") else "/dev/fd")

        monkeypatch.setattr(os, "listdir", listdir)
        found = procs._inheritable_fds(platform)
    finally:
        os.close(fd)
    if listed:
        assert found is not None and fd in found
        assert seen == [{"linux": "/proc/self/fd", "darwin": "/dev/fd"}[platform]]
    else:  # FreeBSD's /dev/fd may list 0-2 only: Popen, which closes them all
        assert (found, seen) == (None, [])


@linux_only
def test_a_host_holding_many_descriptors_gets_popen_which_closes_them_without_a_scan(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(procs, "_VFORK", False)  # the scan is os.posix_spawn's
    monkeypatch.setattr(procs, "_FD_SCAN_MAX", len(os.listdir("/proc/self/fd")) + 3)
    held = [os.open(os.devnull, os.O_RDONLY) for _ in range(5)]
    try:
        assert procs._inheritable_fds() is None
        monkeypatch.chdir(tmp_path)
        tracker = ProcessTracker()
        proc = tracker.spawn(
            ["/bin/true"], cwd=str(tmp_path), env=dict(ENV), stdin=-3, stdout=-3, stderr=-3
        )
        assert tracker.wait(proc, Guard()) == 0
        tracker.end_all()
        assert not isinstance(proc, Spawned)
    finally:
        for fd in held:
            os.close(fd)


@linux_only
@pytest.mark.parametrize("case", ["argv", "env-value", "env-name", "empty-name", "bytes-env"])
def test_arguments_the_os_cannot_take_fail_alike_on_both_routes(
    case: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    argv, env = ["/bin/echo", "hi"], dict(ENV)
    if case == "argv":
        argv = ["/bin/echo", "a\0b"]
    elif case == "env-value":
        env["X"] = "a\0b"
    elif case == "env-name":
        env["A=B"] = "x"
    elif case == "empty-name":
        env[""] = "x"
    else:
        env["X"] = b"bytes"  # type: ignore[assignment]
    results = []
    for direct, vfork in ((True, False), (False, None), (True, True)):
        monkeypatch.setattr(procs, "_POSIX_SPAWN", direct)
        monkeypatch.setattr(procs, "_VFORK", vfork and procs._vfork_usable())
        tracker = ProcessTracker()
        try:
            proc = tracker.spawn(argv, cwd=str(tmp_path), env=env, stdin=-3, stdout=-3, stderr=-3)
        except SpawnError as exc:
            results.append((exc.exit_code, exc.message))
        else:
            results.append((tracker.wait(proc, Guard()), type(proc).__name__))
        tracker.end_all()
    assert results[0][0] == results[1][0]
    if results[0][0] == 126:
        assert results[0] == results[1]
    assert results[2][0] == results[1][0]  # Popen's primitive: its very checks
    if results[1][0] == 126:
        assert results[2] == results[1]


@posix_only
@pytest.mark.parametrize(
    ("name", "content", "mode", "code", "message"),
    [
        ("missing", None, 0, 127, "command not found"),  # ENOENT
        ("plain.txt", b"hi\n", 0o644, 126, "permission denied"),  # EACCES
        ("garbage", b"\0\1\2garbage", 0o755, 126, "cannot execute: not a program"),  # ENOEXEC
        ("adir", "dir", 0, 126, "permission denied"),  # EACCES (a directory)
        ("badshebang", b"#!/no/such/interp\n", 0o755, 127, "command not found"),  # ENOENT
    ],
)
def test_unstartable_programs_fail_alike_on_both_routes(
    route: Route, tmp_path: Path, name: str, content: object, mode: int, code: int, message: str
) -> None:
    path = tmp_path / name
    if content == "dir":
        path.mkdir()
    elif isinstance(content, bytes):
        path.write_bytes(content)
        path.chmod(mode)
    tracker = ProcessTracker()
    with pytest.raises(SpawnError) as info:
        tracker.spawn(
            [str(path), "x"], cwd=route.cwd, env=dict(ENV), stdin=-3, stdout=-3, stderr=-3
        )
    assert info.value.exit_code == code
    assert info.value.message.startswith(f"{path}: {message}")
    assert tracker.procs == []
    tracker.end_all()
    assert (route.direct, route.popen) == ((1, 0) if route.name == "posix_spawn" else (0, 1))


@posix_only
def test_a_spawned_child_is_polled_waited_and_killed_as_popen_does(tmp_path: Path) -> None:
    os.chdir(tmp_path)
    try:
        sleep = shutil.which("sleep") or "/bin/sleep"
        tracker = ProcessTracker()
        proc = tracker.spawn(
            [sleep, "300"], cwd=str(tmp_path), env=dict(ENV), stdin=-3, stdout=-3, stderr=-3
        )
        assert isinstance(proc, Spawned)
        assert proc.poll() is None
        with pytest.raises(subprocess.TimeoutExpired):
            proc.wait(0.05)
        # While one thread blocks in wait, poll from another answers "running" at once
        # (it must not reap behind the waiter's back), as Popen's does.
        waiter = threading.Thread(target=proc.wait)
        waiter.start()
        time.sleep(0.1)
        assert proc.poll() is None
        proc.kill()
        waiter.join(5)
        assert not waiter.is_alive()
        assert proc.returncode == -9 and proc.wait() == -9 and proc.poll() == -9
        proc.kill()  # reaped: the pid may name another process now; nothing is sent
        tracker.end_all()
        assert not os.path.exists(f"/proc/{proc.pid}") or sys.platform != "linux"
        # Reaped by someone else (ECHILD): 0, as Popen reads it.
        other = Spawned(os.posix_spawn("/bin/sh", ["sh", "-c", "exit 3"], dict(ENV)))
        os.waitpid(other.pid, 0)
        assert other.wait() == 0
    finally:
        os.chdir(HERE)


# -- the direct route's primitive on Linux: Popen's own fork_exec ------------------------


@pytest.mark.parametrize(
    ("platform", "versions", "use_vfork", "expected"),
    [
        ("linux", procs._FORK_EXEC_VERSIONS, True, True),
        ("linux", (), True, False),  # a CPython whose fork_exec arguments are not known
        ("linux", procs._FORK_EXEC_VERSIONS, False, False),  # subprocess._USE_VFORK off
        ("darwin", procs._FORK_EXEC_VERSIONS, True, False),  # it would fork: posix_spawn
        ("freebsd14", procs._FORK_EXEC_VERSIONS, True, False),
        ("win32", procs._FORK_EXEC_VERSIONS, True, False),
    ],
)
def test_popens_primitive_is_used_only_on_linux_and_known_cpythons(
    platform: str,
    versions: tuple[tuple[int, int], ...],
    use_vfork: bool,
    expected: bool,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(procs, "_FORK_EXEC_VERSIONS", versions)
    monkeypatch.setattr(subprocess, "_USE_VFORK", use_vfork, raising=False)
    known = sys.version_info[:2] in versions
    assert procs._vfork_usable(platform) == (expected and known)


@linux_only
def test_popens_primitive_closes_every_inherited_descriptor_however_many(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """No scan and no limit: the child closes them itself (close_range), as Popen's."""
    if not procs._vfork_usable():
        pytest.skip("fork_exec is not the direct route's primitive here")
    monkeypatch.setattr(procs, "_VFORK", True)
    monkeypatch.chdir(tmp_path)
    held = [os.open(os.devnull, os.O_RDONLY) for _ in range(procs._FD_SCAN_MAX + 10)]
    try:
        for fd in held:
            os.set_inheritable(fd, True)
        route = Route("posix_spawn", str(tmp_path), "vfork")
        got = {int(name) for name in _status_lines(route, ["sh", "-c", "ls /proc/self/fd"]).split()}
    finally:
        for fd in held:
            os.close(fd)
    assert not got & set(held)
    assert {0, 1, 2} <= got and len(got) <= 4


def test_an_exec_report_reads_as_popens_error() -> None:
    """The child's ``Name:hex errno:message`` report, as Popen raises it and dispatch
    words Popen's errors: ``noexec`` is the chdir to the working directory."""
    gone = procs._exec_error(b"OSError:2:noexec", "./h", "/d/h", "/gone")
    popen = procs._spawn_error(FileNotFoundError(2, os.strerror(2), "/gone"), "./h", "/gone")
    assert (gone.exit_code, gone.message) == (popen.exit_code, popen.message)
    assert gone.message.startswith("./h: cannot run in /gone")
    missing = procs._exec_error(b"OSError:2:", "./h", "/d/h", "/d")
    assert (missing.exit_code, missing.message) == (127, "./h: command not found")
    denied = procs._exec_error(b"OSError:d:", "./h", "/d/h", "/d")
    assert denied.exit_code == 126 and "permission denied" in denied.message
    for report in (b"garbage", b"SubprocessError:0:Exception occurred in preexec_fn."):
        odd = procs._exec_error(report, "./h", "/d/h", "/d")
        assert odd.exit_code == 126 and odd.message.startswith("./h: cannot execute: ")


def test_the_environment_is_encoded_as_popen_encodes_it_and_the_marker_is_not_kept(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(procs, "_ENV_BYTES", {})
    env = {"PATH": "/bin", "LANG": "é\udcff", procs.MARKER: "run-1", "B": b"raw"}  # type: ignore[dict-item]
    popen = [os.fsencode(k) + b"=" + os.fsencode(v) for k, v in env.items()]
    assert procs._env_list(env) == popen
    assert procs._env_list(env) == popen  # from the cache
    assert procs.MARKER not in {name for name, _ in procs._ENV_BYTES}
    env[procs.MARKER] = "run-2"
    assert procs._env_list(env)[2] == procs.MARKER.encode() + b"=run-2"
    monkeypatch.setattr(procs, "_ENV_BYTES_MAX", 4)
    for i in range(10):
        assert procs._env_list({f"V{i}": "x"}) == [f"V{i}=x".encode()]
    assert len(procs._ENV_BYTES) <= 5


def test_an_environment_seen_before_is_reused_whole_and_any_change_is_seen(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(procs, "_ENV_LAST", ((), []))
    env = {"PATH": "/bin", "HOME": "/root"}
    for marker, home in (("run-1", "/root"), ("run-2", "/root"), ("run-3", "/home/x")):
        child = {**env, "HOME": home, procs.MARKER: marker}
        popen = [os.fsencode(k) + b"=" + os.fsencode(v) for k, v in child.items()]
        assert procs._env_list(child) == popen
    assert procs._ENV_LAST[0] == (("PATH", "/bin"), ("HOME", "/home/x"))


@linux_only
def test_an_environment_value_the_os_cannot_take_fails_the_spawn_as_popen_does(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    env = {**ENV, "X": ["not", "a", "string"]}
    results = []
    for direct, vfork in ((False, None), (True, True)):
        monkeypatch.setattr(procs, "_POSIX_SPAWN", direct)
        monkeypatch.setattr(procs, "_VFORK", vfork and procs._vfork_usable())
        tracker = ProcessTracker()
        with pytest.raises(SpawnError) as info:
            tracker.spawn(["/bin/true"], cwd=str(tmp_path), env=env, stdin=-3, stdout=-3, stderr=-3)  # type: ignore[arg-type]
        results.append(info.value.exit_code)
        tracker.end_all()
    assert results == [126, 126]


def test_popens_primitive_is_not_used_by_another_python_implementation(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """PyPy ships a _posixsubprocess of its own, whose fork_exec takes other arguments."""
    monkeypatch.setattr(subprocess, "_USE_VFORK", True, raising=False)
    monkeypatch.setattr(procs, "_FORK_EXEC_VERSIONS", (sys.version_info[:2],))
    assert procs._vfork_usable("linux")
    monkeypatch.setattr(sys.implementation, "name", "pypy")
    assert not procs._vfork_usable("linux")
