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

from hookrun.hooks.shell_guard.model import Command, Script, Var, Word
from hookrun.records import TYPE_CHECKING

if TYPE_CHECKING:
    from hookrun.hooks.shell_guard.treewords import _Item

_PLAIN = frozenset("-_./:=,+@%~abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
_NAME_START = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_")
_NAME = _NAME_START | frozenset("0123456789")
_DIGITS = frozenset("0123456789")
_IN_DQ = frozenset('"$\\`!')  # what ends a plain run inside "…" (the reader stops at all but ")
_BLANK = frozenset(" \t")
# What a program's word may hold (no `=`: an assignment; no `%`, `@`, `:`, `,`, `+`, `~`:
# the front end refuses some such names, `a%`, `1@`, where bash runs them).
_PROGRAM = frozenset(
    "-_./abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'\"$"
) | frozenset(" \t")
_CD_HEADS = frozenset({"cd", "pushd", "builtin", "command"})  # (parse.cd_target's)
# Words whose place is a command's and that are no plain program to the front end:
# reserved words, and declaration builtins (their name=value arguments are Assigns).
_NOT_PLAIN = frozenset(
    ["if", "then", "else", "elif", "fi", "do", "done", "while", "until", "for", "in", "case",
     "esac", "select", "function", "time", "coproc", "declare", "typeset", "export", "local",
     "readonly", "let", "unset", "alias", "!", "{", "}"]
)  # fmt: skip


class _NotPlain(Exception):
    """The line holds something this reader leaves to the front end."""


def read(text: str) -> Script | None:
    """The tree walk's :class:`Script` of ``text``, or None when ``text`` is not plain."""
    reader = _Reader(text)
    try:
        reader.sequence([], "")
    except _NotPlain:
        return None
    return Script(tuple(reader.commands), True, ())


_ENDS_WORD = frozenset(" \t\n;&|()")


class _Reader:
    """A list of pipelines of simple commands, ``( … )`` subshells and ``for NAME in …;
    do …; done`` loops, flattened as :class:`parse._Walker` flattens their tree."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.n = len(text)
        self.i = 0
        self.commands: list[Command] = []

    def blanks(self, newlines: bool = False) -> None:
        text, n, i = self.text, self.n, self.i
        skip = " \t\n" if newlines else " \t"
        while i < n and text[i] in skip:
            i += 1
        self.i = i

    def keyword(self, word: str) -> bool:
        """``word`` is next, as a word of its own (then it is read)."""
        i = self.i
        after = i + len(word)
        if self.text.startswith(word, i) and (after >= self.n or self.text[after] in _ENDS_WORD):
            self.i = after
            return True
        return False

    def sequence(self, cd: list[Word], closer: str) -> None:
        """Commands up to ``closer`` (``)``, ``done``; "" the end), which is read."""
        text, n = self.text, self.n
        read = False
        while True:
            self.blanks(newlines=True)
            if self.i >= n:
                if closer or not read:
                    raise _NotPlain  # unclosed, or nothing: left to the front end
                return
            if closer and self.keyword(closer):
                if not read:
                    raise _NotPlain  # `()`, `do done`: bash refuses them
                return
            self.and_or(cd)
            read = True
            self.blanks()
            if self.i >= n:
                continue
            c = text[self.i]
            if c in ";&\n" and not text.startswith((";;", ";&", "&>"), self.i):
                self.i += 1
            elif not (closer == ")" and c == ")"):
                raise _NotPlain  # (a `done` comes after a separator)

    def and_or(self, cd: list[Word]) -> None:
        text = self.text
        self.pipeline(cd)
        while True:
            self.blanks()
            if not text.startswith(("&&", "||"), self.i):
                return
            self.i += 2
            self.blanks(newlines=True)  # a newline may follow them
            self.pipeline(cd)

    def pipeline(self, cd: list[Word]) -> None:
        simple, target = self.command(cd, -1)
        self.blanks()
        if not self.piped():
            if target is not None:
                cd.append(target)  # later commands of the list run there
            return
        while True:  # each stage runs in a subshell: its `cd` moves nothing after it
            self.i += 1
            self.blanks(newlines=True)
            simple, _ = self.command(cd, len(self.commands) - 1 if simple else -1)
            self.blanks()
            if not self.piped():
                return

    def piped(self) -> bool:
        text, i = self.text, self.i
        if i < self.n and text[i] == "|":
            if text.startswith(("||", "|&"), i):
                if text.startswith("|&", i):
                    raise _NotPlain
                return False
            return True
        return False

    def command(self, cd: list[Word], pipe_from: int) -> tuple[bool, Word | None]:
        """One command: (whether it is simple, the ``cd`` target it moves to)."""
        text = self.text
        self.blanks()
        if text.startswith("(", self.i):
            if text.startswith("((", self.i):
                raise _NotPlain  # arithmetic
            self.i += 1
            self.sequence(list(cd), ")")
            return False, None
        if self.keyword("for"):
            self.loop(cd)
            return False, None
        return True, self.simple(cd, pipe_from)

    def loop(self, cd: list[Word]) -> None:
        """``for NAME in WORDS; do LIST; done`` (after ``for``)."""
        text = self.text
        self.blanks()
        i = self.i
        if i >= self.n or text[i] not in _NAME_START:
            raise _NotPlain
        while i < self.n and text[i] in _NAME:
            i += 1
        self.i = i
        self.blanks()
        if not self.keyword("in"):
            raise _NotPlain
        words = 0
        while True:
            self.blanks()
            if self.i >= self.n:
                raise _NotPlain
            if text[self.i] in ";\n":
                if not words:
                    raise _NotPlain  # `for d in ⏎do`: bash reads it, the front end does not
                self.i += 1
                break
            if text[self.i] in _ENDS_WORD:
                raise _NotPlain
            start = self.i
            got = _word(text, start)
            if got is None or text[start : got[0]] in ("do", "done", "in"):
                raise _NotPlain
            self.i = got[0]  # (the values are data: nothing in a plain word runs)
            words += 1
        self.blanks(newlines=True)
        if not self.keyword("do"):
            raise _NotPlain
        self.sequence(list(cd), "done")

    def simple(self, cd: list[Word], pipe_from: int) -> Word | None:
        """A simple command's words; its ``cd`` target, if it is a ``cd``."""
        text, n = self.text, self.n
        i = start = end = self.i
        argv: list[Word] = []
        while i < n and text[i] not in _ENDS_WORD:
            got = _word(text, i)
            if got is None:
                raise _NotPlain
            if end == start:  # the program's word: a plain one, not an assignment
                first = text[start : got[0]]
                if first in _NOT_PLAIN or not _PROGRAM.issuperset(first):
                    raise _NotPlain
            i, words = got
            argv.extend(words)
            end = i
            while i < n and text[i] in _BLANK:
                i += 1
        self.i = i
        if not argv:
            raise _NotPlain  # an empty command (`; x`, `a && && b`), or one of no words
        self.commands.append(Command(tuple(argv), text[start:end], (), tuple(cd), None, pipe_from))
        if argv[0].text in _CD_HEADS:
            from hookrun.hooks.shell_guard.parse import cd_target

            return cd_target(argv)
        return None


