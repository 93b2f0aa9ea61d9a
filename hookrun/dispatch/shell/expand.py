"""Word expansion over the typed tree: braces, tilde, parameters, substitutions,
arithmetic, field splitting, pathname expansion, quote removal.

Modelled on mvdan/sh's ``expand`` package: the expander is configured, not reached into.
It reads variables from a :class:`~hookrun.dispatch.shell.state.ShellState` (plain
data) and reaches the world only through :class:`Config`'s callbacks — running a
command substitution, listing a directory — so it is pure and tested without processes.

Each part of a word becomes pieces tagged with how they were quoted, because that
decides what follows: unquoted expansion results are split on IFS and globbed, quoted
text is neither, unquoted literal text is globbed but never split.
"""

from __future__ import annotations

import operator
import os
from collections.abc import Callable, Sequence

from hookrun.dispatch.shell.state import (
    ExpansionFailure,
    NotAssigned,
    ShellError,
    ShellState,
    is_name,
)
from hookrun.lazyre import compile as lazy_compile
from hookrun.records import TYPE_CHECKING, NamedTuple
from hookrun.shellsyntax.nodes import (
    ArithExp,
    CallExpr,
    CmdSubst,
    DblQuoted,
    Lit,
    ParamExp,
    ProcSubst,
    SglQuoted,
    Stmt,
    Word,
    WordPart,
)

if TYPE_CHECKING:
    import re
    from typing import Any

# `re` itself is imported where a pattern is compiled from text known only at run time
# (a glob, IFS, `=~`): it is ~6M instructions (~1.8 ms) of the shell path's import, and
# a hook that matches no pattern never needs it (tests/shellsyntax/imports_test).

# The arithmetic evaluator, loaded by the first expression a run evaluates (a script
# with none does not pay for its import), then kept: an import statement costs a few
# thousand instructions each time it runs.
_arith: Any = None


def _load_arith() -> Any:
    global _arith
    from hookrun.dispatch.shell import arith

    _arith = arith
    return arith


# Piece kinds: quoted text (no split, no glob), literal unquoted text (glob, no split),
# an unquoted expansion result (split and glob), a forced field break ("$@"), and the
# place between two elements of an unquoted $@/$* (a separator: text is what joins them
# where no splitting happens — " ", or IFS's first character for $*).
QUOTED = 0
LITERAL = 1
SPLIT = 2
BREAK = 3
SEP = 4
_SEPARATORS = (BREAK, SEP)
Piece = tuple[str, int]

_USER_NAME = lazy_compile(r"[A-Za-z0-9_.-]+")  # of ~user
# Unquoted text that may start pattern syntax (is_pattern() decides on the whole field:
# a bracket expression may close in another part, `a["-"]b`).
_EXTGLOB = lazy_compile(r"[?*+@!]\(")
DEFAULT_IFS = " \t\n"


def _uid() -> str:
    return str(os.getuid()) if hasattr(os, "getuid") else "0"


def _random() -> str:
    # 15 random bits, bash's range (0-32767). From os.urandom rather than the random
    # module, whose import (hashlib, math, bisect) cost ~1.5 ms of the shell path.
    return str(int.from_bytes(os.urandom(2), "little") & 0x7FFF)


# bash's dynamic variables that hooks use (temp names, `[ $UID = 0 ]`), unless assigned.
# The special parameters lookup_general answers before any variable (with the digits):
# a host's environment may hold such a name (`env '?=x'`), which a variable never is.
_SPECIAL_PARAMS = frozenset(("@", "*", "#", "?", "$", "!", "-"))
_DYNAMIC: dict[str, Callable[[], str]] = {
    "RANDOM": _random,
    "PPID": lambda: str(os.getppid()),
    "UID": _uid,
    "EUID": lambda: str(os.geteuid()) if hasattr(os, "geteuid") else "0",
}

# bash's variables set by the shell itself (BASH_VERSION, LINENO's neighbours), made when
# read by hookrun.dispatch.shell.shellvars — loaded then: no run that reads none pays.
_SHELL_ARRAYS = frozenset(
    (
        "BASH_VERSINFO",
        "FUNCNAME",
        "BASH_SOURCE",
        "BASH_LINENO",
        "BASH_ARGC",
        "BASH_ARGV",
        "BASH_ALIASES",
        "BASH_CMDS",
    )
)
_SHELL_SCALARS = _SHELL_ARRAYS | {
    "BASH_VERSION",
    "BASH",
    "HOOKRUN_SHELL",
    "SECONDS",
    "BASH_SUBSHELL",
    "BASHPID",
    "BASH_COMMAND",
    "SHELLOPTS",
    "BASHOPTS",
    "OSTYPE",
    "HOSTTYPE",
    "MACHTYPE",
    "HOSTNAME",
    "EPOCHSECONDS",
    "EPOCHREALTIME",
    "SRANDOM",
    "OPTERR",
    "PS4",
    "BASH_ARGV0",
    "BASH_EXECUTION_STRING",
    "BASH_LOADABLES_PATH",
}
# The names `${!prefix*}` lists beside the run's variables (bash lists its own): each of
# the above with a value where the shell runs, LINENO, and the dynamic ones.
_LISTED = (_SHELL_SCALARS - {"HOOKRUN_SHELL", "FUNCNAME"}) | {"LINENO", *_DYNAMIC}


def _list_dir(path: str) -> list[str] | None:
    try:
        return sorted(e.name for e in os.scandir(path))
    except (OSError, ValueError):
        return None


class Config(NamedTuple):
    """What expansion needs from outside: mvdan/sh's ``expand.Config`` in Python.

    ``cmd_subst`` runs the statements of ``$( )`` and returns their output;
    ``proc_subst`` gives a path for ``<( )``/``>( )``; ``list_dir`` names a directory's
    entries (None if it cannot be read) for pathname expansion; ``is_dir`` tests a path.
    """

    cmd_subst: Callable[[tuple[Stmt, ...]], str]
    proc_subst: Callable[[ProcSubst], str] | None = None
    list_dir: Callable[[str], list[str] | None] = _list_dir
    is_dir: Callable[[str], bool] = os.path.isdir
    exists: Callable[[str], bool] = os.path.lexists


def _no_subst(stmts: tuple[Stmt, ...]) -> str:
    raise ShellError("command substitution is not available here", 2)


# The file system as it is, for pathname expansion outside a shell (tests, tools), and
# every shell's expander (which gives its own cmd_subst apart).
FS = Config(cmd_subst=_no_subst)


_AT_TRANSFORM = lazy_compile(r"\$\{([A-Za-z_]\w*)(?:\[[^]]*\])?@")


_text_of = operator.itemgetter(0)  # a piece's text


def bad_substitution(text: str) -> ShellError:
    # bash discards the rest of the line (status 1) and goes on with the next one.
    return ExpansionFailure(f"{text}: bad substitution")


