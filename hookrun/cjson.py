"""``json.loads`` / ``json.dumps`` on CPython's ``_json`` accelerator, without importing json.

Importing the ``json`` package compiles six regular expressions (its pure-Python scanner's
and encoder's), ~5M instructions: an eighth of a bare Python start, paid by every
``hookrun run`` although the C scanner and encoder that ``json.loads``/``json.dumps``
use never touch them. :func:`loads` and :func:`dumps` drive that same C scanner and
encoder, built exactly as ``json``'s default decoder and encoder build them, so a value
they return is the one ``json`` returns. Whatever they do not handle themselves — an
error of any kind, bytes in another encoding than UTF-8, a Python without ``_json`` —
goes to ``json`` itself, imported then: the exception raised (``json.JSONDecodeError``
with its position, the encoder's ``TypeError``/``ValueError``) is json's own.

A leaf module: it imports nothing from hookrun (:mod:`hookrun.boundedio` uses it).
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # a leaf imports no hookrun module: typing.TYPE_CHECKING without typing

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

try:
    from _json import encode_basestring, encode_basestring_ascii, make_encoder, make_scanner

    _C = True
except ImportError:  # not CPython: json's own pure-Python path
    _C = False

__all__ = ["decode_error", "dumps", "loads"]

_BLANKS = " \t\n\r"  # json.decoder.WHITESPACE: [ \t\n\r]*
# The first bytes that make json.detect_encoding answer anything but UTF-8: a byte-order
# mark, or a NUL among the first four bytes (UTF-16/32 without a mark).
_NOT_UTF8_MARKS = (b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")
_CONSTANTS = {"-Infinity": float("-inf"), "Infinity": float("inf"), "NaN": float("nan")}


class _Context:
    """What ``_json.make_scanner`` reads from a ``json.JSONDecoder()``: its defaults."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int: Callable[[str], Any] = int
    parse_constant = _CONSTANTS.__getitem__

    def __init__(self, parse_int: Callable[[str], Any] | None) -> None:
        if parse_int is not None:
            self.parse_int = parse_int


_scanners: dict[Callable[[str], Any] | None, Any] = {}


def _scanner(parse_int: Callable[[str], Any] | None) -> Any:
    scan = _scanners.get(parse_int)
    if scan is None:
        context: Any = _Context(parse_int)  # what the scanner reads of a JSONDecoder
        scan = _scanners[parse_int] = make_scanner(context)
    return scan


def _fast_loads(text: str, parse_int: Callable[[str], Any] | None) -> tuple[bool, Any]:
    """``(True, value)`` as ``json.loads`` decodes ``text``; ``(False, None)`` on any error."""
    if not _C or text.startswith("\ufeff"):
        return False, None
    start = len(text) - len(text.lstrip(_BLANKS))
    try:
        value, end = _scanner(parse_int)(text, start)
    except Exception:  # noqa: BLE001 - StopIteration, JSONDecodeError, RecursionError, …
        return False, None
    if text[end:].strip(_BLANKS):  # json: "Extra data"
        return False, None
    return True, value


def loads(data: str | bytes | bytearray, *, parse_int: Callable[[str], Any] | None = None) -> Any:
    """``json.loads(data, parse_int=parse_int)``."""
    text: str | None = None
    if isinstance(data, str):
        text = data
    elif (
        isinstance(data, (bytes, bytearray))
        and not data.startswith(_NOT_UTF8_MARKS)
        and b"\x00" not in data[:4]
    ):
        try:
            text = data.decode("utf-8", "surrogatepass")
        except UnicodeDecodeError:
            text = None
    if text is not None:
        done, value = _fast_loads(text, parse_int)
        if done:
            return value
    import json  # an error (json raises it, with its message), or not CPython

    return json.loads(data, parse_int=parse_int)


def _refuse(value: object) -> Any:
    raise TypeError  # json.JSONEncoder.default: json.dumps then raises its own message


def dumps(
    value: Any,
    *,
    ensure_ascii: bool = True,
    allow_nan: bool = True,
    sort_keys: bool = False,
    default: Callable[[Any], Any] | None = None,
) -> str:
    """``json.dumps(value, ensure_ascii=…, allow_nan=…, sort_keys=…, default=…)``."""
    if _C:
        escape = encode_basestring_ascii if ensure_ascii else encode_basestring
        if isinstance(value, str):
            return str(escape(value))
        try:
            encode = make_encoder(
                {}, default or _refuse, escape, None, ": ", ", ", sort_keys, False, allow_nan
            )
            return "".join(encode(value, 0))
        except Exception:  # noqa: BLE001, S110 - json raises it again, with its own message
            pass
    import json

    return json.dumps(
        value, ensure_ascii=ensure_ascii, allow_nan=allow_nan, sort_keys=sort_keys, default=default
    )


def decode_error(exc: BaseException) -> tuple[str, int, int] | None:
    """``(msg, lineno, colno)`` of a ``json.JSONDecodeError``; None for another exception.

    Without importing json: one that raised a JSONDecodeError has loaded json.decoder.
    """
    decoder = sys.modules.get("json.decoder")
    if decoder is None or not isinstance(exc, decoder.JSONDecodeError):
        return None
    return exc.msg, exc.lineno, exc.colno
