"""User text quoted in a message, so that the message stays one printable line.

``json.dumps(ensure_ascii=False)`` escapes only C0 controls: a C1 control (U+0085), a
line or paragraph separator (U+2028/U+2029) or a lone surrogate stays raw, and
terminals and ``str.splitlines()`` take several of them as line breaks — one config
mistake would then read as two lines, the second without its "config error:" prefix.
Every message that quotes text from a config file goes through :func:`quote`.
"""

from __future__ import annotations

import json


def char_name(char: str) -> str:
    """``"\\n"`` → ``U+000A``: how a message names one character it cannot show."""
    return f"U+{ord(char):04X}"


def _escape(char: str) -> str:
    code = ord(char)
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    # JSON has no 6-digit escape: a character past the BMP is written as a surrogate pair.
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def quote(text: str) -> str:
    """``text`` as a JSON string (double quotes, escapes) with nothing non-printable in it.

    Printable non-ASCII stays as written (a user recognises "café"); the result is still
    valid JSON, so it can be copied back into the file.
    """
    shown = json.dumps(text, ensure_ascii=False)
    if shown.isprintable():
        return shown
    return "".join(c if c.isprintable() else _escape(c) for c in shown)
