"""A line of plain simple commands → :class:`Script`, read without the shell front end.

Most lines the screen cannot clear are still a few simple commands in a list —
``rm -rf "$TMPDIR/build" && mkdir -p "$TMPDIR/build"``, ``git push --force origin x``,
``curl -fsSL URL | sh`` — and the tree-sitter parse was most of their judgement. This
reader makes the same :class:`Script` the tree walk (:mod:`parse`) makes of them, and
gives up (None) at anything else, which then goes to the front end as before:

- **Words**: unquoted letters, digits, ``- _ . / : = , + @ % ~``; ``'…'``; ``"…"``
  holding no backslash, backquote or ``!``; ``$NAME`` / ``$1`` (not ``$IFS``), quoted
  or not. A word's value goes through the same steps as a tree word's
  (:mod:`treewords`: tilde, fields, merge), from the same parts.
- **Commands**: separated by ``;``, ``&``, ``&&``, ``||``, ``|`` and newlines (a
  newline may follow ``&&``, ``||``, ``|``); no redirection, grouping, comment,
  keyword, assignment or declaration builtin. ``cd`` moves what follows it in the
  list, not the other stages of a pipeline (as the walk reads it).

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


def read(text: str) -> Script | None:
    """The tree walk's :class:`Script` of ``text``, or None when ``text`` is not plain."""
    commands: list[Command] = []
    cd: list[Word] = []  # the list's `cd` targets so far
    stage_cd: list[Word] = cd  # the current command's (a copy in a pipeline)
    pipe_from = -1  # the previous stage's command, in a pipeline
    piped = False  # the current command is a stage of a pipeline of two or more
    i, n = 0, len(text)
    while i < n and text[i] in " \t\n":
        i += 1
    while True:
        # -- one simple command: its words
        while i < n and text[i] in _BLANK:
            i += 1
        start = end = i
        argv: list[Word] = []
        while i < n and text[i] not in " \t\n;&|":
            got = _word(text, i)
            if got is None:
                return None
            if end == start:  # the program's word: a plain one, not an assignment
                first = text[start : got[0]]
                if first in _NOT_PLAIN or not _PROGRAM.issuperset(first):
                    return None
            i, words = got
            argv.extend(words)
            end = i
            while i < n and text[i] in _BLANK:
                i += 1
        if not argv:
            return None  # an empty command (`; x`, `a && && b`), or one that expands to none
        # -- the separator after it
        sep = ""
        if i < n:
            c = text[i]
            if c in "&|" and i + 1 < n and text[i + 1] == c:
                sep = c + c
            elif c == "|" and i + 1 < n and text[i + 1] == "&":
                return None  # `|&`
            else:
                sep = c
            i += len(sep)
        pipe = sep == "|"
        if pipe and not piped:
            stage_cd = list(cd)  # each stage runs in a subshell: its `cd` does not leak
        cmd = Command(tuple(argv), text[start:end], (), tuple(stage_cd), None, pipe_from)
        commands.append(cmd)
        if argv[0].text in _CD_HEADS:
            from hookrun.hooks.shell_guard.parse import cd_target

            target = cd_target(argv)
            if target is not None:
                stage_cd.append(target)
        if pipe:
            pipe_from = len(commands) - 1
            piped = True
            stage_cd = list(cd)
        else:
            pipe_from = -1
            piped = False
            stage_cd = cd
        if sep in ("&&", "||", "|"):
            while i < n and text[i] in " \t\n":
                i += 1  # a newline may follow these
            if i >= n:
                return None  # nothing after `&&`: bash asks for more
            continue
        # `;`, `&`, newline or the end: the list may end here
        while i < n and text[i] in " \t\n":
            i += 1
        if i >= n:
            return Script(tuple(commands), True, ())
        if text[i] in ";&|":
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
        elif c in " \t\n;&|":
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
