from __future__ import annotations

import os
import time

import pytest

from hookrun.dispatch.cancel import Guard
from hookrun.dispatch.procs import ProcessTracker, SpawnError
from hookrun.dispatch.pump import Pumped, run_child
from hookrun.dispatch.streams import CaptureSink
from tests.dispatch.conftest import Route
from tests.timing import soon_after


def _child(
    script: str, route: Route, payload: bytes = b"", limit: int = 1 << 30
) -> tuple[Pumped, bytes, bytes]:
    tracker = ProcessTracker()
    out, err = CaptureSink(limit), CaptureSink(limit)
    try:
        done = run_child(
            tracker,
            route.argv(["sh", "-c", script]),
            cwd=route.cwd,
            env=dict(os.environ),
            payload=payload,
            stdout=out,
            stderr=err,
            guard=Guard(),
        )
    finally:
        tracker.end_all(grace=0.1)
    return done, out.data, err.data


def _open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def test_run_child_returns_status_and_both_streams(route: Route) -> None:
    done, out, err = _child("echo out; echo err >&2; exit 5", route)
    assert (done, out, err) == (Pumped(5, True), b"out\n", b"err\n")


@pytest.mark.parametrize("size", [0, 10, 65536, 65537, 3 << 20])
def test_run_child_round_trips_payloads_of_any_size(size: int, route: Route) -> None:
    payload = bytes(range(256)) * (size // 256) + b"x" * (size % 256)
    done, out, _ = _child("cat", route, payload)
    assert done.status == 0
    assert out == payload


def test_run_child_does_not_deadlock_on_a_child_that_never_reads_stdin(route: Route) -> None:
    done, out, _ = _child("head -c 70000 /dev/zero", route, b"y" * (8 << 20))
    assert (done.status, len(out)) == (0, 70000)


def test_run_child_keeps_only_the_bound_and_drains_the_rest(route: Route) -> None:
    tracker = ProcessTracker()
    out, err = CaptureSink(10), CaptureSink(10)
    run_child(
        tracker,
        route.argv(["sh", "-c", "head -c 100000 /dev/zero"]),
        cwd=route.cwd,
        env=dict(os.environ),
        payload=b"",
        stdout=out,
        stderr=err,
        guard=Guard(),
    )
    assert (len(out.data), out.dropped) == (10, 99990)


@pytest.mark.parametrize(
    "script",
    [
        "sleep 300 &",  # a descendant holds stdout, silently
        "(while :; do echo spam; sleep 0.01; done) &",  # and one that keeps writing
    ],
)
def test_run_child_stops_soon_after_the_child_exits_when_a_descendant_holds_the_pipe(
    script: str, route: Route
) -> None:
    started = time.monotonic()
    done, _, _ = _child(script + " echo parent done", route)
    soon_after(time.monotonic() - started, 0, idle_bound=1.0)  # not the descendant's 300 s
    assert done == Pumped(0, False)


def test_run_child_closes_every_pipe_when_the_spawn_fails(route: Route) -> None:
    before = _open_fds()
    tracker = ProcessTracker()
    with pytest.raises(SpawnError):
        run_child(
            tracker,
            ["/no/such/program"],
            cwd=route.cwd,
            env={},
            payload=b"x",
            stdout=CaptureSink(10),
            stderr=CaptureSink(10),
            guard=Guard(),
        )
    assert _open_fds() == before


def test_run_child_leaks_no_descriptor(route: Route) -> None:
    before = _open_fds()
    _child("echo hi; cat", route, b"payload")
    assert _open_fds() == before


@pytest.mark.parametrize("script", ["exec >&- 2>&- <&-; sleep 300", "sleep 300"])
def test_run_child_ends_the_tree_at_the_deadline_even_with_its_streams_closed(
    route: Route, script: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The deadline holds while nothing comes through the pipes: with a pidfd the loop
    itself ends the tree when its poll times out; without one (the ``posix_spawn``
    variant, as on macOS) the watchdog does. Only the second arms an alarm."""
    from hookrun.dispatch import procs
    from hookrun.dispatch.cancel import Interrupted
    from hookrun.dispatch.watchdog import WATCHDOG

    alarms: list[float] = []
    schedule = WATCHDOG.schedule

    def counted(deadline: float, action: object) -> object:
        alarms.append(deadline)
        return schedule(deadline, action)  # type: ignore[arg-type]

    monkeypatch.setattr(WATCHDOG, "schedule", counted)
    guard = Guard(0.5)
    tracker = ProcessTracker(None, guard)
    out, err = CaptureSink(1 << 20), CaptureSink(1 << 20)
    started = time.monotonic()
    try:
        with pytest.raises(Interrupted) as info:
            run_child(
                tracker,
                route.argv(["sh", "-c", script]),
                cwd=route.cwd,
                env=dict(os.environ),
                payload=b"",
                stdout=out,
                stderr=err,
                guard=guard,
            )
    finally:
        tracker.unwatch()
        tracker.end_all(grace=0.1)
    elapsed = time.monotonic() - started
    assert info.value.reason == "timeout" and tracker.stopped == "timeout"
    # 0.5 s + the 0.5 s grace, idle (sh does not ignore TERM: at once)
    soon_after(elapsed, 0.5, idle_bound=2.5)
    assert not [p for p in tracker.procs if p.poll() is None]
    assert bool(alarms) == (procs._PIDFD_OPEN is None)


def test_without_a_pidfd_the_watchdog_keeps_the_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    """An old kernel or a sandbox refusing pidfd_open (ENOSYS): the pump falls back to
    the watchdog, and the child's status still comes back."""
    from hookrun.dispatch import procs

    def refuse(pid: int) -> int:
        raise OSError(38, "Function not implemented")

    monkeypatch.setattr(procs, "_PIDFD_OPEN", refuse)
    assert procs.pidfd_of(os.getpid()) == -1
    route = Route("popen", os.getcwd())
    done, out, err = _child("echo out; echo err >&2; exit 3", route)
    assert (done, out, err) == (Pumped(3, True), b"out\n", b"err\n")
