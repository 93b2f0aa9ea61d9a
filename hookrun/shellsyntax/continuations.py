"""Line continuations (``\\`` at a line's end) taken out before the grammar reads a text.

bash removes each backslash-newline as it reads its input, before it splits words —
wherever it stands, except inside single quotes (``'…'``, ``$'…'``), in a comment and
in the body of a here-document whose delimiter is quoted. So ``loc\\⏎al x=1`` is
``local x=1``, ``$H\\⏎OME`` is ``$HOME``, ``i\\⏎f`` is ``if`` and ``&\\⏎&`` is ``&&``
(gap 43). tree-sitter-bash reads a continuation as a break between words, or as an
error, and the gaps that mended its reading one shape at a time (4, 29) left most
shapes wrong: keywords, assignments, operators, ``$NAME``.

:func:`joined` finds the continuations bash removes (reading quotes, ``$( )``,
``${ }``, ``$(( ))``, backquotes, comments and here-documents as bash does, on the text
as it is being joined) and gives the text without them; the parser reads that text, and
:func:`placed` moves every node's offsets back onto the user's text (so line numbers,
``$LINENO`` and the command shell-guard quotes are the user's). A text without a
continuation is not touched (one ``find``).
"""

from __future__ import annotations

from bisect import bisect_right

from hookrun.records import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

_CONTINUATION = b"\\\n"
# The bytes any context here acts on; every other byte is text, read in runs.
_SPECIAL = b"\\'\"`$#\n()<{}"
_OTHERS = bytes(range(256)).translate(None, _SPECIAL)
_MARKS = bytes.maketrans(_SPECIAL + _OTHERS, b"\x01" * len(_SPECIAL) + b"\x00" * len(_OTHERS))
# After one of these (or at the start) a `#` starts a comment.
_BEFORE_COMMENT = b" \t\n;&|()<>"
# After one of these (blanks skipped) `((` is an arithmetic command, not two subshells.
_BEFORE_COMMAND = b";&|(\n{"
_KEYWORDS = (b"do", b"then", b"else", b"elif", b"if", b"while", b"until", b"for", b"!")
# What ends a here-document's delimiter word.
_DELIMITER_ENDS = b" \t\n;&|<>()"
# Deeper than this, nesting is left as read so far (the parser refuses such texts).
_MAX_DEPTH = 200


class _TooDeep(Exception):
    pass


