"""Ctrl-C in an embedding host: whatever bytecode the KeyboardInterrupt lands on, the
host gets its exception within seconds and no hook process outlives it.

Each case is a real host process (``python -c``) running a Runner with three hooks
that sleep for a minute. Some cases make the host send itself SIGINT at one exact
point (a real signal, so Python raises it where it would for a user's Ctrl-C); the
last sends SIGINT from outside at varied delays.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import psutil
import pytest

from hookrun.config.spec import HookSpec
from hookrun.runner.execute import PreparedHook, _Gather
from tests.timing import soon_after

# The host, with an optional fault: ``submit:N`` sends SIGINT from inside the N-th
# WorkerPool.submit (the interrupt lands while the hooks are being started);
# ``popen`` sends it right after Popen forked the calling thread's hook (the
# interrupt lands inside Popen, before the tracker has a handle on the child);
# ``spawn`` the same right after the direct route's primitive returned (dispatch's
# posix_spawn route: the child exists, the tracker has no handle on it yet; ``libc``
# pins os.posix_spawn as that primitive, Linux's being Popen's fork_exec). Faults named
# for Popen run every hook through Popen; the others take the route dispatch picks,
# posix_spawn here; ``cleanup`` sends another as dispatch starts ending that hook's tree;
# ``swallowed-weakref`` / ``swallowed-del`` send it, once the calling thread's hook runs,
# from inside a weakref callback / a ``__del__`` (as importlib's module-lock callback
# after an import): CPython can only report the KeyboardInterrupt raised there.
HOST = r"""
import faulthandler, os, signal, subprocess, sys, threading
faulthandler.register(signal.SIGQUIT, all_threads=True)
from hookrun import Runner
from hookrun.config.spec import Config, HookSpec
from hookrun.runner import workers

cwd, pids, fault, ready, route = sys.argv[1:6]
def interrupt():
    os.kill(os.getpid(), signal.SIGTERM if route == "token-term" else signal.SIGINT)

faults = fault.split("+")
if "popen" in faults or fault.startswith("swallowed-"):
    from hookrun.dispatch import procs
    procs._POSIX_SPAWN = False  # these faults are Popen's: keep every hook on its route
def after_spawn(hook):  # calls hook on the main thread as the route's spawn returns
    if "spawn" in faults or fault.startswith("spawn:"):
        import _posixsubprocess
        if "libc" in faults:  # os.posix_spawn, the direct route's primitive off Linux
            from hookrun.dispatch import procs
            procs._VFORK = False
        def after(spawn):
            def spawned(*args, **kwargs):
                pid = spawn(*args, **kwargs)
                if threading.current_thread() is threading.main_thread():
                    hook()
                return pid
            return spawned
        os.posix_spawn = after(os.posix_spawn)
        # Linux: the route's primitive is Popen's (procs._vfork_exec); Popen's own
        # reference to it (subprocess._fork_exec) is left alone.
        _posixsubprocess.fork_exec = after(_posixsubprocess.fork_exec)
    else:
        execute = subprocess.Popen._execute_child
        def executed(self, *args, **kwargs):
            execute(self, *args, **kwargs)
            if threading.current_thread() is threading.main_thread():
                hook()
        subprocess.Popen._execute_child = executed
if fault.startswith("submit:"):
    nth, calls, submit = int(fault[7:]), [], workers.WorkerPool.submit
    def faulty_submit(self, task):
        calls.append(1)
        if len(calls) == nth:
            interrupt()
        submit(self, task)
    workers.WorkerPool.submit = faulty_submit
if "popen" in faults or "spawn" in faults:
    after_spawn(interrupt)
if "cleanup" in faults:  # a second Ctrl-C, as dispatch starts ending the hook's tree
    from hookrun.dispatch.procs import ProcessTracker
    end_all, ends = ProcessTracker.end_all, []
    def faulty_end_all(self, *args, **kwargs):
        if threading.current_thread() is threading.main_thread() and not ends:
            ends.append(1)
            interrupt()
        end_all(self, *args, **kwargs)
    ProcessTracker.end_all = faulty_end_all
