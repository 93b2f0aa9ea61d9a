"""``ulimit``: the resource limits of the programs the in-process shell starts.

The shell runs inside hookrun's own process, so it cannot lower a limit of its own the
way bash does (that would lower it for hookrun and every other hook running in it).
What bash's ``ulimit`` promises a script is the limit its *children* run under, and
that is what this one keeps: a limit set here is recorded in the shell's state (a
subshell's stays in the subshell) and applied in each program the shell starts after
it, before it runs the program (``setrlimit`` in a small exec helper, never Python in a
forked child: :mod:`hookrun.dispatch.fdpass`). Reading a limit gives the one
set here, else the one this process has (which a child inherits). The checks bash's
``setrlimit`` would fail are made here: a soft limit above the hard one (EINVAL), a
hard limit raised without the privilege to (EPERM).

Windows has no resource limits (no ``resource`` module): every limit reads
"unlimited", and setting one fails as an unsupported operation.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hookrun.dispatch.shell.interp import IO, Interp

try:
    import resource
except ImportError:  # pragma: win32 cover
    resource = None  # type: ignore[assignment]

# letter: (bash's description, unit shown, resource name, scale) in `ulimit -a`'s order.
_LIMITS: dict[str, tuple[str, str, str, int]] = {
    "R": ("real-time non-blocking time", "microseconds", "RLIMIT_RTTIME", 1),
    "c": ("core file size", "blocks", "RLIMIT_CORE", 1024),
    "d": ("data seg size", "kbytes", "RLIMIT_DATA", 1024),
    "e": ("scheduling priority", "", "RLIMIT_NICE", 1),
    "f": ("file size", "blocks", "RLIMIT_FSIZE", 1024),
    "i": ("pending signals", "", "RLIMIT_SIGPENDING", 1),
    "l": ("max locked memory", "kbytes", "RLIMIT_MEMLOCK", 1024),
    "m": ("max memory size", "kbytes", "RLIMIT_RSS", 1024),
    "n": ("open files", "", "RLIMIT_NOFILE", 1),
    "p": ("pipe size", "512 bytes", "", 512),
    "q": ("POSIX message queues", "bytes", "RLIMIT_MSGQUEUE", 1),
    "r": ("real-time priority", "", "RLIMIT_RTPRIO", 1),
    "s": ("stack size", "kbytes", "RLIMIT_STACK", 1024),
    "t": ("cpu time", "seconds", "RLIMIT_CPU", 1),
    "u": ("max user processes", "", "RLIMIT_NPROC", 1),
    "v": ("virtual memory", "kbytes", "RLIMIT_AS", 1024),
    "x": ("file locks", "", "RLIMIT_LOCKS", 1),
}
# Limits Python's resource module does not name, by their number where the system has
# them (Linux's RLIMIT_LOCKS).
_UNNAMED = {"RLIMIT_LOCKS": 10} if sys.platform.startswith("linux") else {}
_USAGE = "ulimit: usage: ulimit [-SHabcdefiklmnpqrstuvxPRT] [limit]"
_INFINITY = -1 if resource is None else resource.RLIM_INFINITY
_PIPE_BLOCKS = 8  # PIPE_BUF (4096) in 512-byte blocks: what bash reports, fixed


def _available(letter: str) -> bool:
    """Whether this system has the limit (bash's -P/-T/-b/-k are not on Linux)."""
    if letter not in _LIMITS:
        return False
    name = _LIMITS[letter][2]
    return not name or resource is None or hasattr(resource, name) or name in _UNNAMED


def _number(name: str) -> int:
    number: int = getattr(resource, name) if hasattr(resource, name) else _UNNAMED[name]
    return number


def current(sh: Interp, letter: str) -> tuple[int, int]:
    """(soft, hard) for ``letter``: the shell's own setting, else this process's."""
    desc, unit, name, scale = _LIMITS[letter]
    if not name:
        return _PIPE_BLOCKS * scale, _PIPE_BLOCKS * scale
    if resource is None:  # pragma: win32 cover
        return _INFINITY, _INFINITY
    number = _number(name)
    limits: dict[int, tuple[int, int]] = sh.state.limits
    if number in limits:
        return limits[number]
    soft, hard = resource.getrlimit(number)
    return soft, hard


def _shown(value: int, scale: int) -> str:
    return "unlimited" if value == _INFINITY else str(value // scale)


def _line(letter: str, value: int) -> str:
    desc, unit, _, scale = _LIMITS[letter]
    label = f"({unit}, -{letter}) " if unit else f"(-{letter}) "
    return f"{desc:<20} {label:>20}{_shown(value, scale)}\n"  # bash's printone


def _err(sh: Interp, io: IO, message: str) -> None:
    sh.error(f"ulimit: {message}", io)


def b_ulimit(sh: Interp, argv: list[str], io: IO) -> int:
    modes: set[str] = set()  # of "H" (hard), "S" (soft), "a" (all)
    letters: list[str] = []
    args = argv[1:]
    while args and args[0][:1] == "-" and len(args[0]) > 1:
        flag = args.pop(0)
        if flag == "--":
            break
        for c in flag[1:]:
            if c in "HSa":
                modes.add(c)
            elif _available(c):
                letters.append(c)
            else:
                _err(sh, io, f"-{c}: invalid option")
                sh.error_plain(_USAGE, io)
                return 2
    hard, soft, show_all = "H" in modes, "S" in modes, "a" in modes
    out: list[str] = []
    if show_all:
        for letter in _LIMITS:
            if _available(letter):
                pair = current(sh, letter)
                out.append(_line(letter, pair[1] if hard and not soft else pair[0]))
        _write(io, "".join(out))
        return 0
    if not letters:
        letters = ["f"]
    if args:  # a new value for the (last) limit named
        return _set(sh, io, letters[-1], args[0], hard=hard or not soft, soft=soft or not hard)
    for letter in letters:
        pair = current(sh, letter)
        value = pair[1] if hard and not soft else pair[0]
        if len(letters) > 1:
            out.append(_line(letter, value))
        else:
            out.append(_shown(value, _LIMITS[letter][3]) + "\n")
    _write(io, "".join(out))
    return 0


def _write(io: IO, text: str) -> None:
    io.stdout.write(text.encode())


def _set(sh: Interp, io: IO, letter: str, text: str, *, hard: bool, soft: bool) -> int:
    desc, _, name, scale = _LIMITS[letter]
    old_soft, old_hard = current(sh, letter)
    named = {"unlimited": _INFINITY, "hard": old_hard, "soft": old_soft}
    if text in named:
        value = named[text]
    elif text.isdigit():
        value = int(text) * scale
    else:
        _err(sh, io, f"{text}: invalid number")
        return 1
    if not name or resource is None:  # the pipe size; or Windows, which has no limits
        why = "Invalid argument" if not name else "Operation not supported"
        _err(sh, io, f"{desc}: cannot modify limit: {why}")
        return 1
    new_soft = value if soft else old_soft
    new_hard = value if hard else old_hard
    if _above(new_soft, new_hard):
        _err(sh, io, f"{desc}: cannot modify limit: Invalid argument")
        return 1
    if _above(new_hard, old_hard) and not _may_raise(name, new_hard):
        _err(sh, io, f"{desc}: cannot modify limit: Operation not permitted")
        return 1
    sh.state.limits[_number(name)] = (new_soft, new_hard)
    return 0


def _above(a: int, b: int) -> bool:
    if a == b:
        return False
    return a == _INFINITY or (b != _INFINITY and a > b)


def _may_raise(name: str, hard: int) -> bool:
    """Whether a hard limit may be raised to ``hard``: with the privilege to (root),
    and for open files no further than the kernel's ``fs.nr_open``."""
    if os.geteuid() != 0:
        return False
    if name == "RLIMIT_NOFILE":
        try:
            with open("/proc/sys/fs/nr_open", encoding="ascii") as fh:
                most = int(fh.read())
        except (OSError, ValueError):
            return True
        return hard != _INFINITY and hard <= most
    return True