class Expander:
    """Expands words against one shell's state."""

    def __init__(
        self,
        state: ShellState,
        config: Config,
        cmd_subst: Callable[[tuple[Stmt, ...]], str] | None = None,
    ) -> None:
        """``cmd_subst``: runs ``$( )`` instead of ``config.cmd_subst`` (a shell's own,
        given apart: every shell makes an expander, and a Config of its own per shell
        cost ~3k instructions each time)."""
        self.state = state
        self.config = config
        self.cmd_subst = config.cmd_subst if cmd_subst is None else cmd_subst
        self.source = b""  # the text node offsets point into (for error messages)
        # Starts a <( )/>( ) and gives its path (a shell's own, set by the shell);
        # None: config.proc_subst's.
        self.proc_subst: Callable[[ProcSubst], str] | None = config.proc_subst
        # ``LINENO``'s source: the line of the command a shell is running (its
        # Interp.current_line); None: the expansion's own line.
        self.current_line: Callable[[], int | None] | None = None
        # ``BASH_COMMAND`` (Interp.current_command); None: none is being run.
        self.current_command: Callable[[], str] | None = None
        self._assigning = False  # expanding an assignment's value (tildes after `:`)

    @staticmethod
    def warn(message: str) -> None:
        """A message on the shell's stderr that changes nothing (a shell's expander has
        its interpreter's ``error`` here; an expander of its own prints nothing)."""

    # -- entry points ----------------------------------------------------------
    def fields(self, words: Sequence[Word], plain: Sequence[str | None] | None = None) -> list[str]:
        """Command words: every expansion, field splitting and pathname expansion.

        ``plain``: :func:`plain_words` of ``words``, known already (the interpreter
        keeps it per parsed command): a word with its text there is that one field."""
        out: list[str] = []
        for k, w in enumerate(words):
            if plain is not None:
                t = plain[k]
                if t is not None:
                    out.append(t)
                    continue
            # _plain(w), written out: nearly every word of every command comes here.
            elif len(parts := w.parts) == 1 and isinstance(parts[0], Lit):
                t = parts[0].text
                # (a lone `[`, the test command, opens no bracket expression: plain)
                if (
                    not ("\\" in t or "~" in t or "*" in t or "?" in t or "[" in t or "{" in t)
                    or t == "["
                ):
                    out.append(t)
                    continue
            parts = w.parts
            # One part that is no literal ("$x", $i, $(cmd)): no brace to expand and no
            # `name=` to look like, so it is its own one variant, and its pieces are
            # that part's (what pieces() gives it, without its loop).
            one = len(parts) == 1 and not isinstance(parts[0], Lit)
            for variant in (w,) if one else brace_expand(w):
                if one:
                    pieces: list[Piece] = []
                    p = parts[0]
                    if isinstance(p, DblQuoted):
                        self.double_quoted(p, pieces)
                    elif isinstance(p, SglQuoted):
                        pieces.append((p.value, QUOTED))
                    else:
                        self.expansion(p, pieces, False)
                else:
                    # bash (not in POSIX mode) expands tildes in an argument that looks
                    # like an assignment, after its `=` and `:`s (`echo PATH=~/bin:~/x`).
                    like = _looks_like_assignment(variant)
                    # (tilde, assignment, quoted, eq_tilde)
                    pieces = self.pieces(variant.parts, True, like, False, like)
                if len(pieces) == 1:
                    text, kind = pieces[0]
                    # One unquoted expansion ($i, $((n+1))) with no IFS character and no
                    # pattern character (nor `(` of an extglob) in its value: the value
                    # is the one field, or none when it is empty (split_fields and glob
                    # would find nothing to do).
                    if kind == SPLIT and not (
                        "*" in text or "?" in text or "[" in text or "(" in text
                    ):
                        ifs = self.state.vars.get("IFS")  # (self.ifs() when not a string)
                        for c in self.ifs() if ifs is None else ifs:
                            if c in text:
                                break
                        else:
                            if text:
                                out.append(text)
                            continue
                for _, kind in pieces:  # all quoted ("$x", 'a'): one field, no pattern
                    if kind != QUOTED:
                        break
                else:
                    if pieces:
                        out.append(_join(pieces))
                        continue
                for field in split_fields(pieces, self.ifs()):
                    out.extend(self.glob(field))
        return out

    def string(self, word: Word, *, assignment: bool = False) -> str:
        """One string, not split nor globbed: assignments, targets, ``case`` subjects."""
        # _plain(word), written out (nearly every assignment and subject comes here)
        parts = word.parts
        if len(parts) == 1 and isinstance(p := parts[0], Lit):
            t = p.text
            if not ("\\" in t or "~" in t or "*" in t or "?" in t or "[" in t or "{" in t):
                return t
        saved, self._assigning = self._assigning, assignment
        try:
            pieces = self.pieces(word.parts, True, assignment)  # (tilde, assignment)
        finally:
            self._assigning = saved
        return _join(pieces)

    def pattern(self, word: Word) -> str:
        """A shell pattern: quoted characters match literally."""
        pieces = self.pieces(word.parts, tilde=True)
        return "".join(escape_glob(t) if k in (QUOTED, BREAK) else t for t, k in pieces)

    def case_pattern(self, word: Word) -> str:
        """A ``case`` pattern: :meth:`pattern`, but with extglob off an extended-glob
        form that an expansion's value makes (``p='+(a)b'; case $x in $p)``) is its
        text, as bash reads it (one written in the script is bash's syntax error; it
        stays an extended glob here)."""
        pieces = self.pieces(word.parts, tilde=True)
        for t, k in pieces:  # (a loop, not any() over a generator: a case runs often)
            if k == SPLIT and "(" in t and "extglob" not in self.state.options:
                break
        else:
            return "".join(escape_glob(t) if k in (QUOTED, BREAK) else t for t, k in pieces)
        out = ""
        for t, k in pieces:
            if k in (QUOTED, BREAK):
                out += escape_glob(t)
            elif k == SPLIT and "(" in t:
                # (the character before may be written text: `+$p` with p='(a)')
                prev = out[-1:] if out[-1:] in ("?", "*", "+", "@", "!") else ""
                out += literal_extglobs(prev + t)[len(prev) :]
            else:
                out += t
        return out

    def regex(self, word: Word) -> str:
        """The right side of ``=~``: quoted characters match literally."""
        import re

        pieces = self.pieces(word.parts)
        return "".join(re.escape(t) if k in (QUOTED, BREAK) else t for t, k in pieces)

    def heredoc(self, word: Word) -> str:
        return _join(self.pieces(word.parts, quoted=True))

    def ifs(self) -> str:
        value = self.state.get_var("IFS")
        return DEFAULT_IFS if value is None else value

    def arith(self, word: Word) -> int:
        return self.arith_text(self.string(word))

    def arith_text(self, text: str) -> int:
        # The variable callbacks are this expander's methods, bound per call (four
        # closures made on every evaluation cost more; bound methods kept on the
        # expander would make it a reference cycle).
        arith = _arith or _load_arith()
        try:
            value: int = arith.evaluate(
                text,
                self._arith_get,
                self.state.set_var,
                0,
                (self._arith_get_elem, self._arith_set_elem),
            )
            return value
        except arith.ArithError as exc:
            raise ExpansionFailure(f"{text.strip()}: {exc}") from None
        except RecursionError:
            raise ShellError(
                f"{text.strip()}: expression too deeply nested", 1, fatal=True
            ) from None

    def _arith_get(self, name: str) -> str | None:
        value = self.lookup(name)
        if value is None and self.state.nounset:
            raise unbound(name, self.state)
        return value

    def _arith_get_elem(self, name: str, index: str) -> str | None:
        st = self.state
        if (index == "@" or index == "*") and self._all_elements(name, index):
            return None
        if st.nounset and name not in st.vars:
            # bash: an unset element is 0, but a name with no value at all is unbound.
            arr = st.arrays.get(name)
            if (arr is None or not arr.items) and self.lookup(name) is None:
                raise unbound(name, st)
        return self.element(name, index, arith_index=True)

    def _arith_set_elem(self, name: str, index: str | None, value: str) -> None:
        if index is None:
            self.state.set_var(name, value)
        elif not ((index == "@" or index == "*") and self._all_elements(name, index)):
            self.set_element(name, index, value)

    def _all_elements(self, name: str, index: str) -> bool:
        """``a[@]``/``a[*]`` in arithmetic (``r='a[@]'; $((r))``), not of an associative
        array: as bash, a message and 0 (no assignment), not an error of the whole line."""
        arr = self.state.arrays.get(name)
        if arr is not None and arr.assoc:
            return False  # (the key "@", as bash)
        self.warn(f"{name}[{index}]: bad array subscript")
        return True

    # -- parts -----------------------------------------------------------------
    def pieces(
        self,
        parts: Sequence[WordPart],
        tilde: bool = False,
        assignment: bool = False,
        quoted: bool = False,
        eq_tilde: bool = False,
    ) -> list[Piece]:
        """The pieces of ``parts`` (flags may be given in order: the calls for every
        command word and string do, a call with keywords costing more)."""
        out: list[Piece] = []
        for k, p in enumerate(parts):
            if isinstance(p, Lit):
                if quoted:
                    out.append((p.text, QUOTED))
                else:
                    # (tilde, assignment, eq_tilde in order: every literal comes here)
                    self.literal(
                        p.text,
                        out,
                        tilde and k == 0,
                        assignment,
                        eq_tilde and k == 0,
                        p is not parts[-1],
                    )
            elif isinstance(p, SglQuoted):
                out.append((p.value, QUOTED))
            elif isinstance(p, DblQuoted):
                self.double_quoted(p, out)
            else:
                self.expansion(p, out, quoted)
        return out

    def literal(
        self,
        raw: str,
        out: list[Piece],
        tilde: bool,
        assignment: bool,
        eq_tilde: bool = False,
        more: bool = False,
    ) -> None:
        """Unquoted literal text: backslash quoting, tilde at the start (and after ``:``
        in assignments, and after the first ``=`` of an assignment-like argument).
        ``more``: other parts of the word follow this text."""
        # Text with no backslash, quote nor tilde (nearly all) is one literal piece:
        # what the scan below gives it, without a step per character.
        if not ("\\" in raw or "'" in raw or '"' in raw or "~" in raw):
            if raw:
                out.append((raw, LITERAL))
            return
        self.literal_scan(raw, out, tilde, assignment, eq_tilde, more)

    def literal_scan(
        self,
        raw: str,
        out: list[Piece],
        tilde: bool,
        assignment: bool,
        eq_tilde: bool,
        more: bool = False,
    ) -> None:
        """:meth:`literal` one character at a time (any text; the reference its shortcut
        must agree with)."""
        i, n = 0, len(raw)
        if tilde and raw.startswith("~"):
            i = self.tilde(raw, 0, out, assignment, more)
        buf: list[str] = []
        while i < n:
            c = raw[i]
            if c == "\\":
                if buf:
                    out.append(("".join(buf), LITERAL))
                    buf = []
                if i + 1 < n:
                    if raw[i + 1] != "\n":
                        out.append((raw[i + 1], QUOTED))
                    i += 2
                else:
                    out.append(("\\", LITERAL))
                    i += 1
                continue
            if c in "'\"":
                # Quotes the grammar left inside literal text (a bracket expression in a
                # `${x//['+-']}` operand, gap 12) still quote.
                close = _closing_quote(raw, i)
                if close > 0:
                    if buf:
                        out.append(("".join(buf), LITERAL))
                        buf = []
                    body = raw[i + 1 : close]
                    out.append((body if c == "'" else _cook_dquoted(body), QUOTED))
                    i = close + 1
                    continue
            buf.append(c)
            i += 1
            at_eq = eq_tilde and c == "="
            if at_eq:
                eq_tilde = False
            if (at_eq or (assignment and c == ":")) and raw.startswith("~", i):
                out.append(("".join(buf), LITERAL))
                buf = []
                i = self.tilde(raw, i, out, assignment, more)
        if buf:
            out.append(("".join(buf), LITERAL))

    def tilde(self, s: str, i: int, out: list[Piece], assignment: bool, more: bool) -> int:
        j = i + 1
        while j < len(s) and s[j] not in "/:":  # bash ends the prefix at `:` too
            j += 1
        user = s[i + 1 : j]
        if (j == len(s) and more) or (
            user and user not in ("+", "-") and not _USER_NAME.fullmatch(user)
        ):
            # The prefix runs to the first unquoted `/`: one that goes on into a quoted
            # or expanded part (`~"/x"`, `~$u`) is not expanded (bash).
            out.append(("~", LITERAL))
            return i + 1
        if user == "+":
            home: str | None = self.state.cwd
        elif user == "-":
            home = self.state.get_var("OLDPWD")
        elif user:
            home = os.path.expanduser("~" + user)
            if home.startswith("~"):
                home = None
        else:
            home = self.state.get_var("HOME")
            if home is None:
                home = os.path.expanduser("~")
        if home is None:
            out.append((s[i:j], LITERAL))
        else:
            out.append((home, QUOTED))
        return j

    def double_quoted(self, p: DblQuoted, out: list[Piece]) -> None:
        start = len(out)
        saw_list = False
        for q in p.parts:
            if isinstance(q, Lit):
                out.append((q.text, QUOTED))
            elif isinstance(q, SglQuoted):  # only inside ${…} operands
                out.append((q.value, QUOTED))
            elif isinstance(q, DblQuoted):
                self.double_quoted(q, out)
            else:
                # (_is_list's tests, the first written out: nearly every "$x" is none)
                if (
                    isinstance(q, ParamExp)
                    and (q.prefix or q.key is not None or q.name in ("@", "*"))
                    and _is_list(q)
                ):
                    saw_list = True
                self.expansion(q, out, True)
        if len(out) == start and not saw_list:
            out.append(("", QUOTED))  # "" is one empty field, not none

    def expansion(self, p: WordPart, out: list[Piece], quoted: bool) -> None:
        kind = QUOTED if quoted else SPLIT
        if isinstance(p, ParamExp):
            # `$x`, `${x}` (no operator, subscript, `#`, `!`) of a set variable under an
            # ordinary name, as nearly every expansion is: its value is the one piece,
            # what param() gives it after its tests for every other form.
            if not (p.op or p.prefix or p.indirect or p.length) and p.key is None:
                name = p.name
                value = self.state.vars.get(name)
                if value is not None and name not in _SPECIAL_PARAMS and not name.isdigit():
                    out.append((value, kind))
                    return
            self.param(p, out, quoted)
        elif isinstance(p, CmdSubst):
            out.append((self.cmd_subst(p.stmts).rstrip("\n"), kind))
        elif isinstance(p, ArithExp):
            out.append((str(self.arith(p.expr)), kind))
        elif isinstance(p, ProcSubst):
            if self.proc_subst is None:
                raise ShellError("process substitution is not supported here", 2)
            out.append((self.proc_subst(p), QUOTED))

    # -- parameters ------------------------------------------------------------
    def lookup(self, name: str) -> str | None:
        # A set variable under an ordinary name (nearly every $x) is its value: what
        # lookup_general gives it, without its tests for the special parameters first.
        value = self.state.vars.get(name)
        if value is not None and name not in _SPECIAL_PARAMS and not name.isdigit():
            return value
        return self.lookup_general(name)

    def lookup_general(self, name: str) -> str | None:
        """:meth:`lookup` for any name (the reference its shortcut must agree with)."""
        st = self.state
        if name.isdigit():
            k = int(name)
            if k == 0:
                return st.argv0
            return st.params[k - 1] if k <= len(st.params) else None
        if name in ("@", "*"):
            return " ".join(st.params)
        if name == "#":
            return str(len(st.params))
        if name == "?":
            return str(st.status)
        if name == "$":
            return str(os.getpid())
        if name == "!":
            return None if st.last_bg_pid is None else str(st.last_bg_pid)
        if name == "-":
            from hookrun.dispatch.shell.options import option_flags  # rare: loaded here

            return option_flags(st)
        value = st.get_var(name)
        if value is None:
            if name in st.unset_specials or name in st.declared:
                return None  # (unset, or `local RANDOM`: an ordinary name)
            if name in _DYNAMIC:
                if st.rseed is not None and name == "RANDOM":  # after `RANDOM=N`
                    from hookrun.dispatch.shell.shellvars import seeded_random  # rare

                    return seeded_random(st)
                return _DYNAMIC[name]()
            if name in _SHELL_SCALARS:
                if name == "BASH_COMMAND":
                    return self.current_command() if self.current_command is not None else ""
                from hookrun.dispatch.shell.shellvars import scalar  # rare: loaded here

                return scalar(st, name)
        return value

    def element(self, name: str, index: str, *, arith_index: bool = False) -> str | None:
        if self.state.refs and name in self.state.refs:
            name = self._ref_base(name)
        arr = self.state.arrays.get(name)
        if arr is None and name in _SHELL_ARRAYS and name not in self.state.unset_specials:
            from hookrun.dispatch.shell.shellvars import array  # rare: loaded here

            arr = array(self.state, name)
        if arr is not None and arr.assoc:
            return arr.items.get(index)
        k = self.arith_text(index) if (True) else 0
        if arr is None:
            return self.lookup(name) if k == 0 else None
        if k < 0:
            k += max(arr.items, default=-1) + 1
        return arr.items.get(k)

    def _ref_base(self, name: str) -> str:
        """The array ``name[k]`` acts on where ``name`` is a nameref."""
        from hookrun.dispatch.shell.namerefs import resolve

        target = resolve(self.state, name)
        if target.endswith("]"):  # `declare -n r='a[0]'; r[1]=x`: as bash refuses it
            raise NotAssigned(f"`{target}': not a valid identifier", 1)
        return target

    def set_element(self, name: str, index: str, value: str) -> None:
        st = self.state
        if st.refs and name in st.refs:
            name = self._ref_base(name)
        st.set_element(name, index, value, self.arith_text)

    def _through_ref(self, p: ParamExp) -> ParamExp:
        """``p`` of a nameref as the same expansion of what it names (``${!ref}``: an
        ``op`` of "!name" whose ``name`` is what ``ref`` holds)."""
        from hookrun.dispatch.shell.namerefs import deref, expanded_key, split

        st = self.state
        target = deref(st, p.name)
        if p.indirect and not (p.key is not None and self._key_is_all(p)):
            return p._replace(op="!name", name=target or "")
        if target is None:
            self.warn(f"warning: {p.name}: circular name reference")
            return p._replace(name="\x00unset", key=None)
        base, key = split(target)
        if key is None:
            return p._replace(name=base)
        if p.key is not None:  # ${r[k]} where r names an element: as bash, nothing
            return p._replace(name="\x00unset")
        done = expanded_key(st, base, key)
        if done is not key:  # expanded: its value taken as it is
            return p._replace(name=base, key=Word(0, 0, (SglQuoted(0, 0, done, False),)))
        return p._replace(name=base, key=Word(0, 0, (Lit(0, 0, key),)))

    def values(self, p: ParamExp) -> tuple[list[str] | None, bool]:
        """The parameter's value(s): (list or None if unset, whether it is a list)."""
        st = self.state
        name = p.name
        if name in ("@", "*") and p.key is None:
            return list(st.params), True
        if p.key is not None:
            key = self.string(p.key)
            arr = st.arrays.get(name)
            if arr is None and name in _SHELL_ARRAYS and name not in st.unset_specials:
                from hookrun.dispatch.shell.shellvars import array  # rare: loaded here

                arr = array(st, name)
            if key in ("@", "*"):
                if arr is not None:
                    return arr.values(), True
                v = self.lookup(name)
                return ([] if v is None else [v]), True
            if arr is not None and arr.assoc:
                v = arr.items.get(self.string(p.key))
            else:
                v = self.element(name, key)
            return (None if v is None else [v]), False
        v = self.lookup(name)
        if v is None and name == "LINENO":
            # The line of the command being run (bash's: not the expansion's own line,
            # which differs inside a command of many lines), counted when read; without
            # a shell to say, the expansion's.
            line = self.current_line() if self.current_line is not None else None
            v = str(self.source.count(b"\n", 0, p.pos) + 1 if line is None else line)
        return (None if v is None else [v]), False

    def param(self, p: ParamExp, out: list[Piece], quoted: bool) -> None:
        kind = QUOTED if quoted else SPLIT
        st = self.state
        if st.refs and p.name in st.refs and not p.prefix:
            p = self._through_ref(p)
            if p.op == "!name":  # ${!ref}: the name the nameref holds
                out.append((p.name, kind))
                return
        if p.op == "!bad":
            at = _AT_TRANSFORM.match(p.name)
            if at is not None:  # `${x@}`, `${x@Z}`: fatal, as an unknown @op
                name = at.group(1)
                if self.lookup(name) is None and name not in st.arrays:
                    out.append(("", kind))  # bash checks the letter of a set variable only
                    return
                raise ShellError(f"{p.name}: bad substitution", fatal_status(st), fatal=True)
            raise bad_substitution(p.name)
        if p.prefix:  # ${!prefix*}
            names = sorted(n for n in {*st.vars, *st.arrays} if n.startswith(p.name))
            own = [n for n in _LISTED if n.startswith(p.name)]
            if own or (st.funcnames and "FUNCNAME".startswith(p.name)):
                names = self._with_own(names, own, p.name)
            if p.prefix == "*" and not quoted:  # bash joins these even where $* does not
                out.append((self.ifs()[:1].join(names), SPLIT))
                return
            self._emit(names, True, p, out, quoted, star=p.prefix == "*")
            return
        if p.indirect and p.key is not None and self._key_is_all(p):  # ${!a[@]}
            arr = st.arrays.get(p.name)
            if arr is None and p.name in _SHELL_ARRAYS and p.name not in st.unset_specials:
                from hookrun.dispatch.shell.shellvars import array  # rare: loaded here

                arr = array(st, p.name)
            keys = arr.keys() if arr is not None else (["0"] if p.name in st.vars else [])
            if self._star(p) and not quoted:  # bash joins the keys with a space here
                out.append((" ".join(keys), SPLIT))
                return
            self._emit(keys, True, p, out, quoted, star=self._star(p))
            return
        star = self._star(p)
        if p.indirect:
            target = self.lookup(p.name)
            if target is None:
                if st.nounset:
                    raise unbound(p.name, self.state)
                # bash 5.2: the rest of the line is discarded, status 1.
                raise ExpansionFailure(f"{p.name}: invalid indirect expansion")
            else:
                ref = _parse_ref(target)
                if ref is None:
                    raise bad_substitution("${!" + p.name + "}")
                inner = ParamExp(p.pos, p.end, ref[0], False, ref[1], False, False, "", "", ())
                values, is_list = self.values(inner)
                star = self._star(inner)
        else:
            values, is_list = self.values(p)
        if p.length:
            if is_list:
                if not values and st.nounset and p.key is not None:
                    arr = st.arrays.get(p.name)
                    if arr is not None and arr.bare:
                        # `declare -a a` never assigned: under set -u `${#a[@]}` is an
                        # unbound variable (bash 5.2; `a=()` is not), the line's end.
                        raise ExpansionFailure(f"{p.name}: unbound variable")
                out.append((str(len(values or [])), kind))
                return
            if values is None and st.nounset:
                raise unbound(p.name, self.state)
            out.append((str(len(values[0]) if values else 0), kind))
            return
        op = p.op
        if op in (":-", "-", ":=", "=", ":?", "?", ":+", "+"):
            unset = values is None or (is_list and not values)
            if op.startswith(":") and not unset and values is not None:
                if not is_list:
                    unset = values == [""]
                elif not p.indirect:  # bash 5 tests a list joined (${!ref} keeps 4.4's way)
                    unset = (self.ifs()[:1] if star and quoted else " ").join(values) == ""
            if op[-1] == "-":
                if unset:
                    out.extend(self._operand(p.args[0], quoted))
                    return
            elif op[-1] == "=":
                if unset:
                    if not is_name(p.name) or p.indirect or self._key_is_all(p):
                        raise ShellError(f"${p.name}: cannot assign in this way", 1, fatal=True)
                    new = _join(self._operand(p.args[0], quoted))
                    if p.key is None:
                        st.set_var(p.name, new)
                    else:
                        self.set_element(p.name, self.string(p.key), new)
                    out.append((new, kind))
                    return
            elif op[-1] == "+":
                if not unset:
                    out.extend(self._operand(p.args[0], quoted))
                return
            else:
                if unset:
                    msg = _join(self._operand(p.args[0], quoted)) if p.args else ""
                    default = "parameter null or not set" if op == ":?" else "parameter not set"
                    # Like an unbound variable: 127 for a `-c` string, 1 for a script.
                    status = fatal_status(st)
                    raise ShellError(f"{p.name}: {msg or default}", status, fatal=True)
            self._emit(values or [], is_list, p, out, quoted, star=star)
            return
        unset = values is None
        if values is None:
            if st.nounset and p.name not in ("@", "*"):
                raise unbound(p.name, self.state)
            values = [] if is_list else [""]
        if op and not (unset and op == "@"):  # bash: no @-transform of an unset variable
            values = self.transform(p, values, is_list)
        self._emit(values, is_list, p, out, quoted, star=star)

    def _key_is_all(self, p: ParamExp) -> bool:
        return p.key is not None and _subscript(p.key) in ("@", "*")

    def _star(self, p: ParamExp) -> bool:
        if p.key is not None:
            return _subscript(p.key) == "*"
        return p.name == "*"

    def _emit(
        self,
        values: list[str],
        is_list: bool,
        p: ParamExp,
        out: list[Piece],
        quoted: bool,
        *,
        star: bool,
    ) -> None:
        kind = QUOTED if quoted else SPLIT
        if not is_list:
            out.append((values[0] if values else "", kind))
            return
        if star and quoted:
            out.append((self.ifs()[:1].join(values), QUOTED))
            return
        sep: Piece = (" ", BREAK) if quoted else (self.ifs()[:1] if star else " ", SEP)
        for k, v in enumerate(values):
            if k:
                out.append(sep)
            out.append((v, kind))

    def _operand(self, word: Word, quoted: bool) -> list[Piece]:
        """The word of ``${x:-word}`` (and ``=``, ``+``, ``?``), expanded in the quoting
        context of the whole ``${…}``."""
        if not quoted:
            # Unquoted operand text is part of an expansion's result: it is split too.
            # In an assignment (`x=${u-~:~}`) tildes after `:` expand as in its value.
            pieces = self.pieces(word.parts, tilde=True, assignment=self._assigning)
            return [(t, SPLIT if k == LITERAL else k) for t, k in pieces]
        # Inside double quotes the operand is double-quoted text: a backslash quotes only
        # what it would there (`"${u-\z}"` keeps the backslash), no tilde expansion,
        # and single quotes are plain characters around double-quoted text (bash).
        out: list[Piece] = []
        for p in word.parts:
            if isinstance(p, Lit):
                out.append((_cook_operand(p.text), QUOTED))
            elif isinstance(p, SglQuoted):
                if p.dollar:
                    out.append((p.value, QUOTED))
                else:
                    self._single_in_double(p, out)
            elif isinstance(p, DblQuoted):
                self.double_quoted(p, out)
            else:
                self.expansion(p, out, True)
        return out or [("", QUOTED)]

    def _single_in_double(self, p: SglQuoted, out: list[Piece]) -> None:
        """``"${u:-'$x'}"``: the quotes stay, and ``$x`` inside them expands."""
        if not any(c in p.value for c in "$`\\") or '"' in p.value:
            out.append(("'" + p.value + "'", QUOTED))
            return
        out.append(("'", QUOTED))
        self.double_quoted(_as_double_quoted(p.value), out)
        out.append(("'", QUOTED))

    def op_pattern(self, word: Word) -> str:
        """The pattern of ``${v#…}``, ``${v/…/…}``: extended globs only with ``shopt -s
        extglob`` (bash reads ``${x##+(a)}`` without it as the text ``+(a)``)."""
        pat = self.pattern(word)
        if pat.find("(") < 0 or "extglob" in self.state.options:
            return pat
        return literal_extglobs(pat)

    def transform(self, p: ParamExp, values: list[str], is_list: bool) -> list[str]:
        op = p.op
        if op in ("#", "##", "%", "%%"):
            pat = self.op_pattern(p.args[0])
            return [trim(v, pat, op) for v in values]
        if op in ("/", "//", "/#", "/%"):
            pat = self.op_pattern(p.args[0])
            rep = self.string(p.args[1]) if len(p.args) > 1 else ""
            nocase = "nocasematch" in self.state.options
            return [replace(v, pat, rep, op[1:] or "", nocase) for v in values]
        if op in ("^", "^^", ",", ",,", "~", "~~"):
            # (bash's case conversion matches with extended globs whatever extglob says)
            pat = self.pattern(p.args[0]) if p.args and p.args[0].parts else "?"
            return [case_convert(v, op, pat) for v in values]
        if op == ":":
            return self.slice(p, values, is_list)
        if op == "@":
            letter = self.string(p.args[0]) if p.args else ""
            if letter in ("A", "K", "k"):  # (of the whole variable: rare, loaded here)
                from hookrun.dispatch.shell.listing import whole_transform

                return whole_transform(
                    self.state, p.name, is_list and self._key_is_all(p), values, letter
                )
            return [self.at_transform(v, letter, p) for v in values]
        raise bad_substitution(self._text(p))

    def slice(self, p: ParamExp, values: list[str], is_list: bool) -> list[str]:
        off = self.arith(p.args[0]) if p.args and p.args[0].parts else 0
        length = self.arith(p.args[1]) if len(p.args) > 1 else None
        if is_list:
            items = values
            if p.name in ("@", "*") and p.key is None:
                items = [self.state.argv0, *values]  # ${@:0} starts at $0
            if off < 0:
                off = max(0, len(items) + off) if len(items) + off >= 0 else len(items)
            if length is None:
                return items[off:]
            if length < 0:
                raise ExpansionFailure(f"{length}: substring expression < 0")
            return items[off : off + length]
        v = values[0] if values else ""
        if off < 0:
            off = len(v) + off
            if off < 0:
                return [""]
        if length is None:
            return [v[off:]]
        end = off + length if length >= 0 else len(v) + length
        if end < off:
            raise ExpansionFailure(f"{length}: substring expression < 0")
        return [v[off:end]]

    def at_transform(self, value: str, letter: str, p: ParamExp) -> str:
        if letter == "Q":
            return shell_quote(value)
        if letter == "E":
            from hookrun.shellsyntax.convert import ansi_c

            return ansi_c(value)
        if letter == "U":
            return case_convert(value, "^^", "?")
        if letter == "u":
            return case_convert(value, "^", "?")
        if letter == "L":
            return case_convert(value, ",,", "?")
        if letter == "a":
            arr = self.state.arrays.get(p.name)
            flags = ("A" if arr.assoc else "a") if arr is not None else ""
            flags += "r" if p.name in self.state.readonly else ""
            flags += "x" if p.name in self.state.exported else ""
            return flags
        if letter == "P":
            return value
        # Unlike other bad substitutions this one ends the shell (as an unbound variable).
        raise ShellError(f"{self._text(p)}: bad substitution", fatal_status(self.state), fatal=True)

    def _with_own(self, names: list[str], own: list[str], prefix: str) -> list[str]:
        """``names`` and those of bash's own variables in ``own`` that have a value here
        (FUNCNAME inside a function), sorted as bash lists them."""
        st = self.state
        if st.funcnames and "FUNCNAME".startswith(prefix):
            own = [*own, "FUNCNAME"]
        more = [
            n
            for n in own
            if n not in st.unset_specials
            and n not in st.declared
            and (n in _SHELL_ARRAYS or n == "LINENO" or self.lookup(n) is not None)
        ]
        return sorted({*names, *more})

    def _text(self, p: ParamExp) -> str:
        if self.source:
            return self.source[p.pos : p.end].decode("utf-8", "replace")
        return "${" + p.name + "}"

    # -- pathname expansion ----------------------------------------------------
    def glob(self, field: list[Piece]) -> list[str]:
        text = "".join([t for t, _ in field])
        opts = self.state.options
        if "noglob" in opts:
            return [text]
        extglob = "extglob" in opts
        for t, k in field:  # (a loop, not any(): every unquoted word comes here)
            if k != QUOTED and (
                "*" in t or "?" in t or "[" in t or (extglob and _EXTGLOB.search(t))
            ):
                break
        else:
            return [text]
        pattern = "".join(t if k != QUOTED else escape_glob(t) for t, k in field)
        if not is_pattern(pattern, extglob):
            return [text]
        matches = glob_in(
            pattern,
            self.state.cwd,
            self.config,
            globstar="globstar" in opts,
            dotglob="dotglob" in opts,
            extglob=extglob,
            skipdots="no-globskipdots" not in opts,
        )
        if matches:
            return matches
        if "nullglob" in opts:
            return []
        if "failglob" in opts:
            raise ShellError(f"no match: {text}", 1)
        return [text]


