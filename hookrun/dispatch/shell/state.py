"""One interpreter's mutable state: variables, cwd, positional parameters, functions.

It lives in a plain object owned by one :class:`~hookrun.dispatch.shell.Shell` and is
copied for subshells (``( … )``, pipeline stages, ``$( … )``, background jobs). Nothing
here reads or writes ``os.environ`` or the process's working directory: ten shells in ten
threads each see only their own.

Plain slotted classes, not dataclasses: the shell is on the start-up path of every
``hookrun run`` with an inline hook (dataclasses cost half a bare start-up).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class ExitShell(Exception):
    """``exit N`` (or a fatal error): unwinds to the top of the current (sub)shell."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


class AbortScript(Exception):
    """The whole script must stop (a syntax error found late, inside ``$( )``).

    Unlike :class:`ExitShell` it is not stopped by subshells: bash would have refused
    the script before running any of it.
    """

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


class ReturnFromFunction(Exception):
    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


class LoopControl(Exception):
    """``break N`` / ``continue N``: ``levels`` loops up."""

    def __init__(self, kind: str, levels: int) -> None:
        super().__init__(kind)
        self.kind = kind
        self.levels = levels


class ShellError(Exception):
    """An error that ends the current command with ``status`` after printing ``message``.

    ``fatal`` errors (``set -u`` violations, bad substitutions) end a non-interactive
    shell, as POSIX requires.
    """

    def __init__(self, message: str, status: int = 1, *, fatal: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.fatal = fatal


class Function:
    __slots__ = ("body", "source")

    def __init__(self, body: Any, source: str) -> None:
        self.body = body  # a bashlex node
        self.source = source  # the (rewritten) source the node's positions refer to


class ShellState:
    __slots__ = (
        "vars",
        "exported",
        "cwd",
        "argv0",
        "params",
        "functions",
        "errexit",
        "nounset",
        "pipefail",
        "status",
        "last_bg_pid",
        "locals_stack",
        "case_values",
    )

    def __init__(
        self,
        *,
        vars: dict[str, str],
        exported: set[str],
        cwd: str,
        argv0: str = "hookrun",
        params: list[str] | None = None,
        functions: dict[str, Function] | None = None,
        errexit: bool = False,
        nounset: bool = False,
        pipefail: bool = False,
        status: int = 0,
        last_bg_pid: int | None = None,
        locals_stack: list[dict[str, str | None]] | None = None,
        case_values: dict[int, str] | None = None,
    ) -> None:
        self.vars = vars
        self.exported = exported
        self.cwd = cwd
        self.argv0 = argv0
        self.params: list[str] = [] if params is None else params
        self.functions: dict[str, Function] = {} if functions is None else functions
        self.errexit = errexit
        self.nounset = nounset
        self.pipefail = pipefail
        self.status = status
        self.last_bg_pid = last_bg_pid
        # One dict per active function call: name -> value before `local` (None = unset).
        self.locals_stack: list[dict[str, str | None]] = (
            [] if locals_stack is None else locals_stack
        )
        self.case_values: dict[int, str] = {} if case_values is None else case_values

    @classmethod
    def create(cls, env: Mapping[str, str], cwd: str) -> ShellState:
        return cls(vars=dict(env), exported=set(env), cwd=cwd)

    def copy(self) -> ShellState:
        """An independent copy for a subshell (functions are shared read-only)."""
        return ShellState(
            vars=dict(self.vars),
            exported=set(self.exported),
            cwd=self.cwd,
            argv0=self.argv0,
            params=list(self.params),
            functions=dict(self.functions),
            errexit=self.errexit,
            nounset=self.nounset,
            pipefail=self.pipefail,
            status=self.status,
            last_bg_pid=self.last_bg_pid,
            locals_stack=[dict(f) for f in self.locals_stack],
            case_values=dict(self.case_values),
        )

    def environ(self, extra: Mapping[str, str] | None = None) -> dict[str, str]:
        """The environment a child sees: exported variables, then ``extra`` on top."""
        env = {k: v for k, v in self.vars.items() if k in self.exported}
        if extra:
            env.update(extra)
        return env

    def set_var(self, name: str, value: str) -> None:
        self.vars[name] = value

    def unset_var(self, name: str) -> None:
        self.vars.pop(name, None)
        self.exported.discard(name)

    def make_local(self, name: str) -> None:
        if not self.locals_stack:
            return
        frame = self.locals_stack[-1]
        if name not in frame:
            frame[name] = self.vars.get(name)

    def pop_locals(self) -> None:
        frame = self.locals_stack.pop()
        for name, old in frame.items():
            if old is None:
                self.vars.pop(name, None)
            else:
                self.vars[name] = old
