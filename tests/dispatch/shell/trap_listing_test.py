"""``trap -p``, ``trap -l`` and trap's signal names as bash 5.2 has them: each text run
by bash and by the in-process shell; status, stdout and stderr compared (bash's
``bash: line N:`` read as ``hookrun:``).

They differed: ``trap -p USR1 INT`` listed by signal number, not in the order asked,
and said nothing of a name that is no signal; ``trap -p`` left a plain action
unquoted (bash: ``trap -- 'true' SIGTERM``); ``trap -l`` was one line (bash: a table of
five a line, the real-time signals included); ``SIG0`` and ``SIG2`` were taken as
signals (bash: invalid signal specification — a number takes no ``SIG``). ``kill -l``
printed its own table without the real-time signals (bash: the same table as
``trap -l``, now one function), ``kill -l 0`` and ``kill -l EXIT`` were errors (bash:
``EXIT`` and ``0``), ``kill -SIG0`` was signal 0.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.dispatch.shell.shellrun import Runner, agrees_with_bash

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="bash is the oracle")

TEXTS = [
    "trap -- 'echo bye' EXIT; trap -p EXIT INT; trap -p",
    "trap 'echo t' 00; trap -p; trap - SIG0; echo $?; trap",
    "trap -l",
    "trap 'echo x' NOSUCH INT; echo $?; trap; trap - 99; echo $?",
    "trap '' INT; trap -p INT; trap true TERM; trap; trap - INT TERM; trap",
    "trap 'echo a' USR1 2; trap -p USR1 INT; kill -USR1 $$; echo after",
    "trap 'echo a' USR1; trap -p USR1 USR1 NOSUCH INT; echo $?; trap - SIG2; echo $?",
    "trap x SIGINT; trap -p 2 SIGINT; trap -p EXIT; echo $?",
    "trap \"echo 'q'\" HUP; trap -p; trap 'echo r' SIGRTMIN+1 RTMAX; trap | tail -2",
    "kill -l; kill -l 0; kill -l EXIT; kill -l 137; kill -l 128; echo $?; kill -l sig0; echo $?",
    "kill -SIG0 $$; echo $?; kill -0 $$; echo $?; kill -s 0 $$; echo $?; kill -l 9 15 term",
]


@pytest.mark.parametrize("source", TEXTS)
def test_trap_agrees_with_bash(run: Runner, tmp_path: Path, source: str) -> None:
    agrees_with_bash(run, tmp_path, source)
