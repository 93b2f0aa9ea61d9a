"""The in-process shell: an interpreter over the typed tree of :mod:`hookrun.shellsyntax`.

Modelled on mvdan/sh's ``interp``: statements are walked here, words are expanded by
:mod:`.expand` (pure, configured with callbacks), and programs run through an
:class:`~hookrun.dispatch.shell.handler.ExecHandler` (the seam tests and policies use).

Builtins run in this Python process and write straight into the caller's sinks, so a
hook like ``echo '{"decision":"allow"}'`` starts no process, opens no pipe and starts
no thread. Pipelines connect stages with OS pipes: every stage but the last runs in a
thread on a copy of the shell state (subshell semantics, as in bash); the last runs in
the calling thread, also on a copy. Data streams through the pipes and is never
collected.

All state (variables, cwd, functions) is in :class:`ShellState`: nothing here calls
``os.chdir`` or touches ``os.environ``.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable, Mapping, Sequence

from hookrun.dispatch import resolve, standin
from hookrun.dispatch.cancel import Guard, Interrupted, StatusUnknowable
from hookrun.dispatch.procs import ProcessTracker
from hookrun.dispatch.shell.builtins import BUILTINS, Builtin
from hookrun.dispatch.shell.state import (
    AbortScript,
    Array,
    DiscardLine,
    ExitShell,
    ExpansionFailure,
    Function,
    LoopControl,
    NotAssigned,
    ReadonlyVariable,
    ReturnFromFunction,
    ShellError,
    ShellState,
)
from hookrun.dispatch.streams import (
    BufferSource,
    ByteSink,
    ByteSource,
    CaptureSink,
    FdDuplex,
    FdSink,
    FdSource,
    open_waiting,
    read_waiting,
)
from hookrun.lazyre import compile as lazy_compile
from hookrun.records import TYPE_CHECKING


class _LazyModule:
    """A module imported on first attribute use. The node classes are needed only once a
    script is parsed; a hook made of one plain command (run_argv) never loads the front
    end (tests/cli/import_set_test.py pins it)."""

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, attr: str) -> Any:
        import sys

        # __import__, not importlib.import_module: the importlib package (with warnings)
        # is ~0.6 ms of a hook's start-up, and no other part of the shell path needs it.
        __import__(self._name)
        module = sys.modules[self._name]
        globals()["N"] = module
        return getattr(module, attr)


if TYPE_CHECKING:
    from typing import Any

    from hookrun.dispatch.shell.expand import Expander
    from hookrun.dispatch.shell.handler import ExecHandler
    from hookrun.shellsyntax import nodes as N
    from hookrun.shellsyntax.nodes import (
        Assign,
        BinaryCmd,
        CallExpr,
        CaseClause,
        CForClause,
        Command,
        ForClause,
        IfClause,
        Pipeline,
        ProcSubst,
        Redirect,
        Script,
        Stmt,
        TestClause,
        TestExpr,
        WhileClause,
        Word,
    )
else:
    N = _LazyModule("hookrun.shellsyntax.nodes")

# Tried in this order for a construct the in-process shell does not interpret. bash
# first: what we do not interpret is almost always a bash-ism that a strict POSIX sh
# would reject as well.
FALLBACK_SHELLS = ("bash", "sh")
# A command substitution's output is held in memory (it becomes a string); past this
# bound the rest is drained and dropped rather than growing without limit.
SUBSTITUTION_LIMIT = 256 * 1024 * 1024
# Exit status of a stage that wrote to a pipe whose reader had gone: 128 + SIGPIPE.
BROKEN_PIPE_STATUS = 141
# Modules the shell imports on first use (off the start-up path of a hook of plain
# commands), kept here once imported: an import statement in a function costs a few
# thousand instructions each time it runs, and these run on every command.
_expand: Any = None  # hookrun.dispatch.shell.expand
_testexpr: Any = None  # hookrun.dispatch.shell.testexpr


def _load_expand() -> Any:
    global _expand
    from hookrun.dispatch.shell import expand

    _expand = expand
    return expand


def _load_testexpr() -> Any:
    global _testexpr
    from hookrun.dispatch.shell import testexpr

    _testexpr = testexpr
    return testexpr


_ere: Any = None  # hookrun.dispatch.shell.ere, on the first `=~`


def _load_ere() -> Any:
    global _ere
    from hookrun.dispatch.shell import ere

    _ere = ere
    return ere


class _BadRegex(Exception):
    """`=~` with a regex glibc rejects: status 2, no message (as bash), which `||` and
    `!` read as false."""


_DECLARATION_BUILTINS = frozenset({"export", "local", "readonly", "declare", "typeset"})
# Descriptors a script picks with {name}>file start here, as in bash.
_FIRST_VAR_FD = 10


# Plain slotted classes, not dataclasses: this module is on the start-up path of every
# `hookrun run` with an inline hook (dataclasses cost half a bare start-up).
class IO:
    """The streams a command sees: 0, 1, 2 and any other descriptor the script opened."""

    __slots__ = ("stdin", "stdout", "stderr", "fds")

    def __init__(
        self,
        stdin: ByteSource,
        stdout: ByteSink,
        stderr: ByteSink,
        fds: dict[int, Any] | None = None,
    ) -> None:
        self.stdin = stdin
        self.stdout = stdout
        self.stderr = stderr
        self.fds: dict[int, Any] = {} if fds is None else fds

    def copy(self) -> IO:
        return IO(self.stdin, self.stdout, self.stderr, dict(self.fds))

    def get(self, fd: int) -> Any:
        if fd == 0:
            return self.stdin
        if fd == 1:
            return self.stdout
        if fd == 2:
            return self.stderr
        return self.fds.get(fd)

    def set(self, fd: int, stream: Any) -> None:
        if fd == 0:
            self.stdin = stream
        elif fd == 1:
            self.stdout = stream
        elif fd == 2:
            self.stderr = stream
        elif stream is None:
            self.fds.pop(fd, None)
        else:
            self.fds[fd] = stream

    def assign(self, other: IO) -> None:
        self.stdin, self.stdout, self.stderr = other.stdin, other.stdout, other.stderr
        self.fds = dict(other.fds)

    def test_fd(self, fd: int) -> int | str | None:
        """What descriptor ``fd`` is, for ``[ -p /dev/stdin ]``, ``[ -t 0 ]``
        (testexpr.file_test): a real descriptor's number, "pipe" for a stream that has
        none (the payload in memory, a captured output: a program is given a pipe for
        it), None when the script has it closed."""
        stream = self.get(fd)
        if stream is None or isinstance(stream, _ClosedSink):
            return None
        if isinstance(stream, (FdSource, FdSink)):
            return stream.fd if stream.fd >= 0 else None
        return "pipe"


class RunNotes:
    """What one run learned, shared by all its (sub)shells: how it ended up running."""

    __slots__ = ("route", "ended", "standin", "unsupported", "psubs", "psub_dir")

    def __init__(
        self, route: str | None = None, ended: bool = False, standin: str = "auto"
    ) -> None:
        # "sh-fallback" once any part was handed to a real shell; "inprocess:bash" once
        # a `bash …` ran in-process (the bash stand-in)
        self.route = route
        self.ended = ended  # the top-level script returned: background threads stop
        self.standin = standin  # the bash stand-in mode (hookrun.dispatch.standin.MODES)
        # The construct that stopped the run because nothing could interpret it: the
        # hook failed (dispatch reports it as an error), it did not answer "exit 2".
        self.unsupported: str | None = None
        # The run's process substitutions (hookrun.dispatch.shell.procsub), waited for
        # at its end, and the directory of their files where /dev/fd is not.
        self.psubs: list[Any] | None = None
        self.psub_dir: str | None = None


# No signal ignored since start (a fresh shell process): one frozenset for all.
_NONE_IGNORED: frozenset[str] = frozenset()


class ShellProcess:
    """What bash would run as one process, for signals sent to it by ``kill``.

    The in-process shell has no processes of its own, so ``kill -USR1 $$`` (or ``kill
    $!`` of a background job run in-process) never reaches the OS: the kill builtin
    (:mod:`.signals`) queues the signal here, and the shell that owns this process takes
    it between two commands, as bash runs a trap once the current command is done.
    hookrun's own process and its SIGTERM/SIGINT/SIGHUP handling are never involved.

    ``shell``: a shell with its own ``$$`` in bash (the hook's shell, ``bash -c …``, a
    script file); a subshell (``( … )``, ``cmd &``) shares its parent's ``$$``.
    """

    __slots__ = ("pending", "parent", "shell", "owner", "ignored")

    def __init__(self, parent: ShellProcess | None = None, *, shell: bool = True) -> None:
        self.pending: list[str] = []  # signal names, appended by other threads too
        self.parent = parent
        self.shell = shell
        # The shell that takes the signals now, known by its traps (a shell's own dict
        # for its whole life): not the shell itself, which would make every shell and
        # all it holds a reference cycle, left to the cyclic GC instead of freed at once.
        self.owner: dict[str, str] | None = None
        # Ignored since it started, so no trap can catch them (bash: a background job
        # of a non-interactive shell ignores INT and QUIT); children inherit it.
        self.ignored: frozenset[str] = parent.ignored if parent is not None else _NONE_IGNORED


class _Job:
    """A background command: a thread running a subshell (and the child it started)."""

    __slots__ = ("proc", "thread", "status", "pid", "process", "number", "error", "command")

    def __init__(self) -> None:
        self.number = 1  # %N: one more than the highest in the table when started
        self.proc: Any = None
        self.thread: threading.Thread | None = None
        self.status = 0
        # A child the job could not start with a status anyone could read: `wait`
        # raises it, so `cmd & wait $!` fails the run as `cmd` alone does.
        self.error: StatusUnknowable | None = None
        self.pid = 0
        # The job's subshell, for `kill $!` when $! is not a program's real pid.
        self.process: ShellProcess | None = None
        # The text run and the statement, for `jobs` to print.
        self.command: tuple[bytes, Stmt] | None = None


class _Stage:
    __slots__ = ("status", "error", "owned")

    def __init__(self, owned: list[Any] | None = None) -> None:
        self.status = 0
        self.error: BaseException | None = None
        self.owned: list[Any] = [] if owned is None else owned


class _ClosedSink:
    """A descriptor closed with ``>&-``: writes fail as on a closed fd (EBADF)."""

    def write(self, data: bytes) -> None:
        raise OSError(9, "Bad file descriptor")

    def read(self, n: int = -1) -> bytes:
        raise OSError(9, "Bad file descriptor")

    def readline(self) -> bytes:
        raise OSError(9, "Bad file descriptor")

    def fileno(self) -> int:
        raise OSError(9, "Bad file descriptor")

    def close(self) -> None:
        pass


Closable = FdSink | FdSource | BufferSource


def encode(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")


def decode(data: bytes) -> str:
    return data.decode("utf-8", "surrogateescape")


class Interp:
    """One shell (or subshell): state plus the run's shared process tracker and guard."""

    # Start values that are never mutated in place, read from the class until a shell
    # assigns its own (every hook's run builds a shell: fewer stores each time).
    # A background job's subshell running one simple command: a `bash …` it starts
    # stands in for that command, so it takes over this process (bash's exec).
    exec_process = False
    src = b""
    subst_status: int | None = None
    errexit_suppressed = 0
    function_depth = 0
    loop_depth = 0
    source_depth = 0
    background = False  # a background job's (sub)shell: stops when the run ends
    in_trap = False
    getopts_ind = 0  # getopts' place inside a group of letters (-abc)
    getopts_pos = 1
    next_fd = _FIRST_VAR_FD
    # Set on the subshell of a background job, to learn its first child's pid.
    spawn_hook: Callable[[Any], None] | None = None
    spawned: threading.Event | None = None
    _expander: Expander | None = None
    # The statement being run (in ``src``), and the line an ERR trap runs at: ``LINENO``
    # is the command's line as bash counts it, not the expansion's (they differ in a
    # command of many lines), and in a trap the failing command's.
    stmt: Stmt | None = None
    trap_line: int | None = None
    # While a trap runs: the text and statement it was started at (``BASH_COMMAND`` in a
    # trap is the command that was running then, not the trap's own).
    trap_context: tuple[bytes, Stmt | None] | None = None
    in_debug_trap = False
    # ``BASH_COMMAND`` while the DEBUG trap runs before a loop's header or a case word
    # (``for i in 1 2``, ``case $x in ``, ``((i<2))``): bash's text of it.
    header_text: str | None = None
    # Read from the class until a shell has its own: never changed in place here, only
    # replaced (a job started, `exec >file` run, a subshell made) or popped from (the
    # `trap` builtin resetting an inherited one, which an empty dict does not have).
    jobs: list[_Job] = []  # noqa: RUF012
    # A subshell's copy of its parent's traps: `trap` lists them, nothing runs them.
    inherited_traps: dict[str, str] = {}  # noqa: RUF012
    exec_owned: list[Closable] = []  # noqa: RUF012  # files opened by `exec >file`
    # The jobs `wait $!` finds process substitutions by; replaced, never changed in
    # place, as jobs.
    psub_jobs: list[_Job] = []  # noqa: RUF012
    parent_jobs: list[_Job] = []  # noqa: RUF012  # (only read: `jobs` in a subshell)
    # The statuses of finished jobs that left the table (forget_done_jobs), by pid, for
    # `wait PID`; replaced, never changed in place, as jobs.
    done_statuses: dict[int, int] = {}  # noqa: RUF012

    def __init__(
        self,
        state: ShellState,
        io: IO,
        procs: ProcessTracker,
        guard: Guard,
        platform: str,
        notes: RunNotes | None = None,
        exec_handler: ExecHandler | None = None,
        process: ShellProcess | None = None,
    ) -> None:
        self.state = state
        self.process = process or ShellProcess()
        self.traps: dict[str, str] = {}  # never replaced: it names this shell (owner)
        if self.process.owner is None:
            self.process.owner = self.traps
        self.io = io
        self.procs = procs
        self.guard = guard
        self.platform = platform
        self._exec_handler = exec_handler
        self.notes = notes or RunNotes()
        # The process substitutions whose ends this shell holds open (procsub.ProcSub),
        # replaced, never changed in place. An attribute of each shell, not read from the
        # class: exec_call reads it twice per command (from the class: ~600 instructions
        # more per command, callgrind; Python 3.11).
        self.psubs: tuple[Any, ...] = ()
        # A pipeline stage's simple command whose words are not expanded yet (see
        # run_pipeline). Also read by exec_call for every command: an attribute of
        # each shell for the same reason as psubs.
        self.stage_words = False

    @property
    def expander(self) -> Expander:
        # Created on first use: run_argv() of a builtin expands nothing, and a hook made
        # of one plain command should not pay for importing the expansion machinery.
        ex = self._expander
        if ex is None:
            mod = _expand or _load_expand()
            ex = self._expander = mod.Expander(self.state, mod.FS, self.command_substitution)
            ex.source = self.src
            ex.warn = self.error
            ex.proc_subst = self.process_substitution
            ex.current_line = self.current_line
            ex.current_command = self.current_command
        return ex

    def current_command(self) -> str:
        """``BASH_COMMAND``: the command being run, or in a trap the one it came at."""
        from hookrun.dispatch.shell.funcprint import command_text  # rare: loaded here

        if self.header_text is not None:
            return self.header_text
        src, stmt = self.trap_context or (self.src, self.stmt)
        return command_text(src, stmt)

    def run_trap(self, action: str, io: IO) -> None:
        """Run a DEBUG or RETURN trap's text: ``$?`` is kept (its status is not)."""
        status = self.state.status
        saved = self.trap_context
        if saved is None:
            self.trap_context = (self.src, self.stmt)
        try:
            self.run_source(action, io)
        finally:
            self.trap_context = saved
            self.state.status = status

    def debug_trap(self, s: Stmt, io: IO) -> None:
        """bash's DEBUG trap, before a simple command, ``[[ ]]`` or ``(( ))`` (not inside
        functions unless ``set -T``: call_function hides it there)."""
        action = self.traps.get("DEBUG")
        if not action or self.in_debug_trap:
            return
        self.in_debug_trap = True
        self.stmt = s
        # ($LINENO in the trap: the line of the command it runs before, as bash's)
        saved_line, self.trap_line = self.trap_line, self.current_line()
        try:
            self.run_trap(action, io)
        finally:
            self.in_debug_trap = False
            self.stmt = s
            self.trap_line = saved_line

    def debug_header(self, s: Stmt | None, text: str, io: IO) -> None:
        """bash's DEBUG trap before a ``for`` loop's header (each round), a ``case`` word
        or a ``for ((…))`` expression, ``BASH_COMMAND`` being ``text``."""
        if s is None or self.in_debug_trap:
            return
        self.header_text = text
        try:
            self.debug_trap(s, io)
        finally:
            self.header_text = None

    def source_text(self, w: Word) -> str:
        """A word as written (what bash prints of a header)."""
        return self.src[w.pos : w.end].decode("utf-8", "surrogateescape")

    def subscript_value(self, base: str, key: str) -> str:
        """A subscript of ``base`` written as text (a nameref's ``a[$(f) + 1]``): for an
        associative array expanded as ``"key"`` is, else as ``$(( key ))``."""
        arr = self.state.arrays.get(base)
        text = f'"{key}"' if arr is not None and arr.assoc else f"$(({key}))"
        script = self.parse_or_report(f"_={text}", self.io)
        if isinstance(script, int):
            raise ShellError(f"{key}: bad array subscript", 1)
        call = script.stmts[0].cmd
        assert isinstance(call, N.CallExpr) and call.assigns[0].value is not None
        return self.expander.string(call.assigns[0].value)

    def current_line(self) -> int | None:
        """``LINENO``: the line of the statement being run (None: none is)."""
        if self.trap_line is not None:
            return self.trap_line
        if self.stmt is None:
            return None
        from hookrun.dispatch.shell.shellvars import command_line  # rare: loaded here

        return command_line(self.src, self.stmt)

    @property
    def exec_handler(self) -> ExecHandler:
        """The seam external programs run through (DefaultExec unless one was given)."""
        if self._exec_handler is None:
            from hookrun.dispatch.shell.handler import DefaultExec  # lazy: start-up

            self._exec_handler = DefaultExec(self.procs, self.guard, self.platform)
        return self._exec_handler

    def set_src(self, source: bytes) -> None:
        self.src = source
        if self._expander is not None:
            self._expander.source = source

    @property
    def exit_trap(self) -> str | None:
        return self.traps.get("EXIT")

    # -- construction of subshells ---------------------------------------------
    def subshell(self, io: IO | None = None) -> Interp:
        sub = Interp(
            self.state.copy(),
            io or self.io,
            self.procs,
            self.guard,
            self.platform,
            self.notes,
            self._exec_handler,
            ShellProcess(self.process, shell=False),
        )
        sub.src = self.src
        sub.stmt = self.stmt
        sub.function_depth = self.function_depth
        sub.loop_depth = self.loop_depth
        sub.background = self.background
        sub.next_fd = self.next_fd
        if self.psubs:  # their paths name descriptors a subshell inherits
            sub.psubs = self.psubs
        sub.inherited_traps = {**self.inherited_traps, **self.traps}
        # `jobs` in a subshell (`$(jobs -p)`, `jobs | wc -l`) lists its parent's, as bash.
        sub.parent_jobs = self.jobs or self.parent_jobs
        # Inside a condition (`if ( … )`) set -e stays off in the subshell too.
        sub.errexit_suppressed = self.errexit_suppressed
        # Traps other than EXIT are inherited by ( … ) in bash only with errtrace; EXIT
        # is not inherited (a subshell runs its own EXIT trap, if it sets one).
        return sub

    # -- output helpers --------------------------------------------------------
    def error(self, message: str, io: IO | None = None) -> None:
        """Print ``hookrun: message`` on stderr (never raises on a closed stream)."""
        with contextlib.suppress(OSError):
            (io or self.io).stderr.write(encode(f"hookrun: {message}\n"))

    def error_plain(self, message: str, io: IO | None = None) -> None:
        """Print ``message`` on stderr as is (getopts' messages carry $0 themselves)."""
        with contextlib.suppress(OSError):
            (io or self.io).stderr.write(encode(f"{message}\n"))

    # -- programs --------------------------------------------------------------
    def run_subshell(self, stmts: Sequence[Stmt], source: bytes, io: IO) -> int:
        """Run as a subshell: its EXIT trap runs, files from ``exec >f`` close at its end."""
        return self.run_top(stmts, source, io)

    def parse_or_report(self, source: str, io: IO, what: str = "") -> Script | int:
        from hookrun.shellsyntax import ShellSyntaxError, Unsupported, parse  # lazy: start-up

        try:
            return parse(source)
        except ShellSyntaxError as exc:
            self.error(f"{what}syntax error: {exc}", io)
            return 2
        except Unsupported as exc:
            self.notes.unsupported = exc.construct
            self.error(unsupported_message(str(exc)), io)
            return 2

    def run_source(self, source: str, io: IO) -> int:
        """Parse and run ``source`` in this shell (``eval``, ``.``, traps)."""
        script = self.parse_or_report(source, io)
        if isinstance(script, int):
            return script
        saved, saved_stmt = self.src, self.stmt
        self.set_src(script.source)
        try:
            return self.run_stmts(script.stmts, io)
        finally:
            self.set_src(saved)
            self.stmt = saved_stmt

    def command_substitution(self, stmts: tuple[Stmt, ...]) -> str:
        """``$(…)``/backquotes: run in a subshell and capture stdout (``$(<f)`` reads f)."""
        if len(stmts) == 1 and stmts[0].cmd is None and len(stmts[0].redirects) == 1:
            r = stmts[0].redirects[0]
            if r.op == "<" and r.fd in (None, 0):
                return self._read_file_subst(r)
        sink = CaptureSink(SUBSTITUTION_LIMIT)
        sub = self.subshell()
        if "inherit_errexit" not in self.state.options:
            sub.state.errexit = False  # bash outside POSIX mode: $( ) runs without set -e
        io = self.io.copy()
        io.stdout = sink
        try:
            status = sub.run_subshell(stmts, self.src, io)
        finally:
            remaining = self.guard.remaining()
            sink.finish(24 * 3600.0 if remaining is None else remaining)
        self.guard.check()
        self.subst_status = status
        return self._subst_text(sink.data)

    def _subst_text(self, data: bytes) -> str:
        """What a substitution's value holds: its bytes less NULs, as bash (which warns)
        — a value with a NUL could be neither an argument nor an exported variable."""
        if b"\0" in data:
            data = data.replace(b"\0", b"")
            self.error("warning: command substitution: ignored null byte in input")
        return decode(data)

    def process_substitution(self, p: ProcSubst) -> str:
        """``<(…)``/``>(…)``: start it and give the path the command sees (procsub)."""
        from hookrun.dispatch.shell import procsub  # lazy: few scripts have one

        return procsub.start(self, p)

    def _read_file_subst(self, r: Redirect) -> str:
        path = self.expander.string(r.target)
        full = path if os.path.isabs(path) else os.path.join(self.state.cwd, path)
        try:
            data = read_waiting(full, SUBSTITUTION_LIMIT, self.guard)
        except OSError as exc:
            self.error(f"{path}: {exc.strerror or exc}")
            self.subst_status = 1
            return ""
        self.subst_status = 0
        return self._subst_text(data)

    # -- statements ------------------------------------------------------------
    def run_stmts(self, stmts: Sequence[Stmt], io: IO) -> int:
        status = self.state.status
        for s in stmts:
            status = self.exec_stmt(s, io)
            if self.process.pending:
                self.take_signals(io)
        return status

    def take_signals(self, io: IO) -> None:
        """Act on the signals ``kill`` sent to this shell's process (see ShellProcess)."""
        if self.process.owner is not self.traps:
            return  # a `bash …` that took over this process is running: it takes them
        from hookrun.dispatch.shell.signals import take  # lazy: only after a kill

        take(self, io)

    def exec_stmt(self, s: Stmt, io: IO) -> int:
        self.guard.check()
        self.stmt = s
        if "noexec" in self.state.options:
            return 0  # `set -n`: read, not run (and `set +n` is never run either)
        if self.background and self.notes.ended:
            # A background job run by a thread outlives nothing: once the script is over
            # it stops here (its children are ended by the caller's process tracker).
            raise ExitShell(143)
        if s.background:
            # bash leaves a background pipeline's `!` out: `! false &` ends with 1 for
            # `wait $!` (the negation only ever reaches a status that is waited for inline).
            self.start_background(s._replace(background=False, negated=False), io)
            self.state.status = 0
            return 0
        if self.traps and "DEBUG" in self.traps and _is_traced(s.cmd):
            self.debug_trap(s, io)
        if s.negated:
            # bash ignores `set -e` (and ERR) inside `! cmd` only when -e is already on:
            # with it off, a `set -e` run inside (in a function) takes effect there.
            ignore = 1 if self.state.errexit else 0
            self.errexit_suppressed += ignore
            try:
                status = self.exec_redirected(s, io)
            finally:
                self.errexit_suppressed -= ignore
            self.set_pipestatus(s.cmd, status)
            status = 0 if status else 1
            self.state.status = status
            return status
        cmd = s.cmd
        compound = _COMPOUND or _load_kinds()
        if isinstance(cmd, _CALL):  # (exec_redirected's first case, one call fewer)
            status = self.exec_call(cmd, s.redirects, io)
            st = self.state
            st.status = status
            # A simple command (nearly every statement): pipestatus_of_one written out.
            old = st.arrays.get("PIPESTATUS")
            text = str(status)
            if (
                old is None
                or old.assoc
                or old.bare
                or len(old.items) != 1
                or old.items.get(0) != text
            ):
                st.arrays["PIPESTATUS"] = Array(False, {0: text})
            if status != 0:
                self.after_failure(status)
            return status
        status = self.exec_redirected(s, io)
        self.state.status = status
        # `set -e`/ERR act on a failed simple command, pipeline or subshell. A compound
        # command's status is that of a command inside it, which has had its turn (and
        # was exempt if it was the left side of && or ||).
        if not isinstance(cmd, compound):
            if not isinstance(cmd, _PIPELINE):
                self.pipestatus_of_one(status)
            if status != 0:
                self.after_failure(status)
        return status

    def set_pipestatus(self, cmd: Command | None, status: int) -> None:
        """A command that is a pipeline of one sets ``PIPESTATUS`` to its status (bash);
        a pipeline sets its own, a compound command leaves its last pipeline's."""
        if not isinstance(cmd, _PIPELINE or N.Pipeline) and not _is_compound(cmd):
            self.pipestatus_of_one(status)

    def pipestatus_of_one(self, status: int) -> None:
        # (exec_stmt has this written out for a simple command: change both together)
        arrays = self.state.arrays
        old = arrays.get("PIPESTATUS")
        # Most commands leave it as it was (a status of 0 after a 0): kept then.
        text = str(status)
        if old is None or old.assoc or old.bare or len(old.items) != 1 or old.items.get(0) != text:
            arrays["PIPESTATUS"] = Array(False, {0: text})

    def after_failure(self, status: int) -> None:
        """ERR trap and ``set -e``, where they apply (not in conditions, not after ``!``)."""
        if self.errexit_suppressed:
            return
        trap = self.traps.get("ERR")
        # Functions do not inherit the ERR trap (bash without `set -E`): a failing
        # command inside one fires it once, as the call's own status.
        errtrace = self.function_depth == 0 or "errtrace" in self.state.options
        if trap and not self.in_trap and errtrace:
            self.in_trap = True
            self.trap_line = self.current_line()
            saved, self.trap_context = self.trap_context, self.trap_context or (self.src, self.stmt)
            try:
                self.run_source(trap, self.io)
            finally:
                self.in_trap = False
                self.trap_line = None
                self.trap_context = saved
            self.state.status = status
        if self.state.errexit:
            raise ExitShell(status)

    def exec_redirected(self, s: Stmt, io: IO) -> int:
        cmd = s.cmd
        if isinstance(cmd, _CALL or N.CallExpr):
            return self.exec_call(cmd, s.redirects, io)
        if not s.redirects:
            return self.exec_command(cmd, io) if cmd is not None else 0
        owned: list[Closable] = []
        psubs = self.psubs  # `done < <(cmd)`: open while the loop runs
        try:
            try:
                io = self.redirect(s.redirects, io, owned)
            except ShellError as exc:
                self.error(exc.message, io)
                if _is_compound(cmd):
                    # The group's own redirection failed: no command inside had a turn.
                    self.state.status = exc.status
                    self.after_failure(exc.status)
                return exc.status
            if cmd is None:
                return 0
            # Command substitutions inside (`for x in $(…)`) see the group's redirections.
            saved, self.io = self.io, io
            try:
                return self.exec_command(cmd, io)
            finally:
                self.io = saved
        finally:
            _close_all(owned)
            if self.psubs is not psubs:
                _end_psubs(self, psubs)

    def conditional(self, stmts: Sequence[Stmt], io: IO) -> int:
        """Run a condition (if/while test): ``set -e`` and ERR do not apply inside it."""
        self.errexit_suppressed += 1
        try:
            return self.run_stmts(stmts, io)
        finally:
            self.errexit_suppressed -= 1

    def exec_command(self, cmd: Command, io: IO) -> int:
        if isinstance(cmd, N.BinaryCmd):
            return self.exec_and_or(cmd, io)
        if isinstance(cmd, N.Pipeline):
            return self.exec_pipeline(cmd, io)
        if isinstance(cmd, N.Block):
            return self.run_stmts(cmd.stmts, io)
        if isinstance(cmd, N.Subshell):
            io = io.copy()  # `exec >f` inside ( … ) must not leak out
            sub = self.subshell(io)
            # bash: `( continue )` in a loop is outside any loop (an error, and the
            # subshell goes on); `$(break)` and a simple pipeline stage keep the loop.
            sub.loop_depth = 0
            return sub.run_subshell(cmd.stmts, self.src, io)
        if isinstance(cmd, N.IfClause):
            return self.exec_if(cmd, io)
        if isinstance(cmd, N.WhileClause):
            return self.exec_while(cmd, io)
        if isinstance(cmd, N.ForClause):
            return self.exec_for(cmd, io)
        if isinstance(cmd, N.CForClause):
            return self.exec_cfor(cmd, io)
        if isinstance(cmd, N.CaseClause):
            return self.exec_case(cmd, io)
        if isinstance(cmd, N.FuncDecl):
            self.state.functions[cmd.name] = Function(cmd.body, self.src, self.state.current_file())
            return 0
        if isinstance(cmd, N.ArithCmd):
            return self.arith_command(lambda: self.expander.arith(cmd.expr), io)
        if isinstance(cmd, N.TestClause):
            return self.exec_test(cmd, io)
        return self.exec_call(cmd, (), io)

    def arith_command(self, fn: Callable[[], int], io: IO, what: str = "((") -> int:
        """``(( ))``-like: 0 if ``fn`` gives non-zero; an arithmetic error is status 1
        (not the discarded line an error in ``$(( ))`` is)."""
        try:
            return 0 if fn() else 1
        except ExpansionFailure as exc:
            self.error(f"{what}: {exc.message}", io)
            return 1
        except ShellError as exc:
            return self.guarded(_raiser(exc), io)

    def guarded(self, fn: Callable[[], int], io: IO) -> int:
        """Run ``fn``; a ShellError becomes its message and status (fatal ones end)."""
        try:
            return fn()
        except ShellError as exc:
            self.error(exc.message, io)
            if isinstance(exc, (ReadonlyVariable, ExpansionFailure)):
                raise DiscardLine(exc.status) from None
            if exc.fatal:
                raise ExitShell(exc.status) from None
            return exc.status

    def exec_and_or(self, cmd: BinaryCmd, io: IO) -> int:
        self.errexit_suppressed += 1
        try:
            status = self.exec_stmt(cmd.left, io)
        finally:
            self.errexit_suppressed -= 1
        if self.process.pending:
            self.take_signals(io)
        if (cmd.op == "&&") != (status == 0):
            return status
        return self.exec_stmt(cmd.right, io)

    # -- compound commands -----------------------------------------------------
    def exec_if(self, cmd: IfClause, io: IO) -> int:
        for cond, body in cmd.branches:
            if self.conditional(cond, io) == 0:
                return self.run_stmts(body, io)
        if cmd.else_ is not None:
            return self.run_stmts(cmd.else_, io)
        return 0

    def loop_body(self, body: Sequence[Stmt], io: IO) -> tuple[int, str]:
        """Run one iteration: (status, "" | "break" | "continue")."""
        self.loop_depth += 1
        try:
            return self.run_stmts(body, io), ""
        except LoopControl as ctl:
            if ctl.levels > 1:
                ctl.levels -= 1
                raise
            return ctl.status, ctl.kind
        finally:
            self.loop_depth -= 1

    def exec_while(self, cmd: WhileClause, io: IO) -> int:
        status = 0
        while True:
            self.guard.check()
            self.loop_depth += 1
            try:
                ok = self.conditional(cmd.cond, io) == 0
            except LoopControl as jump:
                jump.status = 0  # left from its condition, a loop ends with 0 (bash)
                if jump.levels > 1:
                    jump.levels -= 1
                    raise
                if jump.kind == "break":
                    return 0
                continue
            finally:
                self.loop_depth -= 1
            if ok == cmd.until:
                return status
            status, ctl = self.loop_body(cmd.body, io)
            if ctl == "break":
                return status

    def exec_for(self, cmd: ForClause, io: IO) -> int:
        if not cmd.name.isidentifier() or not cmd.name.isascii():
            # bash refuses a bad loop name when it runs the loop, not when it parses it.
            self.error(f"`{cmd.name}': not a valid identifier", io)
            return 1
        if cmd.words is None:
            values = list(self.state.params)
        else:
            try:
                values = (self._expander or self.expander).fields(cmd.words)
            except ShellError as exc:
                return self.guarded(_raiser(exc), io)
        status = 0
        st = self.state
        if st.attrs and "n" in st.attrs.get(cmd.name, ""):
            return self.ref_loop(cmd, values, io)
        head: str | None = None
        if self.traps and "DEBUG" in self.traps:
            words = cmd.words
            shown = '"$@"' if words is None else " ".join(self.source_text(w) for w in words)
            head = f"for {cmd.name} in {shown}"
        stmt = self.stmt
        for value in values:
            self.guard.check()
            if head is not None:
                self.debug_header(stmt, head, io)
            try:
                st.set_var(cmd.name, value)
            except ShellError as exc:
                # A readonly loop variable ends the loop, not the line (as bash).
                self.error(exc.message, io)
                return exc.status
            status, ctl = self.loop_body(cmd.body, io)
            if ctl == "break":
                break
        return status

    def ref_loop(self, cmd: ForClause, values: list[str], io: IO) -> int:
        """``for r in a b`` where ``r`` is a nameref: it names each word in turn."""
        from hookrun.dispatch.shell.namerefs import make_ref

        status = 0
        for value in values:
            self.guard.check()
            self.state.refs.pop(cmd.name, None)
            error = make_ref(self.state, cmd.name, value)
            if error is not None:
                self.error(error, io)
                return 1
            status, ctl = self.loop_body(cmd.body, io)
            if ctl == "break":
                break
        return status

    def exec_cfor(self, cmd: CForClause, io: IO) -> int:
        ex = self.expander

        def arith(w: Word | None) -> int:
            return 1 if w is None else ex.arith(w)

        status = 0
        stmt = self.stmt
        traced = bool(self.traps and "DEBUG" in self.traps)

        def trap(w: Word | None) -> None:  # (bash shows an empty expression as 1)
            text = self.source_text(w).lstrip(" \t\n") if w is not None else ""
            self.debug_header(stmt, f"(({text or '1'}))", io)

        try:
            if traced:
                trap(cmd.init)
            if cmd.init is not None:
                ex.arith(cmd.init)
            while True:
                self.guard.check()
                if traced:
                    trap(cmd.cond)
                if not arith(cmd.cond):
                    break
                status, ctl = self.loop_body(cmd.body, io)
                if ctl == "break":
                    break
                if traced and cmd.post is not None:
                    trap(cmd.post)
                if cmd.post is not None:
                    ex.arith(cmd.post)
        except ExpansionFailure as exc:
            self.error(f"((: {exc.message}", io)
            return 1
        except ShellError as exc:
            return self.guarded(_raiser(exc), io)
        return status

    def exec_case(self, cmd: CaseClause, io: IO) -> int:
        ex = self._expander or self.expander
        if self.traps and "DEBUG" in self.traps:
            self.debug_header(self.stmt, f"case {self.source_text(cmd.word)} in ", io)
        try:
            value = ex.string(cmd.word)
        except ShellError as exc:
            return self.guarded(_raiser(exc), io)
        status = 0
        fall = False
        nocase = "nocasematch" in self.state.options
        for item in cmd.items:
            if not fall:
                hit = False
                try:
                    for p in item.patterns:  # (a loop, not any() over a generator)
                        if _match(value, ex.case_pattern(p), nocase):
                            hit = True
                            break
                except ShellError as exc:
                    return self.guarded(_raiser(exc), io)
                if not hit:
                    continue
            status = self.run_stmts(item.body, io) if item.body else 0
            if item.term == ";;":
                return status
            fall = item.term == ";&"
        return status

    # -- [[ ]] -----------------------------------------------------------------
    def exec_test(self, cmd: TestClause, io: IO) -> int:
        ConditionError = (_testexpr or _load_testexpr()).ConditionError  # noqa: N806

        try:
            return 0 if self.test(cmd.expr) else 1
        except _BadRegex:
            return 2
        except ConditionError as exc:
            self.error(f"[[: {exc}", io)
            return 2
        except ExpansionFailure as exc:
            self.error(f"[[: {exc.message}", io)
            return 1
        except ShellError as exc:
            return self.guarded(_raiser(exc), io)

    def test(self, e: TestExpr) -> bool:
        tx = _testexpr or _load_testexpr()
        ex = self._expander or self.expander
        if isinstance(e, N.Word):
            return ex.string(e) != ""
        if isinstance(e, N.TestParen):
            return self.test(e.expr)
        if isinstance(e, N.TestUnary):
            if e.op == "!":
                try:
                    return not self.test(e.operand)
                except _BadRegex:
                    return True  # bash: `! 2` is 0
            operand = ex.string(e.operand) if isinstance(e.operand, N.Word) else ""
            if e.op in tx.SHELL_UNARY:
                return self.is_set(e.op, operand)
            if not tx.is_unary(e.op):
                raise tx.ConditionError(f"unexpected operator {e.op}")
            return bool(tx.unary(e.op, operand, self.state.cwd, self.io.test_fd))
        if e.op == "&&":
            return self.test(e.left) and self.test(e.right)
        if e.op == "||":
            try:
                if self.test(e.left):
                    return True
            except _BadRegex:
                pass  # bash reads the 2 as false and goes on
            return self.test(e.right)
        left = ex.string(e.left) if isinstance(e.left, N.Word) else str(self.test(e.left))
        if not isinstance(e.right, N.Word):
            raise tx.ConditionError(f"unexpected expression after {e.op}")
        if e.op in ("==", "=", "!="):
            hit = _match(left, ex.pattern(e.right), "nocasematch" in self.state.options)
            return hit if e.op != "!=" else not hit
        if e.op == "=~":
            return self.regex_match(left, e.right)
        right = ex.string(e.right)
        if e.op in ("<", ">"):
            return left < right if e.op == "<" else left > right
        if e.op in ("-eq", "-ne", "-lt", "-le", "-gt", "-ge"):
            a, b = ex.arith_text(left or "0"), ex.arith_text(right or "0")
            return bool(tx.binary(e.op, str(a), str(b), self.state.cwd))
        return bool(tx.binary(e.op, left, right, self.state.cwd))

    def regex_match(self, value: str, pattern: Word) -> bool:
        ere = _ere or _load_ere()
        try:
            text = ere.bash_text(self.expander.pieces(pattern.parts))
            groups = ere.search(text, value, "nocasematch" in self.state.options)
        except ere.RegexInvalid:
            raise _BadRegex from None  # BASH_REMATCH stays as it was, as in bash
        self.state.vars.pop("BASH_REMATCH", None)
        # no match: an empty array (bash's `declare -a BASH_REMATCH=()`)
        self.state.arrays["BASH_REMATCH"] = Array(False, dict(enumerate(groups or ())))
        return groups is not None

    def is_set(self, op: str, name: str) -> bool:
        """``-v NAME``: the variable (or element) is set; ``-R NAME``: a nameref with a
        value; ``-o NAME``: the `set -o` option is on."""
        if op == "-R":
            return name in self.state.refs
        if op == "-o":
            from hookrun.dispatch.shell.options import SET_LONG, state_is_on  # rare

            return name in SET_LONG and state_is_on(self.state, name)
        m = _ELEMENT_NAME.fullmatch(name)
        if m is not None:
            try:
                return self.expander.element(m.group(1), m.group(2)) is not None
            except ShellError:
                return False
        if name.isdigit():
            return 0 < int(name) <= len(self.state.params)
        return self.state.get_var(name) is not None

    # -- pipelines -------------------------------------------------------------
    def exec_pipeline(self, cmd: Pipeline, io: IO) -> int:
        if len(cmd.stages) == 1:
            return self.exec_stmt(cmd.stages[0], io)
        status = self.run_pipeline(cmd, io)
        if self.jobs:  # (bash waited for the stages: children)
            self.forget_done_jobs()
        return status

    def run_pipeline(self, cmd: Pipeline, io: IO) -> int:
        stages = cmd.stages
        n = len(stages)
        results = [_Stage() for _ in stages]
        threads: list[threading.Thread] = []
        started = 0
        # Stage threads may start children at the same moment; the first fileno() of a
        # shared sink creates its pipe, which must not happen in two threads at once.
        _open_shared(io.stderr)
        try:
            # Every pipe end belongs to exactly one stage, which closes it when it ends
            # (so EOF and EPIPE reach the neighbours as soon as a stage is done).
            ends: list[tuple[FdSource, FdSink]] = []
            for k in range(n - 1):
                r, w = os.pipe()
                ends.append((FdSource(r), FdSink(w)))
                results[k].owned.append(ends[k][1])
                results[k + 1].owned.append(ends[k][0])
            for k, node in enumerate(stages):
                stage_io = io.copy()
                if k > 0:
                    stage_io.stdin = ends[k - 1][0]
                if k < n - 1:
                    stage_io.stdout = ends[k][1]
                    if cmd.stderr[k]:
                        stage_io.stderr = ends[k][1]
                if k == n - 1 and "lastpipe" in self.state.options:
                    # `shopt -s lastpipe`: the last stage runs in this shell (its
                    # assignments stay, its `exit`/`break` act here).
                    started += 1
                    try:
                        results[k].status = self.exec_stmt(node, stage_io)
                    finally:
                        _close_all(results[k].owned)
                    continue
                if self.traps and "DEBUG" in self.traps and _is_traced(node.cmd):
                    # bash runs it in the stage's process, before its command: here
                    # before the stage starts, on the stage's streams.
                    self.debug_trap(node, stage_io)
                sub = self.subshell(stage_io)
                if isinstance(node.cmd, (_CALL, N.Subshell)):
                    # bash forks a simple command's stage before expanding its words but
                    # counts the subshell only once they are expanded: `echo
                    # $BASH_SUBSHELL | cat` prints 0, a function or `eval` run as a stage
                    # sees 1 (exec_call counts it then); a `( … )` stage is that one subshell.
                    sub.state.subshell -= 1
                    sub.stage_words = isinstance(node.cmd, _CALL)
                if k == n - 1:
                    started += 1
                    _run_stage(sub, (node,), stage_io, results[k])
                else:
                    t = threading.Thread(
                        target=_run_stage,
                        args=(sub, (node,), stage_io, results[k]),
                        name="hookrun-pipeline-stage",
                        daemon=True,
                    )
                    t.start()
                    started += 1
                    threads.append(t)
            for t in threads:
                while t.is_alive():
                    t.join(0.05)
                    self.guard.check()
        finally:
            for res in results[started:]:
                _close_all(res.owned)
        for res in results:
            if isinstance(res.error, (Interrupted, AbortScript)):
                raise res.error
        statuses = [res.status for res in results]
        self.state.arrays["PIPESTATUS"] = Array(False, {k: str(s) for k, s in enumerate(statuses)})
        if self.state.pipefail:
            return next((s for s in reversed(statuses) if s != 0), 0)
        return statuses[-1]

    # -- background jobs -------------------------------------------------------
    def start_background(self, s: Stmt, io: IO) -> None:
        """``cmd &``: start it and go on. Leftover jobs are ended by the caller's tracker."""
        devnull = FdSource(os.open(os.devnull, os.O_RDONLY))
        bg_io = io.copy()
        bg_io.stdin = devnull
        result = _Stage(owned=[devnull])
        if self.exec_owned:
            _own_copies(bg_io, result.owned)
        _open_shared(io.stdout)  # the job and this shell may both start children now
        _open_shared(io.stderr)
        sub = self.subshell(bg_io)
        sub.background = True
        job = _Job()
        job.number = max((j.number for j in self.jobs), default=0) + 1
        job.process = sub.process
        job.command = (self.src, s)
        sub.process.ignored = sub.process.ignored | {"INT", "QUIT"}
        sub.exec_process = isinstance(s.cmd, N.CallExpr)
        spawned = threading.Event()
        program = self._starts_a_program(s)
        sub.spawned = spawned
        if program:
            # `$!` is the program's own pid (kill $! signals it); for anything else it
            # names the job's subshell, which the kill builtin signals in-process.
            sub.spawn_hook = lambda proc: _set_pid(job, proc)

        def run() -> None:
            try:
                _run_stage(sub, (s,), bg_io, result)
                job.status = result.status
                if isinstance(result.error, StatusUnknowable):
                    job.error = result.error
            finally:
                spawned.set()

        t = threading.Thread(target=run, name="hookrun-background", daemon=True)
        job.thread = t
        t.start()
        # `$!` should be the child's pid in the common `cmd &` case: wait until the
        # job has spawned its first child (or finished without one).
        if program:
            spawned.wait(5.0)
        if not job.pid:
            # No program: the thread's ident stands for a pid. A finished thread's ident
            # is given to the next one, so one a job of the table (or a finished one's
            # status, forget_done_jobs) still holds is stepped past.
            pid = t.ident or 0
            while pid in self.done_statuses or any(j.pid == pid for j in self.jobs):
                pid += 1
            job.pid = pid
        self.jobs = [*self.jobs, job]  # (a new list: the class's is shared)
        self.state.last_bg_pid = job.pid

    def _starts_a_program(self, s: Stmt) -> bool:
        """Whether a background command will spawn a child (not a builtin or function)."""
        cmd = s.cmd
        if not isinstance(cmd, N.CallExpr) or not cmd.args:
            return False
        first = cmd.args[0]
        if isinstance(first, N.Assign) or len(first.parts) != 1:
            return False
        part = first.parts[0]
        name = part.text if isinstance(part, N.Lit) else ""
        return (
            bool(name)
            and (name not in BUILTINS or name in self.state.disabled)
            and name not in self.state.functions
            # a `bash …` the stand-in runs is an in-process shell, not a program
            and not self._standin(name, self.state.environ())
        )

    def forget_done_jobs(self, shown: Sequence[_Job] | None = None) -> None:
        """bash, not interactive: a finished background job leaves the job table once
        the shell has waited for a foreground child, or ``jobs`` has shown it (``shown``)
        — ``%N`` no longer names it; ``wait PID`` still reads its status."""
        done = [
            j
            for j in self.jobs
            if j.thread is not None
            and not j.thread.is_alive()
            and j.error is None
            and (shown is None or j in shown)
        ]
        if done:
            self.done_statuses = {**self.done_statuses, **{j.pid: j.status for j in done}}
            self.jobs = [j for j in self.jobs if j not in done]

    def job_by_spec(self, spec: str) -> _Job | None:
        """The job ``%N``, ``%%``/``%+`` (the latest) or ``%-`` (the one before) names."""
        key = spec[1:]
        if key in ("", "%", "+"):
            return self.jobs[-1] if self.jobs else None
        if key == "-":  # with one job, that one (bash)
            return self.jobs[-2] if len(self.jobs) > 1 else (self.jobs[-1] if self.jobs else None)
        return next((j for j in self.jobs if key.isdigit() and j.number == int(key)), None)

    def wait_jobs(self, pids: Sequence[int] | None = None) -> int:
        """``wait [PID…]``: the status of the last job waited for (127 for unknown PIDs);
        with no PID, every job is waited for and the status is 0, as in bash."""
        status = 0
        for pid in pids or [j.pid for j in self.jobs]:
            job = next((j for j in self.jobs if j.pid == pid), None)
            jobs = self.jobs
            if job is None and self.psub_jobs:  # `wait $!` after a <(…) or >(…)
                job = next((j for j in self.psub_jobs if j.pid == pid), None)
                jobs = self.psub_jobs
            if job is None:
                status = self.done_statuses.get(pid, 127)
                continue
            assert job.thread is not None
            while job.thread.is_alive():
                job.thread.join(0.05)
                self.guard.check()
                if self.process.pending and self.process.owner is self.traps:
                    # bash: a trapped signal ends `wait` with 128+N, then its trap runs.
                    from hookrun.dispatch.shell.signals import interrupts_wait

                    code = interrupts_wait(self, io=self.io)
                    if code:
                        return code
            status = job.status
            jobs.remove(job)
            if jobs is self.jobs:  # (bash keeps it: a second `wait PID` reads it again)
                self.done_statuses = {**self.done_statuses, job.pid: status}
            if job.error is not None:
                raise job.error
        return status if pids else 0

    # -- simple commands -------------------------------------------------------
    def exec_call(self, cmd: CallExpr, redirects: Sequence[Redirect], io: IO) -> int:
        owned: list[Closable] | None = None  # made with the first redirection (most have none)
        saved_io = self.io
        psubs = self.psubs  # those started by this command's words end with it
        self.io = io
        # bash traces a command before applying its own redirections: `cmd 2>f` traces
        # to the stderr the command line had.
        trace_io = io
        try:
            self.subst_status = None
            argv = self.expand_args(cmd.args)
            if self.stage_words:  # a pipeline stage's words are expanded: now it counts
                self.stage_words = False
                self.state.subshell += 1
            if redirects and argv == ["exec"]:
                # `exec >file`: the redirections stay for the rest of this (sub)shell.
                if not self.exec_owned:  # (the class's empty list is shared)
                    self.exec_owned = []
                new = self.redirect(redirects, io, self.exec_owned)
                if self.psubs is not psubs:
                    # `exec 3< <(cmd)`: the end stays open with the descriptor it went to
                    # (this shell's now); its /dev/fd/N path closes with the command, as
                    # bash closes 63 once it moved it.
                    _keep_exec_psubs(self, new, psubs)
                io.assign(new)
                _close_dropped(self, io)
                return 0
            if redirects and argv:
                owned = []
                io = self.redirect(redirects, io, owned)
                self.io = io
            if not argv:
                # Without a command bash assigns first and then opens the redirections:
                # `x=$(cmd) 2>/dev/null` does not silence cmd, and x is set even when
                # the redirection fails.
                for a in cmd.assigns:
                    try:
                        self.assign(a)
                    except (ReadonlyVariable, NotAssigned) as exc:
                        self.error(exc.message, io)
                        raise DiscardLine(exc.status) from None
                    except ExpansionFailure:
                        raise
                    except ShellError as exc:
                        # A failed assignment ends a non-interactive shell (bash, POSIX).
                        raise ShellError(exc.message, exc.status, fatal=True) from None
                    if "xtrace" in self.state.options:
                        self.xtrace([self.trace_assign(a)], trace_io)
                if redirects:
                    owned = []
                    io = self.redirect(redirects, io, owned)
                status = self.subst_status or 0
                self.state.vars["_"] = ""  # `$_` after a line of assignments only (bash)
                return status
            # `$_`: the last word of the command before, set once this one has run (inside
            # a function `$_` is still the caller's last word; after it, the call's).
            last = argv[-1]
            if not cmd.assigns:  # (the usual command: no `VAR=x` before it)
                if "xtrace" in self.state.options:
                    self.xtrace(argv, trace_io)
                status = self.run_argv(argv, io)
                self.state.vars["_"] = last
                return status
            values = self.prefix_values(cmd.assigns)
            if "xtrace" in self.state.options:  # (the trace line is not built otherwise)
                self.xtrace([*(f"{k}={v}" for k, v in values), *argv], trace_io)
            status = self.run_argv(argv, io, dict(values) if values else None)
            self.state.vars["_"] = last
            return status
        except ShellError as exc:
            self.error(exc.message, io)
            if isinstance(exc, ExpansionFailure):
                raise DiscardLine(exc.status) from None
            if exc.fatal:
                raise ExitShell(exc.status) from None
            return exc.status
        finally:
            self.io = saved_io
            if owned:
                _close_all(owned)
            if self.psubs is not psubs:
                _end_psubs(self, psubs)

    def prefix_values(self, assigns: Sequence[Assign]) -> list[tuple[str, str]]:
        """``A=1 B=$A cmd``: each value is expanded with the ones before it in force."""
        values: list[tuple[str, str]] = []
        refs = self.state.refs
        for a in assigns:
            if a.array is not None:
                continue
            name = a.name
            if refs and name in refs:  # `r=1 cmd` through a nameref: what it names
                from hookrun.dispatch.shell.namerefs import deref

                target = deref(self.state, name)
                if target is not None and target[-1:] != "]":
                    name = target
            if values:
                with _TemporaryVars(self.state, dict(values), export=False):
                    values.append((name, self.assign_value(a)))
            else:
                values.append((name, self.assign_value(a)))
        return values

    def xtrace(self, words: Sequence[str], io: IO) -> None:
        if "xtrace" not in self.state.options or not words:
            return
        ps4 = self.state.get_var("PS4")
        prefix = "+ " if ps4 is None else ps4
        with contextlib.suppress(OSError):
            io.stderr.write(encode(prefix + " ".join(_trace_quote(w) for w in words) + "\n"))

    def trace_assign(self, a: Assign) -> str:
        value = self.state.get_var(a.name) or ""
        return f"{a.name}={value}"

    def expand_args(self, args: Sequence[Word | Assign]) -> list[str]:
        if not args:
            return []
        # Words that are all plain literals (`true`, `echo ok`) have the same fields on
        # every run: found once per parsed command, no expander needed for them.
        known = _plain_argv.get(id(args))
        if known is None or known[0] is not args:
            known = _remember_plain(args)
        if known[1] is not None:
            argv = list(known[1])
            return self.expand_alias(argv) if self.state.aliases else argv
        ex = self._expander or self.expander
        if known[2] is not None:  # no Assign: some words plain, the others expanded
            argv = ex.fields(args, known[2])  # type: ignore[arg-type]  # (all Words)
            return self.expand_alias(argv) if self.state.aliases else argv
        assign = _ASSIGN or N.Assign
        for a in args:  # (a loop, not any() over a generator: every command comes here)
            if isinstance(a, assign):
                break
        else:
            argv = ex.fields(args)  # type: ignore[arg-type]  # (no Assign: all Words)
            return self.expand_alias(argv) if self.state.aliases else argv
        out: list[str] = []
        for a in args:
            if isinstance(a, N.Assign):
                out.append(self.declaration_word(a, out))
            else:
                out.extend(ex.fields([a]))
        return out

    def expand_alias(self, argv: list[str]) -> list[str]:
        aliases = self.state.aliases
        if not aliases or not argv or "expand_aliases" not in self.state.options:
            return argv
        seen: set[str] = set()
        while argv and argv[0] in aliases and argv[0] not in seen:
            seen.add(argv[0])
            script = self.parse_or_report(aliases[argv[0]], self.io)
            if isinstance(script, int) or len(script.stmts) != 1:
                break
            call = script.stmts[0].cmd
            if not isinstance(call, N.CallExpr):
                break
            argv = self.expander.fields([a for a in call.args if isinstance(a, N.Word)]) + argv[1:]
        return argv

    def declaration_word(self, a: Assign, before: list[str]) -> str:
        """``export A=$x`` etc.: an assignment argument, expanded without splitting.

        Arrays (``declare -A x=([k]=v)``) are assigned here directly, after the flags
        and ``local`` written before them took effect; the builtin sees only the name.
        """
        if a.array is not None:
            st = self.state
            flags = "".join(w[1:] for w in before[1:] if w.startswith("-"))
            local = bool(before) and (
                before[0] == "local"
                or (
                    before[0] in ("declare", "typeset") and self.function_depth and "g" not in flags
                )
            )
            if local:
                st.make_local(a.name)
                st.vars.pop(a.name, None)
                st.arrays.pop(a.name, None)
            if "A" in flags and (a.name not in st.arrays or not st.arrays[a.name].assoc):
                st.set_array(a.name, Array(True))
            self.assign(a)
            return a.name
        if a.value is None:
            return a.name
        key = f"[{self.expander.string(a.key)}]" if a.key is not None else ""
        op = "+=" if a.append else "="
        return f"{a.name}{key}{op}{self.expander.string(a.value, assignment=True)}"

    def assign_value(self, a: Assign) -> str:
        if a.value is None:
            value = ""
        else:  # (the property only when there is no expander yet)
            value = (self._expander or self.expander).string(a.value, assignment=True)
        if a.append:
            value = self.state.appended(a.name, self.state.get_var(a.name), value)
        return value

    def assign(self, a: Assign) -> None:
        """One assignment (``x=1``, ``x+=1``, ``a[k]=v``, ``a=(…)``, ``a+=(…)``)."""
        st = self.state
        if a.array is None and a.key is None:  # `x=value`, `x+=value`: nearly all
            # (`+=` concatenates: the integer attribute is not tracked, as bash without -i)
            st.set_var(a.name, self.assign_value(a))
            return
        ex = self.expander
        name = a.name
        if st.refs and name in st.refs:  # through a nameref (namerefs.py)
            from hookrun.dispatch.shell.namerefs import resolve

            name = resolve(st, name)
            if a.array is not None and name.endswith("]"):
                raise NotAssigned(f"`{name}': not a valid identifier", 1)
        if a.array is not None:
            existing = st.arrays.get(name)
            assoc = existing.assoc if existing is not None else False
            arr = existing.copy() if (a.append and existing is not None) else Array(assoc)
            if a.append and existing is None and name in st.vars:
                arr.items[0] = st.vars[name]
            for elem in a.array:
                if elem.key is not None:
                    k = ex.string(elem.key)
                    v = ex.string(elem.value, assignment=True)
                    if arr.assoc:
                        arr.items[k] = v
                    else:
                        arr.items[ex.arith_text(k)] = v
                elif arr.assoc:
                    raise ShellError(
                        f"{name}: must use subscript when assigning associative array", 1
                    )
                else:
                    for v in ex.fields([elem.value]):
                        arr.append(v)
            st.set_array(name, arr)
            return
        if a.key is not None:
            key = ex.string(a.key)
            value = ex.string(a.value, assignment=True) if a.value is not None else ""
            if name.endswith("]"):  # `declare -n r='a[0]'; r[1]=x`: as bash refuses it
                raise NotAssigned(f"`{name}': not a valid identifier", 1)
            if a.append:
                target = st.arrays.get(name)
                old = (
                    target.items.get(key)
                    if target is not None and target.assoc
                    else ex.element(name, key)
                )
                value = st.appended(name, old, value)
            ex.set_element(name, key, value)

    def run_argv(self, argv: list[str], io: IO, prefix: Mapping[str, str] | None = None) -> int:
        """Run one expanded command: function, builtin, or external program."""
        name = argv[0]
        if name == "time" and not prefix:  # the keyword (before functions, as in bash)
            from hookrun.dispatch.shell.timed import run_timed  # rare: loaded on first use

            return run_timed(self, argv, io, self.run_argv, prefix)
        st = self.state
        fn = st.functions.get(name)
        if fn is not None:
            with _TemporaryVars(st, prefix, export=True):
                return self.call_function(fn, argv, io)
        builtin = BUILTINS.get(name)
        if builtin is not None and not (st.disabled and name in st.disabled):
            if not prefix:  # the common case: no `VAR=x` to hold for the call
                try:  # (run_builtin, written out: one call fewer for every builtin)
                    return builtin(self, argv, io)
                except BrokenPipeError:
                    raise
                except OSError as exc:
                    return self.builtin_failed(argv, exc, io)
            with _TemporaryVars(self.state, prefix, export=False):
                return self.run_builtin(builtin, argv, io)
        return self.run_external(argv, io, prefix)

    def run_builtin(self, builtin: Builtin, argv: list[str], io: IO) -> int:
        try:
            return builtin(self, argv, io)
        except BrokenPipeError:
            raise  # the pipeline turns it into status 141, as SIGPIPE would
        except OSError as exc:
            return self.builtin_failed(argv, exc, io)

    def builtin_failed(self, argv: list[str], exc: OSError, io: IO) -> int:
        # A builtin whose file operation fails (read from a directory, a write to a
        # full disk) fails as bash's does: its message, status 1.
        self.error(f"{argv[0]}: {exc.strerror or exc}", io)
        return 1

    def call_function(self, fn: Function, argv: list[str], io: IO) -> int:
        st = self.state
        if self.function_depth >= 500:
            raise ShellError(f"{argv[0]}: maximum function nesting level exceeded (500)", 1)
        saved_params, saved_src = st.params, self.src
        saved_loops = self.loop_depth
        st.params = argv[1:]
        st.locals_stack.append({})
        saved_names, saved_sites, saved_stmt = st.funcnames, st.callsites, self.stmt
        saved_files = st.sources
        st.funcnames = (argv[0], *saved_names)
        st.callsites = ((self.src, saved_stmt), *saved_sites)
        st.sources = (fn.file, *saved_files)
        traps = self.traps
        if traps and "DEBUG" in traps and "functrace" in st.options and saved_stmt is not None:
            self.debug_trap(saved_stmt, io)  # traced: once more as the function starts
        self.function_depth += 1
        self.loop_depth = 0
        self.set_src(fn.source)
        hidden = _hide_traps(traps, st) if traps else None
        try:
            try:
                status = self.exec_stmt(fn.body, io)
            except ReturnFromFunction as ret:
                status = ret.code
            if traps and "RETURN" in traps:
                # bash: a RETURN trap set in the function (or, with `set -T`, before it)
                # runs as it returns, still in it ($FUNCNAME, "$@"); the call's status stays.
                self.run_trap(traps["RETURN"], io)
            return status
        finally:
            if hidden:
                traps.update(hidden)
            self.set_src(saved_src)
            self.function_depth -= 1
            self.loop_depth = saved_loops
            st.pop_locals()
            st.params = saved_params
            st.funcnames, st.callsites, self.stmt = saved_names, saved_sites, saved_stmt
            st.sources = saved_files

    def run_external(self, argv: list[str], io: IO, prefix: Mapping[str, str] | None = None) -> int:
        st = self.state
        env = st.environ(prefix)
        name = argv[0]
        if _is_path(name, self.platform):
            if "\0" in name:
                self.error(f"{name!r}: invalid file name (NUL byte)", io)
                return 126
            if self._standin(name, env):
                # `/bin/bash -c …` with the stand-in forced, or naming a bash that is
                # not there (standin.applies): in-process, like a bare `bash`.
                return self.run_standin(argv, env, io)
            if not st.invoked and resolve.denied(os.path.join(st.cwd, name), self.platform):
                # In a script file, as bash: "Permission denied", not the file read as
                # shell source. A hook's own command line (invoked "c") reads it whatever
                # its mode, as a hook command that is a path (resolve.plan_file): a
                # checkout that lost its modes must not turn a hook's deny into a 126.
                self.error(f"{name}: Permission denied", io)
                return 126
            plan = resolve.plan_file(name, argv[1:], cwd=st.cwd, env=env, platform=self.platform)
            if plan.kind == "shebang" and self._standin(plan.argv[0], env):
                return self.run_standin(list(plan.argv), env, io)
            if plan.kind == "error":
                _write_error_line(io, plan.message)
                return plan.exit_code
            if plan.kind == "script":
                return self.run_script_file(plan.source, name, argv[1:], env, io)
            argv = list(plan.argv)
        elif self._standin(name, env):
            return self.run_standin(argv, env, io)
        found = None
        if not _is_path(name, self.platform):
            found = self.find_command(name, env, hashing=not (prefix and "PATH" in prefix))
            if found is not None and not resolve.is_windows(self.platform):
                plan = resolve.plan_file(
                    found, argv[1:], cwd=st.cwd, env=env, platform=self.platform
                )
                if plan.kind == "script":
                    # No #! line: bash runs it as a shell script, and so does this shell.
                    return self.run_script_file(plan.source, name, argv[1:], env, io)
        hook, self.spawn_hook = self.spawn_hook, None  # only a background job's first child
        from hookrun.dispatch.shell.handler import ExecRequest

        # bash hands every program `_` naming the program itself (as found on PATH, else
        # as written), whatever `$_` holds in the shell.
        env["_"] = found or name

        fds = io.fds
        feed = None
        if self.psubs:  # the child opens /dev/fd/N (or a file where there is none)
            from hookrun.dispatch.shell import procsub

            fds = procsub.child_fds(self, fds)
            if not procsub.dev_fd_usable(self.platform):
                feed = procsub.before_child(self, argv)
        req = ExecRequest(
            argv,
            env,
            st.cwd,
            io.stdin,
            io.stdout,
            io.stderr,
            hook and self._spawned(hook),
            found,
            fds,
            [(k, *v) for k, v in st.limits.items()] if st.limits else None,
            st.umask,
        )
        try:
            status = self.exec_handler(req)
        finally:
            if hook is not None and self.spawned is not None:
                self.spawned.set()
            if feed:
                procsub.after_child(self, feed)
        if self.jobs:
            self.forget_done_jobs()
        return status

    def find_command(self, name: str, env: Mapping[str, str], *, hashing: bool) -> str | None:
        """The program file for ``name``: from the command hash, else found on PATH
        (and remembered). With ``PATH=… cmd`` the hash is neither used nor filled."""
        st = self.state
        if hashing:
            entry = st.hashed.get(name)
            if entry is not None:
                entry[1] += 1
                return str(entry[0])
        exe = resolve.find_executable(name, env=env, cwd=st.cwd, platform=self.platform)
        if exe is not None and hashing:
            st.hashed[name] = [exe, 1]
        return exe

    def _standin(self, name: str, env: Mapping[str, str]) -> bool:
        return standin.applies(
            name, mode=self.notes.standin, env=env, cwd=self.state.cwd, platform=self.platform
        )

    def run_standin(self, argv: list[str], env: Mapping[str, str], io: IO) -> int:
        """``bash ARGS`` with no bash (or forced in-process): the bash stand-in."""
        from hookrun.dispatch.standin_run import run_standin

        ran = run_standin(
            argv,
            cwd=self.state.cwd,
            env=env,
            stdin=io.stdin,
            stdout=io.stdout,
            stderr=io.stderr,
            procs=self.procs,
            guard=self.guard,
            platform=self.platform,
            mode=self.notes.standin,
            process=self.process if self.exec_process else ShellProcess(self.process),
        )
        if self.notes.route is None:
            self.notes.route = ran.route
        if ran.unsupported is not None and self.notes.unsupported is None:
            self.notes.unsupported = ran.unsupported
        return ran.status

    def _spawned(self, hook: Callable[[Any], None]) -> Callable[[Any], None]:
        def told(proc: Any) -> None:
            hook(proc)
            if self.spawned is not None:
                self.spawned.set()

        return told

    def run_script_file(
        self, source: str, path: str, args: list[str], env: Mapping[str, str], io: IO
    ) -> int:
        """A shebang-less script: a fresh shell (only exported variables) in-process."""
        state = ShellState.create(env, self.state.cwd)
        state.argv0 = path
        state.params = list(args)
        state.invoked = ""  # a script file: no "c" or "s" in its `$-`
        child = Interp(
            state,
            io,
            self.procs,
            self.guard,
            self.platform,
            self.notes,
            self.exec_handler,
            ShellProcess(self.process),
        )
        from hookrun.shellsyntax import ShellSyntaxError, Unsupported, parse  # lazy: start-up

        try:
            script = parse(source)
        except ShellSyntaxError as exc:
            self.error(f"{path}: syntax error: {exc}", io)
            return 2
        except Unsupported as exc:
            return child.fallback(source, str(exc), path, args, io)
        return child.run_top(script.stmts, script.source, io.copy())

    def fallback(self, source: str, construct: str, argv0: str, args: Sequence[str], io: IO) -> int:
        """Hand a whole script we do not interpret to a real shell, or explain why not."""
        env = self.state.environ()
        for name in FALLBACK_SHELLS:
            exe = resolve.find_executable(name, env=env, cwd=self.state.cwd, platform=self.platform)
            if exe is None:
                continue
            self.notes.route = "sh-fallback"
            from hookrun.dispatch.shell.handler import ExecRequest

            req = ExecRequest(
                [exe, "-c", source, argv0, *args],
                env,
                self.state.cwd,
                io.stdin,
                io.stdout,
                io.stderr,
            )
            return self.exec_handler(req)
        self.notes.unsupported = construct
        self.error(unsupported_message(construct, no_sh=True), io)
        return 2

    def run_top(
        self, stmts: Sequence[Stmt], source: bytes, io: IO, then_error: str | None = None
    ) -> int:
        """Run a whole (sub)shell: ``exit``, the EXIT trap and fatal errors end here.

        ``then_error``: the syntax error that follows these statements in the script
        (they are the complete commands before it): reported once they ran, status 2.
        """
        # (One frame for the whole program: the statements' loop is written out here,
        # not in helpers, as every hook's run comes through it.)
        # What `exec` opened is closed however the shell ends: also when an exception
        # (a broken pipe, a timeout) skips the rest; it leaked a descriptor per run.
        try:
            saved = self.src
            self.src = source
            if self._expander is not None:
                self._expander.source = source
            try:
                try:
                    status = self.state.status
                    skip_to = -1
                    for s in stmts:
                        if skip_to >= 0 and s.pos < skip_to:  # (a node's field costs more)
                            continue
                        try:
                            status = self.exec_stmt(s, io)
                        except DiscardLine as exc:  # skips the rest of its line
                            status = self.state.status = exc.code
                            newline = self.src.find(b"\n", s.end)
                            skip_to = len(self.src) if newline < 0 else newline
                        if self.process.pending:
                            self.take_signals(io)
                    if then_error is not None:
                        self.error(then_error, io)
                        status = self.state.status = 2
                except ExitShell as exc:
                    status = exc.code
                finally:
                    self.src = saved
                    if self._expander is not None:
                        self._expander.source = saved
            except ReturnFromFunction as ret:
                status = ret.code
            except LoopControl:
                status = self.state.status
            trap = self.traps.pop("EXIT", None) if self.traps else None
            if trap:
                self.state.status = status
                self.trap_context = (source, self.stmt)
                try:
                    self.run_source(trap, io)
                except ExitShell as exc:
                    status = exc.code
        finally:
            if self.exec_owned:
                _close_all(self.exec_owned)
                self.exec_owned = []
            # The expander calls back into this shell ($( )): held on, the two are a
            # reference cycle. A later run here makes a new one.
            self._expander = None
        return status

    # -- redirections ----------------------------------------------------------
    def redirect(self, redirects: Sequence[Redirect], io: IO, owned: list[Closable]) -> IO:
        new = io.copy()
        ex = self._expander or self.expander
        for r in redirects:
            op = r.op
            fd = r.fd
            if r.fd_var and op in (">&", "<&") and r.target is not None and _closes(r.target):
                # `exec {fd}>&-` closes the descriptor named by $fd (allocates none).
                # As bash: unset, empty or negative is an error; not a number, or one
                # past any descriptor, closes nothing and is no error.
                value = self.state.get_var(r.fd_var) or ""
                try:
                    fd = int(value.strip()) if value.strip() else -1
                except ValueError:
                    continue
                if fd < 0:
                    raise ShellError(f"{r.fd_var}: ambiguous redirect", 1)
                if fd > 1023:
                    continue
            elif r.fd_var:
                fd = self.next_fd
                self.next_fd += 1
                self.state.set_var(r.fd_var, str(fd))
            if op in ("<<", "<<-"):
                assert r.heredoc is not None
                doc = r.heredoc
                # A quoted body is literal text: its one part, and the newline bash ends
                # an unterminated body's last line with (convert.heredoc_at adds it).
                body = "".join(p.text for p in doc.body.parts) if doc.quoted else ""  # type: ignore[union-attr]
                if not doc.quoted:
                    body = ex.heredoc(doc.body)
                src = BufferSource(encode(body))
                owned.append(src)
                new.set(_fd(fd, 0), src)
            elif op == "<<<":
                src = BufferSource(encode(ex.string(r.target) + "\n"))
                owned.append(src)
                new.set(_fd(fd, 0), src)
            elif op in (">&", "<&"):
                target = self.redirect_word(r.target)
                default = 1 if op == ">&" else 0
                if target == "-":
                    new.set(_fd(fd, default), _ClosedSink())
                elif target.isdigit():
                    stream = new.get(int(target))
                    if stream is None:
                        raise ShellError(f"{target}: Bad file descriptor", 1)
                    new.set(_fd(fd, default), stream)
                elif target.endswith("-") and target[:-1].isdigit():  # n>&m- : move
                    stream = new.get(int(target[:-1]))
                    if stream is None:
                        raise ShellError(f"{target[:-1]}: Bad file descriptor", 1)
                    new.set(_fd(fd, default), stream)
                    new.set(int(target[:-1]), _ClosedSink())
                elif fd in (None, 1) and op == ">&":  # `>&file`, `1>&file`: as `&>file`
                    self.check_clobber(target)
                    sink = self.open_file(target, ">", owned, new)
                    new.stdout = new.stderr = sink
                else:
                    raise ShellError(f"{target}: ambiguous redirect", 1)
            elif op in ("&>", "&>>"):
                path = self.redirect_word(r.target)
                if op == "&>":
                    self.check_clobber(path)
                sink = self.open_file(path, ">>" if op == "&>>" else ">", owned, new)
                new.stdout = new.stderr = sink
            elif op in (">", ">>", ">|", "<", "<>"):
                path = self.redirect_word(r.target)
                default = 0 if op in ("<", "<>") else 1
                target_fd = _fd(fd, default)
                if op == ">":
                    self.check_clobber(path)
                new.set(target_fd, self.open_file(path, op, owned, new, reader=target_fd == 0))
            else:
                raise ShellError(f"redirection '{op}' is not supported", 2)
        return new

    def redirect_word(self, word: Word) -> str:
        """A redirection's file (or descriptor) word: expanded as a command word (braces,
        splitting, globbing) and then it must be exactly one word, as in bash."""
        fields = self.expander.fields([word])
        if len(fields) != 1:
            raw = decode(self.src[word.pos : word.end]) if self.src else " ".join(fields)
            raise ShellError(f"{raw}: ambiguous redirect", 1)
        return fields[0]

    def check_clobber(self, path: str) -> None:
        """``set -C``: ``>``, ``&>`` and ``>&`` refuse to truncate an existing file."""
        if "noclobber" in self.state.options:
            full = path if os.path.isabs(path) else os.path.join(self.state.cwd, path)
            if os.path.isfile(full):
                raise ShellError(f"{path}: cannot overwrite existing file", 1)

    def open_file(
        self,
        path: str,
        kind: str,
        owned: list[Closable],
        io: IO | None = None,
        *,
        reader: bool = False,
    ) -> Any:
        if self.psubs:  # a <(…)/>(…) path: its pipe end, no file opened
            from hookrun.dispatch.shell import procsub

            piped = procsub.lookup(self, path)
            if piped is not None:
                return piped
        special = {"/dev/stdin": 0, "/dev/stdout": 1, "/dev/stderr": 2}
        if io is not None and path in special:
            return io.get(special[path])
        m = _DEV_FD.fullmatch(path) if path.startswith("/dev/fd/") else None
        if io is not None and m is not None and io.get(int(m.group(1))) is not None:
            return io.get(int(m.group(1)))
        if path == "/dev/null":
            path = os.devnull  # so `>/dev/null` works on Windows too
        if path == "":
            raise ShellError(": No such file or directory", 1)
        full = path if os.path.isabs(path) else os.path.join(self.state.cwd, path)
        flags = {
            "<": os.O_RDONLY,
            "<&": os.O_RDONLY,
            ">": os.O_WRONLY | os.O_CREAT | os.O_TRUNC,
            ">|": os.O_WRONLY | os.O_CREAT | os.O_TRUNC,
            ">&": os.O_WRONLY | os.O_CREAT | os.O_TRUNC,
            ">>": os.O_WRONLY | os.O_CREAT | os.O_APPEND,
            "<>": os.O_RDWR | os.O_CREAT,
        }[kind]
        flags |= getattr(os, "O_BINARY", 0) | getattr(os, "O_CLOEXEC", 0)
        try:
            mask = self.state.umask
            fd, waits = open_waiting(full, flags, self.guard, lambda p, f: _open_masked(p, f, mask))
        except OSError as exc:
            raise ShellError(f"{path}: {exc.strerror or exc}", 1) from None
        except ValueError:  # a NUL byte in the name
            raise ShellError(f"{path!r}: invalid file name", 1) from None
        stream: Closable
        if kind == "<>":
            stream = FdDuplex(fd, guard=self.guard if waits else None)
        elif kind in ("<", "<&") or reader:
            stream = FdSource(fd, guard=self.guard if waits else None)
        else:
            stream = FdSink(fd, guard=self.guard if waits == "fifo" else None)
        owned.append(stream)
        return stream


