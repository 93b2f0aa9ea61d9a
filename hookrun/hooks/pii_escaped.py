"""Secrets a tool output shows escaped: JSON ``\\"``/``\\/``/``\\uXXXX`` and URL ``%XX``.

Hosts send tool output as it came: an MCP result or a ``curl`` response is often JSON
*inside* a JSON string (``{\\"SecretAccessKey\\": \\"…\\"}``, ``https:\\/\\/hooks.slack.com…``),
a transcript of a tool output holds that once more (``\\\\\\"``), and a URL or a form body
carries a token percent-encoded (``?key=…%2F…%3D``, ``a+b%3D``, even twice: ``%252F``).
The scanner's rows read plain text, so such a secret was missed wherever its context or
its own characters are escaped. Here the text is also scanned decoded, one level of
escapes undone at a time (at most :data:`MAX_LEVELS`), and each find there is mapped back
to the escaped span it came from: whole escapes only, so that a redacted JSON string
still parses and a redacted URL still decodes.
"""

from __future__ import annotations

import bisect
import json
import re
from _codecs import escape_decode
from itertools import accumulate, repeat
from operator import itemgetter

import re2

from hookrun.hooks.pii_patterns import Finding, Scanner, redact_spans

MAX_LEVELS = 3  # a JSON string in a JSON string in a JSON string; %25 twice

# One escape of one level: a JSON escape (a surrogate pair is one), a percent-encoded
# UTF-8 character (its two to four bytes are one), a lone %XX byte.
_ESCAPE = re.compile(
    r"\\(?:u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}|u[0-9a-fA-F]{4}"
    r'|["\\/bfnrt])'
    r"|%(?:[cdCD][0-9a-fA-F]%[89abAB][0-9a-fA-F]|[eE][0-9a-fA-F](?:%[89abAB][0-9a-fA-F]){2}"
    r"|[fF][0-7](?:%[89abAB][0-9a-fA-F]){3}|[0-9a-fA-F]{2})"
)
_SINGLE = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}


class _Chars(dict[str, str]):
    """What an escape stands for, made the first time it is seen (a bounded cache)."""

    def __missing__(self, escape: str) -> str:
        if escape[0] == "%":
            raw = bytes.fromhex(escape.replace("%", ""))
            try:
                char = raw.decode("utf-8")
            except UnicodeDecodeError:  # (an overlong form, a surrogate's bytes)
                char = raw.decode("latin-1")
        elif escape[1] == "u":
            code = int(escape[2:6], 16)
            if len(escape) > 6:
                code = 0x10000 + ((code - 0xD800) << 10) + int(escape[8:], 16) - 0xDC00
            char = "\ufffd" if 0xD800 <= code < 0xE000 else chr(code)  # (a lone surrogate)
        else:
            char = _SINGLE[escape[1]]
        if len(self) < 4096:
            self[escape] = char
        return char


_CHARS = _Chars()
_ESCAPES = re.compile(f"({_ESCAPE.pattern})")  # (split keeps what its group matched)


def spans(scan: Scanner, text: str) -> tuple[list[str], list[int], list[int]]:
    """:func:`find`'s kinds, starts and ends as three lists (see ``Scanner.spans``)."""
    return _spans(scan, text, "%" in text and _percent_escape(text))


def redacted(scan: Scanner, text: str) -> tuple[str, list[str]]:
    """``text`` with each find of :func:`spans` redacted, and the kinds found, in order.

    Text with no escape in it goes to ``Scanner.redacted``, which redacts the addresses
    of ASCII text in which nothing else is found without working out their offsets.
    """
    percent = "%" in text and _percent_escape(text)
    if percent or "\\" in text:
        kinds, starts, ends = _spans(scan, text, percent)
    else:
        done, kinds, starts, ends = scan.redacted(text)
        if done is not None:
            return done, kinds
        if "private_key" in kinds:
            kinds, starts, ends = _whole_spans(text, kinds, starts, ends)
    return redact_spans(text, kinds, starts, ends), kinds