def fatal_status(state: ShellState) -> int:
    """The status an expansion error that ends the shell (an unbound variable, ``${x:?}``,
    a bad ``${x@Z}``) ends it with: bash's 127 when it runs a `-c` string, 1 when it
    runs a script (a file or stdin) — and 1 in any subshell, ``( … )`` or ``$( … )``
    (BASH_SUBSHELL above 0), even of a `-c` string, and 1 once ``set -e`` is on (the
    usual `set -euo pipefail` hook: bash 5.2 ends it with 1, not 127)."""
    return 127 if state.invoked == "c" and state.subshell == 0 and not state.errexit else 1


def unbound(name: str, state: ShellState) -> ShellError:
    return ShellError(f"{name}: unbound variable", fatal_status(state), fatal=True)


_ELEMENT_REF = lazy_compile(r"([A-Za-z_]\w*)\[(.+)\]")


def _parse_ref(target: str) -> tuple[str, Word | None] | None:
    """``name``, ``name[key]`` or a special parameter, as ``${!x}`` may name."""
    if is_name(target) or target.isdigit() or target in ("@", "*", "#", "?", "$", "!", "-"):
        return target, None
    m = _ELEMENT_REF.fullmatch(target)
    if m is None:
        return None
    key = m.group(2)
    return m.group(1), Word(0, 0, (Lit(0, 0, key),))