# id(a command's words) -> (those words, their fields if all are plain literals, else
# None, else expand.plain_words of them): what expand_args() found for a parsed command.
# The entry holds the words, so their id is not reused while it is here; `is` tells a
# stale id apart. Bounded: cleared when full (the parse cache keeps the commands of
# recent scripts alive anyway).
if TYPE_CHECKING:
    _Plain = tuple[Sequence[Any], tuple[str, ...] | None, tuple[str | None, ...] | None]
_plain_argv: dict[int, _Plain] = {}
_PLAIN_ARGV_MAX = 4096


def _remember_plain(args: Sequence[Any]) -> _Plain:
    if len(_plain_argv) >= _PLAIN_ARGV_MAX:
        _plain_argv.clear()
    words = (_expand or _load_expand()).plain_words(args)
    if words is not None and None not in words:
        known: _Plain = (args, words, None)
    else:
        known = (args, None, words)
    _plain_argv[id(args)] = known
    return known


def _is_traced(cmd: Command | None) -> bool:
    """Whether bash runs the DEBUG trap before ``cmd``: a simple command, [[ ]], (( ))."""
    return isinstance(cmd, (N.CallExpr, N.TestClause, N.ArithCmd))


def _hide_traps(traps: dict[str, str], st: ShellState) -> dict[str, str] | None:
    """A function does not see the DEBUG and RETURN traps set outside it unless traced
    (``set -T``): taken out for the call, put back after it (one it set stays if none was
    set before, as in bash)."""
    if "functrace" in st.options or not ("DEBUG" in traps or "RETURN" in traps):
        return None
    return {k: traps.pop(k) for k in ("DEBUG", "RETURN") if k in traps}


