"""JSON in and out of hookrun's processes: the one encoder every answer goes through.

hookrun is a guard: once its hooks have decided, the host must get that decision,
whatever bytes the answer holds. The standard encoder refuses several things a
decoded hook answer or payload can hold — a lone surrogate (legal in JSON's ``\\u``
escapes, not encodable as UTF-8), a number beyond a double or an integer beyond
Python's int-string limit, a value nested deeper than the recursion limit allows
from where the encoder is called. :func:`dumps` turns each into the closest thing
every JSON reader takes, and never raises:

* a lone surrogate becomes U+FFFD (strict readers such as Rust's serde_json refuse
  even its ``\\u`` escape);
* a non-finite float, or an integer too long to print (over
  ``sys.get_int_max_str_digits()`` digits), becomes ``null`` — what JavaScript's
  ``JSON.stringify`` writes for the ``Infinity`` its ``JSON.parse`` reads such a
  number as;
* any depth is written (an iterative fallback encoder, see :func:`_slow_dumps`);
* a key that is not a string is written as its ``str()``; a value of a type JSON
  does not have (a tuple, a set, an object) as an array or its ``str()``.

:func:`loads` is the matching reader for untrusted JSON text (a payload, a hook's
stdout): an integer longer than the int-string limit reads as ±infinity (as
JavaScript reads it) instead of raising, and nesting deeper than the recursion limit
is a ``ValueError`` like any other malformed text.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Mapping

from hookrun import cjson
from hookrun.records import TYPE_CHECKING
from hookrun.surrogates import replace_surrogates

if TYPE_CHECKING:
    from typing import Any, BinaryIO, TextIO

__all__ = ["dumps", "encode", "loads", "write"]


# Python 3.11+ refuses to convert longer digit strings (quadratic time); 3.10 has no limit.
_get_limit = getattr(sys, "get_int_max_str_digits", None)


def _digit_limit() -> int:
    limit = _get_limit() if _get_limit is not None else 0
    return limit if limit > 0 else 1 << 62


def _parse_int(text: str) -> int | float:
    # Counting a leading "-" as a digit is conservative: the limit stays out of reach.
    if len(text) < _digit_limit():
        return int(text)
    return float(text)  # ±inf: float() has no digit limit and is linear


def loads(text: str | bytes) -> Any:
    """Decode untrusted JSON text; raises ``ValueError`` (only) when it is not JSON."""
    try:
        return cjson.loads(text, parse_int=_parse_int)
    except RecursionError:
        raise ValueError("nested too deeply to decode") from None


def _clean_text(text: str) -> str:
    return replace_surrogates(text)


def dumps(value: Any) -> str:
    """``value`` as JSON text (``json.dumps``'s separators) every reader takes; never raises."""
    try:
        text = cjson.dumps(value, ensure_ascii=False, allow_nan=False)
    except (ValueError, TypeError, RecursionError, OverflowError):
        text = _slow_dumps(value)
    return _clean_text(text)


def encode(value: Any) -> bytes:
    """:func:`dumps` as UTF-8 bytes (what a child process or a file receives)."""
    return dumps(value).encode("utf-8")


def write(stream: TextIO, value: Any) -> None:
    """Write ``value`` and a newline to ``stream`` as UTF-8, flushed.

    Bytes go to the stream's binary buffer when it has one, so that the console
    code page of a Windows pipe (cp1252, …) can never refuse a character. Only an
    ``OSError`` of the stream itself (reader gone, disk full) is raised.
    """
    data = encode(value) + b"\n"
    buffer: BinaryIO | None = getattr(stream, "buffer", None)
    if buffer is None:
        stream.write(data.decode("utf-8"))
        stream.flush()
        return
    stream.flush()  # whatever text was written before goes first
    buffer.write(data)
    buffer.flush()


# -- the fallback encoder ---------------------------------------------------------------
#
# Reached only when json.dumps refused the value, so its speed matters little. It keeps
# an explicit stack instead of recursing: the stdlib encoder recurses on the C stack and
# gives up at the interpreter's recursion limit, which a hook answer decoded in a
# shallow worker thread can come close to (json.loads has the same limit).


def _scalar(value: Any) -> str:
    if value is None or isinstance(value, (bool, str)):
        return cjson.dumps(value, ensure_ascii=False)
    if isinstance(value, int):
        try:
            return int.__repr__(value)
        except ValueError:  # beyond the int-string limit
            return "null"
    if isinstance(value, float):
        return float.__repr__(value) if value == value and abs(value) != float("inf") else "null"
    return cjson.dumps(str(value), ensure_ascii=False)  # a type JSON does not have


def _key(key: Any) -> str:
    if isinstance(key, str):
        return cjson.dumps(key, ensure_ascii=False)
    if key is None or isinstance(key, (bool, int, float)):
        return cjson.dumps(_scalar(key))  # json.dumps's own rule: the scalar's text
    return cjson.dumps(str(key), ensure_ascii=False)


def _slow_dumps(value: Any) -> str:
    out: list[str] = []
    # Each entry: the closing bracket to write and an iterator over what is left.
    stack: list[tuple[str, Iterator[Any], bool]] = []
    pending: list[Any] = [value]
    while pending or stack:
        if pending:
            item = pending.pop()
            if isinstance(item, Mapping):
                out.append("{")
                stack.append(("}", iter(list(item.items())), True))
            elif isinstance(item, (list, tuple, set, frozenset)):
                out.append("[")
                stack.append(("]", iter(list(item)), False))
            else:
                out.append(_scalar(item))
            continue
        close, rest, is_object = stack[-1]
        first = out[-1] in ("{", "[")
        nxt: Any = next(rest, _END)
        if nxt is _END:
            stack.pop()
            out.append(close)
            continue
        if not first:
            out.append(", ")
        if is_object:
            key, item = nxt
            out.append(_key(key) + ": ")
            pending.append(item)
        else:
            pending.append(nxt)
    return "".join(out)


_END = object()
