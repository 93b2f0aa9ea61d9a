"""What a filter makes of known text piped through it, when it is a plain transformation.

``echo '/ fr- mr' | rev | sh``, ``echo 'RM -RF /' | tr A-Z a-z | sh``, ``… | xxd -r -p |
sh``, ``… | base64 -d | sh``, ``… | base32 -d | sh``: obfuscations of a command fed to a
shell. The engine asks :func:`transformed` for the text that comes out.

The decoders write what the real programs write, bad input included: GNU ``base64 -d``
given ``cm0gLXJmIC8`` (no padding) writes ``rm -rf /`` and *then* fails, and a shell
downstream has run it by then; ``xxd -r -p`` skips what is not hex. A stricter decoder
(Python's, which refuses such input) left those lines unjudged, which allowed them.
tests/hooks/shell_guard/decoders_oracle_test.py holds each to the real program.
"""

from __future__ import annotations

from hookrun.records import NamedTuple


def transformed(name: str, args: list[str], text: str) -> str | None:
    """The output of ``name ARGS`` given ``text`` on stdin; None when not modelled."""
    if name == "rev" and not args:
        return "".join(line[::-1] + "\n" for line in text.splitlines())
    if name == "tr":
        return _tr(args, text)
    if name == "xxd" and "-r" in args and any(a in ("-p", "-ps", "-plain") for a in args):
        return _xxd_plain(text).decode("utf-8", "replace")
    if name == "openssl" and "-d" in args and ("base64" in args or "-base64" in args):
        # (openssl writes nothing for a line it cannot decode: the whole text decodes,
        # or the line is left unjudged, as before)
        import base64  # (here: a judged line that pipes through no filter loads no base64)

        try:
            return base64.b64decode("".join(text.split())).decode()
        except ValueError:  # (binascii.Error and UnicodeDecodeError are ValueErrors)
            return None
    if name == "base64":
        alphabet = _BASE64
    elif name == "base32":
        alphabet = _BASE32
    elif name == "basenc" and ("--base64" in args or "--base32" in args):
        alphabet = _BASE32 if "--base32" in args else _BASE64
    else:
        return None
    if any(a[:1] != "-" and args[k - 1 : k] != ["-w"] for k, a in enumerate(args)):
        return None  # (a file operand: the file is decoded, not the text piped in)
    # GNU's short options cluster (-di); -D is macOS base64's -d
    letters = {c for a in args if a[:1] == "-" and a[1:2] != "-" for c in a[1:]}
    if not (letters & {"d", "D"} or "--decode" in args):
        return None
    if "i" in letters or "--ignore-garbage" in args:  # what is not in the alphabet goes
        text = "".join(c for c in text if c in alphabet.values or c == "=")
    out = _gnu_decode(text, alphabet)
    # Where GNU stops at a character out of place (a blank, a stray "="), or reads no
    # short last block (base32), a decoder that skips such characters and pads the end
    # (Python's, and maybe macOS's or busybox's) writes more: both are judged, a line each.
    clean = "".join(c for c in text if c in alphabet.values)
    more = _gnu_decode(clean + "=" * (-len(clean) % alphabet.block), alphabet)
    if more != out:
        out += b"\n" + more
    return out.decode("utf-8", "replace")


class _Alphabet(NamedTuple):
    values: dict[str, int]  # character -> its value
    bits: int  # per character
    block: int  # characters per block
    padded: frozenset[int]  # how many characters of a block may stand before its "="s
    short_last: bool  # whether a last block cut short still gives its whole bytes


_B64_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_BASE64 = _Alphabet({c: i for i, c in enumerate(_B64_CHARS)}, 6, 4, frozenset({2, 3}), True)
_BASE32 = _Alphabet(
    {c: i for i, c in enumerate("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")},
    5,
    8,
    frozenset({2, 4, 5, 7}),
    False,  # (gnulib's decode_8 reads no block of fewer than 8)
)


def _gnu_decode(text: str, alphabet: _Alphabet) -> bytes:
    """What GNU coreutils' ``base64 -d`` / ``base32 -d`` / ``basenc -d`` write for ``text``.

    Newlines are skipped; the rest is read a block at a time (gnulib's decode_4/decode_8),
    each byte written as soon as its bits are read. The first character out of place (not
    in the alphabet, a "=" where a block cannot end, a block cut short) ends the output —
    the program then fails, but what it wrote has gone down the pipe.
    """
    chars = text.replace("\n", "")
    values, bits, size = alphabet.values, alphabet.bits, alphabet.block
    out = bytearray()
    for start in range(0, len(chars), size):
        block = chars[start : start + size]
        if len(block) < size and not alphabet.short_last:
            break
        acc = held = 0
        for k, c in enumerate(block):
            if c == "=":
                if k in alphabet.padded and len(block) == size and block[k:] == "=" * (size - k):
                    break  # a padded block: the next one may follow
                return bytes(out)
            value = values.get(c)
            if value is None:
                return bytes(out)
            acc = (acc << bits | value) & 0xFFFF
            held += bits
            if held >= 8:
                held -= 8
                out.append(acc >> held & 0xFF)
        else:
            if len(block) < size:
                return bytes(out)  # (a short last block: its whole bytes, then the error)
    return bytes(out)


_HEX = {c: int(c, 16) for c in "0123456789abcdefABCDEF"}


def _xxd_plain(text: str) -> bytes:
    """What ``xxd -r -p`` writes for ``text`` (xxd.c's huntype for the plain format).

    Blanks and line breaks are skipped; two hex digits in a row make a byte; a character
    that is not hex drops a digit waiting for its pair, and a third such character in a
    row skips the rest of its line. Non-hex characters after a line break (or at the
    start) are passed over until the first digit.
    """
    out = bytearray()
    n1 = n2 = n3 = -1
    ignore = True
    i, size = 0, len(text)
    while i < size:
        c = text[i]
        i += 1
        if c in " \n\t\r":
            continue
        n3, n2, n1 = n2, n1, _HEX.get(c, -1)
        if n1 < 0 and ignore:
            continue
        ignore = False
        if n2 >= 0 and n1 >= 0:
            out.append(n2 << 4 | n1)
            n1 = -1
        elif n1 < 0 and n2 < 0 and n3 < 0:  # garbage: skip the line
            eol = text.find("\n", i)
            if eol < 0:
                break
            i = eol + 1
            ignore = True
    return bytes(out)


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
