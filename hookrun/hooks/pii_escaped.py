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
import re
from itertools import accumulate, repeat
from operator import itemgetter

import re2

from hookrun.hooks.pii_patterns import Finding, Scanner

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
    percent = "%" in text and _percent_escape(text)
    if percent or ("\\" in text and _json_escape(text)):
        found = _find(scan, text, percent)
        return [f.kind for f in found], [f.start for f in found], [f.end for f in found]
    kinds, starts, ends = scan.spans(text)
    if kinds and ("\\" in text or "private_key" in kinds):
        # (rare: a find that touches a backslash escape, or a key cut off; new lists,
        # the scanner's are its own)
        spans = list(map(_whole, repeat(text), kinds, starts, ends))
        return kinds, list(map(_FIRST, spans)), list(map(_SECOND, spans))
    return kinds, starts, ends


def find(scan: Scanner, text: str) -> list[Finding]:
    """``scan.find(text)``, plus what it finds in ``text`` with its escapes undone."""
    return _find(scan, text, "%" in text and _percent_escape(text))


def _find(scan: Scanner, text: str, percent: bool) -> list[Finding]:
    found = [Finding(k, *_whole(text, k, s, e)) for k, s, e in zip(*scan.spans(text), strict=True)]
    if not (percent or ("\\" in text and _json_escape(text))):
        return found
    levels: list[_Level] = []
    view = text
    extra = False
    for _ in range(MAX_LEVELS):
        level = _decoded(view)
        if level is None:
            break
        levels.append(level)
        views = [level.text]
        if percent and "+" in view:
            # Form data (`curl -d`, a query string): a `+` is a space, one of the value
            # is %2B. Elsewhere (base64, prose) a `+` is itself: this reading is scanned
            # besides the plain one (the escapes sit where they did: one mapping).
            views.append(level.form(view))
        for decoded in views:
            for kind, start, end in zip(*scan.spans(decoded), strict=True):
                start, end = _whole(decoded, kind, start, end)
                for down in reversed(levels):
                    start, end = down.origin(start, False), down.origin(end - 1, True)
                found.append(Finding(kind, start, end))
                extra = True
        view = level.text
        percent = "%" in view and _percent_escape(view)
        if not (percent or ("\\" in view and _json_escape(view))):
            break
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


_FIRST_START = itemgetter(1)
_FIRST, _SECOND = itemgetter(0), itemgetter(1)


def _json_escape(text: str) -> bool:
    # (a line break or tab escaped alone, `"…\nghp_…"`: the letter before the secret
    # hides where it starts from the rows that want one there)
    return (
        "\\u" in text
        or '\\"' in text
        or "\\/" in text
        or "\\n" in text
        or "\\t" in text
        or "\\r" in text
    )


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
    """One level of escapes undone: its text, and (summed when a find needs them) where
    each escape went."""

    __slots__ = ("text", "parts", "_at", "_starts", "_ends")

    def __init__(self, text: str, parts: list[str]) -> None:
        self.text = text
        self.parts = parts  # plain text, an escape, …, plain text (the level below's)
        self._at: list[int] = []

    def form(self, below: str) -> str:
        """``text`` with each ``+`` of ``below`` (the level below) read as a space."""
        parts = _ESCAPES.split(below.replace("+", " "))
        parts[1::2] = map(_CHARS.__getitem__, self.parts[1::2])
        return "".join(parts)

    def origin(self, i: int, end: bool) -> int:
        """Where ``text[i]`` is in the level below (past it when ``end``)."""
        if not self._at:
            parts = self.parts
            bounds = list(accumulate(map(len, parts)))
            self._starts, self._ends = bounds[0:-1:2], bounds[1::2]
            decoded = parts.copy()
            decoded[1::2] = map(_CHARS.__getitem__, parts[1::2])
            self._at = list(accumulate(map(len, decoded)))[0:-1:2]
        k = bisect.bisect_right(self._at, i) - 1
        if k < 0:
            return i + end
        after = self._at[k] + len(_CHARS[self.parts[2 * k + 1]])
        if i < after:  # one of the escape's characters: the whole escape
            return self._ends[k] if end else self._starts[k]
        return self._ends[k] + (i - after) + end


def _decoded(text: str) -> _Level | None:
    """``text`` with one level of escapes undone, or None when it holds none."""
    parts = _ESCAPES.split(text)  # plain text, an escape, plain text, …: all in C
    if len(parts) == 1:
        return None
    decoded = parts.copy()
    decoded[1::2] = map(_CHARS.__getitem__, parts[1::2])
    return _Level("".join(decoded), parts)


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
    if a > 0 and "\\" in text[max(0, a - 5) : a]:
        j = text.rfind("\\", max(0, a - 5), a)
        if _escapes(text, j):
            if text[j + 1] == "u" and _UNICODE.match(text, j + 1) and a < j + 6:
                s = j if _CHARS[text[j : j + 6]].isalnum() else j + 6
            elif a == j + 1:  # `\n`, `\t`…: the letter is the escape's, not the secret's
                s = a + 1
    elif a > 0 and "%" in text[max(0, a - 2) : a]:
        j = text.rfind("%", max(0, a - 2), a)
        if _PERCENT.match(text, j):
            s = j if _CHARS[text[j : j + 3]].isalnum() else j + 3
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