class _Joiner:
    """One reading of a text: the joined bytes so far and where each removed pair was."""

    def __init__(self, src: bytes) -> None:
        self.src = src
        self.n = len(src)
        self.i = 0
        self.out = bytearray()
        self.removed: list[int] = []
        self.heredocs: list[tuple[bytes, bool, bool]] = []  # (delimiter, strip, quoted)
        self.depth = 0
        self.marks = src.translate(_MARKS)

    # -- reading -------------------------------------------------------------------
    def cur(self) -> int:
        """The byte at the reading point, continuations before it taken out (-1: end)."""
        src, i = self.src, self.i
        while src.startswith(_CONTINUATION, i):
            self.removed.append(i)
            i += 2
        self.i = i
        return src[i] if i < self.n else -1

    def ahead(self) -> int:
        """The byte after the current one, continuations skipped (none recorded)."""
        j = self.i + 1
        while self.src.startswith(_CONTINUATION, j):
            j += 2
        return self.src[j] if j < self.n else -1

    def take(self) -> None:
        self.out.append(self.src[self.i])
        self.i += 1

    def take_two(self) -> None:
        """The current byte and the next (``((``, ``))``, ``<<``: a continuation may stand
        between them)."""
        self.take()
        self.cur()
        self.take()

    def raw(self, end: int) -> None:
        """The bytes up to ``end`` as they are (no continuation removed)."""
        self.out += self.src[self.i : end]
        self.i = end

    def text_run(self) -> None:
        """The run of bytes no context acts on, from the reading point."""
        j = self.marks.find(b"\x01", self.i)
        self.raw(self.n if j < 0 else j)

    def escaped(self) -> None:
        """A backslash and the byte it quotes, as they are (``\\\\⏎`` is no continuation)."""
        self.raw(min(self.i + 2, self.n))

    def nest(self) -> None:
        self.depth += 1
        if self.depth > _MAX_DEPTH:
            raise _TooDeep

    # -- contexts ------------------------------------------------------------------
    def word_byte(self, c: int, quoted: bool) -> None:
        """The byte ``c`` at the reading point where every context reads it alike: a
        backslash and what it quotes, a quote (``'`` only when not ``quoted``, inside
        ``"…"``), a ``$``, a backquote; another special byte as it is; else a text run."""
        if c == 0x5C:
            self.escaped()
        elif c == 0x27 and not quoted:
            self.single()
        elif c == 0x22:
            self.double()
        elif c == 0x24:
            self.dollar(quoted)
        elif c == 0x60:
            self.take()
            self.commands(0x60)
        elif c in _SPECIAL:
            self.take()
        else:
            self.text_run()

    def commands(self, closer: int) -> None:
        """Commands up to ``closer`` (``)`` of a ``$(``, a backquote; -1: the end)."""
        self.nest()
        parens = 0
        while True:
            c = self.cur()
            if c < 0:
                break
            if c == closer and (closer != 0x29 or parens == 0):
                self.take()
                break
            if c == 0x23 and (not self.out or self.out[-1] in _BEFORE_COMMENT):
                end = self.src.find(b"\n", self.i)
                self.raw(self.n if end < 0 else end)  # (a comment keeps its continuations)
            elif c == 0x0A:
                self.take()
                if self.heredocs:
                    self.bodies()
            elif c == 0x28:
                if self.ahead() == 0x28 and self.at_command_start():
                    self.take_two()
                    self.arithmetic(True)
                else:
                    parens += 1
                    self.take()
            elif c == 0x29:
                parens -= 1
                self.take()
            elif c == 0x3C and self.ahead() == 0x3C:
                self.take_two()
                if self.cur() == 0x3C:
                    self.take()  # `<<<`: a here-string
                else:
                    self.heredoc_operator()
            else:  # (`{`, `}`, a lone `<`, a `#` inside a word are taken as they are)
                self.word_byte(c, False)
        self.depth -= 1

    def at_command_start(self) -> bool:
        """Whether the joined text so far ends where a command starts (blanks aside)."""
        text = bytes(self.out).rstrip(b" \t")
        if not text or text[-1] in _BEFORE_COMMAND:
            return True
        for word in _KEYWORDS:
            if text.endswith(word):
                before = text[: -len(word)]
                if not before or before[-1] in b" \t\n;&|({":
                    return True
        return False

    def single(self) -> None:
        """``'…'``: nothing in it is special (its continuations stay)."""
        close = self.src.find(b"'", self.i + 1)
        self.raw(self.n if close < 0 else close + 1)

    def ansi_c(self) -> None:
        """``$'…'`` after its ``$``: a backslash quotes the next byte; continuations stay."""
        i = self.i + 1
        while i < self.n and self.src[i] != 0x27:
            i += 2 if self.src[i] == 0x5C else 1
        self.raw(min(i + 1, self.n))

    def double(self) -> None:
        """``"…"`` (at its quote)."""
        self.nest()
        self.take()
        while True:
            c = self.cur()
            if c < 0:
                break
            if c == 0x22:
                self.take()
                break
            self.word_byte(c, True)
        self.depth -= 1

    def dollar(self, quoted: bool) -> None:
        """A ``$`` and what it opens (``quoted``: inside ``"…"``)."""
        self.take()
        c = self.cur()
        if c == 0x27 and not quoted:
            self.ansi_c()
        elif c == 0x7B:
            self.take()
            self.braces(quoted)
        elif c == 0x28:
            self.take()
            if self.cur() == 0x28:
                self.take()
                self.arithmetic(True)
            else:
                self.commands(0x29)
        elif c == 0x5B:
            self.take()
            self.arithmetic(False)

    def braces(self, quoted: bool) -> None:
        """``${…}`` after its ``{``."""
        self.nest()
        depth = 0
        while True:
            c = self.cur()
            if c < 0:
                break
            if c == 0x7D:
                self.take()
                if depth == 0:
                    break
                depth -= 1
            elif c == 0x7B:
                depth += 1
                self.take()
            else:
                self.word_byte(c, quoted)
        self.depth -= 1

    def arithmetic(self, parens: bool) -> None:
        """``$(( … ))``/``(( … ))`` (``parens``) or ``$[ … ]``, after the opener."""
        self.nest()
        depth = 0
        while True:
            c = self.cur()
            if c < 0:
                break
            if parens and c == 0x29:
                if depth == 0 and self.ahead() == 0x29:
                    self.take_two()
                    break
                depth -= 1
                self.take()
            elif parens and c == 0x28:
                depth += 1
                self.take()
            elif not parens and c == 0x5D:
                self.take()
                break
            elif c in _SPECIAL:
                self.word_byte(c, False)
            elif c == 0x5D:
                self.take()
            else:
                j = self.marks.find(b"\x01", self.i)
                k = self.src.find(b"]", self.i)
                end = self.n if j < 0 else j
                self.raw(end if parens or k < 0 else min(end, k))
        self.depth -= 1

    def heredoc_operator(self) -> None:
        """After ``<<``: the ``-`` and the delimiter word, whose body starts at the end of
        the line (quoted: its continuations stay)."""
        strip = self.cur() == 0x2D
        if strip:
            self.take()
        while self.cur() in (0x20, 0x09):
            self.take()
        word = bytearray()
        quoted = False
        while True:
            c = self.cur()
            if c < 0 or c in _DELIMITER_ENDS:
                break
            if c == 0x27 or c == 0x22:
                quoted = True
                close = self.src.find(bytes((c,)), self.i + 1)
                end = self.n if close < 0 else close
                word += self.src[self.i + 1 : end]
                self.raw(min(end + 1, self.n))
            elif c == 0x5C:
                quoted = True
                word += self.src[self.i + 1 : self.i + 2]
                self.escaped()
            else:
                word.append(c)
                self.take()
        if word:
            self.heredocs.append((bytes(word), strip, quoted))

    def bodies(self) -> None:
        """The bodies of the here-documents whose line just ended, up to their end lines."""
        for word, strip, quoted in self.heredocs:
            while self.i < self.n:
                if quoted:  # (its lines as they are)
                    end = self.src.find(b"\n", self.i)
                    end = self.n if end < 0 else end
                    line = bytearray(self.src[self.i : end])
                    self.raw(min(end + 1, self.n))
                    if (bytes(line).lstrip(b"\t") if strip else bytes(line)) == word:
                        break
                    continue
                line = bytearray()
                while self.i < self.n and self.src[self.i] != 0x0A:
                    if self.src.startswith(_CONTINUATION, self.i):
                        self.removed.append(self.i)
                        self.i += 2
                        continue
                    if self.src[self.i] == 0x5C:
                        line += self.src[self.i : self.i + 2]
                        self.escaped()
                        continue
                    line.append(self.src[self.i])
                    self.take()
                if self.i < self.n:
                    self.take()  # the newline
                if (bytes(line).lstrip(b"\t") if strip else bytes(line)) == word:
                    break
        self.heredocs = []