def _is_compound(cmd: Command | None) -> bool:
    """A statement whose failure is that of a command inside it (see exec_stmt)."""
    return isinstance(cmd, _COMPOUND or _load_kinds())


# The node classes every command is tested against, as plain globals once the front end
# is loaded (``N.X`` looks up two names, and the tuple was built again on every test).
_CALL: Any = None
_PIPELINE: Any = None
_ASSIGN: Any = None
_COMPOUND: tuple[type, ...] = ()


def _load_kinds() -> tuple[type, ...]:
    global _CALL, _PIPELINE, _ASSIGN, _COMPOUND
    _CALL, _PIPELINE, _ASSIGN = N.CallExpr, N.Pipeline, N.Assign
    _COMPOUND = (
        N.BinaryCmd,
        N.Block,
        N.IfClause,
        N.WhileClause,
        N.ForClause,
        N.CForClause,
        N.CaseClause,
    )
    return _COMPOUND


def _match(value: str, pattern: str, nocase: bool) -> bool:
    # (the module as loaded: an import statement costs thousands of instructions a run)
    result: bool = (_expand or _load_expand()).match(value, pattern, nocase)
    return result


def _raiser(exc: ShellError) -> Callable[[], int]:
    def fn() -> int:
        raise exc

    return fn


def _is_path(name: str, platform: str) -> bool:
    return (
        resolve.is_path_word(name, platform)
        or "/" in name
        or (resolve.is_windows(platform) and "\\" in name)
    )