def _looks_like_assignment(word: Word) -> bool:
    """The word starts ``name=`` (``[A-Za-z_]\\w*=``)."""
    first = word.parts[0] if word.parts else None
    if not isinstance(first, Lit):
        return False
    eq = first.text.find("=")
    return eq > 0 and is_name(first.text[:eq])


def _closing_quote(raw: str, i: int) -> int:
    """Where the quote opened at ``raw[i]`` closes, -1 if it does not."""
    if raw[i] == "'":
        return raw.find("'", i + 1)
    j = i + 1
    while j < len(raw):
        if raw[j] == "\\":
            j += 2
        elif raw[j] == '"':
            return j
        else:
            j += 1
    return -1


_DQUOTED_ESCAPE = lazy_compile(r'\\([$`"\\\n])')


def _cook_dquoted(raw: str) -> str:
    return _DQUOTED_ESCAPE.sub(lambda m: "" if m.group(1) == "\n" else m.group(1), raw)


def _cook_operand(raw: str) -> str:
    """A double-quoted ``${…}`` operand's backslashes: they quote what they would in
    double quotes, and the ``}`` that would end the expansion (bash)."""
    if "\\" not in raw:
        return raw
    return _OPERAND_ESCAPE.sub(lambda m: "" if m.group(1) == "\n" else m.group(1), raw)


