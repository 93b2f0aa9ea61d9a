"""The in-process shell: an interpreter over the bashlex AST.

Builtins run in this Python process and write straight into the caller's sinks, so a
hook like ``echo '{"decision":"allow"}'`` starts no process, opens no pipe and starts
no thread. External commands are children started through the run's
:class:`~hookrun.dispatch.procs.ProcessTracker`, so a timeout or a cancellation ends
them with the rest of the tree.

Pipelines connect stages with OS pipes: every stage but the last runs in a thread on a
copy of the shell state (subshell semantics, as in bash); the last runs in the calling
thread, also on a copy. Data streams through the pipes and is never collected.

All state (variables, cwd, functions) is in :class:`ShellState`: nothing here calls
``os.chdir`` or touches ``os.environ``.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from hookrun.dispatch import resolve, standin
from hookrun.dispatch.cancel import Guard, Interrupted
from hookrun.dispatch.procs import ProcessTracker, SpawnError
from hookrun.dispatch.shell.builtins import BUILTINS
from hookrun.dispatch.shell.state import (
    AbortScript,
    ExitShell,
    Function,
    LoopControl,
    ReturnFromFunction,
    ShellError,
    ShellState,
)
from hookrun.dispatch.streams import (
    BufferSource,
    ByteSink,
    ByteSource,
    CaptureSink,
    FdSink,
    FdSource,
)

if TYPE_CHECKING:
    from hookrun.dispatch.shell.expand import Expander

# The pre-pass turns a here-document into `<` from this word + its body's snippet index.
HEREDOC_PREFIX = "__hookrun_heredoc_"
# Tried in this order for a construct the in-process shell does not interpret. bash
# first: what we do not interpret is almost always a bash-ism (arrays, `select`,
# `for ((…))`) that a strict POSIX sh would reject as well.
FALLBACK_SHELLS = ("bash", "sh")
# A command substitution's output is held in memory (it becomes a string); past this
# bound the rest is drained and dropped rather than growing without limit.
SUBSTITUTION_LIMIT = 256 * 1024 * 1024
# Exit status of a stage that wrote to a pipe whose reader had gone: 128 + SIGPIPE.
BROKEN_PIPE_STATUS = 141
_DECLARATION_BUILTINS = frozenset({"export", "local", "readonly", "declare", "typeset"})


# Plain slotted classes, not dataclasses: this module is on the start-up path of every
# `hookrun run` with an inline hook (dataclasses cost half a bare start-up).
class IO:
    __slots__ = ("stdin", "stdout", "stderr")

    def __init__(self, stdin: ByteSource, stdout: ByteSink, stderr: ByteSink) -> None:
        self.stdin = stdin
        self.stdout = stdout
        self.stderr = stderr

    def copy(self) -> IO:
        return IO(self.stdin, self.stdout, self.stderr)


class RunNotes:
    """What one run learned, shared by all its (sub)shells: how it ended up running."""

    __slots__ = ("route", "ended", "standin", "unsupported")

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


class _Job:
    """A background command: a child process or a thread running a subshell."""

    __slots__ = ("proc", "thread", "status", "pid")

    def __init__(self) -> None:
        self.proc: Any = None
        self.thread: threading.Thread | None = None
        self.status = 0
        self.pid = 0


class _Stage:
    __slots__ = ("status", "error", "owned")

    def __init__(self, owned: list[Any] | None = None) -> None:
        self.status = 0
        self.error: BaseException | None = None
        self.owned: list[Any] = [] if owned is None else owned


Closable = FdSink | FdSource | BufferSource


def encode(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")


def decode(data: bytes) -> str:
    return data.decode("utf-8", "surrogateescape")


class Interp:
    """One shell (or subshell): state plus the run's shared process tracker and guard."""

    def __init__(
        self,
        state: ShellState,
        io: IO,
        procs: ProcessTracker,
        guard: Guard,
        platform: str,
        notes: RunNotes | None = None,
    ) -> None:
        self.state = state
        self.io = io
        self.procs = procs
        self.guard = guard
        self.platform = platform
        self.src = ""
        self._expander: Expander | None = None
        self.jobs: list[_Job] = []
        self.subst_status: int | None = None
        self.errexit_suppressed = 0
        self.function_depth = 0
        self.source_depth = 0
        self.exit_trap: str | None = None
        self.notes = notes or RunNotes()
        self.background = False  # a background job's (sub)shell: stops when the run ends
        self.exec_owned: list[Closable] = []  # files opened by `exec >file`
        # Set on the subshell of a background job, to learn its first child's pid.
        self.spawn_hook: Callable[[Any], None] | None = None
        self.spawned: threading.Event | None = None

    @property
    def expander(self) -> Expander:
        # Created on first use: a run_argv() of a builtin never expands anything, and
        # the expansion machinery (with the pre-pass it imports) is not free to import.
        if self._expander is None:
            from hookrun.dispatch.shell.expand import Expander

            self._expander = Expander(self)
        return self._expander

    # -- construction of subshells ---------------------------------------------
    def subshell(self, io: IO | None = None) -> Interp:
        sub = Interp(
            self.state.copy(), io or self.io, self.procs, self.guard, self.platform, self.notes
        )
        sub.src = self.src
        sub.function_depth = self.function_depth
        sub.background = self.background
        return sub

    # -- output helpers --------------------------------------------------------
    def error(self, message: str, io: IO | None = None) -> None:
        """Print ``hookrun: message`` on stderr (never raises on a closed stream)."""
        with contextlib.suppress(OSError):
            (io or self.io).stderr.write(encode(f"hookrun: {message}\n"))

    # -- programs --------------------------------------------------------------
    def run_program(self, nodes: Sequence[Any], source: str, io: IO) -> int:
        """Run parsed commands; ``exit`` and fatal errors end here with their status."""
        saved = self.src
        self.src = source
        try:
            status = self.exec_sequence(nodes, io)
        except ExitShell as exc:
            status = exc.code
        finally:
            self.src = saved
        return status

    def run_subshell(self, nodes: Sequence[Any], source: str, io: IO) -> int:
        """Run as a subshell: files this shell opened with ``exec >f`` close at its end."""
        try:
            return self.run_program(nodes, source, io)
        finally:
            _close_all(self.exec_owned)
            self.exec_owned = []

    def run_source(self, source: str, io: IO) -> int:
        """Parse and run ``source`` in this shell (``eval``, ``.``); errors are statuses."""
        from hookrun.dispatch.shell.parse import ShellSyntaxError, parse
        from hookrun.dispatch.shell.prepass import Unsupported

        try:
            program = parse(source)
        except ShellSyntaxError as exc:
            self.error(f"syntax error: {exc}", io)
            return 2
        except Unsupported as exc:
            self.notes.unsupported = exc.construct
            self.error(unsupported_message(exc.construct), io)
            return 2
        saved = self.src
        self.src = program.source
        try:
            return self.exec_sequence(program.nodes, io)
        finally:
            self.src = saved

    def command_substitution(self, source: str) -> str:
        """``$(…)``/backquotes: run ``source`` in a subshell and capture its stdout."""
        from hookrun.dispatch.shell.parse import ShellSyntaxError, parse
        from hookrun.dispatch.shell.prepass import Unsupported

        try:
            program = parse(source)
        # The whole script stops, as in bash, where these are found before it starts.
        except ShellSyntaxError as exc:
            self.error(f"syntax error in command substitution: {exc}")
            raise AbortScript(2) from None
        except Unsupported as exc:
            self.notes.unsupported = exc.construct
            self.error(unsupported_message(exc.construct))
            raise AbortScript(2) from None
        sink = CaptureSink(SUBSTITUTION_LIMIT)
        sub = self.subshell()
        io = IO(self.io.stdin, sink, self.io.stderr)
        try:
            status = sub.run_subshell(program.nodes, program.source, io)
        finally:
            remaining = self.guard.remaining()
            sink.finish(24 * 3600.0 if remaining is None else remaining)
        self.guard.check()
        self.subst_status = status
        return decode(sink.data).rstrip("\n")

    # -- nodes -----------------------------------------------------------------
    def exec_sequence(self, parts: Sequence[Any], io: IO) -> int:
        """A list: commands separated by ``;``, ``&``, ``&&``, ``||`` operator nodes."""
        status = self.state.status
        i = 0
        n = len(parts)
        while i < n:
            node = parts[i]
            if node.kind in ("operator", "reservedword", "pipe"):
                i += 1
                continue
            op = parts[i + 1].op if i + 1 < n and parts[i + 1].kind == "operator" else None
            if op in ("&&", "||"):
                end = _and_or_end(parts, i)
                if end < n and parts[end].op == "&":
                    # `a && b &` puts the whole and-or list in the background.
                    self.start_background(_ListNode(list(parts[i:end])), io)
                    status = self.state.status = 0
                    i = end + 1
                    continue
            i += 2 if op is not None else 1
            if op == "&":
                self.start_background(node, io)
                status = self.state.status = 0
                continue
            if op in ("&&", "||"):
                self.errexit_suppressed += 1
                try:
                    status = self.exec_node(node, io)
                finally:
                    self.errexit_suppressed -= 1
            else:
                status = self.exec_node(node, io)
            while op in ("&&", "||") and i < n:
                if (op == "&&") == (status == 0):
                    break
                op = parts[i + 1].op if i + 1 < n and parts[i + 1].kind == "operator" else None
                i += 2 if op is not None else 1
        return status

    def exec_node(self, node: Any, io: IO) -> int:
        self.guard.check()
        if self.background and self.notes.ended:
            # A background job run by a thread outlives nothing: once the script is over
            # it stops here (its children are ended by the caller's process tracker).
            raise ExitShell(143)
        kind = node.kind
        if kind == "command":
            status = self.exec_command(node, io)
            self.state.status = status
            self.check_errexit(status)
            return status
        if kind == "pipeline":
            status = self.exec_pipeline(node, io)
        elif kind == "list":
            status = self.exec_sequence(node.parts, io)
        elif kind == "compound":
            # Command substitutions inside (`for x in $(…)`) see the group's redirections.
            saved, self.io = self.io, io
            try:
                status = self.exec_compound(node, io)
            finally:
                self.io = saved
        elif kind == "if":
            status = self.exec_if(node, io)
        elif kind in ("while", "until"):
            status = self.exec_loop(node, io, until=kind == "until")
        elif kind == "for":
            status = self.exec_for(node, io)
        elif kind == "function":
            status = self.define_function(node)
        else:
            raise ShellError(f"unsupported syntax node '{kind}'", 2)
        self.state.status = status
        return status

    def check_errexit(self, status: int) -> None:
        if status != 0 and self.state.errexit and self.errexit_suppressed == 0:
            raise ExitShell(status)

    def conditional(self, node: Any, io: IO) -> int:
        """Run a condition (if/while test): ``set -e`` does not apply inside it."""
        self.errexit_suppressed += 1
        try:
            return self.exec_node(node, io)
        finally:
            self.errexit_suppressed -= 1

    def raw(self, node: Any) -> str:
        return self.src[node.pos[0] : node.pos[1]]

    # -- compound commands -----------------------------------------------------
    def exec_compound(self, node: Any, io: IO) -> int:
        items = list(node.list)
        subshell = bool(items) and items[0].kind == "reservedword" and items[0].word == "("
        body = [p for p in items if p.kind != "reservedword"]
        redirects = getattr(node, "redirects", None) or []
        owned: list[Closable] = []
        try:
            if redirects:
                try:
                    io = self.redirect(redirects, io, owned)
                except ShellError as exc:
                    self.error(exc.message, io)
                    return exc.status
            if subshell:
                io = io.copy()  # `exec >f` inside ( … ) must not leak out
                sub = self.subshell(io)
                status = sub.run_subshell(body, self.src, io)
                self.check_errexit(status)
                return status
            return self.exec_sequence(body, io)
        finally:
            _close_all(owned)

    def exec_if(self, node: Any, io: IO) -> int:
        parts = node.parts
        i = 0
        while i < len(parts):
            word = parts[i].word if parts[i].kind == "reservedword" else None
            if word in ("if", "elif"):
                cond = parts[i + 1]
                body = parts[i + 3]
                if self.conditional(cond, io) == 0:
                    return self.exec_node(body, io)
                i += 4
            elif word == "else":
                return self.exec_node(parts[i + 1], io)
            else:
                i += 1
        return 0

    def exec_loop(self, node: Any, io: IO, *, until: bool) -> int:
        parts = [p for p in node.parts if p.kind != "reservedword"]
        cond, body = parts[0], parts[1]
        status = 0
        while True:
            self.guard.check()
            ok = self.conditional(cond, io) == 0
            if ok == until:
                return status
            try:
                status = self.exec_node(body, io)
            except LoopControl as ctl:
                if ctl.levels > 1:
                    ctl.levels -= 1
                    raise
                status = 0
                if ctl.kind == "break":
                    return status

    def exec_for(self, node: Any, io: IO) -> int:
        parts = node.parts
        name = parts[1].word
        words: list[str] = []
        has_in = False
        body = None
        for p in parts[2:]:
            if p.kind == "reservedword" and p.word == "in":
                has_in = True
            elif p.kind == "word" and has_in and body is None:
                words.append(self.raw(p))
            elif p.kind not in ("reservedword", "word"):
                body = p
        values = self.expander.fields(words) if has_in else list(self.state.params)
        status = 0
        for value in values:
            self.guard.check()
            self.state.set_var(name, value)
            try:
                status = self.exec_node(body, io)
            except LoopControl as ctl:
                if ctl.levels > 1:
                    ctl.levels -= 1
                    raise
                status = 0
                if ctl.kind == "break":
                    break
        return status

    def define_function(self, node: Any) -> int:
        name = next(p.word for p in node.parts if p.kind == "word")
        body = next(p for p in node.parts if p.kind not in ("reservedword", "word"))
        self.state.functions[name] = Function(body, self.src)
        return 0

    def call_function(self, fn: Function, argv: list[str], io: IO) -> int:
        st = self.state
        saved_params, saved_src = st.params, self.src
        st.params = argv[1:]
        st.locals_stack.append({})
        self.function_depth += 1
        self.src = fn.source
        try:
            return self.exec_node(fn.body, io)
        except ReturnFromFunction as ret:
            return ret.code
        finally:
            self.src = saved_src
            self.function_depth -= 1
            st.pop_locals()
            st.params = saved_params

    # -- pipelines -------------------------------------------------------------
    def exec_pipeline(self, node: Any, io: IO) -> int:
        parts = node.parts
        negate = parts[0].kind == "reservedword" and parts[0].word == "!"
        stages = [p for p in parts if p.kind not in ("pipe", "reservedword")]
        if negate:
            self.errexit_suppressed += 1
        try:
            if len(stages) == 1:
                status = self.exec_node(stages[0], io)
            else:
                status = self.run_pipeline(stages, io)
                self.state.status = status
                if not negate:
                    self.check_errexit(status)
        finally:
            if negate:
                self.errexit_suppressed -= 1
        return (0 if status else 1) if negate else status

    def run_pipeline(self, stages: list[Any], io: IO) -> int:
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
                stage_io = IO(
                    ends[k - 1][0] if k > 0 else io.stdin,
                    ends[k][1] if k < n - 1 else io.stdout,
                    io.stderr,
                )
                sub = self.subshell(stage_io)
                if k == n - 1:
                    started += 1
                    _run_stage(sub, node, stage_io, results[k])
                else:
                    t = threading.Thread(
                        target=_run_stage,
                        args=(sub, node, stage_io, results[k]),
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
        if self.state.pipefail:
            return next((s for s in reversed(statuses) if s != 0), 0)
        return statuses[-1]

    # -- background jobs -------------------------------------------------------
    def start_background(self, node: Any, io: IO) -> None:
        """``cmd &``: start it and go on. Leftover jobs are ended by the caller's tracker."""
        devnull = FdSource(os.open(os.devnull, os.O_RDONLY))
        bg_io = IO(devnull, io.stdout, io.stderr)
        _open_shared(io.stdout)  # the job and this shell may both start children now
        _open_shared(io.stderr)
        sub = self.subshell(bg_io)
        sub.background = True
        job = _Job()
        result = _Stage(owned=[devnull])
        spawned = threading.Event()
        sub.spawned = spawned
        sub.spawn_hook = lambda proc: _set_pid(job, proc)

        def run() -> None:
            try:
                _run_stage(sub, node, bg_io, result)
                job.status = result.status
            finally:
                spawned.set()

        t = threading.Thread(target=run, name="hookrun-background", daemon=True)
        job.thread = t
        t.start()
        # `$!` should be the child's pid in the common `cmd &` case: wait until the
        # job has spawned its first child (or finished without one).
        if self._starts_a_program(node):
            spawned.wait(5.0)
        job.pid = job.pid or t.ident or 0
        self.jobs.append(job)
        self.state.last_bg_pid = job.pid

    def _starts_a_program(self, node: Any) -> bool:
        """Whether a background command will spawn a child (not a builtin or function)."""
        if node.kind != "command":
            return False
        first = next((p for p in node.parts if p.kind == "word"), None)
        if first is None:
            return False
        name = self.raw(first)
        return name not in BUILTINS and name not in self.state.functions

    def wait_jobs(self, pids: Sequence[int] | None = None) -> int:
        """``wait [PID…]``: the status of the last job waited for (127 for unknown PIDs)."""
        status = 0
        for pid in pids or [j.pid for j in self.jobs]:
            job = next((j for j in self.jobs if j.pid == pid), None)
            if job is None:
                status = 127
                continue
            assert job.thread is not None
            while job.thread.is_alive():
                job.thread.join(0.05)
                self.guard.check()
            status = job.status
            self.jobs.remove(job)
        return status

    # -- simple commands -------------------------------------------------------
    def exec_command(self, node: Any, io: IO) -> int:
        assigns: list[str] = []
        words: list[str] = []
        redirects: list[Any] = []
        for p in node.parts:
            if p.kind == "assignment" and not words:
                assigns.append(self.raw(p))
            elif p.kind in ("word", "assignment"):
                words.append(self.raw(p))
            elif p.kind == "redirect":
                redirects.append(p)
        owned: list[Closable] = []
        saved_io = self.io
        self.io = io
        try:
            self.subst_status = None
            argv = self.expand_argv(words)
            if argv == ["exec"] and redirects:
                # `exec >file`: the redirections stay for the rest of this (sub)shell.
                new = self.redirect(redirects, io, self.exec_owned)
                io.stdin, io.stdout, io.stderr = new.stdin, new.stdout, new.stderr
                return 0
            if redirects:
                io = self.redirect(redirects, io, owned)
            values = [self.assignment(a) for a in assigns]
            if not argv:
                for name, value in values:
                    self.state.set_var(name, value)
                return self.subst_status or 0
            return self.run_argv(argv, io, dict(values))
        except ShellError as exc:
            self.error(exc.message, io)
            if exc.fatal:
                raise ExitShell(exc.status) from None
            return exc.status
        finally:
            self.io = saved_io
            _close_all(owned)

    def expand_argv(self, words: list[str]) -> list[str]:
        if not words:
            return []
        if words[0] in _DECLARATION_BUILTINS:
            # Declaration builtins take assignment words: `export A=$x` is not split.
            out = [words[0]]
            for w in words[1:]:
                if "=" in w and w.split("=", 1)[0].isidentifier():
                    out.append(self.expander.string(w, assignment=True))
                else:
                    out.extend(self.expander.fields([w]))
            return out
        return self.expander.fields(words)

    def assignment(self, raw: str) -> tuple[str, str]:
        name, _, value_raw = raw.partition("=")
        value = self.expander.string(value_raw, assignment=True)
        if name.endswith("+"):
            name = name[:-1]
            value = self.state.vars.get(name, "") + value
        return name, value

    def run_argv(self, argv: list[str], io: IO, prefix: Mapping[str, str] | None = None) -> int:
        """Run one expanded command: function, builtin, or external program."""
        name = argv[0]
        fn = self.state.functions.get(name)
        if fn is not None:
            with _TemporaryVars(self.state, prefix, export=True):
                return self.call_function(fn, argv, io)
        builtin = BUILTINS.get(name)
        if builtin is not None:
            with _TemporaryVars(self.state, prefix, export=False):
                return builtin(self, argv, io)
        return self.run_external(argv, io, prefix)

    def run_external(self, argv: list[str], io: IO, prefix: Mapping[str, str] | None = None) -> int:
        st = self.state
        env = st.environ(prefix)
        name = argv[0]
        if (
            resolve.is_path_word(name, self.platform)
            or "/" in name
            or (self.platform == "win32" and "\\" in name)
        ):
            if "\0" in name:
                self.error(f"{name!r}: invalid file name (NUL byte)", io)
                return 126
            plan = resolve.plan_file(name, argv[1:], cwd=st.cwd, env=env, platform=self.platform)
            if plan.kind == "shebang" and self._standin(plan.argv[0], env):
                return self.run_standin(list(plan.argv), env, io)
            if plan.kind == "error":
                _write_error_line(io, plan.message)
                return plan.exit_code
            if plan.kind == "script":
                return self.run_script_file(plan.source, name, argv[1:], env, io)
            return self.spawn_and_wait(list(plan.argv), env, io)
        if self._standin(name, env):
            return self.run_standin(argv, env, io)
        exe = None
        if "\0" not in name:
            exe = resolve.find_executable(name, env=env, cwd=st.cwd, platform=self.platform)
        if exe is None:
            self.error(f"{name}: command not found", io)
            return 127
        if resolve.is_windows(self.platform):
            run = list(resolve.command_argv(exe, argv[1:], self.platform))
        else:
            # The child sees the name as typed in argv[0] (its messages say `cat:`, not
            # `/usr/bin/cat:`); the OS finds the same file through the same PATH.
            run = list(argv)
        return self.spawn_and_wait(run, env, io)

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
        )
        if self.notes.route is None:
            self.notes.route = ran.route
        if ran.unsupported is not None and self.notes.unsupported is None:
            self.notes.unsupported = ran.unsupported
        return ran.status

    def run_script_file(
        self, source: str, path: str, args: list[str], env: Mapping[str, str], io: IO
    ) -> int:
        """A shebang-less script: a fresh shell (only exported variables) in-process."""
        from hookrun.dispatch.shell.parse import ShellSyntaxError, parse
        from hookrun.dispatch.shell.prepass import Unsupported

        state = ShellState.create(env, self.state.cwd)
        state.argv0 = path
        state.params = list(args)
        child = Interp(state, io, self.procs, self.guard, self.platform, self.notes)
        try:
            program = parse(source)
        except ShellSyntaxError as exc:
            self.error(f"{path}: syntax error: {exc}", io)
            return 2
        except Unsupported as exc:
            return child.fallback(source, exc.construct, path, args, io)
        return child.run_top(program.nodes, program.source, io.copy())

    def fallback(self, source: str, construct: str, argv0: str, args: Sequence[str], io: IO) -> int:
        """Hand a whole script we do not interpret to a real shell, or explain why not."""
        env = self.state.environ()
        for name in FALLBACK_SHELLS:
            exe = resolve.find_executable(name, env=env, cwd=self.state.cwd, platform=self.platform)
            if exe is None:
                continue
            self.notes.route = "sh-fallback"
            return self.spawn_and_wait([exe, "-c", source, argv0, *args], env, io)
        self.notes.unsupported = construct
        self.error(unsupported_message(construct, no_sh=True), io)
        return 2

    def run_top(self, nodes: Sequence[Any], source: str, io: IO) -> int:
        """Run a whole script: ``exit``, the EXIT trap and fatal errors are handled here."""
        try:
            status = self.run_program(nodes, source, io)
        except ReturnFromFunction as ret:
            status = ret.code
        except LoopControl:
            status = self.state.status
        try:
            if self.exit_trap:
                trap, self.exit_trap = self.exit_trap, None
                self.state.status = status
                try:
                    self.run_source(trap, io)
                except ExitShell as exc:
                    status = exc.code
        finally:
            _close_all(self.exec_owned)
            self.exec_owned = []
        return status

    def spawn_and_wait(self, argv: list[str], env: Mapping[str, str], io: IO) -> int:
        try:
            proc = self.procs.spawn(
                argv,
                cwd=self.state.cwd,
                env=env,
                stdin=io.stdin.fileno(),
                stdout=io.stdout.fileno(),
                stderr=io.stderr.fileno(),
            )
        except SpawnError as exc:
            _write_error_line(io, exc.message)
            return exc.exit_code
        if self.spawn_hook is not None:
            hook, self.spawn_hook = self.spawn_hook, None  # only the job's first child
            hook(proc)
            if self.spawned is not None:
                self.spawned.set()
        return self.procs.wait(proc, self.guard)

    # -- redirections ----------------------------------------------------------
    def redirect(self, redirects: list[Any], io: IO, owned: list[Closable]) -> IO:
        streams: dict[int, Any] = {0: io.stdin, 1: io.stdout, 2: io.stderr}
        for r in redirects:
            kind = r.type
            fd = r.input if isinstance(r.input, int) else None
            target = r.output
            doc = _heredoc_key(self.raw(target)) if kind == "<" else None
            if doc is not None:
                streams[_fd(fd, 0)] = self.heredoc(doc, owned)
            elif kind == "<<<":
                text = self.expander.string(self.raw(target)) + "\n"
                src = BufferSource(encode(text))
                owned.append(src)
                streams[_fd(fd, 0)] = src
            elif kind in (">&", "<&") and isinstance(target, int):
                streams[_fd(fd, 1 if kind == ">&" else 0)] = streams[_fd(target, 1)]
            elif kind in (">&", "<&") and target == "-":
                streams[_fd(fd, 1 if kind == ">&" else 0)] = self.open_file(os.devnull, kind, owned)
            elif kind in ("&>", "&>>") or (kind == ">&" and fd is None):
                sink = self.open_file(
                    self.expander.string(self.raw(target)), ">>" if kind == "&>>" else ">", owned
                )
                streams[1] = streams[2] = sink
            elif kind in (">", ">>", ">|", "<"):
                path = self.expander.string(self.raw(target))
                default = 0 if kind == "<" else 1
                streams[_fd(fd, default)] = self.open_file(path, kind, owned, streams)
            else:
                raise ShellError(f"redirection '{kind}' is not supported", 2)
        return IO(streams[0], streams[1], streams[2])

    def open_file(
        self,
        path: str,
        kind: str,
        owned: list[Closable],
        streams: Mapping[int, Any] | None = None,
    ) -> Any:
        special = {"/dev/stdin": 0, "/dev/stdout": 1, "/dev/stderr": 2}
        if streams is not None and path in special:
            return streams[special[path]]
        if path == "/dev/null":
            path = os.devnull  # so `>/dev/null` works on Windows too
        full = path if os.path.isabs(path) else os.path.join(self.state.cwd, path)
        flags = {
            "<": os.O_RDONLY,
            "<&": os.O_RDONLY,
            ">": os.O_WRONLY | os.O_CREAT | os.O_TRUNC,
            ">|": os.O_WRONLY | os.O_CREAT | os.O_TRUNC,
            ">&": os.O_WRONLY | os.O_CREAT | os.O_TRUNC,
            ">>": os.O_WRONLY | os.O_CREAT | os.O_APPEND,
        }[kind]
        flags |= getattr(os, "O_BINARY", 0) | getattr(os, "O_CLOEXEC", 0)
        try:
            fd = os.open(full, flags, 0o666)
        except OSError as exc:
            raise ShellError(f"{path}: {exc.strerror or exc}", 1) from None
        except ValueError:  # a NUL byte in the name
            raise ShellError(f"{path!r}: invalid file name", 1) from None
        stream: Closable = FdSource(fd) if kind in ("<", "<&") else FdSink(fd)
        owned.append(stream)
        return stream

    def heredoc(self, key: int, owned: list[Closable]) -> BufferSource:
        """A here-document's body (read by the pre-pass, tabs stripped for ``<<-``)."""
        from hookrun.dispatch.shell.prepass import snippet

        _, body, how = snippet(key)
        if how == "expand":
            body = self.expander.heredoc(body)
        src = BufferSource(encode(body))
        owned.append(src)
        return src


