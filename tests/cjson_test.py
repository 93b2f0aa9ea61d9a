"""hookrun.cjson against the real thing: json.loads / json.dumps give the same value, or
raise the same exception with the same message, for any input and every option used."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from hookrun import cjson
from hookrun.runner.wire import _parse_int

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()  # NaN and ±inf included: allow_nan decides
    | st.text(max_size=8)  # lone surrogates included
)
VALUES = st.recursive(
    SCALARS,
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(st.text(max_size=6), children, max_size=4)
        | st.dictionaries(st.integers() | st.booleans() | st.none(), children, max_size=3)
        | st.tuples(children, children)
        | st.frozensets(st.integers(), max_size=3)  # not JSON: default decides
    ),
    max_leaves=12,
)
BLANKS = st.text(alphabet=" \t\n\r\x0b\xa0\u2028", max_size=3)
JSON_TEXT = st.builds(
    lambda before, value, after: before + json.dumps(value) + after,
    BLANKS,
    st.recursive(
        SCALARS.filter(lambda v: not (isinstance(v, float) and not math.isfinite(v))),
        lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=6), c, max_size=4),
        max_leaves=10,
    ),
    BLANKS,
)
# Mangled JSON: cut short, a byte added, a BOM in front, junk after, constants.
TEXTS = (
    JSON_TEXT
    | st.builds(lambda t, n: t[: max(0, len(t) - n)], JSON_TEXT, st.integers(1, 4))
    | st.builds(lambda t, c: t + c, JSON_TEXT, st.sampled_from(["x", "}", ",", "\x00", "1"]))
    | st.builds(lambda t: "\ufeff" + t, JSON_TEXT)
    | st.sampled_from(["NaN", "-Infinity", "[Infinity]", "1e999", "-0", "1" * 5000, "[" * 5000])
    | st.text(max_size=12)
)
ENCODINGS = st.sampled_from(
    ["utf-8", "utf-8-sig", "utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le"]
)


def _outcome(call: Any, *args: Any, **kwargs: Any) -> tuple[str, str]:
    """What a call did, comparable across NaN: ("=", repr of the value) or the error."""
    try:
        return "=", repr(call(*args, **kwargs))
    except Exception as exc:  # noqa: BLE001 - the exception is the outcome compared
        return type(exc).__qualname__, str(exc)


@settings(max_examples=600, deadline=None)
@given(TEXTS, st.sampled_from([None, _parse_int]))
@example("hi", None)  # a SessionStart hook's plain text
@example('{"a": 1} {"b": 2}', None)  # extra data
@example("  ", None)
def test_loads_is_json_loads_for_text(text: str, parse_int: Any) -> None:
    assert _outcome(cjson.loads, text, parse_int=parse_int) == _outcome(
        json.loads, text, parse_int=parse_int
    )


@settings(max_examples=300, deadline=None)
@given(TEXTS, ENCODINGS, st.booleans())
@example('{"a": "\\ud800"}', "utf-8", False)
def test_loads_is_json_loads_for_bytes(text: str, encoding: str, as_bytearray: bool) -> None:
    try:
        data = text.encode(encoding, "surrogatepass")
    except UnicodeEncodeError:
        return
    raw: bytes | bytearray = bytearray(data) if as_bytearray else data
    assert _outcome(cjson.loads, raw) == _outcome(json.loads, raw)


@pytest.mark.parametrize(
    "data", [b"\xff\xfe{}", b"\x00{", b"{\x00", b'"\xed\xa0\x80"', b"\xc3", b"", b'"\xc3\xa9"']
)
def test_loads_is_json_loads_for_odd_bytes(data: bytes) -> None:
    assert _outcome(cjson.loads, data) == _outcome(json.loads, data)


OPTIONS = st.fixed_dictionaries(
    {},
    optional={
        "ensure_ascii": st.booleans(),
        "allow_nan": st.booleans(),
        "sort_keys": st.booleans(),
        "default": st.sampled_from([repr, str]),
    },
)


@settings(max_examples=600, deadline=None)
@given(VALUES, OPTIONS)
@example(float("nan"), {"allow_nan": False})
@example({"b": 1, "a": [1.5, -0.0, 10**30]}, {"sort_keys": True})
@example({1: 2, "1": 3, None: True}, {})
@example({"a": 1, 2: 3}, {"sort_keys": True})  # keys json cannot order
@example("\ud800é", {"ensure_ascii": False})
def test_dumps_is_json_dumps(value: Any, options: dict[str, Any]) -> None:
    assert _outcome(cjson.dumps, value, **options) == _outcome(json.dumps, value, **options)


def test_dumps_refuses_a_cycle_as_json_does() -> None:
    loop: list[Any] = []
    loop.append(loop)
    assert _outcome(cjson.dumps, loop) == _outcome(json.dumps, loop)
    assert _outcome(cjson.dumps, loop)[0] == "ValueError"


def test_deep_nesting_raises_what_json_raises() -> None:
    deep: Any = []
    for _ in range(100_000):
        deep = [deep]
    assert _outcome(cjson.dumps, deep)[0] == _outcome(json.dumps, deep)[0] == "RecursionError"
    text = "[" * 100_000 + "]" * 100_000
    assert _outcome(cjson.loads, text)[0] == _outcome(json.loads, text)[0] == "RecursionError"


def test_decode_error_reads_json_s_error_and_nothing_else() -> None:
    with pytest.raises(ValueError) as caught:
        cjson.loads('{"a": }')
    assert cjson.decode_error(caught.value) == ("Expecting value", 1, 7)
    assert cjson.decode_error(ValueError("nested too deeply")) is None
    assert cjson.decode_error(RecursionError()) is None


def test_a_value_read_and_written_imports_no_json() -> None:
    """The point of the module (issue 8): json's import is ~5M instructions a run."""
    code = (
        "import sys\n"
        "from hookrun import cjson\n"
        'v = cjson.loads(\' {"a": [1, 2.5, "\\\\u00e9", null, true, NaN]} \')\n'
        "cjson.loads(b'{\"a\": 1}')\n"
        "cjson.dumps(v); cjson.dumps(v, ensure_ascii=False, sort_keys=True)\n"
        "cjson.dumps('x'); cjson.dumps({'o': {1}}, default=repr)\n"
        "print(sorted(m for m in sys.modules if m == 'json' or m.startswith('json.')))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    ).stdout
    assert out.strip() == "[]"
