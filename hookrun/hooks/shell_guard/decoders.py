"""What a filter makes of known text piped through it, when it is a plain transformation.

``echo '/ fr- mr' | rev | sh``, ``echo 'RM -RF /' | tr A-Z a-z | sh``, ``… | xxd -r -p |
sh``, ``… | base32 -d | sh``: obfuscations of a command fed to a shell. The engine asks
:func:`transformed` for the text that comes out (``base64 -d`` is read in the engine).
"""

from __future__ import annotations


def transformed(name: str, args: list[str], text: str) -> str | None:
    """The output of ``name ARGS`` given ``text`` on stdin; None when not modelled."""
    import base64  # (here: a judged line that pipes through no filter loads no base64)

    try:
        if name == "rev" and not args:
            return "".join(line[::-1] + "\n" for line in text.splitlines())
        if name == "tr":
            return _tr(args, text)
        if name == "xxd" and "-r" in args and any(a in ("-p", "-ps", "-plain") for a in args):
            return bytes.fromhex("".join(text.split())).decode()
        decode = any(a in ("-d", "--decode", "-D") for a in args)
        if name == "base32" and decode:
            return base64.b32decode(_padded("".join(text.split()), 8)).decode()
        if name == "basenc" and decode and "--base32" in args:
            return base64.b32decode(_padded("".join(text.split()), 8)).decode()
        if name == "basenc" and decode and "--base64" in args:
            return base64.b64decode("".join(text.split())).decode()
        if name == "openssl" and decode and ("base64" in args or "-base64" in args):
            return base64.b64decode("".join(text.split())).decode()
    except ValueError:  # (binascii.Error and UnicodeDecodeError are ValueErrors)
        return None
    return None


def _padded(text: str, block: int) -> str:
    return text + "=" * (-len(text) % block)


def _tr(args: list[str], text: str) -> str | None:
    """``tr SET1 SET2`` and ``tr -d SET1`` of plain sets (ranges, a few escapes)."""
    if len(args) == 2 and not args[0].startswith("-"):
        src, dst = _set(args[0]), _set(args[1])
        if src is None or dst is None or not dst:
            return None
        dst = dst + dst[-1] * (len(src) - len(dst))  # GNU pads SET2 with its last char
        table = {ord(a): b for a, b in zip(src, dst, strict=False)}
        return text.translate(table)
    if len(args) == 2 and args[0] == "-d":
        gone = _set(args[1])
        return None if gone is None else text.translate({ord(c): None for c in gone})
    return None


_ESC = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\"}


def _set(spec: str) -> str | None:
    """The characters of a tr set written with ranges (``a-z``); None for classes."""
    if "[" in spec:
        return None  # ([:upper:], [x*n]: not modelled)
    chars: list[str] = []
    i = 0
    while i < len(spec):
        c = spec[i]
        if c == "\\" and i + 1 < len(spec):
            chars.append(_ESC.get(spec[i + 1], spec[i + 1]))
            i += 2
            continue
        if i + 2 < len(spec) and spec[i + 1] == "-":
            lo, hi = ord(c), ord(spec[i + 2])
            if hi < lo or hi - lo > 256:
                return None
            chars.extend(chr(x) for x in range(lo, hi + 1))
            i += 3
            continue
        chars.append(c)
        i += 1
    return "".join(chars)
