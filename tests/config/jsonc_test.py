from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hookrun.config.jsonc import (
    DuplicateKey,
    JsoncError,
    _Parser,
    _reject_constant,
    decode,
    parse,
    strip_jsonc,
)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ('{"a": 1}', {"a": 1}),
        ('{"a": 1,}', {"a": 1}),
        ('{"a": [1, 2,],}', {"a": [1, 2]}),
        ('// lead\n{"a": /* inline */ 1} // tail', {"a": 1}),
        ('{"url": "http://x//y", "c": "/* not a comment */"}',
         {"url": "http://x//y", "c": "/* not a comment */"}),
        ('{"s": "tab\\tnew\\nline \\u00e9 \\ud83d\\ude00 \\/"}', {"s": "tab\tnew\nline é 😀 /"}),
        ('{"n": [-0, 1.5, 2e3, -1E-2, 10]}', {"n": [0, 1.5, 2000.0, -0.01, 10]}),
        ('{"t": true, "f": false, "z": null}', {"t": True, "f": False, "z": None}),
        ("{/**/}", {}),
        ("[]", []),
        ('"top"', "top"),
    ],
)  # fmt: skip
def test_parse_accepts_jsonc(text: str, value: Any) -> None:
    assert parse(text).value == value


def test_positions_of_keys_and_values_are_one_based_line_and_column() -> None:
    text = '{\n  "hooks": {\n    "Stop": [\n      {"command": "é", "timeout": 5}\n    ]\n  }\n}'
    positions = parse(text).positions
    assert positions.values[()] == (1, 1)
    assert positions.keys[("hooks",)] == (2, 3)
    assert positions.values[("hooks",)] == (2, 12)
    assert positions.values[("hooks", "Stop", 0)] == (4, 7)
    assert positions.values[("hooks", "Stop", 0, "command")] == (4, 19)
    # columns count characters: "é" is one column although two bytes
    assert positions.values[("hooks", "Stop", 0, "timeout")] == (4, 35)
    # a missing key falls back to the nearest present ancestor
    assert positions.of_value(("hooks", "Stop", 0, "matcher")) == (4, 7)
    assert positions.of_key(("hooks", "Stop", 0, "timeout")) == (4, 24)


def test_duplicate_keys_are_listed_with_both_positions_and_last_value_kept() -> None:
    doc = parse('{"a": 1,\n "b": {"x": 1, "x": 2},\n "a": 3}')
    assert doc.value == {"a": 3, "b": {"x": 2}}
    assert doc.duplicates == [
        DuplicateKey(("b", "x"), (2, 16), (2, 8)),
        DuplicateKey(("a",), (3, 2), (1, 2)),
    ]


def test_plain_json_takes_the_fast_path_and_computes_positions_only_on_demand() -> None:
    doc = parse('{"a": [1, {"b": 2}]}')
    assert doc._positions is None and doc.duplicates == []
    assert doc.positions.values[("a", 1, "b")] == (1, 17)


@pytest.mark.parametrize(
    ("data", "line", "column"),
    [
        (b"\xff", 1, 1),
        (b'{"a": "\xc3"}', 1, 8),  # truncated 2-byte sequence
        (b'{\n "\xc3\xa9\xc3\xa9": "\xe9"}', 2, 9),  # columns count decoded characters
        (b"\xef\xbb\xbf{\n\n \x80", 3, 2),  # after a BOM
    ],
)
def test_decode_reports_the_first_invalid_byte(data: bytes, line: int, column: int) -> None:
    with pytest.raises(JsoncError) as info:
        decode(data)
    assert (info.value.line, info.value.column) == (line, column)
    assert info.value.message.startswith("invalid UTF-8 byte 0x")


def test_decode_drops_a_bom() -> None:
    assert decode(b'\xef\xbb\xbf{"a": 1}') == '{"a": 1}'


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)  # fmt: skip


