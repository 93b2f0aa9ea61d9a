"""One interpreter's mutable state: variables, cwd, positional parameters, functions.

It lives in a plain object owned by one :class:`~hookrun.dispatch.shell.Shell` and is
copied for subshells (``( … )``, pipeline stages, ``$( … )``, background jobs). Nothing
here reads or writes ``os.environ`` or the process's working directory: ten shells in ten
threads each see only their own.

Plain slotted classes, not dataclasses: the shell is on the start-up path of every
``hookrun run`` with an inline hook (dataclasses cost half a bare start-up).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from time import time

from hookrun.records import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from typing import Any

    from hookrun.shellsyntax.nodes import Stmt


class ExitShell(Exception):
    """``exit N`` (or a fatal error): unwinds to the top of the current (sub)shell."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


class DiscardLine(ExitShell):
    """bash's "discard the current command": the rest of the top-level line is skipped.

    Assigning to a readonly variable does this in a non-interactive bash (outside POSIX
    mode): the message, then status 1 and the script goes on at its next line. Where a
    (sub)shell has no top-level line of its own to skip to, it is an ``exit 1`` there.
    """


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
    """``break N`` / ``continue N``: ``levels`` loops up; the loop ends with ``status``
    (1 after ``break 0``, which bash reports and then leaves every loop)."""

    def __init__(self, kind: str, levels: int, status: int = 0) -> None:
        super().__init__(kind)
        self.kind = kind
        self.levels = levels
        self.status = status


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


class ExpansionFailure(ShellError):
    """An arithmetic error or a negative substring length while expanding a word.

    bash discards the rest of the top-level line (:class:`DiscardLine`, status 1) and
    goes on with the next; where the arithmetic is a command's own (``(( ))``, ``let``,
    ``[[ -eq ]]``, ``for (( ))``) the command fails with status 1 instead.
    """

    def __init__(self, message: str) -> None:
        super().__init__(message, 1, fatal=True)


class NotAssigned(ShellError):
    """An assignment through a nameref whose chain is circular or names what cannot
    be assigned: as a readonly variable's (see :class:`DiscardLine`), not fatal."""


class ReadonlyVariable(ShellError):
    """An assignment to a readonly variable (see :class:`DiscardLine`)."""

    def __init__(self, name: str) -> None:
        super().__init__(f"{name}: readonly variable", 1)


class Function:
    __slots__ = ("body", "source", "file")

    def __init__(self, body: Any, source: bytes, file: str = "environment") -> None:
        self.body = body  # a hookrun.shellsyntax.nodes.Stmt
        self.source = source  # the text the node's positions refer to
        self.file = file  # the file it was defined in, as BASH_SOURCE names it


class _Shadowed:
    """A caller's variable with attributes, put aside by ``local`` (see make_local)."""

    __slots__ = ("value", "attrs", "ref", "declared")

    def __init__(self, value: Any, attrs: str, ref: str | None, declared: bool) -> None:
        self.value = value
        self.attrs = attrs
        self.ref = ref
        self.declared = declared  # declared without a value (``declare -i x``)


class Array:
    """An indexed (``declare -a``, int keys, sparse) or associative (``-A``) array."""

    __slots__ = ("assoc", "items", "bare")

    def __init__(
        self, assoc: bool = False, items: dict[Any, str] | None = None, *, bare: bool = False
    ) -> None:
        self.assoc = assoc
        self.items: dict[Any, str] = {} if items is None else items
        # Declared (`declare -a x`) but never assigned: `declare -p` shows no `=()`.
        self.bare = bare

    def copy(self) -> Array:
        return Array(self.assoc, dict(self.items), bare=self.bare)

    def ordered(self) -> list[tuple[Any, str]]:
        """(key, value) pairs in the order bash lists them (``${!a[@]}``, ``declare -p``).

        Indexed arrays by index. Associative ones in the order of bash's hash table,
        which scripts see (and tests pin): 1024 buckets by FNV-1 hash of the key, the
        newest key first within a bucket. (bash grows the table past 2048 keys, which
        reorders it; arrays that large are listed as if it had not.)
        """
        if not self.assoc:
            return sorted(self.items.items())
        return [(k, self.items[k]) for k in hash_order(list(self.items), 1024)]

    def values(self) -> list[str]:
        return [v for _, v in self.ordered()]

    def keys(self) -> list[str]:
        return [str(k) for k, _ in self.ordered()]

    def append(self, value: str) -> None:
        self.items[max(self.items, default=-1) + 1] = value
        self.bare = False


