"""Lone surrogates (U+D800–U+DFFF): legal in JSON's ``\\u`` escapes, not encodable as UTF-8.

Payloads, hook answers and file names are checked for them on every ``hookrun run``.
Almost all of that text is ASCII, which ``str.isascii()`` tells without a regex; the
pattern for the rest is compiled by ``re`` on first use (and cached by it): compiling
it costs about 6% of a bare Python start (callgrind), which every run paid at import.

A leaf module: it imports nothing from hookrun.
"""

from __future__ import annotations

import re

_SURROGATE = "[\ud800-\udfff]"
REPLACEMENT = "\ufffd"


def has_surrogate(text: str) -> bool:
    """Whether ``text`` holds a lone surrogate (so cannot be encoded as UTF-8)."""
    return not text.isascii() and re.search(_SURROGATE, text) is not None


def replace_surrogates(text: str, by: str = REPLACEMENT) -> str:
    """``text`` with each lone surrogate replaced by ``by`` (U+FFFD by default)."""
    return re.sub(_SURROGATE, by, text) if has_surrogate(text) else text
