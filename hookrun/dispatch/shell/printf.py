"""bash's ``printf`` builtin, byte for byte.

The format and the arguments are handled as bytes (shell text is bytes, as in bash):
widths and precisions count bytes, ``%c`` prints the first byte of its argument, ``%q``
quotes bytes that are not UTF-8 as ``$'\\NNN'``. Numbers are read as C's
``strtoimax``/``strtoumax``/``strtold`` read them (base prefixes, leading blanks, a
partial number kept with an error, out-of-range values clamped with a warning) and
printed as glibc prints them. Where bash's own rules differ from C's (``%b``, ``%q``,
``%(fmt)T``, a ``'c`` argument), bash's are followed.

This module loads on the first ``printf`` a hook runs (see ``builtins._lazy``).
"""

from __future__ import annotations

import math

from hookrun.dispatch.shell.state import ShellError
from hookrun.lazyre import compile as lazy_compile
from hookrun.records import TYPE_CHECKING
from hookrun.shellsyntax import ECHO_ESCAPES, ShellSyntaxError, Unsupported, parse
from hookrun.shellsyntax.nodes import CallExpr

if TYPE_CHECKING:
    import datetime

    from hookrun.dispatch.shell.interp import IO, Interp

_INTMAX = (1 << 63) - 1
_INTMAX_MIN = -(1 << 63)
_UINTMAX = (1 << 64) - 1
_INT_MAX = (1 << 31) - 1
_INT_MIN = -(1 << 31)
# bash's strftime buffer: a longer result prints nothing.
_TIMEBUF = 128
# A width or precision past this is refused with an error: bash (glibc) would print
# that many bytes, gigabytes for `%*d` with 999999999; a hook's output is bounded anyway.
_MAX_FIELD = 1 << 26

_FLAGS = b"#'-+ 0"
_TAKES_ARGUMENT = frozenset("sdiouxXeEfFgGaAcbqQn")
_LENGTH_MODIFIERS = b"hjlLtz"

_SIMPLE_ESCAPES = {ord(k): v.encode() for k, v in ECHO_ESCAPES.items()}
_OCTAL = b"01234567"
# UTF-8 (in its original form, up to six bytes, as glibc reads it): the smallest code
# point each length may hold; a smaller one is an overlong form.
_UTF8_FLOOR = {2: 0x80, 3: 0x800, 4: 0x10000, 5: 0x200000, 6: 0x4000000}
_HEX = b"0123456789abcdefABCDEF"

# Compiled on first use (hookrun.lazyre): `printf '%s\n' "$x"` needs none of them, and
# importing `re` is ~1.8 ms of the hook's first printf.
_INT_PREFIX = lazy_compile(rb"[ \t\n\v\f\r]*([+-]?)(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)")
_FLOAT_PREFIX = lazy_compile(
    rb"(?i)[ \t\n\v\f\r]*[+-]?(?:inf(?:inity)?|nan(?:\([0-9a-z_]*\))?"
    rb"|0x(?:[0-9a-f]+\.?[0-9a-f]*|\.[0-9a-f]+)(?:p[+-]?[0-9]+)?"
    rb"|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:e[+-]?[0-9]+)?)"
)
_IDENT = lazy_compile(rb"[A-Za-z_][A-Za-z0-9_]*\Z")
_ARRAY_REF = lazy_compile(r"(?s)([A-Za-z_][A-Za-z0-9_]*)\[(.+)\]\Z")
_POSIX_ZONE = lazy_compile(r"([A-Za-z]{3,})([+-]?)(\d{1,2})(?::(\d{2}))?")
# Characters %q escapes with a backslash anywhere in the word (bash's bstab).
_BACKSLASHED = frozenset(b" \t\n!\"$&'()*,;<>?[\\]^`{|}")
_ANSI_C_ESCAPES = {7: b"a", 8: b"b", 27: b"E", 12: b"f", 10: b"n", 13: b"r", 9: b"t", 11: b"v"}


