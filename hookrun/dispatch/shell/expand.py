"""Word expansion: quotes, parameters, command substitution, arithmetic, splitting, globs.

The expander reads a word's *raw* source text (bashlex's own quote removal loses the
difference between ``$x`` and ``"$x"``) and produces pieces tagged with how they were
quoted, because that decides everything afterwards: unquoted expansion results are
split on IFS and globbed, quoted text is neither, and unquoted literal text is globbed
but never split.

Backslashes follow POSIX quoting in scripts: ``C:\\dir`` unquoted loses its backslashes,
``'C:\\dir'`` keeps them. (The dispatch entry point keeps a lone Windows path word intact
before any shell is involved.)
"""

from __future__ import annotations

import fnmatch
import os
import random
import re
from collections.abc import Callable
from typing import Protocol

from hookrun.dispatch.shell.arith import ArithError, evaluate
from hookrun.dispatch.shell.prepass import (
    ARITH_PREFIX,
    LITERAL_PREFIX,
    SUBST_PREFIX,
    decode_ansi_c,
    snippet,
)
from hookrun.dispatch.shell.state import ShellError, ShellState

# Piece kinds: quoted text (no split, no glob), literal unquoted text (glob, no split),
# an unquoted expansion result (split and glob), and a forced field break ("$@").
QUOTED = 0
LITERAL = 1
SPLIT = 2
BREAK = 3
Piece = tuple[str, int]

_NAME = re.compile(r"[A-Za-z_]\w*")
# A lone `[` (as in `[ -f x ]`) is not a pattern: brackets need their closing `]`.
_GLOB_CHARS = re.compile(r"[*?]|\[.*\]")
_SPECIAL = re.compile(r"[\\'\"$`~*?\[]")
_DEFAULT_IFS = " \t\n"


def _uid() -> str:
    return str(os.getuid()) if hasattr(os, "getuid") else "0"


# bash's dynamic variables that hooks use (temp names, `[ $UID = 0 ]`), unless assigned.
_DYNAMIC: dict[str, Callable[[], str]] = {
    "RANDOM": lambda: str(random.randrange(32768)),
    "PPID": lambda: str(os.getppid()),
    "UID": _uid,
    "EUID": lambda: str(os.geteuid()) if hasattr(os, "geteuid") else "0",
}


class Context(Protocol):
    """What the expander needs from the interpreter."""

    state: ShellState

    def command_substitution(self, source: str) -> str: ...


def _bad(text: str) -> ShellError:
    return ShellError(f"{text}: bad substitution", 1, fatal=True)


def find_close(s: str, i: int, opener: str, closer: str) -> int:
    """Index of the ``closer`` matching an ``opener`` just before ``i`` (quote-aware)."""
    depth = 1
    n = len(s)
    while i < n:
        c = s[i]
        if c == "\\":
            i += 2
            continue
        if c == "'" and closer != "}":
            end = s.find("'", i + 1)
            if end < 0:
                break
            i = end + 1
            continue
        if c == '"':
            i = _skip_dq(s, i + 1)
            continue
        if c == "`":
            end = s.find("`", i + 1)
            if end < 0:
                break
            i = end + 1
            continue
        if c == "$" and i + 1 < n and s[i + 1] in "({":
            inner_open = s[i + 1]
            i = find_close(s, i + 2, inner_open, ")" if inner_open == "(" else "}") + 1
            continue
        if c == opener:
            depth += 1
        elif c == closer:
            depth -= 1
            if depth == 0:
                return i
        i += 1
    raise ShellError(f"unexpected EOF while looking for matching `{closer}'", 2, fatal=True)


def _skip_dq(s: str, i: int) -> int:
    n = len(s)
    while i < n:
        c = s[i]
        if c == "\\":
            i += 2
        elif c == '"':
            return i + 1
        elif c == "$" and i + 1 < n and s[i + 1] in "({":
            i = find_close(s, i + 2, s[i + 1], ")" if s[i + 1] == "(" else "}") + 1
        elif c == "`":
            end = s.find("`", i + 1)
            i = n if end < 0 else end + 1
        else:
            i += 1
    raise ShellError("unexpected EOF while looking for matching `\"'", 2, fatal=True)


