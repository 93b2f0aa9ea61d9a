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
from hookrun.shellsyntax import ANSI_C_ESCAPES, ECHO_ESCAPES

_HEX = "0123456789abcdefABCDEF"
_OCT = "01234567"
_FLAGS = "-+ #0"
_CONVERSIONS = "diouxXfFeEgGaAcsbq%"
_STOP = "\0stop"
_WIDEST = 4096  # the widest field printed (see _padded)  # (%b's \c: nothing more is printed)


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
    # echo: its options in order (the last of -e/-E wins), then its escapes, which are
    # printf's %b's (\c ends the output, its newline too)
    words = list(args)
    escapes, newline = False, True
    while words and re.fullmatch(r"-[neE]+", words[0]):
        for flag in words.pop(0)[1:]:
            if flag == "n":
                newline = False
            else:
                escapes = flag == "e"
    text = " ".join(words)
    if escapes:
        text = _b_expanded(text, echo=True)
        if text.endswith(_STOP):
            return text[: -len(_STOP)]
    return text + "\n" if newline else text


def _printf(fmt: str, args: list[str]) -> str:
    out: list[str] = []
    rest = list(args)
    n = len(fmt)
    while True:
        used = 0
        i = 0
        while i < n:
            c = fmt[i]
            if c == "\\":
                text, i, _ = _escape(fmt, i + 1, False)
                out.append(text)
                continue
            if c != "%":
                j = i + 1
                while j < n and fmt[j] not in "\\%":
                    j += 1
                out.append(fmt[i:j])
                i = j
                continue
            j = i + 1
            while j < n and fmt[j] in _FLAGS:
                j += 1
            flags = fmt[i + 1 : j]
            width, j = _field(fmt, j)
            prec: str | None = None
            if j < n and fmt[j] == ".":
                prec, j = _field(fmt, j + 1)
            if j < n and fmt[j] in _CONVERSIONS:
                conv, i = fmt[j], j + 1
            elif j < n and fmt[j] == "(" and (k := fmt.find(")T", j)) > 0:
                conv, i = "T", k + 2
            else:  # (`%` and no conversion: bash complains and stops)
                return "".join(out)
            if conv == "%":
                out.append("%")
                continue
            if width == "*":
                width, used = str(_number(rest.pop(0) if rest else None)), used + 1
            if prec == "*":  # (a negative one is none: `%.*s -1 'rm -rf /'` prints it all)
                given, used = _number(rest.pop(0) if rest else None), used + 1
                prec = str(given) if given >= 0 else None
            arg: str | None = rest.pop(0) if rest else None
            used += 1
            if conv in _NUMERIC:
                out.append(_numeric(conv, arg, flags, width, prec))
                continue
            text = _converted(conv, arg)
            if text.endswith(_STOP):
                out.append(_padded(text[: -len(_STOP)], flags, width, prec, conv))
                return "".join(out)
            out.append(_padded(text, flags, width, prec, conv))
        if not rest or not used:
            return "".join(out)


def _field(fmt: str, j: int) -> tuple[str, int]:
    """A width or precision at ``j``: ``*`` or digits (maybe none), and what follows."""
    if fmt.startswith("*", j):
        return "*", j + 1
    k = j
    while k < len(fmt) and fmt[k].isdigit() and fmt[k].isascii():
        k += 1
    return fmt[j:k], k


def _converted(conv: str, arg: str | None) -> str:
    if conv == "s":
        return arg or ""
    if conv == "q":
        return _quoted(arg or "")
    if conv == "c":
        return (arg or "\0")[:1]
    if conv == "b":
        return _b_expanded(arg or "")
    return ""  # %(fmt)T: a time, never a command word we could judge


_NUMERIC = frozenset("diouxXfFeEgGaA")


