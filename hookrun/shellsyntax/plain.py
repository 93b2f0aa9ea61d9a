"""The front end's fast path: a plain line → the same :class:`Script`, without tree-sitter.

Most command lines an agent runs are a few simple commands in a list —
``rm -rf "$TMPDIR/build" && mkdir -p "$TMPDIR/build"``, ``git push --force origin x``,
``curl -fsSL URL | sh`` — and tree-sitter plus the converter are nearly all of their
parse. :func:`read` makes exactly the nodes that path makes of them (the same
:class:`~hookrun.shellsyntax.nodes.Stmt`, ``CallExpr``, ``Word``, ``Lit``, … with the
same offsets) and gives up (None) at anything else, which then goes to tree-sitter:

- **Words**: unquoted letters, digits, ``- _ . / : = , + @ % ~``; ``'…'``; ``"…"``
  holding no backslash, backquote or ``!``, and no ``$`` but in ``$NAME`` / ``$1``;
  ``$NAME`` / ``$1`` unquoted. ASCII text only (offsets are then bytes and characters).
- **Commands**: simple ones, ``( … )`` subshells and ``for NAME in WORDS; do …; done``
  loops, in pipelines (``|``, ``|&``) and lists (``&&``, ``||``, ``;``, ``&``, newlines;
  a newline may follow ``&&``, ``||``, ``|``); no redirection, ``{ …; }``, comment,
  other reserved word, assignment or declaration builtin.

Nothing here is imported with native code: a plain line parses before (and without)
tree-sitter loading. ``tests/shellsyntax/plain_test.py`` pins that wherever this
answers, the answer equals the tree-sitter path's (:func:`parser.parse_tree`) over every
table, corpus and bench line and over generated near-miss lines, and that it fails
when a piece of this reading is broken on purpose.
"""

from __future__ import annotations

from hookrun.shellsyntax.nodes import (
    BinaryCmd,
    CallExpr,
    DblQuoted,
    ForClause,
    Lit,
    ParamExp,
    Pipeline,
    Script,
    SglQuoted,
    Stmt,
    Subshell,
    Word,
)

# Read by hand, not by a regex: the shell path loads no `re` (~6M instructions of its
# start-up; tests/shellsyntax/imports_test pins it).
_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_"
_NAME_START = frozenset(_LETTERS)
_NAME_CHARS = frozenset(_LETTERS + "0123456789")  # `$NAME`; `$1` is one digit
_DIGITS = frozenset("0123456789")
_PLAIN = frozenset(_LETTERS + "0123456789-./:=,+@%~")  # an unquoted word's characters
_BLANKS = frozenset(" \t")
# What a program's word may hold (no `=`: an assignment; no `%`, `@`, `:`, `,`, `+`, `~`:
# the grammar refuses some such names, `a%`, `1@`, where bash runs them).
_PROGRAM = frozenset(_LETTERS + "0123456789-./'\"$ \t")
# Words whose place is a command's and that are no plain program to the grammar:
# reserved words, and declaration builtins (their name=value arguments are Assigns).
_NOT_PLAIN = frozenset(
    ["if", "then", "else", "elif", "fi", "do", "done", "while", "until", "for", "in", "case",
     "esac", "select", "function", "time", "coproc", "declare", "typeset", "export", "local",
     "readonly", "let", "unset", "alias", "!", "{", "}", "-"]
)  # fmt: skip
# (`-`: the converter reads `- a=1` as the assignment alone; bash runs a program `-`)
_SEPARATORS = frozenset({";", "&", "\n"})
_OPERATORS = frozenset(";&|()\n")
_W, _O = "w", "o"

_Token = tuple[str, str, int, int]  # (kind, text, start, end)


class _NotPlain(Exception):
    """The line holds something this reader leaves to tree-sitter."""


def read(source: str) -> Script | None:
    """The front end's :class:`Script` of ``source``, or None when it is not plain."""
    if not source.isascii():
        return None  # (offsets: a character is then a byte)
    tokens = _tokens(source)
    if tokens is None:
        return None
    reader = _Reader(source, tokens)
    try:
        stmts = reader.sequence("")
    except _NotPlain:
        return None
    return Script(tuple(stmts), source.encode())