swallowed = fault.removeprefix("spawn:")
if swallowed.startswith("swallowed-"):
    import weakref
    class Gone:
        def __del__(self):
            if swallowed == "swallowed-del":
                interrupt()
    def swallow():
        gone = Gone()
        ref = weakref.ref(gone, lambda _: swallowed == "swallowed-weakref" and interrupt())
        del gone  # the callbacks run here; what they raise is only reported
    after_spawn(swallow)

if "worker-signal" in faults:
    # Once every hook runs, the signal reaches a worker thread, not the main one: what
    # the kernel does with a process's signal while the main thread blocks it (all
    # signals are blocked inside a vfork, as a hook starts) or has one pending.
    def aim():
        import time
        while len(open(pids).read().split()) < 3 if os.path.exists(pids) else True:
            time.sleep(0.01)
        if "quick" in faults:  # the main thread's own hook is over: it waits for the others
            time.sleep(0.3)
        worker = next(t for t in threading.enumerate() if t.name.startswith("hookrun-hook"))
        signum = signal.SIGTERM if route == "token-term" else signal.SIGINT
        signal.pthread_kill(worker.ident, signum)
    threading.Thread(target=aim, daemon=True).start()

hooks = tuple(
    HookSpec(event="PreToolUse", source=f"x#PreToolUse[{i}]", name=f"h{i}",
             command=f"./h.py {pids} {i}" + (" && true" if "shell" in faults else "")
             + (" quick" if "quick" in faults and i == 0 else ""),
             builtin=None)
    for i in range(3)
)
runner = Runner(Config(hooks={"PreToolUse": hooks}), cwd=cwd, project_dir=cwd)
open(ready, "w").close()
if route == "raise":
    try:
        runner.run("PreToolUse", {})
    except KeyboardInterrupt:
        print("the host caught KeyboardInterrupt", file=sys.stderr)
        raise
else:  # as `hookrun run` does: the signal cancels the run's token
    from hookrun.cli.signals import cancel_on_signals
    from hookrun.dispatch.cancel import CancelToken
    token = CancelToken()
    with cancel_on_signals(token) as received:
        result = runner.run("PreToolUse", {}, cancel=token)
    print(f"cancelled={result.cancelled} signal={received.signum}", file=sys.stderr)
"""

HOOK = """
import os, sys, time
open(sys.argv[1], "a").write(f"{os.getpid()}\\n")
if sys.argv[3:] == ["quick"]:
    sys.exit(0)
