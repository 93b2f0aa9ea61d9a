"""One word as written → the words the shell would pass (statically)."""

from __future__ import annotations

import pytest

from hookrun.hooks.shell_guard.model import Var
from hookrun.hooks.shell_guard.words import brace_expand, decode_ansi_c, expand_word


@pytest.mark.parametrize(
    ("raw", "texts"),
    [
        ("rm", ["rm"]),
        ("r''m", ["rm"]),
        ('r""m', ["rm"]),
        ('"rm"', ["rm"]),
        ("\\rm", ["rm"]),
        ("$'\\x72\\x6d'", ["rm"]),
        ("$'\\162\\155'", ["rm"]),
        ("$'\\u0072m'", ["rm"]),
        ("$'a\\'b'", ["a'b"]),
        ("rm${IFS}-rf${IFS}/", ["rm", "-rf", "/"]),
        ("rm$IFS-rf", ["rm", "-rf"]),
        ('"a${IFS}b"', ["a b"]),
        ("{rm,-rf,/}", ["rm", "-rf", "/"]),
        ("/{usr,etc}/x", ["/usr/x", "/etc/x"]),
        ("'{a,b}'", ["{a,b}"]),
        ("{a}", ["{a}"]),
        ('""', [""]),
        ("''", [""]),
        ('"it\'s"', ["it's"]),
        ('"a\\"b"', ['a"b']),
        ('"\\$HOME"', ["$HOME"]),
        ("a\\\nb", ["ab"]),
    ],
)
def test_word_expands_to_what_the_shell_passes(raw: str, texts: list[str]) -> None:
    assert [w.text for w in expand_word(raw)] == texts


@pytest.mark.parametrize(
    ("raw", "parts"),
    [
        ("~/a", (Var("HOME"), "/a")),
        ("~", (Var("HOME"),)),
        ("~bob/x", (Var("~bob"), "/x")),
        ('"$HOME"/x', (Var("HOME"), "/x")),
        ("${HOME}", (Var("HOME"),)),
        ("${X:-/}", (Var("X"),)),
        ("$1", (Var("1"),)),
        ("$(pwd)", (Var("$(", "pwd"),)),
        ("`ls -a`", (Var("$(", "ls -a"),)),
        ("<(curl x)", (Var("<(", "curl x"),)),
        ('a"$(echo ")")"b', ("a", Var("$(", 'echo ")"'), "b")),
    ],
)
def test_unknown_parts_are_kept_as_vars(raw: str, parts: tuple[object, ...]) -> None:
    (word,) = expand_word(raw)
    assert word.parts == parts
    assert word.static is False


def test_tilde_is_literal_away_from_the_start_of_a_word() -> None:
    (word,) = expand_word("a~")
    assert word.static and word.text == "a~"


def test_brace_expansion_is_bounded() -> None:
    raw = "{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}"
    assert brace_expand(raw) == [raw]  # 128 words: kept literal
    assert len(brace_expand("{a,b}{c,d}")) == 4


def test_ansi_c_decoding_stops_at_the_closing_quote() -> None:
    assert decode_ansi_c("\\x41B' rest", 0) == ("AB", 6)