def _heredoc_key(word: str) -> int | None:
    """The snippet index in a pre-pass here-document word, or None for any other word."""
    key = word[len(HEREDOC_PREFIX) :] if word.startswith(HEREDOC_PREFIX) else ""
    return int(key) if key.isascii() and key.isdigit() else None


class _ListNode:
    """A list node made up by the interpreter (an and-or list run in the background)."""

    __slots__ = ("parts", "kind")

    def __init__(self, parts: list[Any]) -> None:
        self.parts = parts
        self.kind = "list"


def _and_or_end(parts: Sequence[Any], i: int) -> int:
    """Index of the operator ending the and-or list that starts at ``parts[i]`` (or len)."""
    j = i + 1
    while j < len(parts) and parts[j].kind == "operator" and parts[j].op in ("&&", "||"):
        j += 2
    return j


def _open_shared(sink: ByteSink) -> None:
    """Give ``sink`` its descriptor now, in this thread (CaptureSink creates it lazily)."""
    sink.fileno()


def _set_pid(job: _Job, proc: Any) -> None:
    job.pid = proc.pid
    job.proc = proc


def _fd(fd: int | None, default: int) -> int:
    fd = default if fd is None else fd
    if fd not in (0, 1, 2):
        raise ShellError(
            f"redirection of file descriptor {fd} is not supported (only 0, 1 and 2)", 2
        )
    return fd


def _close_all(owned: Sequence[Any]) -> None:
    for stream in owned:
        with contextlib.suppress(OSError):
            stream.close()


def _write_error_line(io: IO, message: str) -> None:
    with contextlib.suppress(OSError):
        io.stderr.write(encode(message.rstrip("\n") + "\n"))


def _run_stage(sub: Interp, node: Any, io: IO, result: _Stage) -> None:
    """Run one pipeline stage or background job; never raises (errors become statuses)."""
    try:
        result.status = sub.run_top([node], sub.src, io)
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
            st.vars[name] = value
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