def _spans(scan: Scanner, text: str, percent: bool) -> tuple[list[str], list[int], list[int]]:
    if percent or ("\\" in text and _backslashed(text)):
        found = _find(scan, text, percent)
        return [f.kind for f in found], [f.start for f in found], [f.end for f in found]
    kinds, starts, ends = scan.spans(text)
    if kinds and ("\\" in text or "private_key" in kinds):
        # (rare: a find that touches a backslash escape, or a key cut off)
        return _whole_spans(text, kinds, starts, ends)
    return kinds, starts, ends


def _whole_spans(
    text: str, kinds: list[str], starts: list[int], ends: list[int]
) -> tuple[list[str], list[int], list[int]]:
    """Each span made :func:`_whole` (new lists: the scanner's are its own)."""
    spans = list(map(_whole, repeat(text), kinds, starts, ends))
    return kinds, list(map(_FIRST, spans)), list(map(_SECOND, spans))


def find(scan: Scanner, text: str) -> list[Finding]:
    """``scan.find(text)``, plus what it finds in ``text`` with its escapes undone."""
    return _find(scan, text, "%" in text and _percent_escape(text))


def _find(scan: Scanner, text: str, percent: bool) -> list[Finding]:
    found = [Finding(k, *_whole(text, k, s, e)) for k, s, e in zip(*scan.spans(text), strict=True)]
    levels: list[_Level] = []
    view = text
    extra = False
    for _ in range(MAX_LEVELS + 1):
        how = _DECODE if percent else _backslashed(view) if "\\" in view else 0
        if how != _DECODE:
            if how == _LINES:
                # (its only escapes `\n`, `\t`, `\r`: read with each letter a blank, in
                # place: `"…\nghp_…"`, where the letter hid where the secret starts)
                extra |= _scan_into(found, scan, _lines(view), view, levels)
            break
        if len(levels) == MAX_LEVELS:
            break
        level = _decoded(view)
        if level is None:
            break
        levels.append(level)
        extra |= _scan_into(found, scan, level.text, level.text, levels)
        if percent and "+" in view:
            # Form data (`curl -d`, a query string): a `+` is a space, one of the value
            # is %2B. Elsewhere (base64, prose) a `+` is itself: this reading is scanned
            # besides the plain one (the escapes sit where they did: one mapping).
            form = level.form(view)
            extra |= _scan_into(found, scan, form, form, levels)
        view = level.text
        percent = "%" in view and _percent_escape(view)
    if not extra:
        return found
    found.sort(key=_FIRST_START)
    out: list[Finding] = []
    for f in found:  # (a find at one level overlaps the same secret found at another)
        if out and f.start < out[-1].end:
            if f.end > out[-1].end:  # the union: neither leaves a piece of the other
                out[-1] = Finding(out[-1].kind, out[-1].start, f.end)
            continue
        out.append(f)
    return out


def _scan_into(
    found: list[Finding], scan: Scanner, view: str, text: str, levels: list[_Level]
) -> bool:
    """Add what ``scan`` finds in ``view`` (``text`` read another way, at its offsets) to
    ``found``, mapped down through ``levels``; whether it found any."""
    spans = scan.spans(view)
    for kind, start, end in zip(*spans, strict=True):
        start, end = _whole(text, kind, start, end)
        for down in reversed(levels):
            start, end = down.origin(start, False), down.origin(end - 1, True)
        found.append(Finding(kind, start, end))
    return bool(spans[0])


_FIRST_START = itemgetter(1)
_FIRST, _SECOND = itemgetter(0), itemgetter(1)


_DECODE, _LINES = 1, 2


def _backslashed(text: str) -> int:
    """How ``text``'s backslash escapes are read: ``_DECODE`` (undone, a level: a ``\\u``,
    ``\\"`` or ``\\/``, or a ``\\\\`` with a ``\\n``/``\\t``/``\\r``), ``_LINES`` (its only
    escapes ``\\n``/``\\t``/``\\r``, each a backslash and a letter: read in place by
    :func:`_lines`), or 0 (none). One or two passes, each skipping to the backslashes at C
    speed."""
    first = _JSON_ESCAPE.search(text)
    if first is None:  # (no `\\`: each backslash before n, t, r is an escape)
        return _LINES if _LINE_ESCAPE.search(text) is not None else 0
    if first[0] != "\\\\":
        return _DECODE
    # (a `\\` first: the rest by str.find, which a text of backslashes costs less than a
    # regex trying each of them)
    return _DECODE if any(map(text.__contains__, _ANY_ESCAPES)) else 0


