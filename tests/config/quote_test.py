from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hookrun.config.quote import char_name, quote


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("ls", '"ls"'),
        ("café", '"café"'),
        ('say "hi"\\', '"say \\"hi\\"\\\\"'),
        ("a\nb\tc", '"a\\nb\\tc"'),
        ("a\x01b", '"a\\u0001b"'),
        ("a\u0085b", '"a\\u0085b"'),
        ("a\u2028b\u2029", '"a\\u2028b\\u2029"'),
        ("a\u009bb", '"a\\u009bb"'),
        ("no\u00a0break", '"no\\u00a0break"'),
        ("\ud800", '"\\ud800"'),  # a lone surrogate
        ("tag\U000e0001", '"tag\\udb40\\udc01"'),  # non-printable past the BMP
        ("😀", '"😀"'),
    ],
)
def test_quote_escapes_every_non_printable_character(text: str, shown: str) -> None:
    assert quote(text) == shown


@given(st.text())
def test_quote_is_one_printable_line_that_reads_back_as_the_text(text: str) -> None:
    shown = quote(text)
    assert shown.isprintable(), repr(shown)
    assert json.loads(shown) == text


@pytest.mark.parametrize(
    ("char", "name"), [("\n", "U+000A"), ("\u2028", "U+2028"), ("a", "U+0061")]
)
def test_char_name_is_the_unicode_code_point(char: str, name: str) -> None:
    assert char_name(char) == name
