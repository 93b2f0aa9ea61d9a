"""hookrun's in-process shell: runs hook command strings with no ``sh`` needed, on any OS.

:class:`Shell` is the entry point dispatch uses. ``run_argv`` runs one already-split
command (no parsing: a builtin like ``echo`` costs microseconds); ``run_script`` parses
shell source with :mod:`hookrun.shellsyntax` (tree-sitter-bash, loaded on first use) and
interprets the tree (:mod:`.interp`). Programs run through an exec handler
(:mod:`.handler`), which tests and policies may replace.

A construct the front end does not handle (:class:`~hookrun.shellsyntax.Unsupported`)
is handed whole to a POSIX shell on PATH when there is one (``route == "sh-fallback"``),
and otherwise fails with exit 2 and a message naming the construct and the shebang
escape hatch.

Windows paths: ``run_argv`` never touches its words, so ``C:\\tools\\x.exe`` keeps its
backslashes. Inside a script, backslashes follow POSIX quoting, as in any shell: write
``'C:\\tools\\x.exe'`` (single quotes) or ``C:/tools/x.exe``; an unquoted ``C:\\tools``
becomes ``C:tools``.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Mapping, Sequence

from hookrun.dispatch.cancel import Guard, Interrupted
from hookrun.dispatch.procs import ProcessTracker
from hookrun.dispatch.shell.interp import (
    FALLBACK_SHELLS,
    IO,
    Interp,
    RunNotes,
    ShellProcess,
    encode,
)
from hookrun.dispatch.shell.state import AbortScript, ExitShell, ShellError, ShellState
from hookrun.dispatch.streams import ByteSink, ByteSource
from hookrun.records import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

    from hookrun.dispatch.shell.handler import ExecHandler
    from hookrun.shellsyntax.nodes import Script

# The exec seam's types live in hookrun.dispatch.shell.handler (not imported here: a hook
# of plain commands never needs them at start-up).
__all__ = ["Shell", "FALLBACK_SHELLS"]


# hookrun.shellsyntax once a script ran (the front end is imported on first use; kept,
# as an import statement costs a few thousand instructions each time it runs).
_syntax: Any = None


class Shell:
    """One hook's shell: its own variables and cwd, sharing nothing with other shells."""

    # Start values read from the class until set (every hook's run builds a shell).
    _process: ShellProcess | None = None
    _previous_owner: dict[str, str] | None = None
    # The notes made at construction are fresh until the first run; later runs need new.
    _ran = False

    def __init__(
        self,
        cwd: str,
        env: Mapping[str, str],
        stdin: ByteSource,
        stdout: ByteSink,
        stderr: ByteSink,
        procs: ProcessTracker,
        guard: Guard,
        platform: str = sys.platform,
        standin_mode: str = "auto",
        *,
        exec_handler: ExecHandler | None = None,
        process: ShellProcess | None = None,
    ) -> None:
        """``process``: what bash would run this shell as, for ``kill`` (a `bash …`
        started by another in-process shell); it becomes this shell's until
        :meth:`release`. None: a process of its own.

        The first nine may be given in order (dispatch does, on every run: the call
        with nine keywords cost ~4k instructions more, callgrind)."""
        if process is not None:
            self._process = process
            self._previous_owner = process.owner
        # (All in order: a keyword argument to a class makes a dict for its __init__.)
        self._interp = Interp(
            ShellState.create(env, cwd),
            IO(stdin, stdout, stderr),
            procs,
            guard,
            platform,
            RunNotes(None, False, standin_mode),  # (route, ended, standin)
            exec_handler,
            process,
        )
        if process is not None:  # (a process of its own already names its traps)
            process.owner = self._interp.traps

    def release(self) -> None:
        """Give the process given at construction back to the shell that had it."""
        if self._process is not None:
            self._process.owner = self._previous_owner

    def notes(self) -> RunNotes:
        """What the last run learned (``route``, ``unsupported``): dispatch reads both
        after every run, through this one call (two properties cost ~2k instructions)."""
        return self._interp.notes

    @property
    def route(self) -> str | None:
        """``"sh-fallback"`` if any part of the run was handed to a real shell, else None."""
        return self._interp.notes.route

    @property
    def unsupported(self) -> str | None:
        """The construct the last run could not interpret (no real shell ran it), or None.

        The run then exited 2; dispatch reports it as an error rather than a deny."""
        return self._interp.notes.unsupported

    def run_argv(self, argv: Sequence[str]) -> int:
        """Run one already-split simple command (no parsing, no expansion)."""
        if not argv:
            return 0
        sh = self._interp
        self._ran = True
        try:
            status = sh.run_argv(list(argv), sh.io)
        except ExitShell as exc:
            status = exc.code
        except (Interrupted, KeyboardInterrupt):
            raise
        except Exception as exc:  # never a traceback for any input
            status = self._internal_error(exc)
        sh.state.status = status
        return status

    def run_script(
        self,
        source: str,
        *,
        argv0: str = "hookrun",
        args: Sequence[str] = (),
        invoked: str = "c",
    ) -> int:
        """Parse and run ``source`` with ``$0`` = ``argv0`` and ``$1…`` = ``args``.

        ``invoked`` says where the script came from as bash's ``$-`` does: "c" a
        command string, "s" stdin, "" a file.
        """
        global _syntax
        if _syntax is None:
            import hookrun.shellsyntax

            _syntax = hookrun.shellsyntax
        sh = self._interp
        # Fresh notes per run: background threads of an earlier run keep the old (ended)
        # ones. The first run has the ones the constructor made.
        if self._ran:
            sh.notes = RunNotes(sh.notes.route, False, sh.notes.standin)
        self._ran = True
        st = sh.state
        st.argv0 = argv0
        st.params = list(args) if args else []
        st.invoked = invoked
        st.origin = (source if invoked == "c" else None, (), False)  # BASH_EXECUTION_STRING
        then_error: str | None = None
        try:
            script = _syntax.parse(source)
        except _syntax.ShellSyntaxError as exc:  # (looked up only when one is raised)
            # bash reads and runs a script one complete command at a time: those before
            # the error run (an EXIT trap set there fires), then it stops with status 2.
            before = _commands_before(source)
            if before is None:
                sh.error(f"syntax error: {exc}")
                return 2
            script, then_error = before, f"syntax error: {exc}"
        except _syntax.Unsupported as exc:
            return self._fallback(source, str(exc), argv0, args)
        except (Interrupted, KeyboardInterrupt):
            raise
        except Exception as exc:
            return self._internal_error(exc)
        try:
            return sh.run_top(script.stmts, script.source, sh.io.copy(), then_error)
        except (Interrupted, KeyboardInterrupt):
            raise
        except BrokenPipeError:
            return 141
        except AbortScript as exc:
            return exc.code
        except ShellError as exc:
            sh.error(exc.message)
            return exc.status
        except RecursionError:
            sh.error("commands nested too deeply for the in-process shell")
            return 2
        except Exception as exc:
            return self._internal_error(exc)
        finally:
            if sh.notes.psubs is not None or sh.notes.psub_dir is not None:
                # Their output is the run's too: waited for before the run ends.
                from hookrun.dispatch.shell.procsub import finish

                finish(sh)
            sh.notes.ended = True

    def _fallback(self, source: str, construct: str, argv0: str, args: Sequence[str]) -> int:
        sh = self._interp
        return sh.fallback(source, construct, argv0, args, sh.io)

    def _internal_error(self, exc: BaseException) -> int:
        # A bug of the shell is the hook's failure (dispatch reports it as the run's
        # error, on_error decides) — never its exit 2, which on a blocking event reads
        # as "deny", nor an allow.
        if self._interp.notes.unsupported is None:
            self._interp.notes.unsupported = (
                f"what it failed on (internal error: {type(exc).__name__}: {exc})"
            )
        with contextlib.suppress(OSError):
            self._interp.io.stderr.write(
                encode(
                    f"hookrun: internal error in the in-process shell: "
                    f"{type(exc).__name__}: {exc}\n"
                )
            )
        return 2


# How many shorter prefixes to try before giving up on running any of a broken script
# (only a script with a syntax error pays for these parses).
_PREFIX_TRIES = 64


def _commands_before(source: str) -> Script | None:
    """The complete commands before ``source``'s syntax error, parsed; None when there
    are none (or none is found within :data:`_PREFIX_TRIES` prefixes).

    bash reads whole lines, so the commands it runs are the longest run of whole lines
    that parses (the grammar often places the error earlier than it is).
    """
    from hookrun.shellsyntax import ShellSyntaxError, Unsupported, parse

    lines = source.splitlines(keepends=True)
    for keep in range(len(lines) - 1, max(0, len(lines) - 1 - _PREFIX_TRIES), -1):
        try:
            script = parse("".join(lines[:keep]))
        except ShellSyntaxError:
            continue  # the bad command started on an earlier line
        except Unsupported:
            return None
        return script if script.stmts else None
    return None
