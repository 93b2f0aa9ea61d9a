"""A small pool of reusable daemon threads for running an event's hooks at once.

Why not ``concurrent.futures``: importing it costs ~9 ms (it pulls in ``logging``), on
a path started once per agent tool call; and its workers are non-daemon, so a built-in
policy stuck in a loop would keep ``hookrun run`` from exiting after it has answered.
Here a stuck task only keeps its own daemon thread; the pool grows past it.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from queue import SimpleQueue

Task = Callable[[], None]


class WorkerPool:
    """Runs tasks on daemon threads, reusing idle ones; never queues behind a busy one."""

    def __init__(self, name: str = "hookrun-hook") -> None:
        self._name = name
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
                spawn = False
            else:
                self._threads += 1
                spawn = True
                number = self._threads
        self._tasks.put(task)
        if spawn:
            thread = threading.Thread(target=self._work, name=f"{self._name}-{number}", daemon=True)
            thread.start()

    def _work(self) -> None:
        while True:
            task = self._tasks.get()
            if task is None:
                return
            # A worker must outlive any task (tasks record their own errors).
            with contextlib.suppress(BaseException):
                task()
            with self._lock:
                self._idle += 1

    @property
    def size(self) -> int:
        """Worker threads started so far."""
        return self._threads

    def close(self) -> None:
        """Let idle workers exit (busy ones exit after their task)."""
        with self._lock:
            self._closed = True
            count = self._threads
        for _ in range(count):
            self._tasks.put(None)
