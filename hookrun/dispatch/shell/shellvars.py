"""bash's variables that the shell itself sets, made when a script reads them.

``BASH_VERSION``, ``BASH_VERSINFO``, ``BASH``, ``FUNCNAME``, ``BASH_SOURCE``,
``BASH_LINENO``, ``BASH_SUBSHELL``, ``BASHPID``, ``SECONDS`` and ``HOOKRUN_SHELL`` are never stored
in a run's variables (no run pays for them): the expander asks here when such a name
has no value of its own, so an assignment or the environment still wins (as for
``RANDOM``). ``LINENO`` is the expander's (it asks the shell for the line of the command
being run: :func:`command_line`), ``SHLVL`` is set at start (:meth:`ShellState.create`:
it is exported).

Loaded on first use only: the shell path's import does not grow with it.
"""

from __future__ import annotations

import itertools
import os
import sys
from collections.abc import Callable
from time import time
from typing import Any

from hookrun.dispatch.shell.state import Array, ShellState
from hookrun.shellsyntax.nodes import ArithCmd, CallExpr, Pipeline, Stmt, TestClause

# The bash the in-process shell stands in for: the version whose behaviour it follows
# (bash 5.2, its conformance oracle), so that scripts which test for bash take their bash
# path. HOOKRUN_SHELL tells a script it runs in hookrun's in-process shell instead.
BASH_VERSION = "5.2.15(1)-release"
_HOST_OS = {"darwin": "apple-darwin", "win32": "pc-msys"}


def _machtype() -> str:
    machine = os.uname().machine if hasattr(os, "uname") else "x86_64"
    return f"{machine}-{_HOST_OS.get(sys.platform, 'pc-linux-gnu')}"


def _versinfo(state: ShellState) -> list[str]:
    return ["5", "2", "15", "1", "release", _machtype()]


def _funcname(state: ShellState) -> list[str]:
    names = list(state.funcnames)
    if all(name == "source" for name in names):
        return []  # bash: unset outside any function, even while a file is sourced
    if state.invoked == "":  # a script file: bash lists its top level as main
        names.append("main")
    return names


def _bash_source(state: ShellState) -> list[str]:
    # The file of each frame (where its function was defined, or the file sourced), then
    # a script file's own for its top level (under `bash -c` there is none).
    files = list(state.sources)
    if state.invoked == "":
        files.append(state.argv0)
    return files


def _bash_lineno(state: ShellState) -> list[str]:
    # The line each function in FUNCNAME was called from; a script file's top level
    # adds a 0 (for "main"), even outside any function, as bash does.
    lines = ["0" if stmt is None else str(command_line(src, stmt)) for src, stmt in state.callsites]
    if state.invoked == "":
        lines.append("0")
    return lines


def _run_arguments(state: ShellState, *, count: bool) -> list[str]:
    """The arguments BASH_ARGV/BASH_ARGC show, as bash (without extdebug) makes them
    (variables.c get_bashargcv): the positional parameters as they are when one of the
    two is first read at the top level, kept from then on; both empty when read
    first inside a function. ``count``: BASH_ARGC's, else BASH_ARGV's (last first)."""
    source, args, made = state.origin
    if not made:
        if any(name != "source" for name in state.funcnames):
            return []
        args = tuple(state.params)
        state.origin = (source, args, True)
    return [str(len(args))] if count else list(reversed(args))


_ARRAYS: dict[str, Callable[[ShellState], list[str]]] = {
    "BASH_VERSINFO": _versinfo,
    "FUNCNAME": _funcname,
    "BASH_SOURCE": _bash_source,
    "BASH_LINENO": _bash_lineno,
    "BASH_ARGV": lambda state: _run_arguments(state, count=False),
    "BASH_ARGC": lambda state: _run_arguments(state, count=True),
}
# bash's associative views of the aliases and the command hash.
_ASSOC: dict[str, Callable[[ShellState], dict[Any, str]]] = {
    "BASH_ALIASES": lambda state: dict(state.aliases),
    "BASH_CMDS": lambda state: {name: hit[0] for name, hit in state.hashed.items()},
}
# bash's compiled-in default (config-top.h DEFAULT_LOADABLE_BUILTINS_PATH).
_LOADABLES_PATH = (
    "/usr/local/lib/bash:/usr/lib/bash:/opt/local/lib/bash:/usr/pkg/lib/bash:/opt/pkg/lib/bash:."
)