_ELEMENT_NAME = lazy_compile(r"([A-Za-z_]\w*)\[(.*)\]")  # `name[key]`, for -v
_DEV_FD = lazy_compile(r"/dev/fd/(\d+)")


_TRACE_SAFE = lazy_compile(r"[\w@%+=:,./-]+\Z")


def _trace_quote(word: str) -> str:
    if _TRACE_SAFE.match(word):
        return word
    from hookrun.dispatch.shell.expand import shell_quote

    return shell_quote(word)


def _open_shared(sink: ByteSink) -> None:
    """Give ``sink`` its descriptor now, in this thread (CaptureSink creates it lazily)."""
    with contextlib.suppress(OSError):
        sink.fileno()


def _set_pid(job: _Job, proc: Any) -> None:
    job.pid = proc.pid
    job.proc = proc


def _fd(fd: int | None, default: int) -> int:
    fd = default if fd is None else fd
    if fd < 0 or fd > 1023:
        raise ShellError(f"{fd}: Bad file descriptor", 1)
    return fd


def _close_all(owned: Sequence[Any]) -> None:
    for stream in owned:
        with contextlib.suppress(OSError):
            stream.close()


def _write_error_line(io: IO, message: str) -> None:
    with contextlib.suppress(OSError):
        io.stderr.write(encode(message.rstrip("\n") + "\n"))


