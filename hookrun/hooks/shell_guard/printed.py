"""What ``echo`` and ``printf`` print, when their arguments are static.

``$(printf r)m -rf /`` and ``echo -e '\\x72m -rf /' | sh`` hide a command in
printed text; knowing the text lets the rules see the command.
"""

from __future__ import annotations

import re

from hookrun.lazyre import compile as lazy_compile

_ESCAPES = lazy_compile(r"\\(x[0-9A-Fa-f]{1,2}|0?[0-7]{1,3}|[ntr\\])")


def printed(name: str, args: list[str]) -> str:
    """The output of ``echo``/``printf`` with these (static) arguments."""
    if name == "printf":
        while args and args[0] == "--":
            args = args[1:]
        if not args:
            return ""
        fmt, rest = args[0], args[1:]
        for value in rest:
            fmt = fmt.replace("%s", value, 1) if "%s" in fmt else fmt + value
        return unescape(fmt.replace("%%", "%"))
    words = list(args)
    escapes = False
    while words and re.fullmatch(r"-[neE]+", words[0]):
        escapes = escapes or "e" in words[0]
        words.pop(0)
    text = " ".join(words) + "\n"
    return unescape(text) if escapes else text


def unescape(text: str) -> str:
    def one(m: re.Match[str]) -> str:
        e = m.group(1)
        if e[0] == "x":
            return chr(int(e[1:], 16))
        if e[0] in "01234567":
            return chr(int(e, 8) & 0xFF)
        return {"n": "\n", "t": "\t", "r": "\r", "\\": "\\"}[e]

    return _ESCAPES.sub(one, text)
