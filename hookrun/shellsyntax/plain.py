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
_DIGITS = frozenset("0123456789")
_PLAIN = frozenset(_LETTERS + "0123456789-./:=,+@%~")  # an unquoted word's characters
# A plain character → b"a", any other → b" " (bytes.translate over the ASCII text): the end
# of a run of plain characters is one find.
_RUNS = bytes(97 if chr(c) in _PLAIN else 32 for c in range(256))
# The nodes are made as tuple.__new__ makes them in their own __new__, without the call
# through the class (~1.3k instructions a node, a few dozen nodes a line).
_new = tuple.__new__
# A name's letter → b"n", digit → b"d", any other character → b" ": a `$NAME` ends at one find.
_NAMES = bytes(
    110 if chr(c) in _NAME_START else 100 if chr(c) in _DIGITS else 32 for c in range(256)
)
# Every byte a plain line may hold outside single quotes (deleted: what is left is not).
_ALLOWED = "".join(sorted({*_PLAIN, *"'\"$ \t;&|()\n"})).encode()
_WORD_ENDS = frozenset(" \t;&|()\n")  # what ends a word (else: more of it, or not plain)
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

_Token = tuple[str, str, int, int, "Word | None"]  # (kind, text, start, end, a word's node)


class _NotPlain(Exception):
    """The line holds something this reader leaves to tree-sitter."""


def read(source: str) -> Script | None:
    """The front end's :class:`Script` of ``source``, or None when it is not plain."""
    if not source.isascii():
        return None  # (offsets: a character is then a byte)
    src = source.encode()
    if _refused(src):
        return None
    tokens = _tokens(source, src)
    if tokens is None:
        return None
    reader = _Reader(source, tokens)
    try:
        stmts = reader.sequence("")
    except _NotPlain:
        return None
    return _new(Script, (tuple(stmts), src))


def _refused(src: bytes) -> bool:
    """A screen by bytes (C loops) before any token is made: whether ``src`` has a byte no
    plain line holds outside quotes, one no plain ``"…"`` holds inside them, or a ``$(`` /
    ``${``. Most lines that are not plain are refused here. Only ever a refusal (the
    reading decides what it lets through), and none for a line with both kinds of quotes
    (which of them quotes the other is the reading's to find)."""
    single, double = src.find(b"'") >= 0, src.find(b'"') >= 0
    if single and double:
        return False
    if single:  # (inside '…' anything goes)
        outside = b"".join(src.split(b"'")[::2])
        return bool(outside.translate(None, _ALLOWED)) or outside.find(b"$(") >= 0
    if src.find(b"$(") >= 0 or src.find(b"${") >= 0:
        return True
    if not double:
        return bool(src.translate(None, _ALLOWED))
    pieces = src.split(b'"')
    inside = b"".join(pieces[1::2])
    return bool(b"".join(pieces[::2]).translate(None, _ALLOWED)) or (
        inside.find(b"\\") >= 0 or inside.find(b"`") >= 0 or inside.find(b"!") >= 0
    )


def _tokens(text: str, src: bytes) -> list[_Token] | None:
    """Every word (with its node) and operator; None at anything else."""
    out: list[_Token] = []
    runs = src.translate(_RUNS)  # a plain character is b"a", any other b" "
    names = src.translate(_NAMES) if "$" in text else b""
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == " " or c == "\t":
            i += 1
        elif c in _OPERATORS:
            two = text[i : i + 2]
            if two == "&&" or two == "||" or two == "|&":
                out.append((_O, two, i, i + 2, None))
                i += 2
            elif two == ";;" or two == ";&" or two == "&>":
                return None  # (a case terminator, a redirection)
            else:
                out.append((_O, c, i, i + 1, None))
                i += 1
        else:
            end = runs.find(b" ", i) if runs[i] == 97 else i
            if end < 0:
                end = n
            if i < end and (end == n or text[end] in _WORD_ENDS):  # (most words: plain)
                value = text[i:end]
                word = _new(Word, (i, end, (_new(Lit, (i, end, value)),)))
            else:
                found = _word(text, runs, names, i, n)
                if found is None:
                    return None  # (a character no plain word holds, an unclosed quote)
                word = found
                end = word.end
                value = text[i:end]
            out.append((_W, value, i, end, word))
            i = end
    out += [(_O, "", n, n, None)] * 2  # the end (twice: a look one token past it stays in range)
    return out


