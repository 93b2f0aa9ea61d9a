"""hookrun.runner.wire: whatever a value holds, the encoder writes JSON every reader takes."""

from __future__ import annotations

import io
import json
import math
import sys
from typing import Any

import pytest

from hookrun.runner import wire


def _deep(depth: int) -> Any:
    value: Any = []
    for _ in range(depth):
        value = {"k": value}
    return value


BIG = int("9" * 4000) * 10**1000  # 5,000 digits: past Python's int-string limit

CASES = [
    pytest.param({"a": "x\ud800y"}, {"a": "x\ufffdy"}, id="lone-high-surrogate"),
    pytest.param({"a\udc80": 1}, {"a\ufffd": 1}, id="surrogate-in-a-key"),
    pytest.param({"a": "x\x00y"}, {"a": "x\x00y"}, id="nul-kept-escaped"),
    pytest.param({"a": float("inf"), "b": float("nan")}, {"a": None, "b": None}, id="non-finite"),
    pytest.param({"a": BIG}, {"a": None}, id="int-past-the-digit-limit"),
    pytest.param({"a": 10**400}, {"a": 10**400}, id="big-int-within-the-limit"),
    pytest.param(
        {1: "x", None: "y", 2.5: "z", False: "f"},
        {"1": "x", "null": "y", "2.5": "z", "false": "f"},
        id="keys",
    ),
    pytest.param(  # BIG sends the whole value to the slow encoder: the same keys there
        {1: BIG, None: "y", 2.5: "z", False: "f", (1, 2): "t"},
        {"1": None, "null": "y", "2.5": "z", "false": "f", "(1, 2)": "t"},
        id="keys-on-the-slow-path",
    ),
    pytest.param({"t": (1, 2), "s": frozenset({3})}, {"t": [1, 2], "s": [3]}, id="tuples-sets"),
    pytest.param(
        {"o": object.__new__(type("Thing", (), {"__str__": lambda s: "thing"}))},
        {"o": "thing"},
        id="object",
    ),
    pytest.param(
        {"a": "x\ud800", "b": float("inf")}, {"a": "x\ufffd", "b": None}, id="both-at-once"
    ),
]


@pytest.mark.parametrize(("value", "expected"), CASES)
def test_dumps_never_raises_and_writes_what_every_reader_takes(value: Any, expected: Any) -> None:
    text = wire.dumps(value)
    text.encode("utf-8")  # strict
    assert json.loads(text, parse_constant=pytest.fail) == expected


def test_any_depth_is_written_without_recursion() -> None:
    depth = sys.getrecursionlimit() * 20
    text = wire.dumps(_deep(depth))
    assert text.count("{") == depth and text.endswith("[]" + "}" * depth)


def test_the_fast_path_uses_the_stdlib_separators() -> None:
    value = {"a": [1, "b"], "c": {"d": None}}
    assert wire.dumps(value) == json.dumps(value)
    assert (
        wire.dumps({**value, "e": float("inf")}) == '{"a": [1, "b"], "c": {"d": null}, "e": null}'
    )


def test_encode_is_utf8_not_ascii_escapes() -> None:
    assert wire.encode({"a": "héllo ✓"}) == '{"a": "héllo ✓"}'.encode()


class _CodePageStream(io.TextIOWrapper):
    """A text stream in a code page that cannot hold ✓ (a Windows pipe's cp1252)."""


def test_write_goes_to_the_binary_buffer_so_a_code_page_cannot_refuse_a_character() -> None:
    raw = io.BytesIO()
    stream = _CodePageStream(raw, encoding="cp1252")
    stream.write("before ")
    wire.write(stream, {"r": "✓ \ud800"})
    assert raw.getvalue() == 'before {"r": "✓ \ufffd"}\n'.encode()


def test_write_to_a_plain_text_stream() -> None:
    out = io.StringIO()
    wire.write(out, {"r": "\udfff"})
    assert out.getvalue() == '{"r": "\ufffd"}\n'


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("[" + "9" * 5000 + "]", [math.inf]),
        ("[-" + "9" * 5000 + "]", [-math.inf]),
        ("[12, 1.5]", [12, 1.5]),
        ('"\\ud800"', "\ud800"),
    ],
    ids=["huge-int", "huge-negative-int", "ordinary", "lone-surrogate-escape"],
)
def test_loads_reads_a_number_past_the_digit_limit_as_javascript_does(
    text: str, expected: Any
) -> None:
    assert wire.loads(text) == expected


@pytest.mark.parametrize("text", ["[" * 100_000, "{", "nope", ""])
def test_loads_raises_only_value_error(text: str) -> None:
    with pytest.raises(ValueError):
        wire.loads(text)
