"""Conditional expressions: ``test``/``[`` over expanded words, and the unary and binary
operators the interpreter's ``[[ … ]]`` uses (its expression comes parsed from the tree).

Both evaluate to an exit status: 0 true, 1 false, 2 for a malformed expression (with a
message). Files are resolved against the shell's cwd, never the process's.
"""

from __future__ import annotations

import operator
import os
import stat
import sys
from collections.abc import Callable

from hookrun.records import TYPE_CHECKING

UNARY_FILE = set("ebcdfghkprsuwxGLNOS") | {"h"}
BINARY_INT = {"-eq", "-ne", "-lt", "-le", "-gt", "-ge"}


class ConditionError(Exception):
    """A malformed conditional expression (status 2)."""


def _path(cwd: str, p: str) -> str:
    return p if os.path.isabs(p) else os.path.join(cwd, p)


# What a descriptor of the hook is, for tests of /dev/stdin & co. (:func:`file_test`):
# a real descriptor of this process (its number), PIPE (a stream with none yet: the
# payload in memory, a captured output — what a program would be given as a pipe), or
# None (not open in the hook).
PIPE = "pipe"
if TYPE_CHECKING:
    Streams = Callable[[int], "int | str | None"]
# The names that mean one of the hook's descriptors, not a file: bash on Linux opens them
# as its own descriptors; here the hook's are not this process's.
_STD = {"/dev/stdin": 0, "/dev/stdout": 1, "/dev/stderr": 2}
_FD_PREFIXES = ("/dev/fd/", "/proc/self/fd/")
# A pipe as stat(2) and access(2) see one this user made (bash on Linux, stdin piped:
# `-e -p -r -w -O -G` true; not `-s`: a pipe's size is 0; not `-x`, `-f`…).
_PIPE_TRUE = set("eprwOG")


def hook_fd(arg: str) -> int | None:
    """The hook descriptor ``arg`` names (``/dev/stdin``, ``/dev/fd/3``), else None."""
    number = _STD.get(arg)
    if number is not None:
        return number
    for prefix in _FD_PREFIXES:
        if arg.startswith(prefix) and arg[len(prefix) :].isdigit():
            return int(arg[len(prefix) :])
    return None


def file_test(op: str, arg: str, cwd: str, streams: Streams | None = None) -> bool:
    """``-op arg``. ``streams`` (the shell's descriptors, :data:`PIPE`) makes ``-t N``
    and tests of ``/dev/stdin``, ``/dev/fd/N``… answer for the hook's descriptors, as
    bash's answer for its own; without it they are this process's."""
    if arg == "" and op != "t":
        return False  # not the cwd: "" names no file (test -d "" is false in bash)
    if op == "t":
        try:
            number = int(arg)
        except ValueError:
            return False
        if streams is not None:
            where = streams(number)
            return isinstance(where, int) and os.isatty(where)
        try:
            return os.isatty(number)
        except OSError:
            return False
    named = hook_fd(arg) if streams is not None else None
    if named is not None and streams is not None:
        where = streams(named)
        if op in ("h", "L") and arg in _STD:
            pass  # the name itself: a symbolic link whatever it points to
        elif where is None:
            return False  # not open in the hook
        elif where == PIPE:
            return op in _PIPE_TRUE or (op in ("h", "L") and _fd_entries_are_links())
        else:
            arg = f"{_FD_PREFIXES[0]}{where}"
    path = _path(cwd, arg)
    try:
        st = os.lstat(path) if op in ("h", "L") else os.stat(path)
    except (OSError, ValueError):
        return False
    mode = st.st_mode
    checks: dict[str, Callable[[], bool]] = {
        "e": lambda: True,
        "f": lambda: stat.S_ISREG(mode),
        "d": lambda: stat.S_ISDIR(mode),
        "b": lambda: stat.S_ISBLK(mode),
        "c": lambda: stat.S_ISCHR(mode),
        "p": lambda: stat.S_ISFIFO(mode),
        "S": lambda: stat.S_ISSOCK(mode),
        "h": lambda: stat.S_ISLNK(mode),
        "L": lambda: stat.S_ISLNK(mode),
        "s": lambda: st.st_size > 0,
        "g": lambda: bool(mode & stat.S_ISGID),
        "u": lambda: bool(mode & stat.S_ISUID),
        "k": lambda: bool(mode & stat.S_ISVTX),
        "r": lambda: os.access(path, os.R_OK),
        "w": lambda: os.access(path, os.W_OK),
        "x": lambda: os.access(path, os.X_OK),
        "O": lambda: hasattr(os, "getuid") and st.st_uid == os.getuid(),
        "G": lambda: hasattr(os, "getgid") and st.st_gid == os.getgid(),
        "N": lambda: st.st_mtime > st.st_atime,
    }
    return checks[op]()


def _fd_entries_are_links(platform: str = sys.platform) -> bool:
    """Whether ``/dev/fd/N`` of an open descriptor is a symbolic link (Linux: /proc)."""
    return platform.startswith("linux")


def _int(text: str) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise ConditionError(f"{text}: integer expression expected") from None


# The integer comparisons by operator (one lookup, not a test of each in turn).
_INT_COMPARE: dict[str, Callable[[int, int], bool]] = {
    "-eq": operator.eq,
    "-ne": operator.ne,
    "-lt": operator.lt,
    "-le": operator.le,
    "-gt": operator.gt,
    "-ge": operator.ge,
}


