"""A worker process for the conformance suite: runs cases through ``hookrun.dispatch.run``.

Each case runs as bash runs it in the oracle: ``bash`` reading the case as a script
on its stdin (``$-`` has ``s``; an unset variable under ``set -u`` exits 1, not the
127 of ``bash -c``), here the command ``bash`` with the bash stand-in forced, so
hookrun's in-process shell reads the script from stdin the same way.

Cases run here, not in pytest's own process, because they are shell programs: ``kill
$$``, ``exit`` in odd places, traps and runaway loops must only ever end a worker (the
harness notes it and starts another). Only hookrun's public entry point is used.

Protocol: one JSON object per line on stdin (``code``, ``cwd``, ``env``, ``timeout``);
one JSON object per line on stdout (``status``, ``stdout``, ``stderr`` as latin-1 text
so any bytes round-trip, ``route``, ``error``).
"""

from __future__ import annotations

import json
import os
import sys

from hookrun.dispatch import run


def main() -> None:
    # The protocol owns fd 1; a case's output only ever reaches the capture buffers.
    protocol = os.fdopen(os.dup(1), "w", encoding="utf-8")
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 1)
    for line in sys.stdin:
        request = json.loads(line)
        done = run(
            "bash",
            cwd=request["cwd"],
            env=request["env"],
            stdin=request["code"].encode("utf-8", "surrogateescape"),
            timeout=request["timeout"],
            shell="inprocess",
        )
        answer = {
            "status": done.exit_code,
            "stdout": done.stdout.decode("latin-1"),
            "stderr": done.stderr.decode("latin-1"),
            "route": done.route,
            "error": done.error,
        }
        protocol.write(json.dumps(answer) + "\n")
        protocol.flush()


if __name__ == "__main__":
    main()