_JSON_ESCAPE = re.compile(r'\\[u"/\\]')  # (or an escaped backslash)
_LINE_ESCAPE = re.compile(r"\\[ntr]")
_ANY_ESCAPES = ("\\u", '\\"', "\\/", "\\n", "\\t", "\\r")


def _lines(text: str) -> str:
    """``text`` with the letter of each ``\\n``/``\\t``/``\\r`` read as the blank it stands
    for: the same length, so a find there is where it is in ``text``."""
    return text.replace("\\n", "\\\n").replace("\\t", "\\\t").replace("\\r", "\\\r")


# The escapes that make a `+`, as two searches: each opens with a literal that sre skips
# to at C speed, where the one alternation of both was tried at every character (~100
# instructions a character: 4.9M over a 50 KB form body).
_PLUS_ESCAPES = (re.compile(r"%2[bB]").search, re.compile(r"\\u002[bB]").search)


def _makes_plus(text: str) -> bool:
    """Whether ``text`` holds an escape that makes a ``+``: ``%2B``, ``\\u002B`` (``b`` too)."""
    return any(search(text) is not None for search in _PLUS_ESCAPES)


_HEX = frozenset("0123456789abcdefABCDEF")
_PERCENT = re.compile(r"%[0-9a-fA-F]{2}")
_PERCENT_OPTIONS = re2.Options()
_PERCENT_OPTIONS.never_capture = True
_PERCENT_RE2 = re2.compile(_PERCENT.pattern, _PERCENT_OPTIONS)._regexp
_UNANCHORED = re2._Anchor.UNANCHORED


def _percent_escape(text: str) -> bool:
    """Whether ``text`` holds a ``%XX`` (a ``%`` in ``[ 50%]`` or ``100% done`` is none)."""
    # The first few `%` are looked at here (str.find runs at memchr speed). A text with
    # more (a pytest log's `[ 50%]`) goes to RE2, which skips to each `%` and judges it in
    # a few steps: ~0.14M instructions over 50 KB, where Python's regex search took ~0.42M
    # (its set-up at each of 900 candidates).
    at = text.find("%")
    for _ in range(4):
        if at < 0:
            return False
        if text[at + 1 : at + 2] in _HEX and text[at + 2 : at + 3] in _HEX:
            return True
        at = text.find("%", at + 1)
    if at < 0:
        return False
    data = text.encode("utf-8", "surrogatepass")  # (`at` in bytes is at or before it)
    return bool(_PERCENT_RE2.Match(_UNANCHORED, data, at, len(data))[0][0] >= 0)


class _Level:
    """One level of escapes undone: its text, and (worked out when a find there needs it)
    where each escape of the level below went."""

    __slots__ = ("text", "below", "parts", "_at", "_starts", "_ends", "_head", "_tail")

    def __init__(self, text: str, below: str) -> None:
        self.text = text
        self.below = below
        self._at: list[int] = []
        self._head = -1  # (the plain text before the level's first escape, after its last)
        self._tail = 0

    def form(self, below: str) -> str:
        """``text`` with each ``+`` of ``below`` (the level below) read as a space."""
        if not _makes_plus(below):  # (no escape made a `+`: each is the text's own)
            return self.text.replace("+", " ")
        return _undone(below.replace("+", " "))

    def origin(self, i: int, end: bool) -> int:
        """Where ``text[i]`` is in the level below (past it when ``end``)."""
        if self._head < 0:
            below = self.below
            marks = [at for at in (below.find("\\"), below.find("%")) if at >= 0]
            self._head = min(marks, default=len(below))
            # (an escape ends 5 characters after its last `\\` at most, 1 unless a `u`
            # follows, 2 after its last `%`)
            last = below.rfind("\\")
            plain = last + (6 if below[last + 1 : last + 2] == "u" else 2)
            plain = max(plain, below.rfind("%") + 3)
            self._tail = max(0, len(below) - plain)
        if i < self._head:  # (before the first escape: where it was)
            return i + end
        if i >= len(self.text) - self._tail:  # (after the last: as far from the end)
            return i + len(self.below) - len(self.text) + end
        if not self._at:
            # one escape at a time (each an object: ~1.5K instructions an escape)
            self.parts = parts = _ESCAPES.split(self.below)
            bounds = list(accumulate(map(len, parts)))
            self._starts, self._ends = bounds[0:-1:2], bounds[1::2]
            parts = parts.copy()
            parts[1::2] = map(_CHARS.__getitem__, parts[1::2])
            self._at = list(accumulate(map(len, parts)))[0:-1:2]
        k = bisect.bisect_right(self._at, i) - 1
        if k < 0:
            return i + end
        after = self._at[k] + len(_CHARS[self.parts[2 * k + 1]])
        if i < after:  # one of the escape's characters: the whole escape
            return self._ends[k] if end else self._starts[k]
        return self._ends[k] + (i - after) + end