class Expander:
    """Expands raw words against one interpreter's state."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    # -- public entry points -------------------------------------------------
    def fields(self, raws: list[str]) -> list[str]:
        """Command words: full expansion with field splitting and pathname expansion."""
        out: list[str] = []
        for raw in raws:
            if _is_plain(raw):
                out.append(raw)
                continue
            for field in _split(self.pieces(raw, tilde=True), self.ifs()):
                out.extend(self.glob(field))
        return out

    def string(self, raw: str, *, assignment: bool = False) -> str:
        """One string: assignments, redirection targets, ``case`` subjects, ``[[`` operands."""
        if _is_plain(raw):
            return raw
        pieces = self.pieces(raw, tilde=True, assignment=assignment)
        return "".join(t if k != BREAK else " " for t, k in pieces)

    def pattern(self, raw: str) -> str:
        """An fnmatch pattern: quoted characters match literally."""
        return "".join(
            _escape_glob(t) if k == QUOTED else t
            for t, k in self.pieces(raw, tilde=True)
            if k != BREAK
        )

    def heredoc(self, body: str) -> str:
        """An unquoted here-document body: ``$``, backquotes and ``\\`` are special."""
        pieces: list[Piece] = []
        i = 0
        n = len(body)
        buf: list[str] = []
        while i < n:
            c = body[i]
            if c == "\\" and i + 1 < n and body[i + 1] in "$`\\\n":
                if body[i + 1] != "\n":
                    buf.append(body[i + 1])
                i += 2
            elif c in "$`":
                if buf:
                    pieces.append(("".join(buf), QUOTED))
                    buf = []
                i = self._expansion(body, i, pieces, in_dq=True)
            else:
                buf.append(c)
                i += 1
        if buf:
            pieces.append(("".join(buf), QUOTED))
        return "".join(t for t, _ in pieces)

    def ifs(self) -> str:
        value = self.ctx.state.vars.get("IFS")
        return _DEFAULT_IFS if value is None else value

    # -- scanning ------------------------------------------------------------
    def pieces(self, s: str, *, tilde: bool = False, assignment: bool = False) -> list[Piece]:
        out: list[Piece] = []
        i = 0
        n = len(s)
        if tilde and s.startswith("~"):
            i = self._tilde(s, 0, out)
        while i < n:
            c = s[i]
            if c == "\\":
                if i + 1 < n:
                    if s[i + 1] != "\n":  # backslash-newline is a line continuation
                        out.append((s[i + 1], QUOTED))
                    i += 2
                else:
                    out.append(("\\", LITERAL))
                    i += 1
            elif c == "'":
                end = s.find("'", i + 1)
                if end < 0:
                    raise ShellError("unexpected EOF while looking for matching `''", 2, fatal=True)
                out.append((s[i + 1 : end], QUOTED))
                i = end + 1
            elif c == '"':
                i = self._double_quoted(s, i + 1, out)
            elif c in "$`":
                i = self._expansion(s, i, out, in_dq=False)
            else:
                j = i + 1
                while j < n and s[j] not in "\\'\"$`" and not (assignment and s[j] == ":"):
                    j += 1
                if assignment and j < n and s[j] == ":":
                    out.append((s[i : j + 1], LITERAL))
                    i = j + 1
                    if s.startswith("~", i):
                        i = self._tilde(s, i, out)
                    continue
                out.append((s[i:j], LITERAL))
                if assignment and "=" in s[i:j] and not any(k != LITERAL for _, k in out[:-1]):
                    eq = s.index("=", i)
                    if s.startswith("~", eq + 1) and eq < j:
                        out[-1] = (s[i : eq + 1], LITERAL)
                        i = self._tilde(s, eq + 1, out)
                        continue
                i = j
        return out

    def _tilde(self, s: str, i: int, out: list[Piece]) -> int:
        m = re.match(r"~([A-Za-z0-9_.-]*)(?=/|:|$)", s[i:])
        if m is None:
            out.append(("~", LITERAL))
            return i + 1
        user = m.group(1)
        if user:
            home = os.path.expanduser("~" + user)
        else:
            home = self.ctx.state.vars.get("HOME") or os.path.expanduser("~")
        out.append((home, QUOTED))
        return i + m.end()

    def _double_quoted(self, s: str, i: int, out: list[Piece]) -> int:
        start_len = len(out)
        saw_at = False
        buf: list[str] = []
        n = len(s)
        while i < n:
            c = s[i]
            if c == '"':
                if buf:
                    out.append(("".join(buf), QUOTED))
                if len(out) == start_len and not saw_at:
                    out.append(("", QUOTED))  # "" is one empty field, not none
                return i + 1
            if c == "\\" and i + 1 < n and s[i + 1] in '$`"\\\n':
                if s[i + 1] != "\n":
                    buf.append(s[i + 1])
                i += 2
            elif c in "$`":
                if buf:
                    out.append(("".join(buf), QUOTED))
                    buf = []
                if s.startswith(("$@", "${@}"), i):
                    saw_at = True
                i = self._expansion(s, i, out, in_dq=True)
            else:
                buf.append(c)
                i += 1
        raise ShellError("unexpected EOF while looking for matching `\"'", 2, fatal=True)

    def _expansion(self, s: str, i: int, out: list[Piece], *, in_dq: bool) -> int:
        """Expand the ``$…`` or backquote at ``i``; append pieces; return the next index."""
        kind = QUOTED if in_dq else SPLIT
        n = len(s)
        if s[i] == "`":
            end = i + 1
            text: list[str] = []
            while end < n and s[end] != "`":
                if s[end] == "\\" and end + 1 < n and s[end + 1] in "$`\\":
                    text.append(s[end + 1])
                    end += 2
                    continue
                text.append(s[end])
                end += 1
            if end >= n:
                raise ShellError("unexpected EOF while looking for matching ``'", 2, fatal=True)
            out.append((self.ctx.command_substitution("".join(text)), kind))
            return end + 1
        if i + 1 >= n:
            out.append(("$", QUOTED if in_dq else LITERAL))
            return i + 1
        c = s[i + 1]
        if s.startswith("$((", i):
            try:
                end = find_close(s, i + 3, "(", ")")
                if s.startswith("))", end):
                    out.append((str(self.arith(s[i + 3 : end])), kind))
                    return end + 2
            except ShellError:
                pass
        if c == "(":
            end = find_close(s, i + 2, "(", ")")
            out.append((self.ctx.command_substitution(s[i + 2 : end]), kind))
            return end + 1
        if c == "{":
            end = find_close(s, i + 2, "{", "}")
            self._braced(s[i + 2 : end], out, in_dq)
            return end + 1
        if c == "'" and not in_dq:
            end = i + 2
            while end < n and s[end] != "'":
                end += 2 if s[end] == "\\" else 1
            out.append((decode_ansi_c(s[i + 2 : end]), QUOTED))
            return end + 1
        if c == '"' and not in_dq:
            return self._double_quoted(s, i + 2, out)
        m = _NAME.match(s, i + 1)
        if m is not None:
            self._param(m.group(0), out, in_dq)
            return m.end()
        if c.isdigit() or c in "@*#?$!-":
            self._param(c, out, in_dq)
            return i + 2
        out.append(("$", QUOTED if in_dq else LITERAL))
        return i + 1

    # -- parameters ----------------------------------------------------------
    def lookup(self, name: str) -> str | None:
        st = self.ctx.state
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
            return ("e" if st.errexit else "") + ("u" if st.nounset else "")
        if name.startswith("__hookrun_"):
            if name.startswith(ARITH_PREFIX):
                return str(self.arith(snippet(int(name[len(ARITH_PREFIX) :]))[1]))
            if name.startswith(LITERAL_PREFIX):
                return snippet(int(name[len(LITERAL_PREFIX) :]))[1]
            if name.startswith(SUBST_PREFIX):
                body = snippet(int(name[len(SUBST_PREFIX) :]))[1]
                return self.ctx.command_substitution(body)
        value = st.vars.get(name)
        if value is None and name in _DYNAMIC:
            return _DYNAMIC[name]()
        return value

    def _unbound(self, name: str) -> ShellError:
        return ShellError(f"{name}: unbound variable", 127, fatal=True)  # 127, as bash

    def _param(self, name: str, out: list[Piece], in_dq: bool) -> None:
        st = self.ctx.state
        if name in ("@", "*"):
            if name == "*" and in_dq:
                sep = self.ifs()[:1]
                out.append((sep.join(st.params), QUOTED))
                return
            for k, p in enumerate(st.params):
                if k:
                    out.append(("", BREAK))
                out.append((p, QUOTED if in_dq else SPLIT))
            return
        value = self.lookup(name)
        if value is None:
            if st.nounset and name != "!":
                raise self._unbound(name)
            value = ""
        out.append((value, QUOTED if in_dq else SPLIT))

    def _braced(self, body: str, out: list[Piece], in_dq: bool) -> None:
        kind = QUOTED if in_dq else SPLIT
        st = self.ctx.state
        if body in ("#", "@", "*", "?", "$", "!", "-") or body.isdigit():
            self._param(body, out, in_dq)
            return
        if body.startswith("#") and len(body) > 1:
            name = body[1:]
            if name in ("@", "*"):
                out.append((str(len(st.params)), kind))
                return
            if not (_NAME.fullmatch(name) or name.isdigit()):
                raise _bad("${" + body + "}")
            value = self.lookup(name)
            if value is None and st.nounset:
                raise self._unbound(name)
            out.append((str(len(value or "")), kind))
            return
        if body.startswith("!"):
            m = _NAME.fullmatch(body[1:])
            if m is None:
                raise _bad("${" + body + "}")
            target = self.lookup(body[1:]) or ""
            value = self.lookup(target) if (_NAME.fullmatch(target) or target.isdigit()) else None
            out.append((value or "", kind))
            return
        m = _NAME.match(body)
        if m is not None:
            name, rest = m.group(0), body[m.end() :]
        elif body[:1].isdigit():
            digits = re.match(r"\d+", body)
            assert digits is not None
            name, rest = digits.group(0), body[digits.end() :]
        elif body and body[0] in "@*#?$!-":  # ("" is "in" every string)
            name, rest = body[0], body[1:]
        else:
            raise _bad("${" + body + "}")
        if not rest:
            self._param(name, out, in_dq)
            return
        value = self.lookup(name)
        self._operator(name, value, rest, out, in_dq, body)

    def _operator(
        self, name: str, value: str | None, rest: str, out: list[Piece], in_dq: bool, body: str
    ) -> None:
        kind = QUOTED if in_dq else SPLIT
        st = self.ctx.state
        m = re.match(r":?[-=+?]", rest)
        if m is not None:
            op = m.group(0)
            word = rest[m.end() :]
            unset = value is None or (op.startswith(":") and value == "")
            if op[-1] == "-":
                if unset:
                    out.extend(self._operand(word, in_dq))
                else:
                    out.append((value or "", kind))
            elif op[-1] == "=":
                if unset:
                    if not _NAME.fullmatch(name):
                        raise ShellError(f"${name}: cannot assign in this way", 1, fatal=True)
                    new = "".join(t for t, _ in self._operand(word, True))
                    st.set_var(name, new)
                    out.append((new, kind))
                else:
                    out.append((value or "", kind))
            elif op[-1] == "+":
                if not unset:
                    out.extend(self._operand(word, in_dq))
            else:
                if unset:
                    msg = "".join(t for t, _ in self._operand(word, True))
                    raise ShellError(
                        f"{name}: {msg or 'parameter null or not set'}", 127, fatal=True
                    )
                out.append((value or "", kind))
            return
        if value is None:
            if st.nounset:
                raise self._unbound(name)
            value = ""
        result = self._transform(value, rest, body)
        out.append((result, kind))

    def _operand(self, word: str, in_dq: bool) -> list[Piece]:
        if in_dq:
            # Inside double quotes the operand behaves like double-quoted text.
            pieces: list[Piece] = []
            self._double_quoted(word + '"', 0, pieces)
            return [p for p in pieces if p != ("", QUOTED)] or [("", QUOTED)]
        # Unquoted operand text is part of an expansion's result: it is split too.
        return [(t, SPLIT if k == LITERAL else k) for t, k in self.pieces(word, tilde=True)]

    def _transform(self, value: str, rest: str, body: str) -> str:
        for op in ("##", "#", "%%", "%"):
            if rest.startswith(op):
                pat = self.pattern(rest[len(op) :])
                return _trim(value, pat, op)
        if rest.startswith("/"):
            spec = rest[1:]
            mode = ""
            if spec[:1] in "/#%":
                mode, spec = spec[0], spec[1:]
            pat_raw, _, rep_raw = _split_unescaped(spec, "/")
            pat = self.pattern(pat_raw)
            rep = self.string(rep_raw) if rep_raw else ""
            return _replace(value, pat, rep, mode)
        for op, fn in (("^^", str.upper), (",,", str.lower)):
            if rest == op:
                return fn(value)
        if rest == "^":
            return value[:1].upper() + value[1:]
        if rest == ",":
            return value[:1].lower() + value[1:]
        if rest.startswith(":"):
            off_raw, _, len_raw = rest[1:].partition(":")
            off = self.arith(off_raw)
            if off < 0:
                off = max(0, len(value) + off)
            if len_raw:
                length = self.arith(len_raw)
                end = off + length if length >= 0 else len(value) + length
                return value[off:end] if end >= off else ""
            return value[off:]
        raise _bad("${" + body + "}")

    def arith(self, raw: str) -> int:
        text = self.string(raw) if any(c in raw for c in "$`\\'\"") else raw
        st = self.ctx.state

        def get(name: str) -> str | None:
            value = st.vars.get(name)
            if value is None and name in _DYNAMIC:
                value = _DYNAMIC[name]()
            if value is None and st.nounset:
                raise self._unbound(name)
            return value

        try:
            return evaluate(text, get, st.set_var)
        except ArithError as exc:
            raise ShellError(f"{text.strip()}: {exc}", 1, fatal=True) from None
        except RecursionError:
            raise ShellError(
                f"{text.strip()}: expression too deeply nested", 1, fatal=True
            ) from None

    # -- pathname expansion --------------------------------------------------
    def glob(self, field: list[Piece]) -> list[str]:
        text = "".join(t for t, _ in field)
        if not any(k != QUOTED and _GLOB_CHARS.search(t) for t, k in field):
            return [text]
        pattern = "".join(t if k != QUOTED else _escape_glob(t) for t, k in field)
        matches = glob_in(pattern, self.ctx.state.cwd)
        return matches or [text]


def _is_plain(raw: str) -> bool:
    """A word with nothing to expand (the common case: skip the machinery)."""
    return _SPECIAL.search(raw) is None


def _escape_glob(text: str) -> str:
    return re.sub(r"([*?\[])", r"[\1]", text)


def _split(pieces: list[Piece], ifs: str) -> list[list[Piece]]:
    """Field splitting: SPLIT pieces break on IFS, BREAK pieces always break."""
    fields: list[list[Piece]] = []
    cur: list[Piece] = []
    have = False
    delim = _ifs_regex(ifs)
    for text, kind in pieces:
        if kind == BREAK:
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


_ifs_cache: dict[str, re.Pattern[str] | None] = {}


def _ifs_regex(ifs: str) -> re.Pattern[str] | None:
    if ifs in _ifs_cache:
        return _ifs_cache[ifs]
    if not ifs:
        rx = None
    else:
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


def _split_unescaped(s: str, sep: str) -> tuple[str, str, str]:
    i = 0
    while i < len(s):
        if s[i] == "\\":
            i += 2
            continue
        if s[i] == sep:
            return s[:i], sep, s[i + 1 :]
        i += 1
    return s, "", ""


def match(value: str, pattern: str) -> bool:
    """Shell pattern matching (``case``, ``[[ == ]]``): ``*`` also matches ``/``."""
    return fnmatch.fnmatchcase(value, pattern)


def _trim(value: str, pat: str, op: str) -> str:
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


def _replace(value: str, pat: str, rep: str, mode: str) -> str:
    n = len(value)
    if mode == "#":
        for k in range(n, -1, -1):
            if match(value[:k], pat):
                return rep + value[k:]
        return value
    if mode == "%":
        for k in range(n + 1):
            if match(value[k:], pat):
                return value[:k] + rep
        return value
    out: list[str] = []
    i = 0
    while i <= n:
        found = -1
        for end in range(n, i - 1, -1):
            if end > i and match(value[i:end], pat):
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


def glob_in(pattern: str, cwd: str) -> list[str]:
    """Pathname expansion of ``pattern`` relative to ``cwd`` (sorted; hidden files need a dot)."""
    absolute = pattern.startswith("/")
    parts = [p for p in pattern.split("/") if p]
    if not parts:
        return []
    bases: list[tuple[str, str]] = [("/" if absolute else "", "/" if absolute else cwd)]
    for idx, part in enumerate(parts):
        last = idx == len(parts) - 1
        nxt: list[tuple[str, str]] = []
        has_glob = bool(_GLOB_CHARS.search(part))
        for shown, real in bases:
            if not has_glob:
                literal = re.sub(r"\[([*?\[])\]", r"\1", part)
                path = os.path.join(real, literal)
                if os.path.lexists(path) if last else os.path.isdir(path):
                    nxt.append((_join(shown, literal), path))
                continue
            try:
                names = sorted(e.name for e in os.scandir(real))
            except (OSError, ValueError):
                continue
            for name in names:
                if name.startswith(".") and not part.startswith("."):
                    continue
                if fnmatch.fnmatchcase(name, part):
                    path = os.path.join(real, name)
                    if (last and not pattern.endswith("/")) or os.path.isdir(path):
                        nxt.append((_join(shown, name), path))
        bases = nxt
        if not bases:
            return []
    suffix = "/" if pattern.endswith("/") else ""
    return [shown + suffix for shown, _ in bases]


def _join(shown: str, name: str) -> str:
    if not shown:
        return name
    return shown + name if shown.endswith("/") else shown + "/" + name


Lookup = Callable[[str], "str | None"]