# bash forks a subshell, whose BASHPID is its own pid. In-process subshells have none:
# each is given a number above any pid the OS hands out (Linux's pid_max is at most
# 2**22), unique in this process, so that names made from it (`/tmp/x.$BASHPID`) do
# not collide between subshells, and a `kill` of it can never reach another process.
_FIRST_SUBSHELL_PID = 1 << 22
_subshell_pids = itertools.count(_FIRST_SUBSHELL_PID + 1)


def bash_pid(state: ShellState) -> str:
    """``BASHPID``: ``$$`` in a shell of its own, a number of its own in a subshell."""
    if state.bashpid == 0:
        return str(os.getpid())
    if state.bashpid < 0:
        state.bashpid = next(_subshell_pids)
    return str(state.bashpid)


def _enabled(state: ShellState, names: list[str]) -> str:
    from hookrun.dispatch.shell.options import state_is_on

    return ":".join(name for name in names if state_is_on(state, name))


def _shellopts(state: ShellState) -> str:
    """``SHELLOPTS``: the `set -o` options that are on, in bash's (alphabetical) order."""
    from hookrun.dispatch.shell.options import SET_LONG

    return _enabled(state, SET_LONG)


def _bashopts(state: ShellState) -> str:
    """``BASHOPTS``: the `shopt` options that are on."""
    from hookrun.dispatch.shell.options import SHOPT

    return _enabled(state, SHOPT)


def _ostype() -> str:
    """``OSTYPE``, as bash there reports it (scripts test ``darwin*``, ``linux*``,
    ``msys``)."""
    if sys.platform == "win32":
        return "msys"  # Git for Windows' bash
    if sys.platform == "darwin":
        return "darwin" + os.uname().release.split(".")[0]
    if sys.platform.startswith("linux"):
        return "linux-gnu"
    return sys.platform


def _hostname() -> str:
    if hasattr(os, "uname"):
        return os.uname().nodename
    return os.environ.get("COMPUTERNAME", "localhost")  # pragma: win32 no cover


_SCALARS: dict[str, Callable[[ShellState], str | None]] = {
    "OSTYPE": lambda state: _ostype(),
    "HOSTTYPE": lambda state: _machtype().split("-", 1)[0],
    "MACHTYPE": lambda state: _machtype(),
    "HOSTNAME": lambda state: _hostname(),
    "EPOCHSECONDS": lambda state: str(int(time())),
    "EPOCHREALTIME": lambda state: f"{time():.6f}",
    # 32 random bits (bash's SRANDOM), from the OS as RANDOM's 15.
    "SRANDOM": lambda state: str(int.from_bytes(os.urandom(4), "little")),
    "OPTERR": lambda state: "1",
    "PS4": lambda state: "+ ",
    "BASHPID": bash_pid,
    "SHELLOPTS": _shellopts,
    "BASHOPTS": _bashopts,
    "BASH_VERSION": lambda state: BASH_VERSION,
    # No bash binary to name: `"$BASH" x.sh` goes where a plain `bash x.sh` goes (a real
    # bash if there is one and the hook does not ask for the in-process shell, else the
    # stand-in).
    "BASH": lambda state: "bash",
    "HOOKRUN_SHELL": lambda state: "inprocess",
    "BASH_SUBSHELL": lambda state: str(state.subshell),
    # Seconds since the shell started, or since SECONDS was assigned (ShellState.set_var).
    # As bash (get_seconds): the wall clock's whole seconds now less those at the start, so
    # crossing a second boundary counts one even when less than a second has passed.
    "SECONDS": lambda state: str(int(time()) - state.started),
    "BASH_ARGV0": lambda state: state.argv0,
    "BASH_EXECUTION_STRING": lambda state: state.origin[0],
    "BASH_LOADABLES_PATH": lambda state: _LOADABLES_PATH,
}


def array(state: ShellState, name: str) -> Array:
    """The array ``name`` (one of expand's ``_SHELL_ARRAYS``) holds now."""
    assoc = _ASSOC.get(name)
    if assoc is not None:
        return Array(True, assoc(state))
    return Array(False, dict(enumerate(_ARRAYS[name](state))))


def scalar(state: ShellState, name: str) -> str | None:
    """``$name`` (one of expand's ``_SHELL_SCALARS``): an array's first element."""
    make = _ARRAYS.get(name)
    if make is not None:
        values = make(state)
        return values[0] if values else None
    if name in _ASSOC:  # (`$BASH_ALIASES`: the key "0", as bash's)
        return _ASSOC[name](state).get("0")
    return _SCALARS[name](state)