def _closes(word: Word) -> bool:
    """Whether a ``>&``/``<&`` target is the literal ``-`` (close)."""
    parts = word.parts
    return len(parts) == 1 and isinstance(parts[0], N.Lit) and parts[0].text == "-"


def _slots(io: IO) -> list[Any]:
    return [io.stdin, io.stdout, io.stderr, *io.fds.values()]


def _keep_exec_psubs(sh: Interp, new: IO, before: tuple[Any, ...]) -> None:
    """Move the ends of the substitutions an ``exec`` started that its redirections put
    in ``new`` into this shell's ``exec_owned`` (closed when the last descriptor holding
    one goes, :func:`_close_dropped`); the rest close with the command."""
    from hookrun.dispatch.shell import procsub

    held = {id(x) for x in _slots(new)}
    for ps in sh.psubs:
        if ps not in before and ps.ours is not None and id(ps.ours) in held:
            stream = procsub.take(ps)
            if stream is not None:
                sh.exec_owned.append(stream)


def _close_dropped(sh: Interp, io: IO) -> None:
    """After ``exec``: close what ``exec`` opened that no descriptor of ``io`` holds any
    more (``exec 4>&-``, ``exec 4>other``): a ``>(…)`` reading it sees EOF now, as in
    bash, not at the run's end (``wait $!`` after ``exec 4>&-`` waited for ever). What
    stays is marked: a job or substitution started while it is open gets a copy of its
    own (:func:`_own_copies`), as a bash child inherits one, and this close does not
    pull it from under that thread."""
    held = {id(x) for x in _slots(io)}
    keep = []
    for stream in sh.exec_owned:
        if id(stream) in held:
            if isinstance(stream, (FdSink, FdSource)):
                stream.exec_held = True
            keep.append(stream)
        else:
            with contextlib.suppress(OSError):
                stream.close()
    sh.exec_owned = keep


