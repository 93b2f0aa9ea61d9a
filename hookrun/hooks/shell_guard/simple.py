"""A line of plain commands → :class:`Script`, read without the shell front end.

Most lines the screen cannot clear are still a few simple commands in a list —
``rm -rf "$TMPDIR/build" && mkdir -p "$TMPDIR/build"``, ``git push --force origin x``,
``curl -fsSL URL | sh`` — and the tree-sitter parse was most of their judgement. This
reader makes the same :class:`Script` the tree walk (:mod:`parse`) makes of them, and
gives up (None) at anything else, which then goes to the front end as before:

- **Words**: unquoted letters, digits, ``- _ . / : = , + @ % ~``; ``'…'``; ``"…"``
  holding no backslash, backquote or ``!``; ``$NAME`` / ``$1`` (not ``$IFS``), quoted
  or not. A word's value goes through the same steps as a tree word's
  (:mod:`treewords`: tilde, fields, merge), from the same parts.
- **Commands**: simple ones, ``( … )`` subshells and ``for NAME in WORDS; do …; done``
  loops, separated by ``;``, ``&``, ``&&``, ``||``, ``|`` and newlines (a newline may
  follow ``&&``, ``||``, ``|``); no redirection, ``{ …; }``, comment, other keyword,
  assignment or declaration builtin. ``cd`` moves what follows it in the list, not the
  other stages of a pipeline nor past a subshell or loop (as the walk reads it).

``tests/hooks/shell_guard/simple_test.py`` pins that the Script equals the walk's over
every table of cases, both peers' corpora, the bench's lines and generated lines, and
fails when a piece of this reading is broken on purpose.
"""

from __future__ import annotations

import re

from hookrun.hooks.shell_guard.model import Command, Script, Var, Word
from hookrun.records import TYPE_CHECKING

if TYPE_CHECKING:
    from types import ModuleType

    from hookrun.hooks.shell_guard.treewords import _Item

_NAME = r"(?:[A-Za-z_]\w*|\d)"  # `$NAME`, `$1`
_PLAIN = r"[-\w./:=,+@%~]+"
# One token after any blanks: a word (plain runs, '…', "…" with only $NAME in it, $NAME)
# or an operator. `\w` is ASCII (re.ASCII): other characters are left to the front end.
_TOKEN = re.compile(
    rf"""[ \t]*(?:(?P<w>(?:{_PLAIN}|'[^']*'|"[^"\\`!$]*(?:\${_NAME}[^"\\`!$]*)*"|\${_NAME})+)"""
    r"|(?P<o>&&|\|\||;;|;&|\|&|&>|[;&|\n()]))",
    re.ASCII,
)
_PIECE = re.compile(rf"""({_PLAIN})|'([^']*)'|"([^"]*)"|\$({_NAME})""", re.ASCII)
_IN_DQ = re.compile(rf"\$({_NAME})", re.ASCII)
_QUOTED_OR_ACTIVE = frozenset("'\"$~")
# What a program's word may hold (no `=`: an assignment; no `%`, `@`, `:`, `,`, `+`, `~`:
# the front end refuses some such names, `a%`, `1@`, where bash runs them).
_PROGRAM = frozenset("-_./abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'\"$ \t")
_CD_HEADS = frozenset({"cd", "pushd", "builtin", "command"})
# Words whose place is a command's and that are no plain program to the front end:
# reserved words, and declaration builtins (their name=value arguments are Assigns).
_NOT_PLAIN = frozenset(
    ["if", "then", "else", "elif", "fi", "do", "done", "while", "until", "for", "in", "case",
     "esac", "select", "function", "time", "coproc", "declare", "typeset", "export", "local",
     "readonly", "let", "unset", "alias", "!", "{", "}", "-"]
)  # fmt: skip
# (`-`: the front end reads `- a=1` as the assignment alone; bash runs a program `-`)
_SEPARATORS = frozenset({";", "&", "\n"})
_W, _O = "w", "o"