def command_line(src: bytes, stmt: Stmt) -> int:
    r"""bash's line number of ``stmt`` (``LINENO``, ``BASH_LINENO``, an ERR trap's).

    bash takes the line its parser is on once it has read a simple command's first word
    and the token after it (its one token of look-ahead): `echo "a⏎b" $LINENO` is on
    line 2, `echo a \⏎b $LINENO` on line 1, and a line continuation after a blank
    up to there does not count (`x=1 \⏎ y=2 cmd` is on line 1); one inside or right after
    a word does (`echo $LINENO\⏎ a` is on line 2). `[[ ]]` and `(( ))`:
    the line they end on; a pipeline: its last command's; any other statement: the line
    it starts on.
    """
    end = stmt.pos
    continued = 0
    cmd = stmt.cmd
    if isinstance(cmd, Pipeline) and cmd.stages:
        return command_line(src, cmd.stages[-1])
    if isinstance(cmd, (TestClause, ArithCmd)):
        end = cmd.end
    elif isinstance(cmd, CallExpr):
        spans = sorted(
            [(part.pos, part.end) for part in (*cmd.assigns, *cmd.args)]
            + [(r.pos, r.target.end if r.heredoc else r.end) for r in stmt.redirects]
        )
        if spans:
            end = spans[min(1, len(spans) - 1)][1]
            while src.startswith(b"\\\n", end):
                end += 2  # (a word's reading runs on through a continuation right after it)
            # Only a continuation after a blank does not count: one inside or right after
            # a word (`x=$LINENO\⏎;`, `ec\⏎ho $LINENO`) does, as in bash.
            continued = src.count(b" \\\n", stmt.pos, end) + src.count(b"\t\\\n", stmt.pos, end)
    return src.count(b"\n", 0, end) - continued + 1


def next_level(level: str | None) -> str:
    """bash's SHLVL for an inherited value: one more; not a number counts as 0, a
    negative one gives 0; from 1000 on it starts again at 1 (bash warns)."""
    n = integer_or_zero(level or "0")
    if n < 0:
        return "0"
    return str(n + 1) if n + 1 < 1000 else "1"


def integer_or_zero(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        return 0


def integer(state: ShellState, text: str) -> int:
    """``text`` evaluated as arithmetic, as an integer variable (``declare -i``) stores it."""
    from hookrun.dispatch.shell.expand import FS, Expander

    return Expander(state, FS).arith_text(text)


def assign_special(state: ShellState, name: str, value: str) -> None:
    """An assignment to ``SECONDS`` or ``RANDOM`` (still special: ShellState.special)."""
    if name == "SECONDS":  # counts on from the value given (an integer, as in bash)
        state.started = int(time()) - integer_or_zero(value)
    elif name == "BASH_ARGV0":  # sets $0, as bash's
        state.argv0 = value
    else:  # RANDOM: an integer variable in bash, its value (arithmetic) the seed
        from hookrun.dispatch.shell.state import ShellError

        try:
            seed = integer(state, value)
        except ShellError:
            # bash (assign_random) reports the expression and goes on, not seeded, the
            # assignment's status 0; the report is not made here (no stream to say it)
            return
        state.rseed = [seed & 0xFFFFFFFF, 0]


def seeded_random(state: ShellState) -> str:
    """The next ``$RANDOM`` after ``RANDOM=N``: bash 5.2's generator (variables.c
    ``brand``, ``intrand32``, ``get_random_number``), so a seeded sequence is bash's.

    Park and Miller's minimal standard generator, x' = 16807 x mod (2^31 - 1), by
    Schrage's method as bash computes it (a seed of 0 is taken as 123459876), its two
    16-bit halves xor-ed (bash's compatibility level above 50), 15 bits kept; a value
    equal to the last one given is skipped."""
    rseed = state.rseed
    assert rseed is not None
    seed, last = rseed
    while True:
        x = seed or 123459876
        h, low = divmod(x, 127773)
        t = 16807 * low - 2836 * h
        seed = t + 0x7FFFFFFF if t < 0 else t
        value = ((seed >> 16) ^ (seed & 0xFFFF)) & 0x7FFF
        if value != last:
            break
    rseed[0], rseed[1] = seed, value
    return str(value)