def _own_copies(io: IO, owned: list[Any]) -> None:
    """Give a job or substitution about to run alongside this shell its own descriptor
    for each stream an ``exec`` holds open in ``io`` (closed with the job: ``owned``)."""
    for fd, stream in enumerate(_slots(io)[:3]):
        if getattr(stream, "exec_held", False):
            io.set(fd, _copy_of(stream, owned))
    for fd, stream in list(io.fds.items()):
        if getattr(stream, "exec_held", False):
            io.fds[fd] = _copy_of(stream, owned)


def _copy_of(stream: Any, owned: list[Any]) -> Any:
    try:
        fd = os.dup(stream.fileno())
    except (OSError, ValueError):  # closed meanwhile: the job sees it closed too
        return stream
    copy = type(stream)(fd)
    owned.append(copy)
    return copy


def _end_psubs(sh: Interp, keep: tuple[Any, ...]) -> None:
    from hookrun.dispatch.shell import procsub

    procsub.end(sh, keep)


def _run_stage(sub: Interp, stmts: Sequence[Stmt], io: IO, result: _Stage) -> None:
    """Run one pipeline stage, background job or process substitution; never raises
    (errors become statuses)."""
    try:
        result.status = sub.run_top(stmts, sub.src, io)
    except BrokenPipeError:
        result.status = BROKEN_PIPE_STATUS
    except (Interrupted, AbortScript) as exc:
        result.status = 130 if isinstance(exc, Interrupted) else exc.code
        result.error = exc
    except ShellError as exc:
        sub.error(exc.message, io)
        result.status = exc.status
    except RecursionError:
        sub.error("commands nested too deeply", io)
        result.status = 2
    except Exception as exc:  # the last line of defence: a status, never a traceback
        sub.error(f"internal error in the in-process shell: {type(exc).__name__}: {exc}", io)
        result.status = 2
    finally:
        _close_all(result.owned)