_OPERAND_ESCAPE = lazy_compile(r'\\([$`"\\}\n])')


def _as_double_quoted(text: str) -> DblQuoted:
    """``text`` read as the inside of double quotes (a rare path: a quoted operand's
    single-quoted part that holds an expansion)."""
    from hookrun.shellsyntax import ShellSyntaxError, Unsupported, parse  # lazy: rare

    fallback = DblQuoted(0, 0, (Lit(0, 0, text),), False)
    try:
        script = parse(': "' + text + '"')
    except (ShellSyntaxError, Unsupported):
        return fallback
    cmd = script.stmts[0].cmd if len(script.stmts) == 1 else None
    if isinstance(cmd, CallExpr) and len(cmd.args) == 2:
        arg = cmd.args[1]
        if isinstance(arg, Word) and len(arg.parts) == 1 and isinstance(arg.parts[0], DblQuoted):
            return arg.parts[0]
    return fallback


def _is_list(p: ParamExp) -> bool:
    if p.prefix:
        return True
    if p.key is not None:
        return _subscript(p.key) in ("@", "*")
    return p.name in ("@", "*") and not p.length


def _subscript(key: Word) -> str | None:
    """A subscript's literal text (``@``, ``*``, ``0``), None if it has expansions."""
    parts = key.parts
    if len(parts) == 1 and isinstance(parts[0], Lit):
        return parts[0].text
    return None


def _plain(word: Word) -> str | None:
    """The word's text if it is one literal with nothing to expand (the common case)."""
    parts = word.parts
    if len(parts) != 1:
        return None
    p = parts[0]
    if isinstance(p, Lit):
        t = p.text
        # Chained `in`, not any() over a generator: this runs for nearly every word of
        # every command, and is 4x cheaper written out.
        if not ("\\" in t or "~" in t or "*" in t or "?" in t or "[" in t or "{" in t):
            return t
    return None


def plain_words(args: Sequence[Any]) -> tuple[str | None, ...] | None:
    """Per word of a command, its one field when it is one literal with nothing to
    expand (``true``, ``-lt``, ``[``) — what :meth:`Expander.fields` gives it whatever
    the shell's state — else None; None for the whole when an argument is an
    ``Assign``. The interpreter keeps this per parsed command (``interp._plain_argv``)."""
    out: list[str | None] = []
    for w in args:
        if not isinstance(w, Word):
            return None
        t = _plain(w)
        if t is None:
            # (a lone `[`, the test command, opens no bracket expression: plain)
            p = w.parts[0] if len(w.parts) == 1 else None
            if isinstance(p, Lit) and p.text == "[":
                t = "["
        out.append(t)
    return tuple(out)