def encode(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")


def decode(data: bytes) -> str:
    return data.decode("utf-8", "surrogateescape")


class _Stop(Exception):
    """Ends the builtin with ``status`` after what was printed so far (bash's PRETURN)."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


class _Run:
    """One call's state: the arguments left, the bytes written, the status."""

    def __init__(self, sh: Interp, io: IO, args: list[bytes]) -> None:
        self.sh = sh
        self.io = io
        self.args = args
        self.pos = 0
        self.out = bytearray()
        self.conversion_error = False

    def error(self, message: str) -> None:
        self.sh.error(f"printf: {message}", self.io)

    # -- arguments ---------------------------------------------------------------
    def next_arg(self) -> bytes | None:
        if self.pos >= len(self.args):
            return None
        self.pos += 1
        return self.args[self.pos - 1]

    def get_str(self) -> bytes:
        arg = self.next_arg()
        return b"" if arg is None else arg

    def get_int(self, *, unsigned: bool = False) -> int:
        arg = self.next_arg()
        if arg is None:
            return 0
        if arg[:1] in (b"'", b'"'):
            return char_code(arg[1:])
        value, ok, clamped = parse_integer(arg, unsigned=unsigned)
        if not ok:
            self.invalid_number(arg)
        elif clamped:
            self.range_warning(arg)
        return value

    def get_width(self) -> int:
        """A ``*`` width or precision: an int, clamped to C's int range."""
        value = self.get_int()
        if not _INT_MIN <= value <= _INT_MAX:
            # bash names the argument after the number (its pointer has moved on).
            following = self.args[self.pos] if self.pos < len(self.args) else b""
            self.range_warning(following)
            value = _INT_MAX if value > 0 else _INT_MIN
        return value

    def get_float(self) -> float:
        arg = self.next_arg()
        if arg is None:
            return 0.0
        if arg[:1] in (b"'", b'"'):
            return float(char_code(arg[1:]))
        value, ok = parse_float(arg)
        if not ok:
            self.invalid_number(arg)
        return value

    def invalid_number(self, arg: bytes) -> None:
        if arg[:1] == b"0" and arg[1:2].isdigit():
            kind = "invalid octal number"
        elif arg[:2] == b"0x":
            kind = "invalid hex number"
        else:
            kind = "invalid number"
        self.error(f"{decode(arg)}: {kind}")
        self.conversion_error = True

    def range_warning(self, arg: bytes) -> None:
        self.error(f"warning: {decode(arg)}: Numerical result out of range")


# -- numbers ---------------------------------------------------------------------


def parse_integer(arg: bytes, *, unsigned: bool = False) -> tuple[int, bool, bool]:
    """C's ``strtoimax(arg, &end, 0)`` (``strtoumax`` if ``unsigned``): the value, whether
    the whole argument was a number, whether the value was out of range (clamped)."""
    m = _INT_PREFIX.match(arg)
    if m is None:
        return 0, not arg.strip(b" \t\n\v\f\r") and not arg, False
    sign, digits = m.groups()
    magnitude = (
        int(digits, 0)
        if digits[:2].lower() == b"0x"
        else int(digits, 8 if digits[:1] == b"0" else 10)
    )
    ok = m.end() == len(arg)
    if unsigned:
        if magnitude > _UINTMAX:
            return _UINTMAX, ok, True
        return (-magnitude if sign == b"-" else magnitude) & _UINTMAX, ok, False
    value = -magnitude if sign == b"-" else magnitude
    if value > _INTMAX:
        return _INTMAX, ok, True
    if value < _INTMAX_MIN:
        return _INTMAX_MIN, ok, True
    return value, ok, False


def parse_float(arg: bytes) -> tuple[float, bool]:
    """C's ``strtold``: the value of the longest number at the start, and whether that
    was the whole argument (an empty argument is 0, as in bash)."""
    m = _FLOAT_PREFIX.match(arg)
    if m is None:
        return 0.0, arg == b""
    text = m.group(0).strip(b" \t\n\v\f\r").lower()
    sign = -1.0 if text[:1] == b"-" else 1.0
    body = text.lstrip(b"+-")
    if body.startswith(b"inf"):
        value = math.inf
    elif body.startswith(b"nan"):
        value = math.nan
    elif body.startswith(b"0x"):
        hex_body = body.decode("ascii")
        value = float.fromhex(hex_body if "p" in hex_body else hex_body + "p0")
    else:
        value = float(body)
    return sign * value, m.end() == len(arg)


def char_code(data: bytes) -> int:
    """The value of a ``'c`` argument: the code point of the UTF-8 character after the
    quote as glibc's ``mbtowc`` reads it (up to six bytes, not overlong, no surrogates),
    else the byte itself, or 0 when nothing follows."""
    if not data:
        return 0
    lead = data[0]
    if lead < 0x80:
        return lead
    size = 0
    while size < 8 and lead & (0x80 >> size):
        size += 1
    if size not in _UTF8_FLOOR:
        return lead
    tail = data[1:size]
    if len(tail) != size - 1 or any(b >> 6 != 2 for b in tail):
        return lead
    code = lead & (0x7F >> size)
    for b in tail:
        code = code << 6 | (b & 0x3F)
    if code < _UTF8_FLOOR[size] or 0xD800 <= code < 0xE000:
        return lead
    return code


def _utf8(code: int) -> bytes:
    """``code`` in UTF-8's original form (up to six bytes), as bash writes ``\\u``/``\\U``
    (surrogates and values past U+10FFFF included)."""
    if code < 0x80:
        return bytes((code,))
    # n bytes hold 5n+1 bits.
    size = next((n for n in _UTF8_FLOOR if code < 1 << (5 * n + 1)), 0)
    if not size:
        return b""
    out = bytearray()
    for _ in range(size - 1):
        out.insert(0, 0x80 | (code & 0x3F))
        code >>= 6
    out.insert(0, ((0xFF00 >> size) & 0xFF) | code)
    return bytes(out)


# -- escapes -----------------------------------------------------------------------


def escape(data: bytes, i: int, *, in_b: bool, errors: list[str]) -> tuple[bytes, int, bool]:
    """The backslash escape whose letter is at ``data[i]``: (its bytes, how many bytes it
    used after the backslash, whether it was ``\\c``). ``in_b``: an argument of ``%b``
    (``\\0NNN``, ``\\c`` stops; ``\\'`` ``\\"`` ``\\?`` keep their backslash) rather than
    the format. An escape bash does not know is the backslash alone (0 bytes used)."""
    if i >= len(data):
        return b"\\", 0, False
    c = data[i]
    simple = _SIMPLE_ESCAPES.get(c)
    if simple is not None:
        return simple, 1, False
    if c in _OCTAL:
        value = c - 48
        more = 3 if value == 0 and in_b else 2
        j = i + 1
        while j < len(data) and more and data[j] in _OCTAL:
            value = value * 8 + data[j] - 48
            j += 1
            more -= 1
        return bytes((value & 0xFF,)), j - i, False
    if c in b"xuU":
        most = {ord("x"): 2, ord("u"): 4, ord("U"): 8}[c]
        j = i + 1
        while j < len(data) and j - i - 1 < most and data[j] in _HEX:
            j += 1
        if j == i + 1:
            what = "hex" if c == ord("x") else "unicode"
            errors.append(f"missing {what} digit for \\{chr(c)}")
            return b"\\", 0, False
        value = int(data[i + 1 : j], 16)
        return (bytes((value & 0xFF,)) if c == ord("x") else _utf8(value)), j - i, False
    if c in b"'\"?":
        return (b"\\", 0, False) if in_b else (bytes((c,)), 1, False)
    if c == ord("c") and in_b:
        return b"", 1, True
    return b"\\", 0, False


def expand_b(data: bytes, errors: list[str]) -> tuple[bytes, bool]:
    """A ``%b`` argument with its escapes done; the flag says ``\\c`` ended it."""
    if b"\\" not in data:
        return data, False
    out = bytearray()
    i = 0
    while i < len(data):
        c = data[i]
        if c != 0x5C or i + 1 >= len(data):
            out.append(c)
            i += 1
            continue
        text, used, stop = escape(data, i + 1, in_b=True, errors=errors)
        if stop:
            return bytes(out), True
        out += text
        i += 1 + used
    return bytes(out), False


# -- %q ------------------------------------------------------------------------------


def _should_ansi_quote(data: bytes) -> bool:
    text = decode(data)
    return any(
        (0xDC80 <= ord(ch) <= 0xDCFF) or not (ch.isprintable() or ch == " " or ord(ch) > 0x9F)
        for ch in text
    )


def quote(data: bytes) -> bytes:
    """bash's ``%q``: ``''`` for nothing, ``$'…'`` when a character is not printable,
    else backslashes before the characters the shell would read specially."""
    if not data:
        return b"''"
    if _should_ansi_quote(data):
        out = bytearray(b"$'")
        for ch in decode(data):
            code = ord(ch)
            if 0xDC80 <= code <= 0xDCFF:
                out += b"\\%03o" % (code - 0xDC00)
            elif code in _ANSI_C_ESCAPES:
                out += b"\\" + _ANSI_C_ESCAPES[code]
            elif ch in "\\'":
                out += b"\\" + encode(ch)
            elif code < 0x20 or code == 0x7F or not (ch.isprintable() or code > 0x9F):
                out += b"\\%03o" % code if code < 0x100 else encode(ch)
            else:
                out += encode(ch)
        return bytes(out + b"'")
    out = bytearray()
    for k, c in enumerate(data):
        if (
            c in _BACKSLASHED
            or (c == 0x23 and k == 0)
            or (c == 0x7E and (k == 0 or data[k - 1] in b"=:"))
        ):
            out.append(0x5C)
        out.append(c)
    return bytes(out)


# -- fields --------------------------------------------------------------------------


class _Spec:
    __slots__ = ("flags", "width", "precision")

    def __init__(self, flags: bytes, width: int | None, precision: int | None) -> None:
        self.flags = flags
        self.width = width
        self.precision = precision


def _pad(body: bytes, spec: _Spec, *, zero_after: int = -1) -> bytes:
    """``body`` padded to the field width: blanks, or zeros after its first
    ``zero_after`` bytes (a sign or a 0x prefix) when that is asked for."""
    width = spec.width or 0
    left = b"-" in spec.flags or width < 0
    width = abs(width)
    if len(body) >= width:
        return body
    fill = width - len(body)
    if left:
        return body + b" " * fill
    if zero_after >= 0:
        return body[:zero_after] + b"0" * fill + body[zero_after:]
    return b" " * fill + body


def format_string(data: bytes, spec: _Spec) -> bytes:
    if spec.precision is not None and spec.precision >= 0:
        data = data[: spec.precision]
    return _pad(data, spec)


def format_int(value: int, conv: str, spec: _Spec) -> bytes:
    """glibc's ``%d %i %u %o %x %X`` of ``value`` (already reduced to 64 bits)."""
    negative = value < 0
    magnitude = -value if negative else value
    if conv in "diu":
        digits = b"%d" % magnitude
    elif conv == "o":
        digits = b"%o" % magnitude
    elif conv == "x":
        digits = b"%x" % magnitude
    else:
        digits = b"%X" % magnitude
    precision = spec.precision
    if precision is not None and precision >= 0:
        if precision == 0 and magnitude == 0:
            digits = b""
        digits = digits.rjust(precision, b"0")
    flags = spec.flags
    prefix = b""
    if conv in "di":
        if negative:
            prefix = b"-"
        elif b"+" in flags:
            prefix = b"+"
        elif b" " in flags:
            prefix = b" "
    elif b"#" in flags:
        if conv == "o" and not digits.startswith(b"0"):
            digits = b"0" + digits
        elif conv in "xX" and magnitude != 0:
            prefix = b"0" + conv.encode()
    zero = b"0" in flags and b"-" not in flags and (precision is None or precision < 0)
    return _pad(prefix + digits, spec, zero_after=len(prefix) if zero else -1)


def format_float(value: float, conv: str, spec: _Spec) -> bytes:
    if conv in "aA":  # (zeros go after the 0x, as for %#x)
        body = _hex_float(value, conv, spec)
        zero = b"0" in spec.flags and b"-" not in spec.flags and math.isfinite(value)
        return _pad(body, spec, zero_after=body.index(b"xX"[conv == "A"]) + 1 if zero else -1)
    flags = "".join(f for f in "-+ #0" if f.encode() in spec.flags)
    precision = "" if spec.precision is None or spec.precision < 0 else f".{spec.precision}"
    body = (f"%{flags.replace('-', '').replace('0', '')}{precision}{conv}" % value).encode()
    finite = math.isfinite(value)
    zero = b"0" in spec.flags and b"-" not in spec.flags and finite
    return _pad(body, spec, zero_after=(1 if body[:1] in b"+- " else 0) if zero else -1)


def _hex_float(value: float, conv: str, spec: _Spec) -> bytes:
    """``%a`` as bash prints it from a long double on x86: a leading hex digit of 8–f."""
    sign = (
        "-"
        if math.copysign(1.0, value) < 0
        else ("+" if b"+" in spec.flags else (" " if b" " in spec.flags else ""))
    )
    value = abs(value)
    if not math.isfinite(value):
        text = "inf" if math.isinf(value) else "nan"
        return (sign + (text.upper() if conv == "A" else text)).encode()
    if value == 0:
        lead, fraction, exponent = 0, 0, 0
    else:
        mantissa, exponent = math.frexp(value)
        bits = int(mantissa * (1 << 64))
        lead, fraction, exponent = bits >> 60, bits & ((1 << 60) - 1), exponent - 4
    digits = f"{fraction:015x}"
    precision = spec.precision
    if precision is not None and 0 <= precision < 15:
        scaled = fraction >> (4 * (15 - precision))
        rest = fraction & ((1 << (4 * (15 - precision))) - 1)
        half = 1 << (4 * (15 - precision) - 1)
        if rest > half or (rest == half and scaled & 1):
            scaled += 1
            if scaled >> (4 * precision):
                scaled = 0
                lead += 1
        digits = f"{scaled:0{precision}x}" if precision else ""
        if lead > 15:
            lead, exponent = lead >> 1, exponent + 1
    elif precision is None or precision < 0:
        digits = digits.rstrip("0")
    else:
        digits = digits.ljust(precision, "0")
    point = "." if digits or b"#" in spec.flags else ""
    text = f"{sign}0x{lead:x}{point}{digits}p{exponent:+d}"
    return (text.upper() if conv == "A" else text).encode()


# -- %(fmt)T -----------------------------------------------------------------------


def strftime(sh: Interp, fmt: str, seconds: int) -> bytes:
    """``%(fmt)T``: ``seconds`` since the epoch in the time zone of the shell's exported
    ``TZ`` (bash's ``localtime``); nothing when the result would not fit bash's buffer."""
    import datetime  # lazy: only %(…)T needs dates and zones

    zone = _zone(sh)
    try:
        moment = datetime.datetime.fromtimestamp(seconds, zone)
    except (OverflowError, OSError, ValueError):
        moment = datetime.datetime.fromtimestamp(0, zone)
    try:
        text = moment.strftime(_epoch_seconds(fmt, int(moment.timestamp())))
    except (ValueError, UnicodeError):
        return b""
    data = encode(text)
    return b"" if len(data) >= _TIMEBUF else data


def _epoch_seconds(fmt: str, seconds: int) -> str:
    """``fmt`` with each ``%s`` written out as ``seconds``. C's strftime computes ``%s``
    with mktime in the *process's* zone from the fields of the shell's, so hookrun run
    under a TZ of its own (or a non-UTC /etc/localtime) printed the epoch shifted by
    that zone's offset; bash computes it in the zone the script exported."""
    if "%s" not in fmt:
        return fmt
    out: list[str] = []
    i = 0
    while i < len(fmt):
        if fmt[i] == "%" and i + 1 < len(fmt):
            out.append(str(seconds) if fmt[i + 1] == "s" else fmt[i : i + 2])
            i += 2
        else:
            out.append(fmt[i])
            i += 1
    return "".join(out)


def _zone(sh: Interp) -> datetime.tzinfo:
    import datetime  # lazy: only %(…)T needs dates and zones
    import zoneinfo

    st = sh.state
    tz = st.get_var("TZ") if "TZ" in st.exported else None
    if tz is None:
        return _local_zone()
    name = tz.removeprefix(":")
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError, OSError):
        pass
    m = _POSIX_ZONE.fullmatch(name)
    if m is None:
        return datetime.timezone.utc  # as glibc, a TZ it cannot read is UTC
    seconds = int(m.group(3)) * 3600 + int(m.group(4) or 0) * 60
    # POSIX offsets are west of Greenwich: "EST5" is UTC-5.
    offset = seconds if m.group(2) == "-" else -seconds
    return datetime.timezone(datetime.timedelta(seconds=offset), m.group(1))


