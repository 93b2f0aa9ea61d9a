"""The payload of `hookrun run`: stdin JSON plus flags, and every way it can be broken."""

from __future__ import annotations

import io
from typing import Any

import pytest

from hookrun.cli import CliError
from hookrun.cli.payload import PayloadFlags, build_payload, read_stdin


@pytest.mark.parametrize(
    ("stdin", "flags", "expected"),
    [
        ("", PayloadFlags(), {}),
        ("  \n", PayloadFlags(), {}),
        ('{"tool_name": "bash"}', PayloadFlags(), {"tool_name": "bash"}),
        ('{"tool_name": "bash"}', PayloadFlags(tool="edit"), {"tool_name": "edit"}),
        (
            '{"tool_input": {"command": "ls", "timeout": 5}}',
            PayloadFlags(tool_input='{"command": "pwd"}'),
            {"tool_input": {"command": "pwd"}},
        ),
        ("", PayloadFlags(prompt="hi", session_id="s1"), {"prompt": "hi", "session_id": "s1"}),
        ('{"cwd": "/a"}', PayloadFlags(cwd="/b"), {"cwd": "/b"}),
        ('{"is_sub_agent": false}', PayloadFlags(sub_agent=True), {"is_sub_agent": True}),
        ('{"is_sub_agent": true}', PayloadFlags(), {"is_sub_agent": True}),
        (
            '{"x": {"y": [1, 2]}, "tool_name": "t"}',
            PayloadFlags(),
            {"x": {"y": [1, 2]}, "tool_name": "t"},
        ),
    ],
)
def test_flags_override_or_fill_the_stdin_payload(
    stdin: str, flags: PayloadFlags, expected: dict[str, Any]
) -> None:
    assert build_payload(stdin, flags) == expected


@pytest.mark.parametrize(
    ("stdin", "flags", "message"),
    [
        (
            "{",
            PayloadFlags(),
            "payload on stdin is not valid JSON: Expecting property name "
            "enclosed in double quotes at line 1 column 2",
        ),
        (
            "not json",
            PayloadFlags(),
            "payload on stdin is not valid JSON: Expecting value at line 1 column 1",
        ),
        ("[1, 2]", PayloadFlags(), "payload on stdin must be a JSON object, got an array"),
        ('"text"', PayloadFlags(), "payload on stdin must be a JSON object, got a string"),
        ("42", PayloadFlags(), "payload on stdin must be a JSON object, got a number"),
        ("null", PayloadFlags(), "payload on stdin must be a JSON object, got null"),
        ("true", PayloadFlags(), "payload on stdin must be a JSON object, got a boolean"),
        (
            '{"a": 1}\n{"b": 2}',
            PayloadFlags(),
            "payload on stdin is not valid JSON: Extra data at line 2 column 1",
        ),
        (
            "",
            PayloadFlags(tool_input="ls"),
            "--input is not valid JSON: Expecting value at line 1 column 1",
        ),
        ("", PayloadFlags(tool_input='["ls"]'), "--input must be a JSON object, got an array"),
        ("[" * 100_000, PayloadFlags(), "payload on stdin is nested too deeply to parse"),
    ],
)
def test_a_broken_payload_is_a_clear_error(stdin: str, flags: PayloadFlags, message: str) -> None:
    with pytest.raises(CliError) as info:
        build_payload(stdin, flags)
    assert info.value.message == message


def test_stdin_is_not_read_from_a_terminal() -> None:
    assert read_stdin(io.BytesIO(b'{"a": 1}'), isatty=True) == ""


def test_missing_stdin_reads_as_empty() -> None:
    assert read_stdin(None, isatty=False) == ""


def test_a_utf8_bom_from_powershell_is_dropped() -> None:
    assert read_stdin(io.BytesIO(b'\xef\xbb\xbf{"a": "\xc3\xa9"}'), isatty=False) == '{"a": "é"}'


def test_non_utf8_stdin_names_the_bad_byte() -> None:
    with pytest.raises(CliError) as info:
        read_stdin(io.BytesIO(b'{"a": "\xff"}'), isatty=False)
    assert info.value.message == (
        "payload on stdin is not UTF-8 (bad byte at offset 7); send the event as UTF-8 JSON"
    )