def _decoded(text: str) -> _Level | None:
    """``text`` with one level of escapes undone, or None when it holds none."""
    view = _undone(text)
    return None if view == text else _Level(view, text)


_SENTINELS = ("\x00", "\x01", "\ue000", "\ue001")
_JSON_SINGLE = (('\\"', '"'), ("\\/", "/"), ("\\n", "\n"), ("\\t", "\t"), ("\\r", "\r"),
                ("\\b", "\b"), ("\\f", "\f"))  # fmt: skip
# (each branch opens with its character: the regex engine skips to a `\\` or `%` at C
# speed, where a branch opening with a repeat is tried at every character). A run of
# `%XX` goes on over any ASCII text between them but `%` and `\\` (`a=%41&b=%42+%43`, a
# form body): no UTF-8 character spans an ASCII one, so the run decodes as its pieces
# would apart, in one call (a backslash's sentinel in it made `\\\\` for that call).
# (Each hex digit spelt as its class: sre's repeat of a class two or four times costs
# more than the classes one after another, the run's repeat of a group more than a
# repeat of runs.)
_H = "[0-9a-fA-F]"
_BETWEEN = r"[\x00-$&-\[\]-\x7f]{1,16}"  # (ASCII but % and \\; a few, tried cheaply)
_RUNS = re.compile(
    rf"(\\u{_H}{_H}{_H}{_H}(?:\\u{_H}{_H}{_H}{_H})*"
    rf"|%{_H}{_H}(?:%{_H}{_H})*(?:{_BETWEEN}%{_H}{_H}(?:%{_H}{_H})*)*)"
)
_SURROGATE = re.compile("[\ud800-\udfff]")


def _undone(text: str) -> str:
    """``text`` with one level of escapes undone, read as :data:`_ESCAPE` reads them, in
    passes at C speed: ``str.replace`` for the one-letter JSON escapes (``\\\\`` first,
    kept apart by a character the text lacks), one decode per run of ``\\uXXXX`` or
    ``%XX``. A text dense with escapes costs a few instructions a character, not an
    object an escape."""
    sentinel = next((c for c in _SENTINELS if c not in text), None)
    if sentinel is None:  # (a text holding all four: one escape at a time)
        parts = _ESCAPES.split(text)
        parts[1::2] = map(_CHARS.__getitem__, parts[1::2])
        return "".join(parts)
    kept = "\\\\" in text
    if "\\" in text:
        text = text.replace("\\\\", sentinel)
        for escape, char in _JSON_SINGLE:
            if escape in text:
                text = text.replace(escape, char)
    if "%" in text or "\\u" in text:
        parts = _RUNS.split(text)
        if len(parts) > 1:
            if kept:  # (the sentinel back in the plain parts only: a run may make one)
                parts[::2] = map(str.replace, parts[::2], repeat(sentinel), repeat("\\"))
                # (and, an escaped backslash, in the text between a run's escapes)
                parts[1::2] = map(str.replace, parts[1::2], repeat(sentinel), repeat("\\\\"))
                kept = False
            parts[1::2] = map(_RUN.__getitem__, parts[1::2])
            text = "".join(parts)
    return text.replace(sentinel, "\\") if kept else text