def _join(pieces: Sequence[Piece]) -> str:
    # (map over a C getter, not a comprehension: one is a function call of its own)
    return pieces[0][0] if len(pieces) == 1 else "".join(map(_text_of, pieces))


# Characters a quoted part must not let act as pattern syntax, bracket expressions and
# extglob included (a quoted `-` in `[a"-"z]` is not a range).
_PATTERN_SPECIAL = lazy_compile(r"([*?\[\]\\!^\-()|@+])")


def escape_glob(text: str) -> str:
    """Quoted text inside a pattern: each special character backslash-escaped."""
    return _PATTERN_SPECIAL.sub(r"\\\1", text)


_ESCAPED_CHAR = lazy_compile(r"(?s)\\(.)")


def unescape_glob(text: str) -> str:
    return _ESCAPED_CHAR.sub(r"\1", text)


def shell_quote(value: str) -> str:
    """bash's ``printf %q``-style quoting for ``${x@Q}``: '…' with '\\'' for quotes."""
    if value == "":
        return "''"
    if any(ord(c) < 32 or ord(c) == 127 for c in value):
        return quote_ansi_c(value)
    return "'" + value.replace("'", "'\\''") + "'"


_C_ESCAPES = {
    "\a": "a",
    "\b": "b",
    "\x1b": "E",
    "\f": "f",
    "\n": "n",
    "\r": "r",
    "\t": "t",
    "\v": "v",
}


def quote_ansi_c(value: str) -> str:
    """``$'…'`` quoting, for values with control characters (as bash's ``%q``)."""
    out: list[str] = []
    for c in value:
        if c in _C_ESCAPES:
            out.append("\\" + _C_ESCAPES[c])
        elif ord(c) < 32 or ord(c) == 127:
            out.append(f"\\{ord(c):03o}")
        elif c in "\\'":
            out.append("\\" + c)
        else:
            out.append(c)
    return "$'" + "".join(out) + "'"


def _upper1(c: str) -> str:
    """One character's uppercase as bash's towupper gives it: one character. Python's
    full mapping can give two (ß → SS, ﬀ → FF, ᾳ → ΑΙ); bash keeps ß and ﬀ and takes the
    single titlecase letter where there is one (ᾳ → ᾼ)."""
    u = c.upper()
    if len(u) == 1:
        return u
    t = c.title()
    return t if len(t) == 1 else c


def _lower1(c: str) -> str:
    """One character's lowercase as towlower gives it (İ → i, not i + a combining dot)."""
    lo = c.lower()
    return lo if len(lo) == 1 else lo[0]


def _toggle1(c: str) -> str:
    """``${v~}``'s one character: an uppercase letter lowered, a lowercase one raised
    (bash's CASE_TOGGLE), as towupper / towlower give them."""
    if c.isupper():
        return _lower1(c)
    return _upper1(c) if c.islower() else c


def case_convert(value: str, op: str, pat: str) -> str:
    upper = op.startswith("^")
    # ASCII: one character in, one out, so the str methods serve.
    ascii_ = value.isascii()
    fn = (str.upper if upper else str.lower) if ascii_ else (_upper1 if upper else _lower1)
    if op[0] == "~":
        fn = str.swapcase if ascii_ else _toggle1
    if len(op) == 1:
        return fn(value[:1]) + value[1:] if value[:1] and match(value[:1], pat) else value
    if pat == "?":  # (the default: every character converts, each on its own as bash
        return "".join(map(fn, value))  # does, not fn(value), which knows a final sigma)
    return "".join(fn(c) if match(c, pat) else c for c in value)


def split_fields(pieces: list[Piece], ifs: str) -> list[list[Piece]]:
    """Field splitting: SPLIT pieces break on IFS, BREAK pieces always break.

    A SEP splits as IFS's first character would (bash: unquoted ``$*`` with ``IFS=x``
    and empty elements gives empty fields), and always breaks when IFS is empty."""
    fields: list[list[Piece]] = []
    cur: list[Piece] = []
    have = False
    delim = _ifs_regex(ifs)
    for text, kind in pieces:
        if kind == SEP and ifs:
            text, kind = ifs[0], SPLIT
        if kind in _SEPARATORS:
            if have:
                fields.append(cur)
            cur, have = [], False
            continue
        if kind != SPLIT or delim is None:
            if kind == SPLIT:
                kind = LITERAL
            if text or kind == QUOTED:
                cur.append((text, kind))
                have = True
            continue
        for c in ifs:  # (a loop, not any(): every unquoted expansion comes here)
            if c in text:
                break
        else:  # nothing to split on: no regex to run
            if text:
                cur.append((text, LITERAL))
                have = True
            continue
        pos = 0
        for m in delim.finditer(text):
            seg = text[pos : m.start()]
            if seg:
                cur.append((seg, LITERAL))
                have = True
            if have or m.group(0).strip(" \t\n"):
                fields.append(cur)
            cur, have = [], False
            pos = m.end()
        seg = text[pos:]
        if seg:
            cur.append((seg, LITERAL))
            have = True
    if have:
        fields.append(cur)
    return fields


# The default IFS's pattern compiles when a field first has a blank in it.
_ifs_cache: dict[str, re.Pattern[str] | None] = {
    DEFAULT_IFS: lazy_compile(
        r"[\ \	\
]+"
    )
}


def _ifs_regex(ifs: str) -> re.Pattern[str] | None:
    if ifs in _ifs_cache:
        return _ifs_cache[ifs]
    if not ifs:
        rx = None
    else:
        import re

        ws = "".join(re.escape(c) for c in ifs if c in " \t\n")
        other = "".join(re.escape(c) for c in ifs if c not in " \t\n")
        parts = []
        if other:
            parts.append(f"[{ws}]*[{other}][{ws}]*" if ws else f"[{other}]")
        if ws:
            parts.append(f"[{ws}]+")
        rx = re.compile("|".join(parts))
    _ifs_cache[ifs] = rx
    return rx


# -- patterns --------------------------------------------------------------------

_pattern_cache: dict[str, re.Pattern[str]] = {}


def pattern_regex(pat: str) -> re.Pattern[str]:
    """A shell pattern (with bash's extglob forms) as a compiled regex."""
    rx = _pattern_cache.get(pat)
    if rx is None:
        import re

        rx = re.compile(_translate(pat) + r"\Z", re.DOTALL)
        if len(_pattern_cache) > 512:
            _pattern_cache.clear()
        _pattern_cache[pat] = rx
    return rx


def _bracket_end(pat: str, i: int) -> int:
    """Where the bracket expression opened at ``pat[i]`` closes, -1 if it does not
    (a ``]`` first, or right after ``!``/``^``, is a member; ``\\]`` is escaped)."""
    n = len(pat)
    j = i + 1
    if j < n and pat[j] in "!^":
        j += 1
    if j < n and pat[j] == "]":
        j += 1
    while j < n and pat[j] != "]":
        if pat[j] == "\\":
            j += 2
            continue
        if pat[j] == "[" and pat[j + 1 : j + 2] == ":":
            k = pat.find(":]", j + 2)
            j = k + 2 if k >= 0 else j + 1
            continue
        j += 1
    return j if j < n else -1


def literal_extglobs(pat: str) -> str:
    """``pat`` with the ``(`` of each extended-glob form escaped: what the pattern means
    with extglob off (``+(a)`` the characters ``+(a)``, ``?(a)`` any character then
    ``(a)``; ``)`` and ``|`` are ordinary characters outside an extended glob)."""
    out: list[str] = []
    i, n = 0, len(pat)
    while i < n:
        c = pat[i]
        if c == "\\":
            out.append(pat[i : i + 2])
            i += 2
            continue
        out.append(c)
        if c in "?*+@!" and pat[i + 1 : i + 2] == "(":
            out.append("\\")
        i += 1
    return "".join(out)


def is_pattern(pat: str, extglob: bool = False) -> bool:
    """Whether ``pat`` (quoted characters backslash-escaped) has any pattern syntax."""
    i, n = 0, len(pat)
    while i < n:
        c = pat[i]
        if c == "\\":
            i += 2
            continue
        if c in "*?" or (c == "[" and _bracket_end(pat, i) > 0):
            return True
        if extglob and c in "+@!" and pat[i + 1 : i + 2] == "(":
            return True
        i += 1
    return False


