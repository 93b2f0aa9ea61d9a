"""SIGINT / SIGTERM / SIGHUP → cancel the run, so every hook's process tree ends first.

Without this, Ctrl-C (or a host killing ``hookrun run``, or the terminal closing)
would raise in the Python thread or end the process at once, and leave the hooks'
children running. With it, the signal only sets the run's
:class:`~hookrun.dispatch.cancel.CancelToken`; the runner ends every tree and
returns, and the CLI exits 128 + the signal number (130 / 143 / 129), the shell
convention for "killed by signal N".

Before the run installs these handlers (start-up, reading the payload and the
config) no hook has started: there SIGINT ends the process by the signal, as SIGTERM
and SIGHUP do, instead of a ``KeyboardInterrupt`` traceback from whatever import it
lands in (set up by the first lines of :mod:`hookrun`).
"""

from __future__ import annotations

import _signal  # type: ignore[import-not-found]  # C: `signal` builds IntEnums (~0.14x a start)
import _thread
from types import FrameType

from hookrun import exitcodes
from hookrun.records import TYPE_CHECKING

if TYPE_CHECKING:
    from hookrun.dispatch.cancel import CancelToken


class Received:
    """The first signal that cancelled the run, if any."""

    __slots__ = ("signum",)

    def __init__(self) -> None:
        self.signum: int | None = None

    @property
    def exit_code(self) -> int | None:
        return None if self.signum is None else exitcodes.interrupted(self.signum)


def _signals() -> list[int]:
    # SIGTERM exists on Windows too, but only SIGINT is ever delivered there; SIGHUP
    # does not exist there. A SIGHUP the parent ignores (nohup) stays ignored.
    found: list[int] = [_signal.SIGINT, _signal.SIGTERM]
    hup: int | None = getattr(_signal, "SIGHUP", None)
    if hup is not None and _signal.getsignal(hup) != _signal.SIG_IGN:
        found.append(hup)
    return found


def cancel_on_signals(token: CancelToken) -> Routed:
    """Route SIGINT/SIGTERM/SIGHUP to ``token.cancel()`` while the ``with`` block runs;
    the block gets the :class:`Received`.

    Handlers can only be installed from the main thread; elsewhere (a host
    calling ``main()`` from a worker thread) the block runs without them.
    """
    return Routed(token)


class Routed:
    """The context manager :func:`cancel_on_signals` returns (a class, not
    ``contextlib``: importing contextlib costs ~7% of a bare Python start)."""

    __slots__ = ("_token", "_received", "_previous")

    def __init__(self, token: CancelToken) -> None:
        self._token = token
        self._received = Received()
        self._previous: dict[int, object] = {}

    def __enter__(self) -> Received:
        try:
            for sig in _signals():
                self._previous[sig] = _signal.signal(sig, self._handle)
        except ValueError:  # not the main thread: Python takes handlers only there
            self.__exit__()
        return self._received

    def __exit__(self, *exc_info: object) -> None:
        for sig, old in self._previous.items():
            _signal.signal(sig, old)
        self._previous = {}

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        if self._received.signum is None:
            self._received.signum = signum
        # Repeated signals change nothing: the tree kill is already under way,
        # and raising here would abandon the children we promised to end.
        #
        # Not token.cancel() here: a handler runs in the main thread between any
        # two bytecodes, maybe while that thread holds a lock the cancel callbacks
        # take (a ProcessTracker's, for the whole Popen of the hook the main thread
        # runs; the token's own). Those locks are not reentrant: the handler would
        # wait for itself forever. A raw thread takes no Python-level lock to start
        # (threading.Thread.start takes threading's own), and the cancel is safe to
        # run from any thread.
        _thread.start_new_thread(self._token.cancel, ())


class RemovedOnSignals:
    """``with RemovedOnSignals(path):`` — a signal that would end the process while the
    block runs (SIGINT, SIGTERM, SIGHUP at their default action) first removes ``path``,
    a scratch directory of the command's own, then ends the process by that same signal.

    ``hookrun test`` and ``hookrun replay`` do not route signals to a cancel token (their
    hooks are ended by the sentinel), so the signal killed them before their ``finally``
    could remove their scratch state: every Ctrl-C left a ``hookrun-test-state-*`` or
    ``hookrun-replay-*`` directory in the temp dir. How the process ends is unchanged.
    A signal the process ignores or a host handles is left alone, and outside the main
    thread (where Python takes no handlers) the block runs without them.
    """

    __slots__ = ("_path", "_previous")

    def __init__(self, path: str) -> None:
        self._path = path
        self._previous: dict[int, object] = {}

    def __enter__(self) -> None:
        try:
            for sig in _signals():
                if _signal.getsignal(sig) == _signal.SIG_DFL:
                    self._previous[sig] = _signal.signal(sig, self._handle)
        except ValueError:  # not the main thread
            self.__exit__()

    def __exit__(self, *exc_info: object) -> None:
        for sig, old in self._previous.items():
            _signal.signal(sig, old)
        self._previous = {}

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        import shutil

        self.__exit__()  # the default action back first: a second signal ends us at once
        shutil.rmtree(self._path, ignore_errors=True)
        _signal.raise_signal(signum)