def joined(src: bytes) -> tuple[bytes, tuple[int, ...]] | None:
    """``src`` without the line continuations bash removes, and the offset of each (its
    backslash, in ``src``); None when bash removes none."""
    if src.find(_CONTINUATION) < 0:
        return None
    reader = _Joiner(src)
    try:
        reader.commands(-1)
    except (_TooDeep, RecursionError):
        return None  # (the parser refuses such a text anyway)
    if not reader.removed:
        return None
    return bytes(reader.out), tuple(reader.removed)


def user_offset(moves: list[int], at: int, *, end: bool = False) -> int:
    """The offset in the user's text of offset ``at`` of the joined text (``moves``: where
    each removed pair was, in the joined text, from :func:`_moves`; ``end``: an end
    offset, which stays before a continuation that follows its last byte)."""
    if end and at > 0:
        return user_offset(moves, at - 1) + 1
    return at + 2 * bisect_right(moves, at)


def _moves(removed: tuple[int, ...]) -> list[int]:
    return [r - 2 * k for k, r in enumerate(removed)]


def placed(node: Any, removed: tuple[int, ...]) -> Any:
    """``node`` (a tree of NamedTuples and tuples from the joined text) with every
    ``pos``/``end`` moved onto the user's text (``removed``: from :func:`joined`)."""
    return _placed(node, _moves(removed))


def _placed(node: Any, moves: list[int]) -> Any:
    if type(node) is tuple:
        return tuple([_placed(x, moves) for x in node])
    fields = getattr(node, "_fields", None)
    if fields is None:
        return node
    values = [_placed(x, moves) for x in node]
    if fields[:2] == ("pos", "end"):
        pos, end = values[0], values[1]
        values[0] = user_offset(moves, pos)
        values[1] = values[0] if end == pos else user_offset(moves, end, end=True)
    return node._make(values)


def user_position(removed: tuple[int, ...], text: bytes, line: int, column: int) -> int:
    """The offset in the user's text of a 1-based ``line`` and ``column`` (in bytes) of
    the joined ``text``."""
    start = 0
    for _ in range(line - 1):
        start = text.find(b"\n", start) + 1
        if start <= 0:
            return len(text)
    return user_offset(_moves(removed), min(start + column - 1, len(text)))
