"""What ``echo`` and ``printf`` print, when their arguments are static.

``$(printf r)m -rf /`` and ``echo -e '\\x72m -rf /' | sh`` hide a command in
printed text; knowing the text lets the rules see the command. ``printf`` is read as
bash's builtin reads it (bash is the oracle: ``tests/hooks/shell_guard/printf_oracle_test.py``):
the format is used again while arguments remain (``printf '%s\\n' push --force …``
prints one word a line), ``%c`` is an argument's first character, ``%b`` expands its
argument's escapes, and a missing argument is empty (or 0).
"""

from __future__ import annotations

import re

from hookrun.lazyre import compile as lazy_compile

_ESCAPES = lazy_compile(r"\\(x[0-9A-Fa-f]{1,2}|0?[0-7]{1,3}|[ntr\\])")

# printf's format: a backslash escape, a conversion (flags, width, precision, type), or
# a run of other text.
_FORMAT = lazy_compile(
    r"\\(?:x[0-9A-Fa-f]{1,2}|u[0-9A-Fa-f]{1,4}|U[0-9A-Fa-f]{1,8}|[0-7]{1,3}|[^%])?"
    r"|%(?P<flags>[-+ #0]*)(?P<width>\*|[0-9]*)(?:\.(?P<prec>\*|[0-9]*))?"
    r"(?P<conv>[diouxXfFeEgGaAcsbq%]|\([^)]*\)T)?"
    r"|[^\\%]+",
    re.DOTALL,
)
# %b's argument (as `echo -e`): \0NNN and \NNN octal, \xHH, \uHHHH, \UHHHHHHHH, \c.
_B_ESCAPE = lazy_compile(
    r"\\(0[0-7]{0,3}|[0-7]{1,3}|x[0-9A-Fa-f]{1,2}|u[0-9A-Fa-f]{1,4}|U[0-9A-Fa-f]{1,8}|.)",
    re.DOTALL,
)
_SIMPLE = {
    "a": "\a",
    "b": "\b",
    "e": "\x1b",
    "E": "\x1b",
    "f": "\f",
    "n": "\n",
    "r": "\r",
    "t": "\t",
    "v": "\v",
    "\\": "\\",
    '"': '"',
    "'": "'",
    "?": "?",
}
_STOP = "\0stop"  # (%b's \c: nothing more is printed)


def printed(name: str, args: list[str]) -> str:
    """The output of ``echo``/``printf`` with these (static) arguments."""
    if name == "printf":
        if args and args[0] == "--":
            args = args[1:]
        elif args and args[0].startswith("-") and args[0] != "-":
            return ""  # (an option bash refuses: no output)
        if not args:
            return ""
        return _printf(args[0], args[1:])
    words = list(args)
    escapes = False
    while words and re.fullmatch(r"-[neE]+", words[0]):
        escapes = escapes or "e" in words[0]
        words.pop(0)
    text = " ".join(words) + "\n"
    return unescape(text) if escapes else text


def _printf(fmt: str, args: list[str]) -> str:
    out: list[str] = []
    pieces = [m for m in _FORMAT.finditer(fmt) if m.group()]
    rest = list(args)
    while True:
        used = 0
        for m in pieces:
            piece = m.group()
            if piece[0] == "\\":
                out.append(_format_escape(piece))
                continue
            if piece[0] != "%":
                out.append(piece)
                continue
            conv = m.group("conv")
            if conv is None:  # (`%` and no conversion: bash complains and stops)
                return "".join(out)
            if conv == "%":
                out.append("%")
                continue
            width, prec = m.group("width"), m.group("prec")
            if width == "*":
                width, used = str(_number(rest.pop(0) if rest else None)), used + 1
            if prec == "*":
                prec, used = str(max(0, _number(rest.pop(0) if rest else None))), used + 1
            arg: str | None = rest.pop(0) if rest else None
            used += 1
            text = _converted(conv, arg)
            if text.endswith(_STOP):
                out.append(_padded(text[: -len(_STOP)], m.group("flags"), width, prec, conv))
                return "".join(out)
            out.append(_padded(text, m.group("flags"), width, prec, conv))
        if not rest or not used:
            return "".join(out)
        used = 0


def _converted(conv: str, arg: str | None) -> str:
    if conv == "s":
        return arg or ""
    if conv == "q":
        return _quoted(arg or "")
    if conv == "c":
        return (arg or "\0")[:1]
    if conv == "b":
        return _b_expanded(arg or "")
    number = _number(arg)
    if conv in "di":
        return str(number)
    if conv == "u":
        return str(number % (1 << 64))
    if conv == "o":
        return format(number % (1 << 64), "o")
    if conv in "xX":
        return format(number % (1 << 64), conv)
    if conv.endswith("T"):  # %(fmt)T: a time, never a command word we could judge
        return ""
    return format(float(number), conv if conv in "fFeEgG" else "f")


def _quoted(arg: str) -> str:
    """``%q``: the word as bash quotes it for reuse (backslashes before specials)."""
    if not arg:
        return "''"
    return "".join(c if c.isalnum() or c in "_./:=@%+,-" else "\\" + c for c in arg)


def _number(arg: str | None) -> int:
    if not arg:
        return 0
    if arg[0] in "'\"":  # `'a`: the character's code
        return ord(arg[1]) if len(arg) > 1 else 0
    try:
        return int(arg, 0)
    except ValueError:
        return 0


def _padded(text: str, flags: str, width: str | None, prec: str | None, conv: str) -> str:
    if prec and conv in "sbqc" and prec.isdigit():
        text = text[: int(prec)]
    elif prec == "" and conv in "sbq":  # `%.s`: precision 0
        text = ""
    try:
        size = int(width) if width else 0
    except ValueError:
        size = 0
    if "-" in flags or size < 0:
        return text.ljust(abs(size))
    return text.rjust(size)


def _format_escape(piece: str) -> str:
    if len(piece) == 1:
        return "\\"
    e = piece[1:]
    if e[0] in "xuU" and len(e) > 1:
        return _char(int(e[1:], 16))
    if e[0] in "01234567":
        return chr(int(e, 8) & 0xFF)
    return _SIMPLE.get(e, piece)


def _b_expanded(arg: str) -> str:
    out: list[str] = []
    pos = 0
    for m in _B_ESCAPE.finditer(arg):
        out.append(arg[pos : m.start()])
        pos = m.end()
        e = m.group(1)
        if e == "c":
            return "".join(out) + _STOP
        if e[0] in "01234567":
            out.append(chr(int(e, 8) & 0xFF))
        elif e[0] in "xuU" and len(e) > 1:
            out.append(_char(int(e[1:], 16)))
        else:
            out.append(_SIMPLE.get(e, "\\" + e))
    out.append(arg[pos:])
    return "".join(out)


def _char(code: int) -> str:
    return chr(code) if code < 0x110000 else "\ufffd"


def unescape(text: str) -> str:
    def one(m: re.Match[str]) -> str:
        e = m.group(1)
        if e[0] == "x":
            return chr(int(e[1:], 16))
        if e[0] in "01234567":
            return chr(int(e, 8) & 0xFF)
        return {"n": "\n", "t": "\t", "r": "\r", "\\": "\\"}[e]

    return _ESCAPES.sub(one, text)
