"""One word of the front end's tree → the words the shell would pass (statically)."""

from __future__ import annotations

import pytest

from hookrun.hooks.shell_guard import treewords
from hookrun.hooks.shell_guard.model import Command, Var, Word
from hookrun.hooks.shell_guard.parse import words_of
from hookrun.shellsyntax import ShellSyntaxError, Unsupported, parse
from hookrun.shellsyntax.nodes import Word as NodeWord


def expand_word(raw: str) -> list[Word]:
    sink: list[Command] = []
    return words_of(raw, 0, sink, [])


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
        ('a"$(echo ")")"b', ["a)b"]),  # bash prints a)b
        ("$(printf r)m", ["rm"]),
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
        ("$(pwd)", (Var("PWD"),)),
        ("$(id -u)", (Var("$(", "id -u"),)),
        ("$((1 + 2))", (Var("((", "1 + 2"),)),
        ("`ls -a`", (Var("$(", "ls -a"),)),
        ("<(curl x)", (Var("<(", "curl x"),)),
        ('a"$(id ")")"b', ("a", Var("$(", 'id ")"'), "b")),
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
    assert [w.text for w in expand_word(raw)] == [raw]  # 128 words: kept literal
    assert len(expand_word("{a,b}{c,d}")) == 4


def test_quoted_and_escaped_braces_do_not_expand() -> None:
    assert [w.text for w in expand_word("\\{a,b}")] == ["{a,b}"]
    assert [w.text for w in expand_word('{a,"b"}x')] == ["ax", "bx"]


def test_commands_in_a_words_substitutions_are_collected() -> None:
    sink: list[Command] = []
    (word,) = words_of("x$(rm -rf /)", 0, sink, [])
    assert [[w.text for w in c.argv] for c in sink] == [["rm", "-rf", "/"]]
    assert word.static is False


def test_a_word_the_front_end_refuses_is_its_text_without_quotes() -> None:
    assert [w.text for w in expand_word("'unterminated")] == ["unterminated"]


def _word_nodes(node: object, out: list[NodeWord]) -> None:
    """Every word node in ``node`` (a tree, a statement, a tuple of them)."""
    if isinstance(node, NodeWord):
        out.append(node)
    if isinstance(node, tuple):
        for item in node:
            _word_nodes(item, out)


def test_an_inert_word_takes_the_short_steps_to_the_same_words() -> None:
    """``word_values`` skips braces, tilde and fields for a word none of whose parts act;
    its words are those of every step, for each such word of every corpus line (the
    Oils cases, bench lines, both peers, test strings, shell-guard's tables)."""
    from tests.shellsyntax.plain_test import corpus

    def no_subst(part: object) -> Var:
        raise AssertionError(part)  # (an inert word has no substitution)

    inert = 0
    for line in corpus():
        try:
            tree = parse(line)
        except (ShellSyntaxError, Unsupported):
            continue
        except UnicodeEncodeError:
            # a lone surrogate (a test string of tests/dispatch/shortcuts_test.py): no
            # UTF-8 form; shell-guard judges such a line with U+FFFD in its place
            continue
        words: list[NodeWord] = []
        _word_nodes(tree.stmts, words)
        for node in words:
            if treewords._inert_parts(node.parts) is None or treewords.plain_text(node):
                continue  # (plain text: word_values's first answer, before the steps)
            inert += 1
            raw = tree.source[node.pos : node.end].decode("utf-8", "surrogatepass")
            assert treewords.word_values(node, tree.source, no_subst) == treewords._expanded(
                node, raw, no_subst
            ), raw
    assert inert > 5_000, inert  # (not vacuous)