class _NotPlain(Exception):
    """The line holds something this reader leaves to the front end."""


def read(text: str) -> Script | None:
    """The tree walk's :class:`Script` of ``text``, or None when ``text`` is not plain."""
    tokens = _tokens(text)
    if tokens is None:
        return None
    reader = _Reader(text, tokens)
    try:
        reader.sequence([], "")
    except _NotPlain:
        return None
    return Script(tuple(reader.commands), True, ())


def _tokens(text: str) -> list[tuple[str, str, int, int]] | None:
    """(kind, text, start, end) of every word and operator; None at anything else."""
    out: list[tuple[str, str, int, int]] = []
    match = _TOKEN.match
    pos, n = 0, len(text)
    while pos < n:
        m = match(text, pos)
        if m is None:
            if text[pos:].strip(" \t"):
                return None
            break
        kind = m.lastgroup
        assert kind is not None
        start = m.start(kind)
        pos = m.end()
        out.append((kind, text[start:pos], start, pos))
    out += [(_O, "", n, n)] * 2  # the end (twice: a look one token past it stays in range)
    return out


class _Reader:
    """A list of pipelines of simple commands, ``( … )`` subshells and ``for NAME in …;
    do …; done`` loops, flattened as :class:`parse._Walker` flattens their tree."""

    def __init__(self, text: str, tokens: list[tuple[str, str, int, int]]) -> None:
        self.text = text
        self.tokens = tokens
        self.k = 0  # the next token
        self.commands: list[Command] = []

    def newlines(self) -> None:
        tokens = self.tokens
        while tokens[self.k][1] == "\n":
            self.k += 1

    def sequence(self, cd: list[Word], closer: str) -> None:
        """Commands up to ``closer`` (``)``, ``done``; "" the end), which is read."""
        tokens = self.tokens
        read = False
        while True:
            self.newlines()
            kind, value = tokens[self.k][:2]
            if value == closer and (kind == _W or closer in ("", ")")):
                if not read:
                    raise _NotPlain  # nothing, `()`, `do done`: left to the front end
                self.k += 1
                return
            if kind == _O and value == "":
                raise _NotPlain  # unclosed
            self.and_or(cd)
            read = True
            kind, value = tokens[self.k][:2]
            if value in _SEPARATORS:
                self.k += 1
            elif not ((closer == ")" and value == ")") or value == ""):
                raise _NotPlain  # (a `done` comes after a separator)

    def and_or(self, cd: list[Word]) -> None:
        tokens = self.tokens
        self.pipeline(cd)
        while tokens[self.k][1] in ("&&", "||"):
            self.k += 1
            self.newlines()  # a newline may follow them
            self.pipeline(cd)

    def pipeline(self, cd: list[Word]) -> None:
        tokens = self.tokens
        simple, target = self.command(cd, -1)
        if tokens[self.k][1] != "|":
            if target is not None:
                cd.append(target)  # later commands of the list run there
            return
        while tokens[self.k][1] == "|":  # each stage runs in a subshell: its `cd` stays there
            self.k += 1
            self.newlines()
            simple, _ = self.command(cd, len(self.commands) - 1 if simple else -1)

    def command(self, cd: list[Word], pipe_from: int) -> tuple[bool, Word | None]:
        """One command: (whether it is simple, the ``cd`` target it moves to)."""
        kind, value, start, end = self.tokens[self.k]
        if kind == _O and value == "(":
            after = self.tokens[self.k + 1]
            if after[1] == "(" and after[2] == end:
                raise _NotPlain  # `((`: arithmetic
            self.k += 1
            self.sequence(list(cd), ")")
            return False, None
        if kind == _W and value == "for":
            self.k += 1
            self.loop(cd)
            return False, None
        return True, self.simple(cd, pipe_from)

    def loop(self, cd: list[Word]) -> None:
        """``for NAME in WORDS; do LIST; done`` (after ``for``)."""
        tokens = self.tokens
        name, keyword = tokens[self.k], tokens[self.k + 1]
        if not (name[0] == _W and name[1].isidentifier() and name[1].isascii()):
            raise _NotPlain
        if keyword[:2] != (_W, "in"):
            raise _NotPlain
        self.k += 2
        words = 0
        while tokens[self.k][0] == _W:
            if tokens[self.k][1] in ("do", "done", "in"):
                raise _NotPlain
            words += 1  # (the values are data: nothing in a plain word runs)
            self.k += 1
        if not words or tokens[self.k][1] not in (";", "\n"):
            raise _NotPlain  # (`for d in ⏎do`: bash reads it, the front end does not)
        self.k += 1
        self.newlines()
        if tokens[self.k][:2] != (_W, "do"):
            raise _NotPlain
        self.k += 1
        self.sequence(list(cd), "done")

    def simple(self, cd: list[Word], pipe_from: int) -> Word | None:
        """A simple command's words; its ``cd`` target, if it is a ``cd``."""
        tokens = self.tokens
        k = self.k
        kind, first, start, end = tokens[k]
        if kind != _W or first in _NOT_PLAIN or not _PROGRAM.issuperset(first):
            raise _NotPlain  # (not a plain program: an assignment, a keyword, an operator)
        argv: list[Word] = []
        while tokens[k][0] == _W:
            value = tokens[k][1]
            if _QUOTED_OR_ACTIVE.isdisjoint(value):
                argv.append(Word((value,), value))  # (most words: treewords.plain_text)
            else:
                argv.extend(_values(value))
            end = tokens[k][3]
            k += 1
        self.k = k
        if not argv:
            raise _NotPlain  # (a command of no words: `$EMPTY` alone)
        text = self.text
        self.commands.append(Command(tuple(argv), text[start:end], (), tuple(cd), None, pipe_from))
        return cd_target(argv)