_NAME_START = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")


def is_name(text: str) -> bool:
    """``text`` is a variable name (``[A-Za-z_]\\w*``, ``\\w`` as Python's ``re`` reads
    it). By hand, not a regex: assignments ask, and the first regex a run compiles
    imports ``re`` (~1.8 ms of a hook's start-up)."""
    if text.isascii():  # the usual case, in two C calls: exactly [A-Za-z_][A-Za-z0-9_]*
        return text.isidentifier()
    if text[:1] not in _NAME_START:
        return False
    rest = text[1:].replace("_", "")
    return not rest or rest.isalnum()


# Names whose assignment does more than store a value (set_var tests them in one go).
_WATCHED = frozenset(("PATH", "SECONDS", "RANDOM", "BASH_ARGV0"))

# SHLVL for an inherited SHLVL: the usual ones looked up (a run builds one), the rest
# computed by shellvars.next_level.
_LEVELS: dict[str | None, str] = {None: "1", "": "1", "0": "1", "1": "2", "2": "3", "3": "4"}


def _next_level(env: Mapping[str, str]) -> str:
    from hookrun.dispatch.shell.shellvars import next_level  # rare: loaded here

    return next_level(env.get("SHLVL"))


def _same_dir(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):
        return False


def _bucket(key: str, buckets: int = 1024) -> int:
    """bash's ``hash_string`` (FNV-1, over C's signed chars) modulo its buckets
    (1024 for an associative array, 256 for the command hash)."""
    h = 2166136261
    for b in key.encode("utf-8", "surrogateescape"):
        h = ((h * 16777619) & 0xFFFFFFFF) ^ (b if b < 128 else b + 0xFFFFFF00)
    return h & (buckets - 1)


def hash_order(keys: list[str], buckets: int) -> list[str]:
    """``keys`` (oldest first) in the order bash's hash table lists them."""
    order = sorted(range(len(keys)), key=lambda n: (_bucket(keys[n], buckets), -n))
    return [keys[n] for n in order]


_NO_NAMES: frozenset[str] = frozenset()


class OptionsSnapshot(NamedTuple):
    """``local -``: the `set` options of a function's caller, put back when it returns
    (`shopt` options are not, as in bash)."""

    options: frozenset[str]
    errexit: bool
    nounset: bool
    pipefail: bool

    def restore(self, st: ShellState) -> None:
        from hookrun.dispatch.shell.options import SET_LONG  # rare: `local -` only

        def is_set_option(name: str) -> bool:
            return name.removeprefix("no-") in SET_LONG

        st.options = {o for o in st.options if not is_set_option(o)} | {
            o for o in self.options if is_set_option(o)
        }
        st.errexit, st.nounset, st.pipefail = self.errexit, self.nounset, self.pipefail


# bash's own variables the in-process shell makes when they are read (expand's
# _DYNAMIC and _SHELL_SCALARS, LINENO): `unset` makes one an ordinary name for the rest
# of the run, as in bash, but for these, which bash refuses to unset.
SPECIALS = frozenset(
    {
        "RANDOM", "SRANDOM", "SECONDS", "LINENO", "BASHPID", "BASH_COMMAND",
        "BASH_SUBSHELL", "BASH_VERSION", "BASH", "FUNCNAME", "HOOKRUN_SHELL", "OSTYPE",
        "HOSTTYPE", "MACHTYPE", "HOSTNAME", "EPOCHSECONDS", "EPOCHREALTIME", "OPTERR", "PS4",
        "BASH_ARGC", "BASH_ARGV", "BASH_ARGV0", "BASH_ALIASES", "BASH_CMDS",
        "BASH_EXECUTION_STRING", "BASH_LOADABLES_PATH",
    }
)  # fmt: skip
_NO_ORIGIN: tuple[str | None, tuple[str, ...], bool] = (None, (), False)
_READONLY_SPECIALS = frozenset({"BASH_VERSINFO", "SHELLOPTS", "BASHOPTS", "EUID", "PPID", "UID"})
_KEPT_SPECIALS = frozenset({"BASH_SOURCE", "BASH_LINENO"})