def binary(op: str, a: str, b: str, cwd: str) -> bool:
    compare = _INT_COMPARE.get(op)
    if compare is not None:
        return compare(_int(a), _int(b))  # (left operand first: its error is the one shown)
    if op in ("=", "=="):
        return a == b
    if op == "!=":
        return a != b
    if op == "<":
        return a < b
    if op == ">":
        return a > b
    if op in ("-nt", "-ot", "-ef"):
        sa, sb = _stat(cwd, a), _stat(cwd, b)
        if sa is None or sb is None:
            # bash: a file that exists is newer than one that does not (`a -nt missing`,
            # `missing -ot a`); two missing files, or -ef with one missing, are false.
            if op == "-nt":
                return sa is not None and sb is None
            if op == "-ot":
                return sa is None and sb is not None
            return False
        if op == "-nt":
            return sa.st_mtime_ns > sb.st_mtime_ns
        if op == "-ot":
            return sa.st_mtime_ns < sb.st_mtime_ns
        return (sa.st_dev, sa.st_ino) == (sb.st_dev, sb.st_ino)
    raise ConditionError(f"{op}: binary operator expected")


def _stat(cwd: str, name: str) -> os.stat_result | None:
    try:
        return os.stat(_path(cwd, name))
    except (OSError, ValueError):
        return None


_BINARY_OPS = {"=", "==", "!=", "<", ">", "-nt", "-ot", "-ef"} | BINARY_INT


def is_unary(op: str) -> bool:
    return len(op) == 2 and op[0] == "-" and (op[1] in UNARY_FILE or op[1] in "nzt")


def unary(op: str, arg: str, cwd: str, streams: Streams | None = None) -> bool:
    if op == "-n":
        return arg != ""
    if op == "-z":
        return arg == ""
    return file_test(op[1], arg, cwd, streams)


class _TestParser:
    """POSIX ``test`` with ``!``, ``-a``, ``-o`` and parentheses (recursive descent)."""

    def __init__(
        self,
        args: list[str],
        cwd: str,
        streams: Streams | None = None,
        is_set: Callable[[str, str], bool] | None = None,
    ) -> None:
        self.args = args
        self.pos = 0
        self.cwd = cwd
        self.streams = streams
        self.is_set = is_set

    def more(self) -> bool:
        return self.pos < len(self.args)

    def peek(self, k: int = 0) -> str | None:
        j = self.pos + k
        return self.args[j] if j < len(self.args) else None

    def or_(self) -> bool:
        value = self.and_()
        while self.peek() == "-o":
            self.pos += 1
            rhs = self.and_()
            value = value or rhs
        return value

    def and_(self) -> bool:
        value = self.not_()
        while self.peek() == "-a":
            self.pos += 1
            rhs = self.not_()
            value = value and rhs
        return value

    def not_(self) -> bool:
        if self.peek() == "!" and self.peek(1) is not None:
            self.pos += 1
            return not self.not_()
        return self.primary()

    def primary(self) -> bool:
        tok = self.peek()
        if tok is None:
            raise ConditionError("argument expected")
        if tok == "(" and self.peek(2) != ")" or (tok == "(" and self.peek(1) == "("):
            self.pos += 1
            value = self.or_()
            if self.peek() != ")":
                raise ConditionError("')' expected")
            self.pos += 1
            return value
        nxt = self.peek(1)
        if nxt is not None and nxt in _BINARY_OPS and self.peek(2) is not None:
            self.pos += 3
            return binary(nxt, tok, self.args[self.pos - 1], self.cwd)
        if is_unary(tok) and nxt is not None:
            self.pos += 2
            return unary(tok, nxt, self.cwd, self.streams)
        if tok in SHELL_UNARY and nxt is not None and self.is_set is not None:
            self.pos += 2
            return self.is_set(tok, nxt)
        self.pos += 1
        return tok != ""


# The unary operators about the shell itself, not a file or a string: ``-v NAME`` (set),
# ``-R NAME`` (a nameref with a value), ``-o OPTION`` (a `set -o` option is on).
SHELL_UNARY = frozenset(("-v", "-R", "-o"))


def run_test(
    args: list[str],
    cwd: str,
    is_set: Callable[[str, str], bool] | None = None,
    streams: Streams | None = None,
) -> bool:
    """Evaluate ``test`` arguments (without the closing ``]``). Raises :class:`ConditionError`.

    ``is_set(op, operand)`` answers the operators in :data:`SHELL_UNARY` from the shell's
    state (None: they are not known); ``streams`` the hook's descriptors (:func:`file_test`)."""
    n = len(args)
    # POSIX fixes the meaning by argument count up to 4; the parser agrees except where
    # an operand looks like an operator, which the count rules resolve.
    if n == 0:
        return False
    if n == 1:
        return args[0] != ""
    if n == 2:
        if args[0] == "!":
            return args[1] == ""
        if args[0] in SHELL_UNARY and is_set is not None:
            return is_set(args[0], args[1])
        if is_unary(args[0]):
            return unary(args[0], args[1], cwd, streams)
        raise ConditionError(f"{args[0]}: unary operator expected")
    if n == 3:
        if args[1] in _BINARY_OPS:
            return binary(args[1], args[0], args[2], cwd)
        if args[0] == "!":
            return not run_test(args[1:], cwd, is_set, streams)
        if args[0] == "(" and args[2] == ")":
            return args[1] != ""
    if n == 4 and args[0] == "!":
        return not run_test(args[1:], cwd, is_set, streams)
    parser = _TestParser(args, cwd, streams, is_set)
    value = parser.or_()
    if parser.more():
        raise ConditionError(f"{parser.peek()}: unexpected argument")
    return value