def _local_zone() -> datetime.tzinfo:
    """The system's zone, not the process's ``TZ``: the shell may have unset it."""
    import datetime
    import zoneinfo

    try:
        with open("/etc/localtime", "rb") as f:  # pragma: win32 no cover
            return zoneinfo.ZoneInfo.from_file(f)
    except OSError:
        return datetime.datetime.now().astimezone().tzinfo or datetime.timezone.utc


# -- the builtin ---------------------------------------------------------------------

_USAGE = "usage: printf [-v var] format [arguments]"


def b_printf(sh: Interp, argv: list[str], io: IO) -> int:
    args = argv[1:]
    target: str | None = None
    while args and args[0][:1] == "-" and args[0] != "-":
        option = args.pop(0)
        if option == "--":
            break
        if option[1] != "v":
            sh.error(f"printf: {option[:2]}: invalid option", io)
            sh.error(f"printf: {_USAGE}", io)
            return 2
        if len(option) > 2:
            target = option[2:]
        elif args:
            target = args.pop(0)
        else:
            sh.error("printf: -v: option requires an argument", io)
            sh.error(f"printf: {_USAGE}", io)
            return 2
        if not _valid_target(target):
            sh.error(f"printf: `{target}': not a valid identifier", io)
            return 2
    if not args:
        sh.error(f"printf: {_USAGE}", io)
        return 2
    run = _Run(sh, io, [encode(a) for a in args[1:]])
    fmt = encode(args[0])
    status = 0
    try:
        while fmt:
            first = run.pos
            _one_pass(run, fmt)
            if run.pos >= len(run.args) or run.pos == first:
                break
        status = 1 if run.conversion_error else 0
    except _Stop as stop:
        status = stop.status
    if target is None:
        io.stdout.write(bytes(run.out))
        return status
    value = decode(bytes(run.out).split(b"\0", 1)[0])
    try:
        _assign(sh, target, value)
    except ShellError as exc:
        sh.error(exc.message, io)
        return 1
    return status


