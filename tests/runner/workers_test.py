from __future__ import annotations

import threading

import pytest

from hookrun.runner.workers import WorkerPool


def test_tasks_run_at_once_even_when_more_than_the_idle_workers() -> None:
    pool = WorkerPool()
    barrier = threading.Barrier(9, timeout=5)
    for _ in range(8):
        pool.submit(lambda: None if barrier.wait() else None)
    barrier.wait()  # would time out if any task waited behind another
    assert pool.size == 8


def test_idle_workers_are_reused() -> None:
    pool = WorkerPool()
    for _round in range(5):
        done = threading.Event()
        pool.submit(done.set)
        assert done.wait(5)
        # wait for the worker to report itself idle again
        for _ in range(500):
            if pool._idle == 1:  # noqa: SLF001 — the reuse is the behaviour under test
                break
            threading.Event().wait(0.01)
    assert pool.size == 1


def test_a_task_that_raises_does_not_kill_its_worker() -> None:
    pool = WorkerPool()

    def boom() -> None:
        raise RuntimeError("x")

    pool.submit(boom)
    done = threading.Event()
    pool.submit(done.set)
    assert done.wait(5)


def test_workers_are_daemons_so_a_stuck_task_never_blocks_exit() -> None:
    pool = WorkerPool(name="t-daemon")
    release = threading.Event()
    pool.submit(lambda: None if release.wait() else None)
    workers = [t for t in threading.enumerate() if t.name.startswith("t-daemon")]
    assert workers and all(t.daemon for t in workers)
    release.set()


def test_a_closed_pool_refuses_new_tasks() -> None:
    pool = WorkerPool()
    pool.close()
    with pytest.raises(RuntimeError, match="closed"):
        pool.submit(lambda: None)


def _alive(prefix: str) -> int:
    return sum(1 for t in threading.enumerate() if t.name.startswith(prefix))


def test_idle_workers_exit_after_the_idle_timeout_and_the_pool_still_works() -> None:
    pool = WorkerPool(name="t-idle", idle_timeout=0.1)
    barrier = threading.Barrier(4, timeout=5)
    for _ in range(3):
        pool.submit(lambda: None if barrier.wait() else None)
    barrier.wait()
    for _ in range(300):
        if _alive("t-idle") == 0:
            break
        threading.Event().wait(0.01)
    assert _alive("t-idle") == 0 and pool.size == 0
    done = threading.Event()
    pool.submit(done.set)
    assert done.wait(5)


def test_a_task_submitted_while_workers_time_out_is_never_lost() -> None:
    # Submits land right around the idle timeout, racing the workers' exit.
    pool = WorkerPool(name="t-race", idle_timeout=0.01)
    for _ in range(200):
        done = threading.Event()
        pool.submit(done.set)
        assert done.wait(5)
        threading.Event().wait(0.009)


def _idle_again(pool: WorkerPool, idle: int = 1) -> None:
    for _ in range(3000):  # 30 s at most; at once on a quiet machine
        if pool._idle == idle:  # noqa: SLF001 — the reuse is the behaviour under test
            return
        threading.Event().wait(0.01)


@pytest.mark.parametrize("error", [RuntimeError, KeyboardInterrupt, SystemExit])
def test_a_task_that_raises_from_the_queue_leaves_its_worker_serving(
    error: type[BaseException],
) -> None:
    # The test above raises in a worker's first task; this one in a task an idle worker
    # takes from the queue (how every hook after the first run of a Runner is run), with
    # what a hook's thread may see: an error, a Ctrl-C, an exit.
    pool = WorkerPool(name="t-raise")
    pool.submit(lambda: None)
    _idle_again(pool)
    raised = threading.Event()

    def boom() -> None:
        raised.set()
        raise error("x")

    pool.submit(boom)
    assert raised.wait(30)
    _idle_again(pool)
    done = threading.Event()
    pool.submit(done.set)
    assert done.wait(30)
    assert pool.size == 1  # the same worker ran all three
