"""Take heredoc bodies out of a command line before bashlex sees it.

bashlex 0.18 fails on quoted heredoc delimiters (``<<'EOF'``), which is exactly
how agents write ``git commit -m "$(cat <<'EOF' … EOF)"`` and ``gh pr create``
bodies. Each ``<<DELIM`` whose terminating line exists is replaced by a
redirect from a placeholder file name and its body is kept aside, so the parse
succeeds and a rule can still look into a heredoc fed to a shell.
"""

from __future__ import annotations

import re
from typing import NamedTuple

PLACEHOLDER = "__hookrun_heredoc_{}__"
_PLACEHOLDER_RE = re.compile(r"__hookrun_heredoc_(\d+)__")
_DELIM = re.compile(r"""<<(-?)[ \t]*(?:'([^'\n]*)'|"([^"\n]*)"|\\?([A-Za-z0-9_.+-]+))""")


class Stripped(NamedTuple):
    text: str  # the command line with heredoc bodies replaced
    bodies: tuple[str, ...]  # body i belongs to placeholder i


def body_of(word: str, bodies: tuple[str, ...]) -> str | None:
    m = _PLACEHOLDER_RE.fullmatch(word)
    if m is None or int(m.group(1)) >= len(bodies):
        return None
    return bodies[int(m.group(1))]


def strip_heredocs(text: str, known: tuple[str, ...] = ()) -> Stripped:
    """Replace heredocs; ``known`` are bodies an enclosing line already took out."""
    if "<<" not in text:
        return Stripped(text, known)
    bodies: list[str] = list(known)
    out: list[str] = []
    pending: list[tuple[str, bool, int]] = []  # (delimiter, strip tabs, body index)
    i, n = 0, len(text)
    line_start = True
    while i < n:
        if pending and line_start:
            i = _take_bodies(text, i, pending, bodies)
            pending.clear()
            if i >= n:
                break
        c = text[i]
        line_start = c == "\n"
        skip = _quoted_span(text, i)
        if skip > i:
            out.append(text[i:skip])
            line_start = text[skip - 1] == "\n"
            i = skip
            continue
        if c == "<" and text.startswith("<<", i) and not text.startswith("<<<", i):
            m = _DELIM.match(text, i)
            if m is not None:
                delim = m.group(2) if m.group(2) is not None else m.group(3) or m.group(4)
                if delim is not None and _has_terminator(text, m.end(), delim, bool(m.group(1))):
                    pending.append((delim, bool(m.group(1)), len(bodies)))
                    bodies.append("")
                    out.append("< " + PLACEHOLDER.format(len(bodies) - 1))
                    i = m.end()
                    continue
        out.append(c)
        i += 1
    return Stripped("".join(out), tuple(bodies))


def _quoted_span(text: str, i: int) -> int:
    """End of a single-quoted string or comment starting at ``i`` (``i`` if none).

    Only single quotes and comments hide a ``<<``: inside double quotes a
    ``$(cat <<'EOF'`` is still a heredoc, which is the case this module exists for.
    """
    c = text[i]
    if c == "\\":
        return min(i + 2, len(text))
    if c == "'" and not (i > 0 and text[i - 1] == "$"):
        j = text.find("'", i + 1)
        return len(text) if j < 0 else j + 1
    if c == "#" and (i == 0 or text[i - 1] in " \t\n;&|("):
        j = text.find("\n", i)
        return len(text) if j < 0 else j
    return i


def _has_terminator(text: str, start: int, delim: str, tabs: bool) -> bool:
    nl = text.find("\n", start)
    if nl < 0:
        return False
    return any(_is_end(line, delim, tabs) for line in text[nl + 1 :].split("\n"))


def _is_end(line: str, delim: str, tabs: bool) -> bool:
    # Agents often indent the terminator inside $(…); bash would not end the body
    # there, but the intent is unambiguous and the rest of the line is code.
    return line.strip() == delim or (tabs and line.lstrip("\t") == delim)


def _take_bodies(text: str, i: int, pending: list[tuple[str, bool, int]], bodies: list[str]) -> int:
    """Consume the bodies of ``pending`` heredocs starting at line ``i``."""
    for delim, tabs, index in pending:
        lines: list[str] = []
        while i < len(text):
            nl = text.find("\n", i)
            end = len(text) if nl < 0 else nl
            line = text[i:end]
            i = end + 1
            if _is_end(line, delim, tabs):
                break
            lines.append(line.lstrip("\t") if tabs else line)
        bodies[index] = "\n".join(lines) + ("\n" if lines else "")
    return i
