"""Cancellation and deadlines shared by everything that waits on a hook.

A :class:`CancelToken` is set from any thread (a host's UI thread, an asyncio
task's cancellation callback, a signal handler). A :class:`Guard` combines one
token with one deadline so that every wait loop in dispatch asks a single
question: "should I stop now?".
"""

from __future__ import annotations

import _thread
import os
import time
from collections.abc import Callable

from hookrun.records import TYPE_CHECKING

if TYPE_CHECKING:
    import asyncio
    from typing import TypeVar

    T = TypeVar("T")


class CancelToken:
    """A one-shot flag that can be set from another thread and waited on.

    Built on ``_thread`` locks, not ``threading.Event``: a plain ``hookrun run`` whose
    hooks are answered in-process starts no thread, and importing threading would cost
    it ~10% of a bare Python start (callgrind). The gate is a lock held from creation
    until the cancel: a waiter acquiring it has seen the cancel, and lets it go at once
    for the next one.
    """

    __slots__ = ("_set", "_gate", "_callbacks", "_lock")

    def __init__(self) -> None:
        self._set = False
        self._gate = _thread.allocate_lock()
        self._gate.acquire()
        self._callbacks: list[Callable[[], None]] = []
        self._lock = _thread.allocate_lock()

    def cancel(self) -> None:
        """Request cancellation. Idempotent; callbacks run once, in this thread."""
        with self._lock:
            if self._set:
                return
            self._set = True
            self._gate.release()
            callbacks, self._callbacks = self._callbacks, []
        for callback in callbacks:
            callback()

    @property
    def cancelled(self) -> bool:
        return self._set

    def wait(self, timeout: float | None = None) -> bool:
        """Block until cancelled or ``timeout`` elapses; return whether cancelled."""
        if self._set:
            return True
        # As threading.Event.wait: None waits for ever, a negative timeout not at all.
        if self._gate.acquire(True, -1 if timeout is None else max(timeout, 0.0)):
            self._gate.release()
        return self._set

    def add_callback(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Run ``callback`` on cancellation (at once if already cancelled).

        Returns a function that unregisters it, so a finished run does not keep
        a reference alive in a long-lived token.
        """
        with self._lock:
            if not self._set:
                self._callbacks.append(callback)

                def remove() -> None:
                    with self._lock:
                        if callback in self._callbacks:
                            self._callbacks.remove(callback)

                return remove
        callback()
        return lambda: None


def linked(parent: CancelToken | None) -> Linked:
    """A token of one's own, cancelled when ``parent`` is — never the other way round.

    A run cancels its own token (its task was cancelled, its thread interrupted)
    without setting the caller's, which other runs may share; the link is undone
    on the way out, so a long-lived caller token keeps no reference to finished runs.
    """
    return Linked(parent)


class Linked:
    """The context manager :func:`linked` returns (a class, not ``contextlib``: importing
    contextlib costs ~7% of a bare Python start, on every ``hookrun run``)."""

    __slots__ = ("_parent", "_unlink")

    def __init__(self, parent: CancelToken | None) -> None:
        self._parent = parent
        self._unlink: Callable[[], None] | None = None

    def __enter__(self) -> CancelToken:
        own = CancelToken()
        if self._parent is not None:
            self._unlink = self._parent.add_callback(own.cancel)
        return own

    def __exit__(self, *exc_info: object) -> None:
        if self._unlink is not None:
            self._unlink()
            self._unlink = None


async def finished(future: asyncio.Future[T], token: CancelToken) -> T:
    """The result of work running in another thread; if the awaiting task is cancelled,
    ``token`` is, and the task waits until the work has ended before it re-raises — so
    "cancelled" tells the caller that nothing of it is still running."""
    import asyncio  # only embedders that await pay for asyncio (they have imported it)

    try:
        return await asyncio.shield(future)
    except asyncio.CancelledError:
        token.cancel()
        await asyncio.wait([future])
        raise


# Python runs a signal's handler only on the main thread, when that thread next runs
# bytecode; the kernel hands a process's signal to any thread that does not block it.
# Inside a vfork (as a hook starts) the main thread blocks every signal, and one with a
# signal pending is passed over: then a worker gets it, and a main thread asleep in a
# wait that only its own signal would cut short (a poll until the hook's deadline, a
# waitpid) sleeps on — Ctrl-C or a host's SIGTERM waits for the hook, maybe for its
# whole timeout. So no wait of a run on the main thread lasts longer than this: it
# wakes, and Python runs the handler (interrupt_test: "delivered to a worker thread").
MAIN_WAIT = 0.1


def wait_bound(seconds: float | None) -> float | None:
    """``seconds`` (None: for ever) as one wait may take it: at most :data:`MAIN_WAIT`
    on the main thread, unchanged on any other."""
    if not _MAIN:
        import threading  # loaded already by every caller (workers, procs, streams)

        _MAIN.append(threading.main_thread().ident)
    if _thread.get_ident() != _MAIN[0]:
        return seconds
    return MAIN_WAIT if seconds is None else min(seconds, MAIN_WAIT)


# threading.main_thread()'s ident once asked (an import statement and two calls cost each
# wait thousands of instructions); forgotten in a forked child, whose main thread is the
# one that forked, as threading itself says there.
_MAIN: list[int | None] = []
if hasattr(os, "register_at_fork"):  # (not on Windows, which has no fork)
    os.register_at_fork(after_in_child=_MAIN.clear)


class Interrupted(Exception):
    """Raised inside a run when its deadline passed or its token was cancelled."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason  # "timeout" or "cancelled" (or "error": StatusUnknowable)


class StatusUnknowable(Interrupted):
    """A child must not be started: its exit status could not be read back.

    Raised where a child would start, it ends the whole run as an error, the way a
    timeout does (the in-process shell lets an Interrupted through every layer), so no
    ``cmd || true`` in a hook's code can read it as an ordinary failed command.
    """

    def __init__(self, message: str) -> None:
        super().__init__("error")
        self.message = message


class Guard:
    """One run's stop conditions: an optional deadline and an optional token."""

    __slots__ = ("deadline", "token", "_reason")

    def __init__(self, timeout: float | None = None, token: CancelToken | None = None) -> None:
        self.deadline = None if timeout is None else time.monotonic() + timeout
        self.token = token
        self._reason: str | None = None

    def stop_reason(self) -> str | None:
        """``"cancelled"``, ``"timeout"`` or None. Sticky once set."""
        try:
            self.check()
        except Interrupted as exc:
            return exc.reason
        return None

    def check(self) -> None:
        """Raise :class:`Interrupted` if the run must stop.

        (The in-process shell calls this before every command: one call, no helper.)"""
        if self._reason is None:
            token = self.token
            if token is not None and token.cancelled:
                self._reason = "cancelled"
            elif self.deadline is not None and time.monotonic() >= self.deadline:
                self._reason = "timeout"
            else:
                return
        raise Interrupted(self._reason)

    def remaining(self) -> float | None:
        """Seconds left before the deadline (never negative), None without one."""
        if self.deadline is None:
            return None
        return max(0.0, self.deadline - time.monotonic())

    def sleep(self, seconds: float) -> None:
        """Sleep up to ``seconds``, waking early on cancellation."""
        left = self.remaining()
        if left is not None:
            seconds = min(seconds, left)
        if self.token is not None:
            self.token.wait(seconds)
        else:
            time.sleep(seconds)