def cd_target(argv: list[Word]) -> Word | None:
    """Where ``cd``/``pushd`` (also as ``builtin cd`` / ``command cd``) moves; None if not one."""
    if not argv or argv[0].text not in _CD_HEADS:  # (nearly every command: answered here)
        return None
    words = list(argv)
    while words and words[0].static and words[0].text in ("builtin", "command"):
        words = words[1:]
    if not words or not words[0].static or words[0].text not in ("cd", "pushd"):
        return None
    operands = [w for w in words[1:] if not (w.static and w.text.startswith("-") and w.text != "-")]
    return operands[0] if operands else Word((Var("HOME"),), "~")


def _values(raw: str) -> list[Word]:
    """The words ``raw`` makes, by the tree walk's own steps (:mod:`treewords`)."""
    if not _STEPS:  # (a function's own import statement costs ~7k instructions a call)
        from hookrun.hooks.shell_guard import treewords

        _STEPS.append(treewords)
    steps = _STEPS[0]
    _fields, _merge, _tilde, _unquoted = steps._fields, steps._merge, steps._tilde, steps._unquoted
    items: list[_Item] = []
    for m in _PIECE.finditer(raw):
        group = m.lastindex
        if group == 1:
            _unquoted(m.group(1), items)
        elif group == 2:
            items.append(m.group(2))  # '…': quoted text, inert
        elif group == 3:
            items.append("")  # `""` is an (empty) word of its own
            inner = m.group(3)
            at = 0
            for v in _IN_DQ.finditer(inner):
                if v.start() > at:
                    items.append(inner[at : v.start()])
                items.append(_var(v.group(1)))
                at = v.end()
            if at < len(inner):
                items.append(inner[at:])
        else:
            items.append(_var(m.group(4)))
    return [Word(_merge(parts), raw) for parts in _fields(_tilde(items))]


_STEPS: list[ModuleType] = []  # treewords, once loaded (it loads the front end's node types)


def _var(name: str) -> Var:
    if name == "IFS":
        raise _NotPlain  # (unquoted, a field break; the reader leaves it to the walk)
    return Var(name)