def _valid_target(name: str) -> bool:
    """``-v``'s variable: a name or a ``name[subscript]`` element."""
    return _IDENT.match(encode(name)) is not None or _ARRAY_REF.match(name) is not None


def _assign(sh: Interp, target: str, value: str) -> None:
    m = _ARRAY_REF.match(target)
    if m is None:
        sh.state.set_var(target, value)
        return
    sh.expander.set_element(m.group(1), _subscript(sh, m.group(2)), value)


def _subscript(sh: Interp, text: str) -> str:
    """A subscript written as text (``assoc["K"]``, ``a[$i]``) expanded as bash expands
    it, through the one parser: read as the subscript of an assignment."""
    if not any(c in text for c in "$`'\"\\"):
        return text
    try:
        script = parse(f"x[{text}]=")
    except (ShellSyntaxError, Unsupported):
        return text
    cmd = script.stmts[0].cmd if len(script.stmts) == 1 else None
    if isinstance(cmd, CallExpr) and len(cmd.assigns) == 1 and not cmd.args:
        key = cmd.assigns[0].key
        if key is not None:
            return sh.expander.string(key)
    return text


def _one_pass(run: _Run, fmt: bytes) -> None:
    """The format once over, consuming arguments as its conversions ask."""
    out = run.out
    pass_start = len(out)
    errors: list[str] = []
    n = len(fmt)
    i = 0
    while i < n:
        c = fmt[i]
        if c == 0x5C:
            text, used, _ = escape(fmt, i + 1, in_b=False, errors=errors)
            for message in errors:
                run.error(message)
            errors.clear()
            out += text
            i += 1 + used
            continue
        if c != 0x25:
            j = i + 1
            while j < n and fmt[j] not in b"%\\":
                j += 1
            out += fmt[i:j]
            i = j
            continue
        start = i
        i += 1
        if i < n and fmt[i] == 0x25:
            out.append(0x25)
            i += 1
            continue
        flags_at = i
        while i < n and fmt[i] in _FLAGS:
            i += 1
        flags = fmt[flags_at:i]
        width: int | None = None
        if i < n and fmt[i] == 0x2A:
            i += 1
            width = run.get_width()
        else:
            j = i
            while i < n and fmt[i] in b"0123456789":
                i += 1
            width = int(fmt[j:i]) if i > j else None
        precision: int | None = None
        if i < n and fmt[i] == 0x2E:
            i += 1
            if i < n and fmt[i] == 0x2A:
                i += 1
                precision = run.get_width()
            else:
                negative = i < n and fmt[i] == 0x2D
                if negative:
                    i += 1
                j = i
                while i < n and fmt[i] in b"0123456789":
                    i += 1
                precision = None if negative else int(fmt[j:i] or b"0")
        while i < n and fmt[i] in _LENGTH_MODIFIERS:
            i += 1
        if i >= n:
            run.error(f"`{decode(fmt[start:])}': missing format character")
            raise _Stop(1)
        conv = chr(fmt[i])
        i += 1
        spec = _Spec(flags, width, precision)
        big = max(abs(width or 0), abs(precision or 0))
        if big > _INT_MAX and conv in _TAKES_ARGUMENT:
            # Written digits past C's int: glibc's printf fails that conversion and
            # bash prints nothing for it (its argument is used all the same).
            run.next_arg()
            continue
        if big > _MAX_FIELD:
            run.error(f"{big}: field width or precision too large")
            raise _Stop(1)
        if conv == "s":
            out += format_string(run.get_str(), spec)
        elif conv in "diouxX":
            value = run.get_int(unsigned=conv not in "di")
            out += format_int(value, conv, spec)
        elif conv in "eEfFgGaA":
            out += format_float(run.get_float(), conv, spec)
        elif conv == "c":
            arg = run.next_arg()
            out += _pad((arg or b"\0")[:1], spec)
        elif conv == "b":
            text, stop = expand_b(run.get_str(), errors)
            for message in errors:
                run.error(message)
            errors.clear()
            out += format_string(text, spec)
            if stop:
                raise _Stop(0)
        elif conv == "q":
            out += format_string(quote(run.get_str()), spec)
        elif conv == "Q":
            arg = run.get_str()
            if precision is not None and precision >= 0:
                arg = arg[:precision]
            out += _pad(quote(arg), spec)
        elif conv == "(":
            end = _time_format_end(fmt, i)
            if end >= n or fmt[end] != ord("T"):
                after = decode(fmt[end : end + 1]) if end < n else ""
                run.error(f"warning: `{after}': invalid time format specification")
                out.append(0x25)
                i = start + 1
                continue
            time_fmt = decode(fmt[i : end - 1]) or "%X"
            i = end + 1
            out += format_string(strftime(run.sh, time_fmt, _time_arg(run)), spec)
        elif conv == "n":
            name = run.get_str()
            if name:
                if _IDENT.match(name) is None:
                    run.error(f"`{decode(name)}': not a valid identifier")
                    raise _Stop(1)
                run.sh.state.set_var(decode(name), str(len(out) - pass_start))
        else:
            run.error(f"`{decode(fmt[i - 1 : i])}': invalid format character")
            raise _Stop(1)


def _time_format_end(fmt: bytes, i: int) -> int:
    """The index after the ``)`` that closes the ``%(`` opened before ``fmt[i]``."""
    depth = 1
    while i < len(fmt):
        if fmt[i] == 0x28:
            depth += 1
        elif fmt[i] == 0x29:
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return i


def _time_arg(run: _Run) -> int:
    """``%(…)T``'s seconds: -1 (or none) is now, -2 the shell's start."""
    import time

    value = run.get_int() if run.pos < len(run.args) else -1
    if value == -1:
        return int(time.time())
    if value == -2:
        return int(time.time())  # the shell's start: a hook's shell started just now
    return value
