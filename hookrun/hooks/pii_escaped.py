"""Secrets a tool output shows escaped: JSON ``\\"``/``\\/``/``\\uXXXX`` and URL ``%XX``.

Hosts send tool output as it came: an MCP result or a ``curl`` response is often JSON
*inside* a JSON string (``{\\"SecretAccessKey\\": \\"…\\"}``, ``https:\\/\\/hooks.slack.com…``),
and a URL carries a token percent-encoded (``?key=…%2F…%3D``). The scanner's rows read
plain text, so such a secret was missed wherever its context or its own characters are
escaped. Here the text is also scanned decoded, one level of those escapes undone, and
each find there is mapped back to the escaped span it came from (the escapes inside a
secret are redacted with it).
"""

from __future__ import annotations

import bisect
import re

from hookrun.hooks.pii_patterns import Finding, Scanner

_ESCAPE = re.compile(r"\\u[0-9a-fA-F]{4}|\\[\"/]|%[0-9a-fA-F]{2}")


def spans(scan: Scanner, text: str) -> tuple[list[str], list[int], list[int]]:
    """:func:`find`'s kinds, starts and ends as three lists (see ``Scanner.spans``)."""
    if not _escaped(text):
        return scan.spans(text)
    found = find(scan, text)
    return [f.kind for f in found], [f.start for f in found], [f.end for f in found]


def _escaped(text: str) -> bool:
    # (C-speed tests: most outputs hold no escape, and pay no second scan)
    return ("\\" in text and _json_escape(text)) or ("%" in text and _percent_escape(text))


def find(scan: Scanner, text: str) -> list[Finding]:
    """``scan.find(text)``, plus what it finds in ``text`` with its escapes undone."""
    found = scan.find(text)
    if not _escaped(text):
        return found
    decoded = _decoded(text)
    if decoded is None:
        return found
    view, starts, places = decoded
    extra = []
    for kind, start, end in scan.find(view):
        a = _original(starts, places, start, False)
        b = _original(starts, places, end - 1, True)
        if not any(f.start < b and a < f.end for f in found):
            extra.append(Finding(kind, a, b))
    if not extra:
        return found
    merged = sorted([*found, *extra], key=lambda f: f.start)
    out: list[Finding] = []
    for f in merged:  # (the decoded finds may overlap one another's escaped spans)
        if out and f.start < out[-1].end:
            continue
        out.append(f)
    return out


_PERCENT = re.compile(r"%[0-9a-fA-F]{2}")


def _json_escape(text: str) -> bool:
    return "\\u" in text or '\\"' in text or "\\/" in text


def _percent_escape(text: str) -> bool:
    # (a `%` in `[ 50%]` or `100% done` is no escape)
    return _PERCENT.search(text) is not None


# A decoded view: its text, and for each piece (a run of plain text or one escape) where
# it starts in the view and (where it starts in the text, its length there, or -1 for a
# plain run).
_View = tuple[str, list[int], list[tuple[int, int]]]


def _decoded(text: str) -> _View | None:
    pieces: list[str] = []
    starts: list[int] = []
    places: list[tuple[int, int]] = []
    pos = at = 0
    for m in _ESCAPE.finditer(text):
        s, e = m.span()
        if s > pos:
            starts.append(at)
            places.append((pos, -1))
            pieces.append(text[pos:s])
            at += s - pos
        escape = m.group()
        if escape[0] == "%":
            char = chr(int(escape[1:], 16))
        elif escape[1] == "u":
            char = chr(int(escape[2:], 16))
        else:
            char = escape[1]
        starts.append(at)
        places.append((s, e - s))
        pieces.append(char)
        at += 1
        pos = e
    if not places:
        return None
    if pos < len(text):
        starts.append(at)
        places.append((pos, -1))
        pieces.append(text[pos:])
    return "".join(pieces), starts, places


def _original(starts: list[int], places: list[tuple[int, int]], i: int, end: bool) -> int:
    """Where the view's character ``i`` is in the text (past it when ``end``)."""
    k = bisect.bisect_right(starts, i) - 1
    origin, size = places[k]
    if size < 0:  # a plain run
        return origin + (i - starts[k]) + (1 if end else 0)
    return origin + (size if end else 0)
