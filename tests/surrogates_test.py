"""hookrun.surrogates: a lone surrogate is exactly what UTF-8 cannot encode."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hookrun.surrogates import has_surrogate, replace_surrogates

CASES = [
    ("", ""),
    ("ls -la", "ls -la"),
    ("émoji ✓ 😀", "émoji ✓ 😀"),
    ("\ud800", "\ufffd"),
    ("a\udfffb", "a\ufffdb"),
    ("\ud83d\ude00", "\ufffd\ufffd"),  # a pair written as two escapes stays two code points
    ("x\ud7ff\ue000", "x\ud7ff\ue000"),  # the neighbours of the range are ordinary
]


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


@pytest.mark.parametrize(("text", "replaced"), CASES)
def test_surrogates_are_found_and_replaced_by_u_fffd(text: str, replaced: str) -> None:
    assert has_surrogate(text) is (text != replaced)
    assert replace_surrogates(text) == replaced


@given(st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0xE100), max_size=20))
def test_a_surrogate_is_found_exactly_when_utf8_cannot_encode_the_text(text: str) -> None:
    assert has_surrogate(text) is not _encodable(text)
    assert _encodable(replace_surrogates(text))