@settings(suppress_health_check=[HealthCheck.too_slow])  # (input generation under load)
@given(json_values)
def test_located_parser_reads_any_json_like_the_standard_library(value: Any) -> None:
    text = json.dumps(value, indent=1)
    assert _Parser(text).parse()[0] == json.loads(text)
    assert parse(text).value == json.loads(text)


@given(st.text(max_size=40))
def test_parse_never_raises_anything_but_jsonc_error(text: str) -> None:
    try:
        parse(text)
    except JsoncError as exc:
        assert exc.line >= 1 and exc.column >= 1


jsonc_alphabet = st.text(alphabet='{}[]:,"/*\n \\tnrulfase01-.ab', max_size=50)


def _fast(text: str) -> Any:
    return json.loads(strip_jsonc(text), parse_constant=_reject_constant)


@given(jsonc_alphabet)
def test_fast_path_accepts_only_what_the_located_parser_accepts_with_equal_values(
    text: str,
) -> None:
    try:
        fast = _fast(text)
    except (ValueError, RecursionError):
        return
    assert _Parser(text).parse()[0] == fast


@given(json_values, st.sampled_from(["// c\n", "/* c */", "/* // */", '\n// "x\n']))
def test_comments_and_trailing_commas_read_like_plain_json(value: Any, comment: str) -> None:
    text = json.dumps(value, indent=1)
    decorated = text.replace("\n", comment + "\n").replace("\n]", ",\n]").replace("\n}", ",\n}")
    assert parse(decorated).value == value


@pytest.mark.parametrize(
    "text",
    [
        '["a", "b,]"]',  # a comma inside a string is not trailing
        '{"u": "http://x//y", "c": "/* no */"}',
        '{"a": "x /* \n */ y"}',  # a raw newline in a string stays an error
        "[,]",
        "[1,,]",
        "{,}",
        '{"a": 1,,}',
    ],
)
def test_strip_jsonc_never_changes_what_a_string_or_an_error_means(text: str) -> None:
    try:
        fast: Any = _fast(text)
    except ValueError:
        fast = "error"
    try:
        slow: Any = _Parser(text).parse()[0]
    except JsoncError:
        slow = "error"
    assert fast == slow


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"": "\\h"}', 'invalid escape "\\h" in string'),
        ('{"": "\\\n"}', 'invalid escape "\\" followed by U+000A in string'),
        ('{"": "\\\t"}', 'invalid escape "\\" followed by U+0009 in string'),
        ('{"": "\\\x01"}', 'invalid escape "\\" followed by U+0001 in string'),
        ('{"": "\\u\n"}', 'invalid escape "\\u" followed by U+000A in string'),
        ('{"": "\\u12\t"}', 'invalid escape "\\u12" followed by U+0009 in string'),
        ('{"": "\\u12zz"}', 'invalid escape "\\u12zz" in string'),
    ],
    ids=["letter", "newline", "tab", "soh", "u-newline", "u12-tab", "u-not-hex"],
)
def test_an_invalid_escape_is_shown_up_to_a_control_character_which_is_named(
    text: str, message: str
) -> None:
    with pytest.raises(JsoncError) as info:
        parse(text)
    assert info.value.message == message + ' (a backslash is written "\\\\")'


# A string or key, where most messages quote the text, holding a (possibly escaped)
# character that would break the line if a message showed it raw.
_breaking = st.text(alphabet="\n\t\x01\x85\u2028\u2029\ud800", min_size=1, max_size=2)
_quoted_breaks = st.tuples(
    st.sampled_from(['"', '{"": "', '{"', '["', '{"k": ["']),
    st.sampled_from(["", "\\", "\\u", "\\u1"]),
    _breaking,
    st.sampled_from(["", '"', '" 1', '":', '"]']),
).map("".join)


@given(st.text(max_size=40) | _quoted_breaks)
def test_every_parse_error_message_is_one_printable_line(text: str) -> None:
    try:
        parse(text)
    except JsoncError as exc:
        assert exc.message.isprintable(), repr(exc.message)
