"""``python -m hookrun`` and the ``hookrun`` console script."""

from __future__ import annotations

import sys

from hookrun import startup_gc


def main() -> None:
    # This process is the command: no garbage collection while it starts up (the runner
    # turns it on again when the hooks start; hookrun.startup_gc says why that is sound).
    startup_gc.pause()
    # SIGINT already ends this process quietly until the run handles it: see
    # hookrun._quiet_interrupt_when_started_as_the_command.
    from hookrun.cli.main import main as cli_main

    code = cli_main()
    _exit_without_teardown(code)
    sys.exit(code)


def _exit_without_teardown(code: int) -> None:
    """End the process at once, skipping the interpreter's teardown.

    ``hookrun run`` is started once per agent tool call, and tearing the interpreter
    down (every module's globals, the idle worker threads) costs about a third of a
    bare Python start-up. By now the answer is written and every file hookrun opened
    is closed. ``atexit`` handlers (coverage's, logging's when telemetry loaded it) are
    run here, as the normal exit would; a stream that cannot be flushed keeps the
    normal exit. A telemetry export abandoned on a silent collector is a daemon thread
    blocked on a socket: the normal teardown would spend tens of ms more on it.
    """
    import atexit

    pending = getattr(atexit, "_ncallbacks", None)  # CPython's count of atexit handlers
    run_handlers = getattr(atexit, "_run_exitfuncs", None)
    if pending is None or run_handlers is None:
        return
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
        if pending() != 0:
            run_handlers()
            for stream in (sys.stdout, sys.stderr):
                if stream is not None:
                    stream.flush()
    except (OSError, ValueError):  # a closed or broken stream: let the normal exit deal
        return
    import os

    os._exit(code)


if __name__ == "__main__":
    main()
