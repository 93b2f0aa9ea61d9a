"""One shared thread that fires deadline actions for every running dispatch.

A hook that hangs cannot be trusted to notice its own deadline: the thread
running it may be blocked in ``waitpid`` or in a write to a full pipe. Something
else must end the process tree, which unblocks it. A thread per run would do,
but ten parallel hooks per tool call would then cost ten threads each time; one
long-lived thread with a heap of deadlines costs a heap push.

Actions run on the watchdog thread and must return quickly (they start a
killer thread, they do not kill).
"""

from __future__ import annotations

import contextlib
import heapq
import itertools
import os
import threading
import time
from collections.abc import Callable


class _Alarm:
    __slots__ = ("action", "cancelled", "_owner")

    def __init__(self, action: Callable[[], None], owner: Watchdog) -> None:
        self.action = action
        self.cancelled = False
        self._owner = owner

    def cancel(self) -> None:
        if not self.cancelled:
            self.cancelled = True
            self._owner._note_cancelled()


class Watchdog:
    """Runs ``action`` at ``deadline`` (``time.monotonic`` seconds) unless cancelled."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._heap: list[tuple[float, int, _Alarm]] = []
        self._seq = itertools.count()
        self._thread: threading.Thread | None = None
        self._pid = 0
        self._cancelled = 0

    def schedule(self, deadline: float, action: Callable[[], None]) -> Callable[[], None]:
        """Arm an alarm; returns the function that disarms it."""
        alarm = _Alarm(action, self)
        with self._cond:
            # Wake the thread only when this alarm is due before the one it sleeps
            # towards: a wake-up is a context switch on the path of every run.
            earliest = not self._heap or deadline < self._heap[0][0]
            heapq.heappush(self._heap, (deadline, next(self._seq), alarm))
            # After a fork the thread is gone from the child: start a new one.
            if self._thread is None or self._pid != os.getpid():
                self._pid = os.getpid()
                self._thread = threading.Thread(
                    target=self._loop, name="hookrun-watchdog", daemon=True
                )
                self._thread.start()
            elif earliest:
                self._cond.notify()
        return alarm.cancel

    def _note_cancelled(self) -> None:
        # Most alarms are cancelled long before they are due (the run finished).
        # They leave the heap lazily; past half the heap, it is rebuilt, so a
        # host making thousands of calls with 30 s timeouts stays small.
        with self._cond:
            self._cancelled += 1
            if self._cancelled > 64 and self._cancelled * 2 > len(self._heap):
                self._heap = [e for e in self._heap if not e[2].cancelled]
                heapq.heapify(self._heap)
                self._cancelled = 0

    def pending(self) -> int:
        """Armed, not yet cancelled alarms (for tests and diagnostics)."""
        with self._cond:
            return sum(1 for _, _, alarm in self._heap if not alarm.cancelled)

    def _next_due(self) -> _Alarm:
        with self._cond:
            while True:
                # Cancelled alarms are dropped lazily, when they reach the top.
                while self._heap and self._heap[0][2].cancelled:
                    heapq.heappop(self._heap)
                    self._cancelled = max(0, self._cancelled - 1)
                if not self._heap:
                    self._cond.wait()
                    continue
                delay = self._heap[0][0] - time.monotonic()
                if delay <= 0:
                    return heapq.heappop(self._heap)[2]
                self._cond.wait(delay)

    def _loop(self) -> None:
        while True:
            alarm = self._next_due()
            if alarm.cancelled:
                continue
            # One bad action must not stop every later deadline.
            with contextlib.suppress(Exception):
                alarm.action()


WATCHDOG = Watchdog()
