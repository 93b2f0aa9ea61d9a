"""A small pool of reusable daemon threads for running an event's hooks at once.

Why not ``concurrent.futures``: importing it costs ~9 ms (it pulls in ``logging``), on
a path started once per agent tool call; and its workers are non-daemon, so a built-in
policy stuck in a loop would keep ``hookrun run`` from exiting after it has answered.
Here a stuck task only keeps its own daemon thread; the pool grows past it. Workers
idle for ``idle_timeout`` seconds exit, so a host that builds many runners (or one
that is quiet for a while) does not keep threads it no longer uses.
"""

from __future__ import annotations

import threading

# queue's own SimpleQueue and Empty, from the C module it re-exports them from: the
# queue module itself (with heapq) costs ~4% of a bare Python start on every run.
from _queue import Empty, SimpleQueue
from collections.abc import Callable

Task = Callable[[], None]

# Long enough that a busy agent (an event every few seconds) reuses its threads;
# starting one again costs ~0.1 ms, so exiting early is cheap.
IDLE_TIMEOUT = 30.0


class WorkerPool:
    """Runs tasks on daemon threads, reusing idle ones; never queues behind a busy one."""

    def __init__(self, name: str = "hookrun-hook", idle_timeout: float = IDLE_TIMEOUT) -> None:
        self._name = name
        self._idle_timeout = idle_timeout
        self._tasks: SimpleQueue[Task | None] = SimpleQueue()
        self._lock = threading.Lock()
        self._idle = 0
        self._threads = 0
        self._closed = False

    def submit(self, task: Task) -> None:
        """Start ``task`` now. It must not raise (it is the caller's job to record errors)."""
        with self._lock:
            if self._closed:
                raise RuntimeError("hookrun runner is closed: build a new Runner")
            # Each submitted task either takes an idle worker or brings its own, so a
            # task never waits behind another one.
            if self._idle:
                self._idle -= 1
                self._tasks.put(task)
                return
            self._threads += 1
            number = self._threads
        # A new worker is handed its first task directly, not through the queue: a
        # KeyboardInterrupt landing in between (Ctrl-C in an embedding host) can then
        # at worst lose the thread with its task, never leave a task queued for a
        # worker that does not exist, which a later submit would wait behind.
        thread = threading.Thread(
            target=self._work, args=(task,), name=f"{self._name}-{number}", daemon=True
        )
        thread.start()

    def _work(self, first: Task) -> None:
        try:  # noqa: SIM105 - not contextlib.suppress: see below
            first()
        except BaseException:  # noqa: BLE001, S110 - tasks record their own errors
            pass
        with self._lock:
            self._idle += 1
        while True:
            try:
                task = self._tasks.get(timeout=self._idle_timeout)
            except Empty:
                with self._lock:
                    # ``_idle`` counts idle workers not yet promised a task; when it is
                    # 0, a submit has counted on this worker, so it must stay.
                    if self._idle:
                        self._idle -= 1
                        self._threads -= 1
                        return
                continue
            if task is None:
                return
            # A worker must outlive any task (tasks record their own errors). Not
            # contextlib.suppress: importing contextlib costs ~7% of a bare Python start.
            try:  # noqa: SIM105
                task()
            except BaseException:  # noqa: BLE001, S110
                pass
            with self._lock:
                self._idle += 1

    @property
    def size(self) -> int:
        """Worker threads alive (busy or idle)."""
        return self._threads

    def close(self) -> None:
        """Let idle workers exit (busy ones exit after their task)."""
        with self._lock:
            self._closed = True
            count = self._threads
        for _ in range(count):
            self._tasks.put(None)
