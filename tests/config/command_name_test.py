"""command_name's shlex-free path gives shlex's first word whenever it answers at all."""

from __future__ import annotations

import re
import shlex

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hookrun.config.loader import _basename, _plain_first_word


@pytest.mark.parametrize(
    "command",
    [
        "echo hi",
        "  ./hooks/x.sh --flag",
        "python3\t./check.py",
        "guard\n",
        "a#b c",
        "printf '{}'",
        "/usr/bin/env -S python3 -u",
        "x;y z",
    ],
)
def test_a_plain_first_word_is_what_shlex_splits_off(command: str) -> None:
    assert _plain_first_word(command) == shlex.split(command)[0]


@pytest.mark.parametrize(
    "command",
    [
        "",
        "   ",
        '"./my hooks/x.sh" arg',  # quoted
        "it's",
        "C:\\hooks\\check.exe",  # backslash: shlex's non-POSIX mode decides
        "FOO=1 ./x.sh",  # an assignment is skipped by the full rules
        "a\x0bb c",  # a blank shlex does not split on but str.split does
        "a\u00a0b",
    ],
)
def test_anything_unusual_in_the_first_word_goes_to_shlex(command: str) -> None:
    assert _plain_first_word(command) is None


@given(st.text(alphabet="ab/\\.:", max_size=10))
def test_the_basename_is_the_last_part_a_split_on_either_slash_gives(word: str) -> None:
    assert _basename(word) == (re.split(r"[\\/]", word.rstrip("\\/"))[-1] or word)
