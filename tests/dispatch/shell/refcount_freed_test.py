"""A run of the in-process shell leaves no reference cycle behind.

Everything a run builds (the shell, its state, streams, process tracker, subshells,
the expander) is freed by reference counting when the run returns. A cycle left in
every run is freed only by the cyclic GC, whose collections it then triggers: with
the old shell <-> process <-> expander cycles that was ~12% of the instructions of
``run("true;")`` (callgrind).

Judged by the shell's own objects among what the cyclic GC finds: in a full test
session, threads that earlier tests left to end on their own (an abandoned capture
reader, a timed-out stage) may leave garbage of theirs at any moment.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Iterator

import pytest

from hookrun.dispatch import run
from hookrun.dispatch.shell import Shell
from hookrun.dispatch.shell.expand import Expander
from hookrun.dispatch.shell.interp import IO, Interp, RunNotes, ShellProcess
from hookrun.dispatch.shell.state import ShellState

SHELL_TYPES = (Shell, Interp, ShellState, ShellProcess, IO, RunNotes, Expander)

# Each reaches a different part: the shell alone, the expander, $( ) (a subshell with
# its own process and expander), a pipeline, ( ) and a function, a trap, a here-doc.
SCRIPTS = [
    "true;",
    'x=1; echo "${x:-y}"',
    'x=$(printf "%s" "$HOME"); echo "$x"',
    "echo a | { read -r v; echo $v; }",
    "(f() { echo in; }; f)",
    "trap 'echo bye' EXIT; kill -USR1 $$ 2>/dev/null; echo on",
    'while read -r l; do echo "$l"; done <<EOF\nx\nEOF',
]


@pytest.fixture
def no_gc() -> Iterator[None]:
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)  # what a collection finds stays in gc.garbage
    try:
        yield
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()


@pytest.mark.parametrize("script", SCRIPTS)
def test_a_run_leaves_no_cycle(script: str, no_gc: None) -> None:
    env = {"PATH": os.environ.get("PATH", os.defpath), "HOME": "/home/h"}
    first = run(script, cwd=os.getcwd(), env=env, timeout=30)
    assert first.error is None, first
    gc.collect()  # whatever importing and first-use caches made
    gc.garbage.clear()
    again = run(script, cwd=os.getcwd(), env=env, timeout=30)
    assert again == first._replace(duration=again.duration)
    gc.collect()
    left = [type(o).__name__ for o in gc.garbage if isinstance(o, SHELL_TYPES)]
    assert left == []