def _tokens(text: str) -> list[_Token] | None:
    """Every word (with its node) and operator; None at anything else."""
    out: list[_Token] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c in _BLANKS:
            i += 1
        elif c in _OPERATORS:
            two = text[i : i + 2]
            if two in ("&&", "||", "|&"):
                out.append((_O, two, i, i + 2))
                i += 2
            elif two in (";;", ";&", "&>"):
                return None  # (a case terminator, a redirection)
            else:
                out.append((_O, c, i, i + 1))
                i += 1
        else:
            end = _word_end(text, i, n)
            if end <= i:
                return None  # (a character no plain word holds)
            out.append((_W, text[i:end], i, end))
            i = end
    out += [(_O, "", n, n)] * 2  # the end (twice: a look one token past it stays in range)
    return out


def _word_end(text: str, i: int, n: int) -> int:
    """Where the word starting at ``i`` ends (``i``: no plain word starts there)."""
    while i < n:
        c = text[i]
        if c in _PLAIN:
            i += 1
        elif c == "'":
            close = text.find("'", i + 1)
            if close < 0:
                return -1
            i = close + 1
        elif c == '"':
            close = text.find('"', i + 1)
            if close < 0 or not _plain_double_quoted(text, i + 1, close):
                return -1
            i = close + 1
        elif c == "$":
            end = _name_end(text, i + 1, n)
            if end < 0:
                return -1
            i = end
        else:
            return i
    return i


def _name_end(text: str, i: int, n: int) -> int:
    """The end of the ``NAME`` / digit of a ``$NAME`` at ``i``; -1 if none is there."""
    if i >= n:
        return -1
    c = text[i]
    if c in _DIGITS:
        return i + 1
    if c not in _NAME_START:
        return -1
    i += 1
    while i < n and text[i] in _NAME_CHARS:
        i += 1
    return i


def _plain_double_quoted(text: str, start: int, close: int) -> bool:
    """Whether ``"…"`` (its inside from ``start`` to ``close``) holds no backslash,
    backquote or ``!``, and ``$`` only before a name."""
    inner = text[start:close]
    if "\\" in inner or "`" in inner or "!" in inner:
        return False
    at = inner.find("$")
    while at >= 0:
        if _name_end(inner, at + 1, len(inner)) < 0:
            return False
        at = inner.find("$", at + 1)
    return True


class _Reader:
    """A list of pipelines of simple commands, ``( … )`` subshells and ``for`` loops."""

    def __init__(self, text: str, tokens: list[_Token]) -> None:
        self.text = text
        self.tokens = tokens
        self.k = 0  # the next token

    def newlines(self) -> None:
        tokens = self.tokens
        while tokens[self.k][1] == "\n":
            self.k += 1

    def sequence(self, closer: str) -> list[Stmt]:
        """Statements up to ``closer`` (``)``, ``done``; "" the end), which is read."""
        tokens = self.tokens
        stmts: list[Stmt] = []
        while True:
            self.newlines()
            kind, value = tokens[self.k][:2]
            if value == closer and (kind == _W or closer in ("", ")")):
                if not stmts:
                    raise _NotPlain  # nothing, `()`, `do done`: left to tree-sitter
                self.k += 1
                return stmts
            if kind == _O and value == "":
                raise _NotPlain  # unclosed
            stmt = self.and_or()
            kind, value = tokens[self.k][:2]
            if value in _SEPARATORS:
                self.k += 1
                if value == "&":
                    stmt = stmt._replace(background=True)
            elif not ((closer == ")" and value == ")") or value == ""):
                raise _NotPlain  # (a `done` comes after a separator)
            stmts.append(stmt)

    def and_or(self) -> Stmt:
        tokens = self.tokens
        left = self.pipeline()
        while True:
            op = tokens[self.k][1]
            if op != "&&" and op != "||":
                return left
            self.k += 1
            self.newlines()  # a newline may follow them
            right = self.pipeline()
            left = Stmt(
                left.pos,
                right.end,
                BinaryCmd(left.pos, right.end, op, left, right),
                (),
                False,
                False,
            )

    def pipeline(self) -> Stmt:
        tokens = self.tokens
        first = self.command()
        op = tokens[self.k][1]
        if op != "|" and op != "|&":
            return first
        stages = [first]
        stderr: list[bool] = []
        while op == "|" or op == "|&":
            stderr.append(op == "|&")
            self.k += 1
            self.newlines()
            stages.append(self.command())
            op = tokens[self.k][1]
        pos, end = first.pos, stages[-1].end
        return Stmt(pos, end, Pipeline(pos, end, tuple(stages), tuple(stderr)), (), False, False)

    def command(self) -> Stmt:
        kind, value, start, end = self.tokens[self.k]
        if kind == _O and value == "(":
            after = self.tokens[self.k + 1]
            if after[1] == "(" and after[2] == end:
                raise _NotPlain  # `((`: arithmetic
            self.k += 1
            stmts = self.sequence(")")
            end = self.tokens[self.k - 1][3]
            return Stmt(start, end, Subshell(start, end, tuple(stmts)), (), False, False)
        if kind == _W and value == "for":
            self.k += 1
            return self.loop(start)
        return self.simple()

    def loop(self, start: int) -> Stmt:
        """``for NAME in WORDS; do LIST; done`` (after ``for``)."""
        tokens = self.tokens
        name, keyword = tokens[self.k], tokens[self.k + 1]
        if not (name[0] == _W and name[1].isidentifier()) or name[1] in _NOT_PLAIN:
            raise _NotPlain
        if keyword[:2] != (_W, "in"):
            raise _NotPlain
        self.k += 2
        words: list[Word] = []
        while tokens[self.k][0] == _W:
            _kind, value, pos, end = tokens[self.k]
            if value in ("do", "done", "in"):
                raise _NotPlain
            words.append(_word(value, pos, end))
            self.k += 1
        if not words or tokens[self.k][1] not in (";", "\n"):
            raise _NotPlain  # (`for d in ⏎do`: bash reads it, the grammar does not)
        self.k += 1
        self.newlines()
        if tokens[self.k][:2] != (_W, "do"):
            raise _NotPlain
        self.k += 1
        body = self.sequence("done")
        end = tokens[self.k - 1][3]
        loop = ForClause(start, end, name[1], tuple(words), tuple(body))
        return Stmt(start, end, loop, (), False, False)

    def simple(self) -> Stmt:
        """A simple command's words."""
        tokens = self.tokens
        k = self.k
        kind, first, start, end = tokens[k]
        if kind != _W or first in _NOT_PLAIN or not _PROGRAM.issuperset(first):
            raise _NotPlain  # (not a plain program: an assignment, a keyword, an operator)
        args: list[Word] = []
        while True:
            kind, value, pos, end = tokens[k]
            if kind != _W:
                break
            args.append(_word(value, pos, end))
            k += 1
        self.k = k
        end = args[-1].end
        return Stmt(start, end, CallExpr(start, end, (), tuple(args)), (), False, False)