time.sleep(300)
"""

# Seconds from the host's start to its end: its own start-up (python, `from hookrun
# import Runner`), its hooks' and the cleanup, which takes well under a second on a
# quiet machine. Only a hang is caught: a host that waited for its hooks would take
# their 300 s. (8 s was reached under coverage at load 18-23: s21-dup, 01:04-01:11.)
EXIT_BOUND = 40.0


def _hook_dir(root: Path) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    hook = root / "h.py"
    hook.write_text(f"#!{sys.executable}\n" + textwrap.dedent(HOOK))
    hook.chmod(0o755)
    return root


def _start(root: Path, fault: str, route: str = "raise") -> subprocess.Popen[bytes]:
    """``route``: ``raise`` (Python's default SIGINT), or ``token-int`` / ``token-term``
    (the signal cancels the run's token, as in ``hookrun run``)."""
    args = [str(root), str(root / "pids"), fault, str(root / "ready"), route]
    return subprocess.Popen(
        [sys.executable, "-c", HOST, *args],
        stderr=subprocess.PIPE,
        cwd=root,
    )


def _hook_processes(root: Path) -> list[psutil.Process]:
    """Live processes running this root's hook (found by their arguments, so a hook
    killed or orphaned before it wrote its pid counts too)."""
    marker = str(root / "pids")
    found = []
    for proc in psutil.process_iter(["cmdline", "status"]):
        try:
            if marker in (proc.info["cmdline"] or []) and proc.info["status"] not in (
                psutil.STATUS_ZOMBIE,
                psutil.STATUS_DEAD,
            ):
                found.append(proc)
        except psutil.Error:
            continue
    return found


class Outcome:
    """How a host ended: in time or hung (with its threads' stacks), and what survived it."""

    def __init__(self, exited: bool, err: bytes, survivors: list[int], expect: str) -> None:
        self.exited, self.err, self.survivors, self.expect = exited, err, survivors, expect

    def problem(self) -> str | None:
        text = self.err.decode(errors="replace")
        if not self.exited:
            return f"the host hung after Ctrl-C; its threads:\n{text}"
        if self.survivors:
            return f"hook processes {self.survivors} outlived the host's Ctrl-C"
        if self.expect not in text:
            return f"the host did not end with {self.expect!r}:\n{text}"
        return None


def _outcome(
    host: subprocess.Popen[bytes], root: Path, expect: str = "KeyboardInterrupt"
) -> Outcome:
    """Wait for the host, then leave no host and no hook behind, whatever happened."""
    try:
        _, err = host.communicate(timeout=EXIT_BOUND)
        exited = True
    except subprocess.TimeoutExpired:
        exited = False
        host.send_signal(signal.SIGQUIT)  # faulthandler: every thread's stack
        time.sleep(0.5)
        host.kill()
        _, err = host.communicate()
    # A hook ended by the host's cleanup may take a moment to be reaped by init.
    end = time.monotonic() + 2.0
    while (found := _hook_processes(root)) and time.monotonic() < end:
        time.sleep(0.05)
    for proc in found:
        proc.kill()
    psutil.wait_procs(found, timeout=5)
    return Outcome(exited, err, [p.pid for p in found], expect)


def _kill(host: subprocess.Popen[bytes], root: Path) -> None:
    if host.poll() is None:
        host.kill()
        host.wait()
    for proc in _hook_processes(root):
        proc.kill()


def _wait_for(path: Path, limit: float = 20.0) -> None:
    end = time.monotonic() + limit
    while time.monotonic() < end and not path.exists():
        time.sleep(0.005)


def _run_host(
    tmp_path: Path, fault: str, route: str = "raise", expect: str = "KeyboardInterrupt"
) -> Outcome:
    """One host with ``fault``, to its end; no host nor hook left behind."""
    root = _hook_dir(tmp_path)
    host = _start(root, fault, route)
    try:
        return _outcome(host, root, expect)
    finally:
        _kill(host, root)


@pytest.mark.parametrize(
    "fault",
    [
        pytest.param("submit:1", id="interrupt while the first worker hook is submitted"),
        pytest.param("submit:2", id="interrupt before the last hook reaches a worker"),
        pytest.param("popen", id="interrupt inside Popen after the fork"),
        pytest.param("popen+cleanup", id="a second interrupt as dispatch cleans up"),
        pytest.param("spawn", id="interrupt as posix_spawn returns"),
        pytest.param("spawn+cleanup", id="a second interrupt as dispatch cleans up (posix_spawn)"),
        pytest.param("spawn+libc", id="interrupt as os.posix_spawn returns (macOS's primitive)"),
        pytest.param(
            "spawn+cleanup+libc", id="a second interrupt as dispatch cleans up (os.posix_spawn)"
        ),
        pytest.param("worker-signal", id="Ctrl-C delivered to a worker thread, not the main one"),
        pytest.param("worker-signal+shell", id="the same, the hooks run by the in-process shell"),
        pytest.param("worker-signal+quick", id="the same, the main thread waiting for workers"),
    ],
)
def test_an_interrupt_while_hooks_start_ends_every_hook_and_the_host_exits(
    tmp_path: Path, fault: str
) -> None:
    outcome = _run_host(tmp_path, fault)
    assert outcome.problem() is None, outcome.problem()


@pytest.mark.parametrize(
    ("route", "signum"), [("token-int", signal.SIGINT), ("token-term", signal.SIGTERM)]
)
@pytest.mark.parametrize(
    "fault",
    [
        pytest.param("popen", id="signal inside Popen, its tracker's lock held"),
        pytest.param("spawn", id="signal as posix_spawn returns, its tracker's lock held"),
        pytest.param("submit:2", id="signal while the hooks are submitted"),
        pytest.param("worker-signal", id="signal delivered to a worker thread"),
        pytest.param("worker-signal+shell", id="the same, the hooks run by the in-process shell"),
        pytest.param("worker-signal+quick", id="the same, the main thread waiting for workers"),
    ],
)
def test_a_signal_that_cancels_the_token_never_waits_for_a_lock_its_own_thread_holds(
    tmp_path: Path, fault: str, route: str, signum: int
) -> None:
    # `hookrun run`'s handler cancels the run's token; the main thread may be inside
    # Popen for its own hook, holding that hook's tracker lock, which cancelling takes.
    outcome = _run_host(tmp_path, fault, route, expect=f"cancelled=True signal={signum}")
    assert outcome.problem() is None, outcome.problem()


@pytest.mark.parametrize(
    "fault",
    [
        pytest.param("swallowed-weakref", id="Ctrl-C inside a weakref callback"),
        pytest.param("swallowed-del", id="Ctrl-C inside a __del__"),
        pytest.param("spawn:swallowed-weakref", id="Ctrl-C inside a weakref callback (spawn)"),
        pytest.param("spawn:swallowed-del", id="Ctrl-C inside a __del__ (spawn)"),
    ],
)
def test_a_ctrl_c_python_swallows_still_ends_the_run_and_reaches_the_host(
    tmp_path: Path, fault: str
) -> None:
    # The KeyboardInterrupt is raised inside a callback whose exceptions CPython only
    # reports ("Exception ignored in ..."): the main thread goes on waiting for its hook.
    # The run must still end every hook and the host still get its KeyboardInterrupt.
    outcome = _run_host(tmp_path, fault, expect="the host caught KeyboardInterrupt")
    assert outcome.problem() is None, outcome.problem()
    assert "Exception ignored" in outcome.err.decode(errors="replace")  # it was swallowed


def test_sigint_at_varied_moments_never_hangs_the_host_nor_leaves_a_hook(tmp_path: Path) -> None:
    # Before the hooks start, while they start, and once they all run: six hosts at
    # once, so the whole table costs about one host's start-up and cleanup.
    delays = [0.0, 0.01, 0.03, 0.06, 0.12, 0.25]
    roots = [_hook_dir(tmp_path / f"host{i}") for i in range(len(delays))]
    hosts: list[subprocess.Popen[bytes]] = []
    outcomes: dict[int, Outcome] = {}

    def drive(i: int) -> None:
        _wait_for(roots[i] / "ready")
        time.sleep(delays[i])
        hosts[i].send_signal(signal.SIGINT)
        outcomes[i] = _outcome(hosts[i], roots[i])

    try:
        hosts.extend(_start(root, "none") for root in roots)
        threads = [threading.Thread(target=drive, args=(i,)) for i in range(len(delays))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
    finally:
        for host, root in zip(hosts, roots, strict=False):
            _kill(host, root)
    problems = [
        f"SIGINT {delay:g} s after start: {problem}"
        for i, delay in enumerate(delays)
        if (problem := outcomes[i].problem() if i in outcomes else "no outcome") is not None
    ]
    assert not problems, "\n".join(problems)


def _spec(i: int) -> PreparedHook:
    return PreparedHook(
        HookSpec(event="PreToolUse", source=f"x[{i}]", name=f"h{i}", command="./h", builtin=None)
    )


def test_the_cleanup_stops_waiting_for_a_hook_that_can_never_report_at_its_limit() -> None:
    # A worker blocked on an import lock the interrupted thread left held never
    # reports; the cleanup records it as cancelled instead of waiting forever.
    hooks = [_spec(0), _spec(1)]
    gather = _Gather(len(hooks))
    assert gather.begin(0) and gather.begin(1)
    started = time.monotonic()
    results = gather.wait(hooks, {}, started, None, limit=time.monotonic() + 0.2)
    soon_after(time.monotonic() - started, 0.2, idle_bound=3.0)  # they never report
    assert [(r.cancelled, r.exit_code) for r in results] == [(True, 130), (True, 130)]


def test_a_hook_given_up_before_its_task_began_never_runs() -> None:
    hooks = [_spec(0), _spec(1)]
    gather = _Gather(len(hooks))
    assert gather.begin(0)
    gather.give_up_unstarted(hooks, time.monotonic(), inline_index=0)
    assert not gather.begin(1)
    results = gather.wait(hooks, {}, time.monotonic(), None)
    assert [r.cancelled for r in results] == [True, True]