def _word(text: str, i: int) -> tuple[int, list[Word]] | None:
    """The word starting at ``i``: (where it ends, its values); None when not plain."""
    n = len(text)
    start = i
    pieces: list[tuple[str, str | Var]] = []  # ("u", unquoted text) ("q", quoted) ("v", Var)
    while i < n:
        c = text[i]
        if c in _PLAIN:
            j = i + 1
            while j < n and text[j] in _PLAIN:
                j += 1
            pieces.append(("u", text[i:j]))
            i = j
        elif c == "'":
            j = text.find("'", i + 1)
            if j < 0:
                return None
            pieces.append(("s", text[i + 1 : j]))
            i = j + 1
        elif c == '"':
            pieces.append(("d", ""))
            i += 1
            while True:
                if i >= n:
                    return None
                c = text[i]
                if c == '"':
                    i += 1
                    break
                if c == "$":
                    got = _param(text, i)
                    if got is None:
                        return None
                    i, var = got
                    pieces.append(("v", var))
                    continue
                if c in _IN_DQ:
                    return None
                j = i + 1
                while j < n and text[j] not in _IN_DQ:
                    j += 1
                pieces.append(("s", text[i:j]))
                i = j
        elif c == "$":
            got = _param(text, i)
            if got is None:
                return None
            i, var = got
            pieces.append(("v", var))
        elif c in _ENDS_WORD:
            break
        else:
            return None
    raw = text[start:i]
    if len(pieces) == 1 and pieces[0][0] == "u":
        plain = raw
        if "{" not in plain and not plain.startswith("~"):  # (treewords.plain_text)
            return i, [Word((plain,), plain)]
    return i, _values(pieces, raw)


def _param(text: str, i: int) -> tuple[int, Var] | None:
    """``$NAME`` or ``$1`` at ``i``; None for any other ``$`` form (or ``$IFS``)."""
    j = i + 1
    if j < len(text) and text[j] in _DIGITS:
        return j + 1, Var(text[j])
    if j >= len(text) or text[j] not in _NAME_START:
        return None
    k = j + 1
    while k < len(text) and text[k] in _NAME:
        k += 1
    name = text[j:k]
    if name == "IFS":
        return None
    return k, Var(name)


def _values(pieces: list[tuple[str, str | Var]], raw: str) -> list[Word]:
    """The words the pieces make, by the tree walk's own steps (:mod:`treewords`)."""
    from hookrun.hooks.shell_guard.treewords import _fields, _merge, _tilde, _unquoted

    items: list[_Item] = []
    for kind, value in pieces:
        if kind == "u":
            assert isinstance(value, str)
            _unquoted(value, items)
        elif kind == "d":
            items.append("")  # `""` is an (empty) word of its own
        else:
            items.append(value)
    return [Word(_merge(parts), raw) for parts in _fields(_tilde(items))]
