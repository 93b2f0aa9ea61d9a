"""Parsing: every bashlex 0.18 gap ends in a program, a named Unsupported, or a syntax error."""

from __future__ import annotations

import pytest

from hookrun.dispatch.shell.parse import ShellSyntaxError, parse
from hookrun.dispatch.shell.prepass import Unsupported


@pytest.mark.parametrize("source", ["", "   \n\n", "# only a comment", "#!/bin/sh\n# x\n"])
def test_empty_or_comment_only_source_has_no_commands(source: str) -> None:
    assert parse(source).nodes == ()


@pytest.mark.parametrize(
    ("source", "line", "column"),
    [
        ("if true; then\n", 2, None),  # bash: "line 2: syntax error: unexpected end of file"
        ("echo ok\necho (", 2, 7),
        ('echo "unterminated', 1, 19),
        ("case x in a) echo", 1, 18),
        ("echo a; }", 1, 9),
    ],
)
def test_syntax_error_has_line_and_column(source: str, line: int, column: int | None) -> None:
    with pytest.raises(ShellSyntaxError) as info:
        parse(source)
    assert info.value.line == line
    if column is not None:  # None: bashlex's own column for an early EOF is not meaningful
        assert info.value.column == column
    assert f"(line {line}, column {info.value.column})" in str(info.value)


def test_deep_nesting_is_unsupported_not_a_recursion_error() -> None:
    with pytest.raises(Unsupported) as info:
        parse("if true; then " * 1000 + "true; " + "fi; " * 1000)
    assert "nested" in info.value.construct


def test_parse_results_are_cached_per_source() -> None:
    assert parse("echo cached") is parse("echo cached")


def test_crlf_source_parses_like_lf() -> None:
    assert parse("echo a\r\necho b\r\n").source == "echo a\necho b\n"