class _Runs(dict[str, str]):
    """A run of ``\\uXXXX`` or of ``%XX`` undone, as :data:`_CHARS` does it one escape at a
    time; short runs are kept (a bounded cache: a form body repeats its few)."""

    def __missing__(self, run: str) -> str:
        if run[0] == "%":
            if len(run) == 3 * run.count("%"):  # (escapes only)
                raw = bytes.fromhex(run.replace("%", ""))
            else:  # (each %XX made a \\xXX escape, the text between kept: one C call)
                raw = escape_decode(run.replace("%", "\\x").encode("ascii"))[0]
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:  # a byte that is no UTF-8 is read as Latin-1
                text = raw.decode("utf-8", "surrogateescape").translate(_LATIN_1)
        else:
            text = json.loads(f'"{run}"')  # (pairs of surrogates joined; lone ones kept)
            text = _SURROGATE.sub("\ufffd", text)
        if len(run) < 64 and len(self) < 4096:
            self[run] = text
        return text


_RUN = _Runs()
_LATIN_1 = {0xDC80 + b: 0x80 + b for b in range(128)}  # surrogateescape's byte → Latin-1


_PEM_HEADER = re.compile(r"-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----")
# A key's body up to the quote that closes the string it sits in: anything but a quote or
# a backslash (base64, blanks, an encrypted key's `Proc-Type: 4,ENCRYPTED` lines), and
# escaped line breaks (`\n`, `\\n`, `\u000a`, …).
_PEM_REST = re.compile(r'(?:[^"\\]|\\+(?:[nrt/]|u00(?:0[9aAdD]|2[0bBfF]|3[dD])))*+')
_UNICODE = re.compile(r"u[0-9a-fA-F]{4}")


def _whole(text: str, kind: str, a: int, b: int) -> tuple[int, int]:
    """The span ``[a, b)`` of a find in ``text`` so that it cuts no escape in two.

    A marker must not leave half an escape behind: ``\\`` + ``[REDACTED…`` is no JSON,
    ``%2`` + ``[REDACTED…`` no URL. An escape at an edge is taken in when it stands for a
    letter or digit of the secret (``zo\\u00eb@…``), else left out (``\\t`` before an
    address, the ``\\`` of the ``\\"`` that closes a webhook URL). A key cut off before
    its END line, which the scanner redacts to the end of the text, ends with its body
    here: the ``"}`` that close the JSON string it sits in stay.
    """
    if kind == "private_key" and b == len(text):
        header = _PEM_HEADER.match(text, a)
        if header is not None:
            rest = _PEM_REST.match(text, header.end())
            if rest is not None:
                b = rest.end()
    s, e = a, b
    # (a token found in the plain reading that opens with an escape's hex digits,
    # `%A3-TD0RFY-…`, `%ABSK…`: those digits are its first characters, so the escape is
    # taken in whatever it stands for; an address's local part is read generously, and
    # `%20user@…` keeps the `%20` of its blank)
    token = kind != "email"
    if a > 0 and "\\" in text[max(0, a - 5) : a]:
        j = text.rfind("\\", max(0, a - 5), a)
        if _escapes(text, j):
            if text[j + 1] == "u" and _UNICODE.match(text, j + 1) and a < j + 6:
                s = j if token and a > j + 1 or _CHARS[text[j : j + 6]].isalnum() else j + 6
            elif a == j + 1:  # `\n`, `\t`…: the letter is the escape's, not the secret's
                s = a + 1
    elif a > 0 and "%" in text[max(0, a - 2) : a]:
        j = text.rfind("%", max(0, a - 2), a)
        if _PERCENT.match(text, j):
            s = j if token or _CHARS[text[j : j + 3]].isalnum() else j + 3
    while e > s and text[e - 1] == "\\":  # no secret ends with one
        e -= 1
    if "\\" in text[max(s, e - 5) : e]:
        j = text.rfind("\\", max(s, e - 5), e)
        if text[j + 1 : j + 2] == "u" and _UNICODE.match(text, j + 1) and _escapes(text, j):
            e = j + 6 if _CHARS[text[j : j + 6]].isalnum() else j
    elif "%" in text[max(s, e - 2) : e]:
        j = text.rfind("%", max(s, e - 2), e)
        if _PERCENT.match(text, j):
            e = j + 3 if _CHARS[text[j : j + 3]].isalnum() else j
    return (s, e) if s < e else (a, b)


def _escapes(text: str, j: int) -> bool:
    """Whether the backslash at ``j`` starts an escape (it is not itself escaped)."""
    run = text[max(0, j - 255) : j + 1]
    return (len(run) - len(run.rstrip("\\"))) % 2 == 1
