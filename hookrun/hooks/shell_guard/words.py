"""One shell word as written → the word(s) the shell would pass, statically.

bashlex finds word boundaries but its ``word`` values are lossy (``$'\\x72'``
comes out as ``$x72``), so every word is re-read from its source text here:
quotes removed, ``$'…'`` decoded, ``\\`` escapes applied, brace expansion done,
unquoted ``$IFS`` splitting done (``rm${IFS}-rf${IFS}/`` is three words), and
whatever only the running shell knows kept as a :class:`Var`.
"""

from __future__ import annotations

import re

from hookrun.hooks.shell_guard.model import Part, Var, Word

# A brace expansion multiplies words; past this many an evasion is being
# attempted or the word is not a brace expansion at all: keep it literal.
_MAX_BRACE_WORDS = 64

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|[0-9]|[@*#?$!-]")


def expand_word(raw: str) -> list[Word]:
    """The words ``raw`` becomes (usually one; zero for an empty unquoted expansion)."""
    out: list[Word] = []
    for variant in brace_expand(raw):
        for parts in _fields(variant):
            out.append(Word(_merge(parts), raw))
    return out


def _merge(parts: list[Part]) -> tuple[Part, ...]:
    merged: list[Part] = []
    for p in parts:
        if p == "" and len(parts) > 1:
            continue  # `""$HOME` is just $HOME
        if isinstance(p, str) and merged and isinstance(merged[-1], str):
            merged[-1] = merged[-1] + p
        else:
            merged.append(p)
    return tuple(merged) if merged else ("",)


class _Fields:
    """Accumulates the fields of one word while it is scanned."""

    def __init__(self) -> None:
        self.fields: list[list[Part]] = [[]]
        self.buf: list[str] = []
        self.touched = False  # the current field has content (even an empty quote)

    def text(self, s: str) -> None:
        self.buf.append(s)
        self.touched = True

    def var(self, v: Var) -> None:
        self._flush()
        self.fields[-1].append(v)
        self.touched = True

    def split(self) -> None:
        """An unquoted ``$IFS``: end the current field."""
        self._flush()
        if self.touched:
            self.fields.append([])
            self.touched = False

    def _flush(self) -> None:
        if self.buf:
            self.fields[-1].append("".join(self.buf))
            self.buf.clear()

    def done(self) -> list[list[Part]]:
        self._flush()
        if not self.touched:
            self.fields.pop()
        return self.fields


def _fields(raw: str) -> list[list[Part]]:
    acc = _Fields()
    i, n = 0, len(raw)
    while i < n:
        c = raw[i]
        if c == "\\":
            if i + 1 < n:
                if raw[i + 1] != "\n":  # a line continuation vanishes
                    acc.text(raw[i + 1])
                i += 2
            else:
                acc.text("\\")
                i += 1
        elif c == "'":
            j = raw.find("'", i + 1)
            j = n if j < 0 else j
            acc.text(raw[i + 1 : j])
            i = j + 1
        elif c == '"':
            i = _double_quoted(raw, i + 1, acc)
        elif c == "$":
            i = _dollar(raw, i, acc, quoted=False)
        elif c == "`":
            j = _backtick_end(raw, i + 1)
            acc.var(Var("$(", raw[i + 1 : j]))
            i = j + 1
        elif c in "<>" and raw.startswith("(", i + 1):
            j = match_paren(raw, i + 2)
            acc.var(Var("<(", raw[i + 2 : j]))
            i = j + 1
        elif c == "~" and i == 0:
            j = i + 1
            while j < n and raw[j] != "/":
                j += 1
            user = raw[1:j]
            if user == "":
                acc.var(Var("HOME"))
            elif user == "+":
                acc.var(Var("PWD"))
            else:
                acc.var(Var("~" + user))
            i = j
        else:
            acc.text(c)
            i += 1
    return acc.done()


def _double_quoted(raw: str, i: int, acc: _Fields) -> int:
    """Scan after an opening ``"``; returns the index after the closing one."""
    n = len(raw)
    acc.text("")
    while i < n:
        c = raw[i]
        if c == '"':
            return i + 1
        if c == "\\" and i + 1 < n:
            nxt = raw[i + 1]
            if nxt in '$`"\\':
                acc.text(nxt)
            elif nxt != "\n":
                acc.text("\\" + nxt)
            i += 2
        elif c == "$":
            i = _dollar(raw, i, acc, quoted=True)
        elif c == "`":
            j = _backtick_end(raw, i + 1)
            acc.var(Var("$(", raw[i + 1 : j]))
            i = j + 1
        else:
            acc.text(c)
            i += 1
    return n


def _dollar(raw: str, i: int, acc: _Fields, *, quoted: bool) -> int:
    """Scan a ``$`` construct at ``i``; returns the index after it."""
    n = len(raw)
    nxt = raw[i + 1] if i + 1 < n else ""
    if nxt == "'" and not quoted:
        value, j = decode_ansi_c(raw, i + 2)
        acc.text(value)
        return j
    if nxt == '"' and not quoted:
        return _double_quoted(raw, i + 2, acc)
    if nxt == "(":
        if raw.startswith("((", i + 1):
            j = match_paren(raw, i + 3)
            j = match_paren(raw, j + 1) if j + 1 < n and raw[j + 1] == ")" else j
            acc.var(Var("((", raw[i + 3 : j]))
            return j + 1
        j = match_paren(raw, i + 2)
        acc.var(Var("$(", raw[i + 2 : j]))
        return j + 1
    if nxt == "{":
        j = _brace_end(raw, i + 2)
        body = raw[i + 2 : j]
        m = _NAME.match(body.lstrip("#!"))
        name = m.group(0) if m else body
        _param(name, acc, quoted=quoted)
        return j + 1
    m = _NAME.match(raw, i + 1)
    if m is None:
        acc.text("$")
        return i + 1
    _param(m.group(0), acc, quoted=quoted)
    return m.end()


def _param(name: str, acc: _Fields, *, quoted: bool) -> None:
    if name == "IFS":
        # Unquoted $IFS splits the word (the classic `rm${IFS}-rf${IFS}/` evasion).
        if quoted:
            acc.text(" ")
        else:
            acc.split()
        return
    acc.var(Var(name))


def decode_ansi_c(raw: str, i: int) -> tuple[str, int]:
    """Decode the body of ``$'…'`` starting at ``i``; returns (text, index after ``'``).

    The escapes are the shared front end's (:func:`hookrun.shellsyntax.convert.ansi_c`):
    one table of bash's ``$'…'`` rules in the project.
    """
    from hookrun.shellsyntax.convert import ansi_c  # start-up: off the screened path

    j, n = i, len(raw)
    while j < n and raw[j] != "'":
        j += 2 if raw[j] == "\\" else 1
    return ansi_c(raw[i : min(j, n)]), min(j + 1, n) if j < n else n


def _backtick_end(raw: str, i: int) -> int:
    n = len(raw)
    while i < n:
        if raw[i] == "\\":
            i += 2
            continue
        if raw[i] == "`":
            return i
        i += 1
    return n


def _brace_end(raw: str, i: int) -> int:
    depth = 1
    n = len(raw)
    while i < n:
        c = raw[i]
        if c == "\\":
            i += 2
            continue
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return n


def match_paren(raw: str, i: int) -> int:
    """Index of the ``)`` closing a ``(`` just before ``i`` (quote-aware); len if none."""
    depth = 1
    n = len(raw)
    while i < n:
        c = raw[i]
        if c == "\\":
            i += 2
            continue
        if c == "'":
            j = raw.find("'", i + 1)
            i = n if j < 0 else j + 1
            continue
        if c == '"':
            i = skip_double(raw, i + 1)
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return n


def skip_double(raw: str, i: int) -> int:
    n = len(raw)
    while i < n:
        c = raw[i]
        if c == "\\":
            i += 2
            continue
        if c == '"':
            return i + 1
        if c == "$" and raw.startswith("(", i + 1):
            i = match_paren(raw, i + 2) + 1
            continue
        i += 1
    return n


def brace_expand(raw: str) -> list[str]:
    """Bash brace expansion of ``{a,b}`` outside quotes (``{rm,-rf,/}`` → three words)."""
    if "{" not in raw or "," not in raw:
        return [raw]
    span = _first_brace(raw)
    if span is None:
        return [raw]
    start, end, commas = span
    pre, post = raw[:start], raw[end + 1 :]
    bounds = [start, *commas, end]
    out: list[str] = []
    for a, b in zip(bounds, bounds[1:], strict=False):
        for tail in brace_expand(post):
            out.append(pre + raw[a + 1 : b] + tail)
            if len(out) > _MAX_BRACE_WORDS:
                return [raw]
    return out


def _first_brace(raw: str) -> tuple[int, int, list[int]] | None:
    """The first unquoted ``{…,…}`` (not ``${``): (open, close, top-level comma indexes)."""
    i, n = 0, len(raw)
    while i < n:
        c = raw[i]
        if c == "\\":
            i += 2
            continue
        if c == "'":
            j = raw.find("'", i + 1)
            i = n if j < 0 else j + 1
            continue
        if c == '"':
            i = skip_double(raw, i + 1)
            continue
        if c == "$" and i + 1 < n and raw[i + 1] in "{(":
            i = (_brace_end(raw, i + 2) if raw[i + 1] == "{" else match_paren(raw, i + 2)) + 1
            continue
        if c == "{":
            found = _brace_body(raw, i)
            if found is not None:
                return found
        i += 1
    return None


def _brace_body(raw: str, start: int) -> tuple[int, int, list[int]] | None:
    depth = 0
    commas: list[int] = []
    i, n = start, len(raw)
    while i < n:
        c = raw[i]
        if c == "\\":
            i += 2
            continue
        if c in "'\"":
            return None  # quotes inside a brace list: too clever to be worth modelling
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return (start, i, commas) if commas else None
        elif c == "," and depth == 1:
            commas.append(i)
        i += 1
    return None