class _TemporaryVars:
    """``VAR=x cmd``: the assignments hold for one builtin or function call only."""

    def __init__(self, state: ShellState, values: Mapping[str, str] | None, *, export: bool):
        self.state = state
        self.values = values
        self.export = export
        self.saved: list[tuple[str, str | None, bool]] = []

    def __enter__(self) -> None:
        if not self.values:
            return
        st = self.state
        for name, value in self.values.items():
            self.saved.append((name, st.vars.get(name), name in st.exported))
            st.set_var(name, value)
            if self.export:
                st.exported.add(name)

    def __exit__(self, *exc: object) -> None:
        st = self.state
        for name, old, was_exported in reversed(self.saved):
            if old is None:
                st.vars.pop(name, None)
            else:
                st.vars[name] = old
            if not was_exported:
                st.exported.discard(name)


def unsupported_message(construct: str, *, no_sh: bool = False) -> str:
    """What to tell the user when we meet a construct we do not interpret."""
    why = " and no POSIX shell (sh) is on PATH to hand the script to" if no_sh else ""
    return (
        f"the in-process shell does not support {construct}{why}; put this hook in a "
        "script file whose first line is a shebang (#!/bin/bash) and run that file instead"
    )


def position(source: bytes, offset: int) -> str:
    from hookrun.shellsyntax import line_col

    line, col = line_col(source, offset)
    return f"line {line}, column {col}"


def _open_masked(path: str, flags: int, mask: int | None) -> int:
    """``os.open`` of a redirection's file; a file it creates gets mode 0o666 less the
    shell's ``umask`` (None: the process's, which the system applies itself). The
    system applies the process's mask too, so a file made new under a mask of the
    script's own gets its mode set after."""
    if mask is None or not flags & os.O_CREAT:
        return os.open(path, flags, 0o666)
    try:
        fd = os.open(path, flags | os.O_EXCL, 0o666 & ~mask)
    except FileExistsError:
        return os.open(path, flags, 0o666 & ~mask)
    if os.chmod in os.supports_fd:
        try:  # noqa: SIM105 (contextlib costs start-up time)
            os.chmod(fd, 0o666 & ~mask)
        except OSError:
            pass  # (a file system without modes: as the system made it)
    return fd