def _word(raw: str, pos: int, end: int) -> Word:
    """The word node of ``raw`` (one word token) at ``pos``."""
    if "'" not in raw and '"' not in raw and "$" not in raw:  # (most words: one literal)
        return Word(pos, end, (Lit(pos, end, raw),))
    parts: list[Lit | SglQuoted | DblQuoted | ParamExp] = []
    i, n = 0, len(raw)
    while i < n:
        c = raw[i]
        if c == "'":
            close = raw.index("'", i + 1)
            parts.append(SglQuoted(pos + i, pos + close + 1, raw[i + 1 : close], False))
            i = close + 1
        elif c == '"':
            close = raw.index('"', i + 1)
            inner = _quoted_parts(raw[i + 1 : close], pos + i + 1)
            parts.append(DblQuoted(pos + i, pos + close + 1, inner, False))
            i = close + 1
        elif c == "$":
            stop = _name_end(raw, i + 1, n)
            parts.append(_param(raw[i + 1 : stop], pos + i, pos + stop))
            i = stop
        else:
            stop = i + 1
            while stop < n and raw[stop] in _PLAIN:
                stop += 1
            parts.append(Lit(pos + i, pos + stop, raw[i:stop]))
            i = stop
    return Word(pos, end, tuple(parts))


def _quoted_parts(inner: str, pos: int) -> tuple[Lit | ParamExp, ...]:
    """The parts of a double-quoted string's ``inner`` text (at ``pos``)."""
    parts: list[Lit | ParamExp] = []
    at = 0
    start = inner.find("$")
    while start >= 0:
        if start > at:
            parts.append(Lit(pos + at, pos + start, inner[at:start]))
        at = _name_end(inner, start + 1, len(inner))
        parts.append(_param(inner[start + 1 : at], pos + start, pos + at))
        start = inner.find("$", at)
    if at < len(inner):
        parts.append(Lit(pos + at, pos + len(inner), inner[at:]))
    return tuple(parts)


def _param(name: str, pos: int, end: int) -> ParamExp:
    return ParamExp(pos, end, name, True, None, False, False, "", "", ())