def _numeric(conv: str, arg: str | None, flags: str, width: str | None, prec: str | None) -> str:
    """A number as C's printf formats it (Python's ``%`` operator is C's, but for
    ``%u`` and the unsigned reading of a negative ``%o``/``%x``, and ``%a``)."""
    value: float
    if conv in "fFeEgGaA":
        value = _float(arg)
        conv = conv if conv in "fFeEgG" else "e"  # (%a: hex digits no rule reads)
    else:
        value = _number(arg)
        if conv in "ouxX":
            value %= 1 << 64
        conv = "d" if conv in "iu" else conv
    if width and width[0] == "-":  # (from `*`: a negative width pads on the right)
        flags, width = flags + "-", width[1:]
    # (both bounded as _padded bounds a width: `%.300000000d` is a 300 MB string)
    field = str(min(int(width), _WIDEST)) if width else ""
    if prec is not None:
        field += "." + str(min(int(prec or 0), _WIDEST))
    return ("%" + "".join(dict.fromkeys(flags)) + field + conv) % value


def _float(arg: str | None) -> float:
    if arg and arg[0] not in "'\"":
        try:
            return float(arg)
        except ValueError:
            pass
    return float(_number(arg))


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
    # strtoimax(arg, 0): the longest number at the start, 0x hex, 0 octal (`12abc` is 12,
    # `09` is 0, each with bash's complaint)
    m = _LEADING_NUMBER.match(arg)
    if m is None:
        return 0
    sign, digits = m.group(1), m.group(2)
    base = 16 if digits[1:2] in ("x", "X") else 8 if digits[0] == "0" else 10
    value = int(digits, base)
    return -value if sign == "-" else value


_LEADING_NUMBER = lazy_compile(r"\s*([+-]?)(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)")


def _padded(text: str, flags: str, width: str | None, prec: str | None, conv: str) -> str:
    if prec and conv in "sbqc" and prec.isdigit():
        text = text[: int(prec)]
    elif prec == "" and conv in "sbq":  # `%.s`: precision 0
        text = ""
    try:
        size = int(width) if width else 0
    except ValueError:
        size = 0
    # A field wider than the text a rule could read is the same blanks to a shell: more
    # than _WIDEST of them only cost memory (`%300000000d` took 900 MB and the timeout).
    size = max(-_WIDEST, min(size, _WIDEST))
    if "-" in flags or size < 0:
        return text.ljust(abs(size))
    return text.rjust(size)


def _escape(text: str, i: int, in_b: bool, echo: bool = False) -> tuple[str, int, bool]:
    """The escape whose backslash is before ``i``: (its text, where the text goes on,
    whether it is %b's ``\\c``). The format's octal is ``\\NNN``; %b's also ``\\0NNN``;
    echo's only ``\\0NNN`` (its ``\\162`` is printed as it stands)."""
    n = len(text)
    if i >= n or (text[i] == "%" and not in_b):
        return "\\", i, False
    c = text[i]
    if c in "xuU":
        most = {"x": 2, "u": 4, "U": 8}[c]
        j = i + 1
        while j < n and j <= i + most and text[j] in _HEX:
            j += 1
        if j > i + 1:
            return _char(int(text[i + 1 : j], 16)), j, False
    elif c in _OCT and not (echo and c != "0"):
        first = i + 1 if in_b and c == "0" else i
        j = first
        while j < n and j < first + 3 and text[j] in _OCT:
            j += 1
        return (chr(int(text[first:j], 8) & 0xFF) if j > first else "\x00"), j, False
    elif in_b and c == "c":
        return "", i + 1, True
    return (ECHO_ESCAPES if in_b else ANSI_C_ESCAPES).get(c, "\\" + c), i + 1, False


def _b_expanded(arg: str, echo: bool = False) -> str:
    out: list[str] = []
    i = 0
    while True:
        j = arg.find("\\", i)
        if j < 0:
            out.append(arg[i:])
            return "".join(out)
        out.append(arg[i:j])
        text, i, stop = _escape(arg, j + 1, True, echo)
        if stop:
            return "".join(out) + _STOP
        out.append(text)


def _char(code: int) -> str:
    return chr(code) if code < 0x110000 else "\ufffd"
