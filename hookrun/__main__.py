"""``python -m hookrun`` and the ``hookrun`` console script."""

from __future__ import annotations

import sys


def main() -> None:
    from hookrun.cli.main import main as cli_main

    code = cli_main()
    _exit_without_teardown(code)
    sys.exit(code)


def _exit_without_teardown(code: int) -> None:
    """End the process at once when nothing is left to run at exit.

    ``hookrun run`` is started once per agent tool call, and tearing the interpreter
    down (every module's globals, the idle worker threads) costs about a third of a
    bare Python start-up. By now the answer is written and every file hookrun opened
    is closed; only an ``atexit`` handler (coverage's, an embedder's) or output that
    cannot be flushed needs the normal exit, so either keeps it.
    """
    import atexit

    pending = getattr(atexit, "_ncallbacks", None)  # CPython's count of atexit handlers
    if pending is None or pending() != 0:
        return
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
    except (OSError, ValueError):  # a closed or broken stream: let the normal exit deal
        return
    import os

    os._exit(code)


if __name__ == "__main__":
    main()