def _word(text: str, runs: bytes, names: bytes, i: int, n: int) -> Word | None:
    """The word starting at ``i``; None if none does, or it is not plain."""
    start = i
    parts: list[Lit | SglQuoted | DblQuoted | ParamExp] = []
    while i < n:
        c = text[i]
        if runs[i] == 97:  # plain characters, up to the next other one
            end = runs.find(b" ", i)
            if end < 0:
                end = n
            parts.append(_new(Lit, (i, end, text[i:end])))
            i = end
        elif c == "'":
            close = text.find("'", i + 1)
            if close < 0:
                return None
            parts.append(_new(SglQuoted, (i, close + 1, text[i + 1 : close], False)))
            i = close + 1
        elif c == '"':
            close = text.find('"', i + 1)
            inner = None if close < 0 else _quoted_parts(text, names, i + 1, close)
            if inner is None:
                return None
            parts.append(_new(DblQuoted, (i, close + 1, inner, False)))
            i = close + 1
        elif c == "$":
            end = _name_end(names, i + 1, n)
            if end < 0:
                return None
            name = text[i + 1 : end]
            parts.append(_new(ParamExp, (i, end, name, True, None, False, False, "", "", ())))
            i = end
        else:
            break
    return _new(Word, (start, i, tuple(parts))) if parts else None


def _name_end(names: bytes, i: int, n: int) -> int:
    """The end of the ``NAME`` / digit of a ``$NAME`` at ``i`` (``names``: the text
    through _NAMES); -1 if none is there."""
    if i >= n:
        return -1
    kind = names[i]
    if kind == 100:  # b"d": `$1` is one digit
        return i + 1
    if kind != 110:  # b"n": a name starts with a letter or `_`
        return -1
    end = names.find(b" ", i + 1)  # (digits go on a name)
    return n if end < 0 or end > n else end


def _quoted_parts(
    text: str, names: bytes, start: int, close: int
) -> tuple[Lit | ParamExp, ...] | None:
    """The parts of a double-quoted string's inside (``start`` to ``close``); None unless
    it holds no backslash, backquote or ``!``, and ``$`` only before a name."""
    inner = text[start:close]
    if "\\" in inner or "`" in inner or "!" in inner:
        return None
    at = inner.find("$")
    if at < 0:  # (most strings: one literal, or none)
        return (_new(Lit, (start, close, inner)),) if inner else ()
    parts: list[Lit | ParamExp] = []
    done = start
    at += start
    while at >= 0:
        end = _name_end(names, at + 1, close)
        if end < 0:
            return None
        if at > done:
            parts.append(_new(Lit, (done, at, text[done:at])))
        name = text[at + 1 : end]
        parts.append(_new(ParamExp, (at, end, name, True, None, False, False, "", "", ())))
        done = end
        at = text.find("$", end, close)
    if done < close:
        parts.append(_new(Lit, (done, close, text[done:close])))
    return tuple(parts)


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
            left = _new(
                Stmt,
                (
                    left.pos,
                    right.end,
                    _new(BinaryCmd, (left.pos, right.end, op, left, right)),
                    (),
                    False,
                    False,
                ),
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
        return _new(
            Stmt,
            (pos, end, _new(Pipeline, (pos, end, tuple(stages), tuple(stderr))), (), False, False),
        )

    def command(self) -> Stmt:
        kind, value, start, end, _word = self.tokens[self.k]
        if kind == _O and value == "(":
            after = self.tokens[self.k + 1]
            if after[1] == "(" and after[2] == end:
                raise _NotPlain  # `((`: arithmetic
            self.k += 1
            stmts = self.sequence(")")
            end = self.tokens[self.k - 1][3]
            return _new(
                Stmt, (start, end, _new(Subshell, (start, end, tuple(stmts))), (), False, False)
            )
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
            _kind, value, _start, _end, word = tokens[self.k]
            if value in ("do", "done", "in") or word is None:
                raise _NotPlain
            words.append(word)
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
        loop = _new(ForClause, (start, end, name[1], tuple(words), tuple(body)))
        return _new(Stmt, (start, end, loop, (), False, False))

    def simple(self) -> Stmt:
        """A simple command's words."""
        tokens = self.tokens
        k = self.k
        kind, first, start, end, word = tokens[k]
        if kind != _W or first in _NOT_PLAIN or not _PROGRAM.issuperset(first):
            raise _NotPlain  # (not a plain program: an assignment, a keyword, an operator)
        args: list[Word] = []
        while word is not None:
            args.append(word)
            k += 1
            word = tokens[k][4]
        self.k = k
        end = args[-1].end
        return _new(
            Stmt, (start, end, _new(CallExpr, (start, end, (), tuple(args))), (), False, False)
        )