class ShellState:
    __slots__ = (
        "vars",
        "_exported",
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
        "invoked",
        "attrs",
        "declared",
        "_names",
        "funcnames",
        "callsites",
        "sources",
        "subshell",
        "started",
        "refs",
        "limits",
        "bashpid",
        "disabled",
        "subscripts",
        "unset_specials",
        "rseed",
        "origin",
    )

    def __init__(self, vars: dict[str, str], exported: set[str] | None, cwd: str) -> None:
        # Three arguments, the rest at their start values: every hook's run builds one
        # (keyword arguments with defaults cost it ~2x); copy() sets the rest after.
        self.vars = vars
        # None: made on first use from the environment's names (see ``exported``).
        self._exported = exported
        self._names: Mapping[str, str] | None = None  # only its keys count; never changed
        self.cwd = cwd
        self.argv0 = "hookrun"
        self.params: list[str] = []
        self.functions: dict[str, Function] = {}
        self.errexit = False
        self.nounset = False
        self.pipefail = False
        self.status = 0
        self.last_bg_pid: int | None = None
        # One dict per active function call: name -> what it was before `local`
        # (a str, an Array, or None for unset).
        self.locals_stack: list[dict[str, Any]] = []
        self.arrays: dict[str, Array] = {}
        self.readonly: set[str] = set()
        # `set -o` / `shopt` options by bash's long name (noglob, xtrace, nullglob, …);
        # errexit, nounset and pipefail are attributes of their own (read on every command).
        self.options: set[str] = set()
        self.dirstack: list[str] = []
        self.aliases: dict[str, str] = {}
        # `umask MODE`'s mask, given to every child and new file; None: the process's own,
        # which children inherit untouched (read only when `umask` asks for it).
        self.umask: int | None = None
        # bash's command hash: name -> [path, hits]. Remembered on first use, so a
        # command found once keeps running from there until PATH is set or `hash -r`.
        self.hashed: dict[str, list[Any]] = {}
        # How the shell was started, as the last letter of bash's `$-` shows it: "c"
        # for a command string (a hook's command, `bash -c`), "s" for a script read
        # from stdin, "" for a script file. bash's status for some fatal errors
        # depends on it.
        self.invoked = "c"
        # Attributes beyond readonly/exported, by name: letters of `declare -ilutn`.
        self.attrs: dict[str, str] = {}
        # Names declared without a value (`declare x`, `local x`): unset, but
        # `declare -p` lists them.
        self.declared: set[str] = set()
        # The call stack, innermost first, one entry per function being run or file
        # being sourced (named "source", as bash does): ``FUNCNAME``; the file each was
        # defined in (or the sourced file): ``BASH_SOURCE``.
        self.funcnames: tuple[str, ...] = ()
        # Namerefs (``declare -n``) with a value: name -> the name it refers to (maybe
        # ``a[k]``). Kept apart from ``vars`` so that ``$x`` of an ordinary variable
        # never asks; every nameref also has "n" in ``attrs``.
        self.refs: dict[str, str] = {}
        self.sources: tuple[str, ...] = ()
        # bash's own variables (RANDOM, SECONDS, BASH_VERSION, …) unset by the script:
        # from then on ordinary names. Replaced, never changed in place.
        self.unset_specials: frozenset[str] = frozenset()
        # ``RANDOM=N``: bash's generator state, [seed, last value given]; None: not
        # seeded here, each value from the OS (expand._random).
        self.rseed: list[int] | None = None
        # (the command string of a `-c` run, else None; the positional parameters
        # when BASH_ARGV or BASH_ARGC was first read at the top level; whether it was)
        # — BASH_EXECUTION_STRING, BASH_ARGV, BASH_ARGC. Replaced, never changed in place.
        self.origin: tuple[str | None, tuple[str, ...], bool] = _NO_ORIGIN
        # Where each of those was called, innermost first: (the text run, the calling
        # statement in it; None: none) — ``BASH_LINENO``, its line counted when read.
        self.callsites: tuple[tuple[bytes, Stmt | None], ...] = ()
        # ``BASH_SUBSHELL``: how many subshells deep (copy() counts one more).
        self.subshell = 0
        # `ulimit`'s settings for the programs the shell starts: resource -> (soft,
        # hard). Not this process's own (see ulimit.py).
        self.limits: dict[int, tuple[int, int]] = {}
        # ``BASHPID``: 0 in a shell of its own (this process's pid), -1 in a subshell
        # until read, then the number made for it (shellvars.bash_pid).
        self.bashpid = 0
        # Builtins turned off by `enable -n` (replaced, never changed in place).
        self.disabled: frozenset[str] = _NO_NAMES
        # Set once a nameref's target holds `$`: a weak reference to the shell's method
        # that expands such a subscript (`declare -n r='a[$(f) + 1]'`), read through it.
        self.subscripts: Any = None
        # (``started``: the time ``SECONDS`` counts from; set by create() and copy().)
        self.started: int

    # A property, not __getattr__: a class with __getattr__ has every attribute read of
    # its instances done the slow, generic way (CPython does not specialize them), and
    # the interpreter reads the state's attributes on every command.
    @property
    def exported(self) -> set[str]:
        """The exported names. A shell made by create() makes the set on first use: most
        hooks never export, unset or start a program, and building the set of the
        environment's ~40 names costs ~9k instructions."""
        exported = self._exported
        if exported is None:
            names = self._names
            exported = set()
            if names is not None:  # (create(): the environment's names, PWD, SHLVL, not IFS)
                exported.update(names)
                exported.add("PWD")
                exported.add("SHLVL")  # bash exports it even when the environment had none
                exported.discard("IFS")
            self._exported = exported
            self._names = None
        return exported

    @exported.setter
    def exported(self, value: set[str]) -> None:
        self._exported = value

    @classmethod
    def create(cls, env: Mapping[str, str], cwd: str) -> ShellState:
        # As bash: an inherited $PWD naming this same directory (through a symlink) is
        # the logical working directory; otherwise PWD becomes the directory given.
        pwd = env.get("PWD", "")
        if pwd != cwd and os.path.isabs(pwd) and _same_dir(pwd, cwd):
            cwd = pwd
        state = cls(dict(env), None, cwd)
        # What is exported: the environment's names, PWD, SHLVL, not IFS — made into a set on
        # first use (``exported``) from ``env`` itself, which the caller does not change
        # while its shell lives (dispatch's env for the run; a child's fresh environ()).
        # Not a copy: a copy of a hook's ~40 variables costs ~4k instructions a run.
        state._names = env
        state.vars["PWD"] = cwd
        # As bash: IFS starts as space, tab, newline whatever the environment says (an
        # inherited IFS would change how every hook splits words), and is not exported.
        state.vars["IFS"] = " \t\n"
        state.vars.setdefault("OPTIND", "1")
        if "RANDOM" in env:  # as bash: an inherited RANDOM neither seeds nor is kept
            del state.vars["RANDOM"]
        # As bash: one shell level deeper than the environment says (exported).
        state.vars["SHLVL"] = _LEVELS.get(env.get("SHLVL")) or _next_level(env)
        # As bash: whole seconds of the wall clock (SECONDS counts second boundaries passed).
        state.started = int(time())
        return state

    def copy(self) -> ShellState:
        """An independent copy for a subshell (functions are shared read-only)."""
        names = self._names
        if names is None:
            sub = ShellState(dict(self.vars), set(self.exported), self.cwd)
        else:  # not made yet: the subshell makes its own from the same names if it must
            sub = ShellState(dict(self.vars), None, self.cwd)
            sub._names = names
        sub.argv0 = self.argv0
        sub.params = list(self.params)
        sub.functions = dict(self.functions)
        sub.errexit = self.errexit
        sub.nounset = self.nounset
        sub.pipefail = self.pipefail
        sub.status = self.status
        sub.last_bg_pid = self.last_bg_pid
        sub.locals_stack = [dict(f) for f in self.locals_stack]
        sub.arrays = {k: a.copy() for k, a in self.arrays.items()}
        sub.readonly = set(self.readonly)
        sub.options = set(self.options)
        sub.dirstack = list(self.dirstack)
        sub.aliases = dict(self.aliases)
        sub.umask = self.umask
        sub.invoked = self.invoked
        sub.hashed = {k: list(v) for k, v in self.hashed.items()}
        sub.attrs = dict(self.attrs)
        sub.declared = set(self.declared)
        sub.funcnames = self.funcnames
        sub.refs = dict(self.refs)
        sub.callsites = self.callsites
        sub.sources = self.sources
        sub.subshell = self.subshell + 1
        sub.limits = dict(self.limits)
        sub.bashpid = -1
        sub.disabled = self.disabled
        sub.subscripts = self.subscripts
        sub.unset_specials = self.unset_specials
        sub.started = self.started
        sub.origin = self.origin
        return sub

    def current_file(self) -> str:
        """The file being run, as ``${BASH_SOURCE[0]}`` names it (under ``bash -c``,
        outside any sourced file: "environment", what bash names a function's file)."""
        if self.sources:
            return self.sources[0]
        return self.argv0 if self.invoked == "" else "environment"

    def environ(self, extra: Mapping[str, str] | None = None) -> dict[str, str]:
        """The environment a child sees: exported variables, then ``extra`` on top."""
        env = {k: v for k, v in self.vars.items() if k in self.exported}
        if self.refs:  # an exported nameref: the name it holds (as bash)
            env.update((k, v) for k, v in self.refs.items() if k in self.exported)
        if extra:
            env.update(extra)
        return env

    def set_var(self, name: str, value: str) -> None:
        """Assign a scalar (element 0 of an array of that name). Raises on readonly.

        Through a nameref, to what it names; a nameref with no value takes ``value``
        as the name it refers to (as bash's ``declare -n r; r=x``)."""
        if self.attrs:  # (no call for the usual shell, whose variables have none)
            if "n" in self.attrs.get(name, ""):
                self._set_through(name, value)
                return
            if name in self.readonly:
                raise ReadonlyVariable(name)
            value = self.cased(name, value)
        elif name in self.readonly:
            raise ReadonlyVariable(name)
        if name in _WATCHED:  # (one test for all, as the PATH test alone was)
            if name == "PATH":
                self.hashed.clear()
            elif self.special(name):
                from hookrun.dispatch.shell import shellvars  # rare: loaded here

                shellvars.assign_special(self, name, value)
                self.vars.pop(name, None)
                return
        arr = self.arrays.get(name)
        if arr is not None:
            arr.items["0" if arr.assoc else 0] = value
            return
        self.vars[name] = value

    def special(self, name: str) -> bool:
        """Whether ``name`` (one of bash's own variables) still has its meaning: not
        unset by the script, not a function's local (both make it an ordinary name)."""
        if name in self.unset_specials:
            return False
        return not any(name in frame for frame in self.locals_stack)

    def cased(self, name: str, value: str) -> str:
        """``value`` as a variable declared ``-u`` or ``-l`` stores it."""
        attrs = self.attrs.get(name)
        if attrs:
            if "i" in attrs:  # `declare -i`: the value is evaluated as arithmetic
                from hookrun.dispatch.shell.shellvars import integer  # rare: loaded here

                return str(integer(self, value))
            if "u" in attrs:
                return value.upper()
            if "l" in attrs:
                return value.lower()
            if "c" in attrs:  # `declare -c`: the first letter capitalized, the rest lower
                return value[:1].upper() + value[1:].lower()
        return value

    def appended(self, name: str, old: str | None, value: str) -> str:
        """``name+=value``: ``old`` then ``value`` (an integer variable's: their sum)."""
        if self.attrs and "i" in self.attrs.get(name, ""):
            from hookrun.dispatch.shell.shellvars import integer  # rare: `declare -i`

            return str(integer(self, old or "0") + integer(self, value))
        return (old or "") + value

    def get_var(self, name: str) -> str | None:
        value = self.vars.get(name)
        if value is None:
            if name in self.arrays:
                arr = self.arrays[name]
                return arr.items.get("0" if arr.assoc else 0)
            if name in self.refs:
                return self._get_through(name)
        return value

    # -- namerefs (``declare -n``): loaded with the first one, see namerefs.py -----
    def deref(self, name: str) -> str | None:
        """What the nameref ``name`` finally refers to (``x`` or ``a[k]``); None for a
        circular chain (bash warns)."""
        from hookrun.dispatch.shell.namerefs import deref  # rare: namerefs only

        return deref(self, name)

    def _set_through(self, name: str, value: str) -> None:
        from hookrun.dispatch.shell.namerefs import set_through  # rare: namerefs only

        set_through(self, name, value)

    def _get_through(self, name: str) -> str | None:
        from hookrun.dispatch.shell.namerefs import get_through  # rare: namerefs only

        return get_through(self, name)

    def unset_var(self, name: str, *, ref: bool = False) -> None:
        """``unset name`` (through a nameref to what it names; ``ref``: ``unset -n``)."""
        if not ref and name in self.refs:
            from hookrun.dispatch.shell.namerefs import unset_through  # rare

            unset_through(self, name)
            return
        if name in self.readonly or name in _READONLY_SPECIALS:
            raise ShellError(f"unset: {name}: cannot unset: readonly variable", 1)
        if name in _KEPT_SPECIALS:
            raise ShellError(f"unset: {name}: cannot unset", 1)
        if name in SPECIALS:  # (unset, it is an ordinary name from then on)
            self.unset_specials = self.unset_specials | {name}
        self.vars.pop(name, None)
        self.arrays.pop(name, None)
        self.exported.discard(name)
        self.attrs.pop(name, None)
        self.declared.discard(name)
        self.refs.pop(name, None)

    def set_element(self, name: str, key: str, value: str, index: Callable[[str], int]) -> None:
        """``name[key]=value`` (an indexed array's ``key`` is evaluated by ``index``;
        a scalar of that name becomes its element 0)."""
        if name in self.readonly:
            raise ReadonlyVariable(name)
        arr = self.arrays.get(name)
        if arr is None:
            arr = Array(False)
            old = self.vars.pop(name, None)
            if old is not None:
                arr.items[0] = old
            self.arrays[name] = arr
        value = self.cased(name, value)
        arr.bare = False  # assigned: `declare -p` shows `=(…)` even once it is empty again
        if arr.assoc:
            arr.items[key] = value
            return
        k = index(key)
        if k < 0:
            k += max(arr.items, default=-1) + 1
            if k < 0:
                raise ShellError(f"{name}[{key}]: bad array subscript", 1)
        arr.items[k] = value

    def set_array(self, name: str, arr: Array) -> None:
        if self.refs and name in self.refs:  # (mapfile, read -a of a nameref)
            from hookrun.dispatch.shell.namerefs import resolve

            name = resolve(self, name)
        if name in self.readonly:
            raise ReadonlyVariable(name)
        self.vars.pop(name, None)
        self.arrays[name] = arr

    def make_local(self, name: str) -> None:
        """``local name``: the caller's value is put aside and the local starts unset
        (a second ``local`` of the same name in one call changes nothing)."""
        if not self.locals_stack:
            return
        frame = self.locals_stack[-1]
        if name not in frame:
            if name in self.arrays:
                old: Any = self.arrays.pop(name)
            else:
                old = self.vars.pop(name, None)
            if (self.attrs and name in self.attrs) or name in self.declared:
                # The caller's attributes (and nameref) are put aside too: a local
                # starts with none, as in bash, and they come back on return.
                old = _Shadowed(
                    old,
                    self.attrs.pop(name, ""),
                    self.refs.pop(name, None),
                    name in self.declared,
                )
            frame[name] = old
            self.declared.add(name)

    def pop_locals(self) -> None:
        frame = self.locals_stack.pop()
        attrs = self.attrs
        for name, old in frame.items():
            if isinstance(old, OptionsSnapshot):  # `local -`
                old.restore(self)
                continue
            self.vars.pop(name, None)
            self.arrays.pop(name, None)
            self.declared.discard(name)
            if attrs:
                attrs.pop(name, None)
                self.refs.pop(name, None)
            if isinstance(old, _Shadowed):
                if old.attrs:
                    attrs[name] = old.attrs
                if old.ref is not None:
                    self.refs[name] = old.ref
                if old.declared:
                    self.declared.add(name)
                old = old.value
            if isinstance(old, Array):
                self.arrays[name] = old
            elif old is not None:
                self.vars[name] = old
