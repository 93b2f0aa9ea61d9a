"""hookrun: a cross-platform hook runner and dispatcher for AI coding-agent hosts.

``from hookrun import Runner`` is the embedding API. Names are resolved lazily so
that ``hookrun run`` (started once per event by non-Python hosts) only imports
what it uses.
"""

# No `from __future__ import annotations` here: it is an import, and this module's
# first lines must run as early as possible (see _quiet_interrupt_when_started_as_the_command).
import _signal  # type: ignore[import-not-found]  # C; no imports of its own, unlike `signal`
import sys as _sys


def _started_as_the_command() -> bool:
    """Is this process the ``hookrun`` command (console script or ``python -m hookrun``)?"""
    argv = list(getattr(_sys, "orig_argv", ()))
    as_module = any(
        (word == "-m" and argv[i + 1 : i + 2] == ["hookrun"]) or word == "-mhookrun"
        for i, word in enumerate(argv)
    )
    script = argv[1].replace("\\", "/").rsplit("/", 1)[-1] if len(argv) > 1 else ""
    return as_module or script.split(".")[0] in ("hookrun", "hookrun-script")


def _quiet_interrupt_when_started_as_the_command() -> None:
    """A Ctrl-C before ``hookrun`` handles it ends the process by the signal, no traceback.

    Python's own SIGINT handler raises KeyboardInterrupt wherever the main thread is —
    in the middle of an import during start-up — and the traceback goes to the host's
    stderr. No hook has started yet, so dying by the signal is the whole answer: the
    default disposition. Only when this process *is* the ``hookrun`` command (an
    embedding host's handlers are its own), and only over Python's handler (a SIGINT
    the parent ignores stays ignored). The run installs its own handlers before any
    hook starts (hookrun.cli.signals).

    The switch itself has two windows, both seen in CI under load: a SIGINT Python took
    just before it raises KeyboardInterrupt here (a frame of hookrun's), and one that
    arrives inside ``signal.signal`` — after its check of pending signals, before the
    OS handler changes — is left tripped with no Python handler to run: CPython prints
    "Signal 2 ignored due to race condition" and the Ctrl-C is lost (the run went on
    and answered 0). So SIGINT is blocked across the switch (one arriving then is held
    by the OS and delivered, at the default action, when the mask is restored), and a
    KeyboardInterrupt met on the way ends the process by the signal.
    """
    try:
        mask = getattr(_signal, "pthread_sigmask", None)  # POSIX; Windows has no masks
        held: object | None = None  # the mask before the switch, while SIGINT is blocked
        if not _started_as_the_command():
            return
        # A host that started us with SIGCHLD ignored makes the OS reap every child at
        # once: waitpid answers ECHILD, which Popen (and procs.Spawned) read as status 0,
        # so a hook's "exit 2" (deny) would come back as an allow. Our children's
        # statuses are the answer: take the default back (hooks inherit it, as they
        # would from a shell).
        chld = getattr(_signal, "SIGCHLD", None)  # POSIX only
        if chld is not None and _signal.getsignal(chld) == _signal.SIG_IGN:
            _signal.signal(chld, _signal.SIG_DFL)
        if _signal.getsignal(_signal.SIGINT) is not _signal.default_int_handler:
            return
        if mask is not None:
            held = mask(_signal.SIG_BLOCK, (_signal.SIGINT,))
        _signal.signal(_signal.SIGINT, _signal.SIG_DFL)
        if mask is not None and held is not None:
            mask(_signal.SIG_SETMASK, held)
    except KeyboardInterrupt:
        if not _started_as_the_command():
            raise  # an embedder's interrupt: theirs to handle
        _signal.signal(_signal.SIGINT, _signal.SIG_DFL)
        if hasattr(_signal, "pthread_sigmask"):
            _signal.pthread_sigmask(_signal.SIG_UNBLOCK, (_signal.SIGINT,))
        _signal.raise_signal(_signal.SIGINT)
        raise  # (not reached: the default action ends the process)


_quiet_interrupt_when_started_as_the_command()

from hookrun.records import TYPE_CHECKING  # noqa: E402 - after the signal set-up above

__version__ = "0.1.0"

if TYPE_CHECKING:
    from typing import Any

    from hookrun.dispatch.cancel import CancelToken
    from hookrun.runner.api import Runner, RunResult

__all__ = ["CancelToken", "Runner", "RunResult", "__version__"]


def __getattr__(name: str) -> "Any":
    if name in ("Runner", "RunResult"):
        from hookrun.runner import api

        return getattr(api, name)
    if name == "CancelToken":
        from hookrun.dispatch.cancel import CancelToken

        return CancelToken
    raise AttributeError(f"module 'hookrun' has no attribute {name!r}")