def _translate(pat: str) -> str:
    import re  # only while compiling a pattern (pattern_regex)

    out: list[str] = []
    i, n = 0, len(pat)
    while i < n:
        c = pat[i]
        if c in "?*+@!" and i + 1 < n and pat[i + 1] == "(":
            end = _close_paren(pat, i + 2)
            if end >= 0:
                alts = "|".join(_translate(a) for a in _split_alts(pat[i + 2 : end]))
                out.append(
                    {
                        "?": f"(?:{alts})?",
                        "*": f"(?:{alts})*",
                        "+": f"(?:{alts})+",
                        "@": f"(?:{alts})",
                        "!": f"(?:(?!(?:{alts})).*?|)" if False else f"(?!(?:{alts})\\Z).*",
                    }[c]
                )
                i = end + 1
                continue
        if c == "*":
            out.append(".*")
        elif c == "?":
            out.append(".")
        elif c == "\\" and i + 1 < n:
            out.append(re.escape(pat[i + 1]))
            i += 1
        elif c == "[":
            j = _bracket_end(pat, i)
            if j < 0:
                out.append(r"\[")
            else:
                out.append(_bracket(pat[i + 1 : j]))
                i = j
        else:
            out.append(re.escape(c))
        i += 1
    return "".join(out)


_CLASSES = {
    "alpha": "a-zA-Z",
    "digit": "0-9",
    "alnum": "a-zA-Z0-9",
    "upper": "A-Z",
    "lower": "a-z",
    "space": r" \t\n\r\f\v",
    "blank": r" \t",
    "punct": '!"' r"\#\$%\&'\(\)\*\+,\-\./:;<=>\?@\[\\\]\^_`\{\|\}\~",  # re.escape'd
    "xdigit": "0-9A-Fa-f",
    "word": r"\w",
    "cntrl": r"\x00-\x1f\x7f",
    "print": r"\x20-\x7e",
    "graph": r"\x21-\x7e",
}


def _bracket(body: str) -> str:
    import re  # only while compiling a pattern (pattern_regex)

    neg = body[:1] in ("!", "^")
    if neg:
        body = body[1:]
    out: list[str] = []
    lo: str | None = None  # the last single character, a range may start at it
    i = 0
    while i < len(body):
        c = body[i]
        if c == "[" and body[i + 1 : i + 2] == ":":
            k = body.find(":]", i + 2)
            if k >= 0:
                out.append(_CLASSES.get(body[i + 2 : k], ""))
                lo = None
                i = k + 2
                continue
        if c == "\\" and i + 1 < len(body):
            out.append(re.escape(body[i + 1]))
            lo = body[i + 1]
            i += 2
            continue
        if c == "-" and lo is not None and i + 1 < len(body):
            hi, width = body[i + 1], 2
            if hi == "\\" and i + 2 < len(body):
                hi, width = body[i + 2], 3
            if hi != "[" and lo > hi:
                # bash: a reversed range (z-a) matches nothing, and the rest of the
                # bracket still counts — re refuses it ("bad character range").
                out.pop()
                lo = None
                i += width
                continue
            out.append("-")
            lo = None
        else:
            out.append(re.escape(c) if c != "-" else r"\-")
            lo = c
        i += 1
    inner = "".join(out)
    return f"[{'^' if neg else ''}{inner}]" if inner else ("[^\\s\\S]" if not neg else ".")


def _close_paren(pat: str, i: int) -> int:
    depth = 1
    while i < len(pat):
        if pat[i] == "\\":
            i += 2
            continue
        if pat[i] == "(":
            depth += 1
        elif pat[i] == ")":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return -1


def _split_alts(body: str) -> list[str]:
    alts: list[str] = []
    depth = 0
    start = 0
    i = 0
    while i < len(body):
        c = body[i]
        if c == "\\":
            i += 2
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c == "|" and depth == 0:
            alts.append(body[start:i])
            start = i + 1
        i += 1
    alts.append(body[start:])
    return alts


def match(value: str, pattern: str, nocase: bool = False) -> bool:
    """Shell pattern matching (``case``, ``[[ == ]]``, trims): ``*`` also matches ``/``.
    ``nocase``: ``shopt -s nocasematch`` (bash's case, ``[[ == ]]`` and ``${v/…/…}``)."""
    if nocase:
        return _match_nocase(value, pattern)
    if not (
        "*" in pattern or "?" in pattern or "[" in pattern or "\\" in pattern or "(" in pattern
    ):
        return value == pattern
    rx = _pattern_cache.get(pattern)
    if rx is None:
        import re

        try:
            rx = pattern_regex(pattern)
        except re.error:
            # Imported here: only a pattern hookrun's translation refuses comes here, and
            # fnmatch is ~0.4 ms of the shell path's start-up (tests/shellsyntax/imports_test).
            import fnmatch

            return fnmatch.fnmatchcase(value, pattern)
    return rx.match(value) is not None


_nocase_cache: dict[str, re.Pattern[str]] = {}


def _match_nocase(value: str, pattern: str) -> bool:
    import re

    try:
        rx = _match_nocase_regex(pattern)
    except re.error:
        import fnmatch

        return fnmatch.fnmatchcase(value.lower(), pattern.lower())
    return rx.match(value) is not None


def _match_nocase_regex(pattern: str) -> re.Pattern[str]:
    rx = _nocase_cache.get(pattern)
    if rx is None:
        import re

        exact = pattern_regex(pattern)
        rx = re.compile(exact.pattern, exact.flags | re.IGNORECASE)
        if len(_nocase_cache) > 512:
            _nocase_cache.clear()
        _nocase_cache[pattern] = rx
    return rx


def trim(value: str, pat: str, op: str) -> str:
    """``${v#pat}``, ``${v##pat}``, ``${v%pat}``, ``${v%%pat}``."""
    # `*LIT` from the front (`${f##*/}`), `LIT*` from the back (`${f%.*}`), LIT with no
    # pattern character: where LIT is found first or last is the cut trim_scan finds
    # trying every length (one regex match each).
    if op[0] == "#":
        lit = pat[1:]
        if pat[:1] == "*" and not _has_pattern_char(lit):
            k = value.find(lit) if op == "#" else value.rfind(lit)
            return value if k < 0 else value[k + len(lit) :]
    else:
        lit = pat[:-1]
        if pat[-1:] == "*" and not _has_pattern_char(lit):
            k = value.rfind(lit) if op == "%" else value.find(lit)
            return value if k < 0 else value[:k]
    return trim_scan(value, pat, op)


def _has_pattern_char(text: str) -> bool:
    return "*" in text or "?" in text or "[" in text or "\\" in text or "(" in text


def trim_scan(value: str, pat: str, op: str) -> str:
    """:func:`trim` by trying each cut in turn (any pattern; the reference its
    shortcut must agree with)."""
    n = len(value)
    if op in ("#", "##"):
        rng: range = range(n + 1) if op == "#" else range(n, -1, -1)
        for k in rng:
            if match(value[:k], pat):
                return value[k:]
        return value
    rng = range(n, -1, -1) if op == "%" else range(n + 1)
    for k in rng:
        if match(value[k:], pat):
            return value[:k]
    return value


def replace(value: str, pat: str, rep: str, mode: str, nocase: bool = False) -> str:
    """``${v/pat/rep}`` (mode ""), ``${v//pat/rep}`` ("/"), ``${v/#pat/rep}`` ("#"),
    ``${v/%pat/rep}`` ("%"): at each position the longest non-empty match, as bash."""
    if mode in ("#", "%") or pat == "":
        return replace_scan(value, pat, rep, mode, nocase)
    shape = _shape(pat)
    if shape is None:
        return replace_scan(value, pat, rep, mode, nocase)
    literal, widest = shape
    if literal is not None and not nocase:  # its only match at a position is itself
        return value.replace(literal, rep) if mode == "/" else value.replace(literal, rep, 1)
    # A position where no span can match is passed by one search; where one can, the
    # spans tried are at most as wide as the pattern can be (``*``: to the end).
    import re

    try:
        exact = _match_nocase_regex(pat) if nocase else pattern_regex(pat)
    except re.error:
        return replace_scan(value, pat, rep, mode, nocase)
    opening = re.compile(exact.pattern[:-2], exact.flags)  # (less its \Z)
    n = len(value)
    out: list[str] = []
    i = done = 0
    while i < n:
        found = -1
        if opening.match(value, i) is not None:
            top = n if widest is None else min(n, i + widest)
            for end in range(top, i, -1):
                if exact.match(value, i, end) is not None:
                    found = end
                    break
        if found < 0:
            i += 1
            continue
        out.append(value[done:i])
        out.append(rep)
        i = done = found
        if mode != "/":
            break
    out.append(value[done:])
    return "".join(out)


def _shape(pat: str) -> tuple[str | None, int | None] | None:
    """A pattern without extglob forms: (its text when it is a literal, else None; the
    most characters it can match, None for any number). None: not read here."""
    chars: list[str] = []
    literal = True
    width = 0
    unbounded = False
    i, n = 0, len(pat)
    while i < n:
        c = pat[i]
        if c == "\\":
            if i + 1 >= n:
                return None
            chars.append(pat[i + 1])
            i += 2
        elif c in "?*+@!" and pat[i + 1 : i + 2] == "(":
            return None  # an extglob form
        elif c == "*":
            literal, unbounded = False, True
            i += 1
            continue
        elif c == "?":
            literal = False
            i += 1
        elif c == "[":
            j = _bracket_end(pat, i)
            if j < 0:
                chars.append(c)
                i += 1
            else:
                literal = False
                i = j + 1
        else:
            chars.append(c)
            i += 1
        width += 1
    return ("".join(chars) if literal else None), (None if unbounded else width)


