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

    def __init__(self, body: Any, source: bytes) -> None:
        self.body = body  # a hookrun.shellsyntax.nodes.Stmt
        self.source = source  # the text the node's positions refer to


class Array:
    """An indexed (``declare -a``, int keys, sparse) or associative (``-A``) array."""

    __slots__ = ("assoc", "items")

    def __init__(self, assoc: bool = False, items: dict[Any, str] | None = None) -> None:
        self.assoc = assoc
        self.items: dict[Any, str] = {} if items is None else items

    def copy(self) -> Array:
        return Array(self.assoc, dict(self.items))

    def values(self) -> list[str]:
        if self.assoc:
            return list(self.items.values())
        return [self.items[k] for k in sorted(self.items)]

    def keys(self) -> list[str]:
        if self.assoc:
            return list(self.items)
        return [str(k) for k in sorted(self.items)]

    def append(self, value: str) -> None:
        self.items[max(self.items, default=-1) + 1] = value


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
        "arrays",
        "readonly",
        "options",
        "dirstack",
        "aliases",
        "umask",
        "hashed",
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
        locals_stack: list[dict[str, Any]] | None = None,
        arrays: dict[str, Array] | None = None,
        readonly: set[str] | None = None,
        options: set[str] | None = None,
        dirstack: list[str] | None = None,
        aliases: dict[str, str] | None = None,
        umask: int = 0o022,
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
        # One dict per active function call: name -> what it was before `local`
        # (a str, an Array, or None for unset).
        self.locals_stack: list[dict[str, Any]] = [] if locals_stack is None else locals_stack
        self.arrays: dict[str, Array] = {} if arrays is None else arrays
        self.readonly: set[str] = set() if readonly is None else readonly
        # `set -o` / `shopt` options by bash's long name (noglob, xtrace, nullglob, …);
        # errexit, nounset and pipefail are attributes of their own (read on every command).
        self.options: set[str] = set() if options is None else options
        self.dirstack: list[str] = [] if dirstack is None else dirstack
        self.aliases: dict[str, str] = {} if aliases is None else aliases
        self.umask = umask
        self.hashed: dict[str, str] = {}

    @classmethod
    def create(cls, env: Mapping[str, str], cwd: str) -> ShellState:
        state = cls(vars=dict(env), exported=set(env), cwd=cwd)
        # As bash: IFS starts as space, tab, newline whatever the environment says (an
        # inherited IFS would change how every hook splits words), and is not exported.
        state.vars["IFS"] = " \t\n"
        state.exported.discard("IFS")
        state.vars.setdefault("OPTIND", "1")
        return state

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
            arrays={k: a.copy() for k, a in self.arrays.items()},
            readonly=set(self.readonly),
            options=set(self.options),
            dirstack=list(self.dirstack),
            aliases=dict(self.aliases),
            umask=self.umask,
        )

    def environ(self, extra: Mapping[str, str] | None = None) -> dict[str, str]:
        """The environment a child sees: exported variables, then ``extra`` on top."""
        env = {k: v for k, v in self.vars.items() if k in self.exported}
        if extra:
            env.update(extra)
        return env

    def set_var(self, name: str, value: str) -> None:
        """Assign a scalar (element 0 of an array of that name). Raises on readonly."""
        if name in self.readonly:
            raise ShellError(f"{name}: readonly variable", 1)
        arr = self.arrays.get(name)
        if arr is not None:
            arr.items["0" if arr.assoc else 0] = value
            return
        self.vars[name] = value

    def get_var(self, name: str) -> str | None:
        value = self.vars.get(name)
        if value is None and name in self.arrays:
            arr = self.arrays[name]
            return arr.items.get("0" if arr.assoc else 0)
        return value

    def unset_var(self, name: str) -> None:
        if name in self.readonly:
            raise ShellError(f"unset: {name}: cannot unset: readonly variable", 1)
        self.vars.pop(name, None)
        self.arrays.pop(name, None)
        self.exported.discard(name)

    def set_array(self, name: str, arr: Array) -> None:
        if name in self.readonly:
            raise ShellError(f"{name}: readonly variable", 1)
        self.vars.pop(name, None)
        self.arrays[name] = arr

    def make_local(self, name: str) -> None:
        if not self.locals_stack:
            return
        frame = self.locals_stack[-1]
        if name not in frame:
            if name in self.arrays:
                frame[name] = self.arrays[name]
            else:
                frame[name] = self.vars.get(name)

    def pop_locals(self) -> None:
        frame = self.locals_stack.pop()
        for name, old in frame.items():
            self.vars.pop(name, None)
            self.arrays.pop(name, None)
            if isinstance(old, Array):
                self.arrays[name] = old
            elif old is not None:
                self.vars[name] = old