def replace_scan(value: str, pat: str, rep: str, mode: str, nocase: bool = False) -> str:
    """:func:`replace` trying every span from each position (any pattern; the reference
    its shortcuts must agree with)."""
    n = len(value)
    if mode == "#":
        for k in range(n, -1, -1):
            if match(value[:k], pat, nocase):
                return rep + value[k:]
        return value
    if mode == "%":
        for k in range(n + 1):
            if match(value[k:], pat, nocase):
                return value[:k] + rep
        return value
    if pat == "":
        return value
    out: list[str] = []
    i = 0
    while i <= n:
        found = -1
        for end in range(n, i - 1, -1):
            if end > i and match(value[i:end], pat, nocase):
                found = end
                break
        if found < 0:
            if i < n:
                out.append(value[i])
            i += 1
            continue
        out.append(rep)
        i = found
        if mode != "/":
            out.append(value[i:])
            return "".join(out)
    return "".join(out)


def glob_in(
    pattern: str,
    cwd: str,
    config: Config | None = None,
    *,
    globstar: bool = False,
    dotglob: bool = False,
    extglob: bool = False,
    skipdots: bool = True,
) -> list[str]:
    """Pathname expansion of ``pattern`` relative to ``cwd`` (sorted; dot files need a dot;
    ``.`` and ``..`` only with ``shopt -u globskipdots``, for a pattern starting ``.``)."""
    if config is None:
        config = FS
    absolute = pattern.startswith("/")
    parts = [p for p in pattern.split("/") if p]
    if not parts:
        return []
    bases: list[tuple[str, str]] = [("/" if absolute else "", "/" if absolute else cwd)]
    for idx, part in enumerate(parts):
        last = idx == len(parts) - 1
        nxt: list[tuple[str, str]] = []
        has_glob = is_pattern(part, extglob)
        if globstar and part == "**":
            for shown, real in bases:
                nxt.extend(_walk(shown, real, config, dotglob, dirs_only=not last))
            bases = nxt
            if not bases:
                return []
            continue
        for shown, real in bases:
            if not has_glob:
                literal = unescape_glob(part)
                path = os.path.join(real, literal)
                if config.exists(path) if last else config.is_dir(path):
                    nxt.append((_join_path(shown, literal), path))
                continue
            names = config.list_dir(real)
            if names is None:
                continue
            if not skipdots and part.startswith("."):
                names = [".", "..", *names]
            rx = pattern_regex(part)
            for name in names:
                if name.startswith(".") and not (part.startswith(".") or dotglob):
                    continue
                if name in (".", "..") and skipdots:
                    continue
                if rx.match(name):
                    path = os.path.join(real, name)
                    if (last and not pattern.endswith("/")) or config.is_dir(path):
                        nxt.append((_join_path(shown, name), path))
        bases = nxt
        if not bases:
            return []
    suffix = "/" if pattern.endswith("/") else ""
    return (
        # Two `**` can reach one file by two routes; bash lists it once.
        sorted({shown + suffix for shown, _ in bases})
        if globstar
        else [shown + suffix for shown, _ in bases]
    )


def _walk(
    shown: str, real: str, config: Config, dotglob: bool, *, dirs_only: bool
) -> list[tuple[str, str]]:
    """``**`` with globstar: this directory and every one below it (and files, last)."""
    out: list[tuple[str, str]] = [(shown, real)] if dirs_only else []
    names = config.list_dir(real) or []
    for name in names:
        if name.startswith(".") and not dotglob:
            continue
        path = os.path.join(real, name)
        sub = _join_path(shown, name)
        if config.is_dir(path) and not os.path.islink(path):
            if not dirs_only:
                out.append((sub, path))
            out.extend(_walk(sub, path, config, dotglob, dirs_only=dirs_only))
        elif not dirs_only:
            out.append((sub, path))
    return out


def _join_path(shown: str, name: str) -> str:
    if not shown:
        return name
    return shown + name if shown.endswith("/") else shown + "/" + name


# -- brace expansion ---------------------------------------------------------------

# A word is a sequence of tokens for brace expansion: single characters of unquoted
# literal text (which may form braces), or whole parts (opaque).
_Tok = tuple[str, object]


def brace_expand(word: Word) -> list[Word]:
    """``a{b,c}d`` → ``abd acd``; ``{1..3}``; ``{a..e..2}``. Quoted braces are literal."""
    for p in word.parts:  # (a loop, not any(): every expanded word comes here)
        if isinstance(p, Lit) and "{" in p.text:
            break
    else:
        return [word]
    toks: list[_Tok] = []
    for p in word.parts:
        if isinstance(p, Lit):
            i = 0
            while i < len(p.text):
                c = p.text[i]
                if c == "\\" and i + 1 < len(p.text):
                    toks.append(("q", p.text[i : i + 2]))
                    i += 2
                    continue
                toks.append(("c", c))
                i += 1
        else:
            toks.append(("p", p))
    variants = _expand_toks(toks, 0)
    if len(variants) == 1 and variants[0] == toks:
        return [word]
    return [Word(word.pos, word.end, _rebuild(v, word.pos)) for v in variants[:100000]]


def _rebuild(toks: list[_Tok], pos: int) -> tuple[WordPart, ...]:
    parts: list[WordPart] = []
    buf: list[str] = []
    for kind, val in toks:
        if kind == "p":
            if buf:
                parts.append(Lit(pos, pos, "".join(buf)))
                buf = []
            assert not isinstance(val, str)
            parts.append(val)  # type: ignore[arg-type]
        else:
            buf.append(str(val))
    if buf:
        parts.append(Lit(pos, pos, "".join(buf)))
    return tuple(parts)


def _expand_toks(toks: list[_Tok], depth: int) -> list[list[_Tok]]:
    if depth > 20:
        return [toks]
    n = len(toks)
    for i in range(n):
        if toks[i] != ("c", "{"):
            continue
        # the matching close brace, and top-level commas
        level = 0
        commas: list[int] = []
        close = -1
        for j in range(i + 1, n):
            t = toks[j]
            if t == ("c", "{"):
                level += 1
            elif t == ("c", "}"):
                if level == 0:
                    close = j
                    break
                level -= 1
            elif t == ("c", ",") and level == 0:
                commas.append(j)
        if close < 0:  # an unmatched `{` is text; a later brace may still expand
            rest = _expand_toks(toks[i + 1 :], depth + 1)
            return [toks[: i + 1] + r for r in rest]
        prefix, suffix = toks[:i], toks[close + 1 :]
        inner = toks[i + 1 : close]
        if commas:
            alts: list[list[_Tok]] = []
            start = i + 1
            for c in [*commas, close]:
                alts.append(toks[start:c])
                start = c + 1
            out: list[list[_Tok]] = []
            for alt in alts:
                for variant in _expand_toks(prefix + alt + suffix, depth + 1):
                    out.append(variant)
            return out
        seq = _sequence(inner)
        if seq is not None:
            out = []
            for item in seq:
                mid: list[_Tok] = [("c", ch) for ch in item]
                if item == "\\" and (not suffix or suffix[0][0] != "c"):
                    # `{Z..a}` makes a `\`, which quotes what follows it; at the end of
                    # the word quote removal leaves a quoted empty word (bash).
                    mid = [("p", SglQuoted(0, 0, "", False))]
                out.extend(_expand_toks(prefix + mid + suffix, depth + 1))
            return out
        # Not a brace expression: keep `{…}` and look for one further on.
        rest = _expand_toks(toks[i + 1 :], depth + 1)
        return [toks[: i + 1] + r for r in rest]
    return [toks]


_NUMBER_SEQUENCE = lazy_compile(r"(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?")
_LETTER_SEQUENCE = lazy_compile(r"([A-Za-z])\.\.([A-Za-z])(?:\.\.(-?\d+))?")


def _sequence(inner: list[_Tok]) -> list[str] | None:
    if any(k != "c" for k, _ in inner):
        return None
    text = "".join(str(v) for _, v in inner)
    m = _NUMBER_SEQUENCE.fullmatch(text)
    if m is not None:
        a, b = int(m.group(1)), int(m.group(2))
        step = abs(int(m.group(3))) if m.group(3) else 1
        step = step or 1
        width = 0
        for g in (m.group(1), m.group(2)):
            digits = g.lstrip("-")
            if len(digits) > 1 and digits.startswith("0"):
                width = max(width, len(g))
        rng = range(a, b + 1, step) if a <= b else range(a, b - 1, -step)
        if len(rng) > 100000:
            return None
        return [str(v).zfill(width) if width else str(v) for v in rng]
    m = _LETTER_SEQUENCE.fullmatch(text)
    if m is not None:
        a, b = ord(m.group(1)), ord(m.group(2))
        step = abs(int(m.group(3))) if m.group(3) else 1
        step = step or 1
        rng = range(a, b + 1, step) if a <= b else range(a, b - 1, -step)
        return [chr(v) for v in rng]
    return None
