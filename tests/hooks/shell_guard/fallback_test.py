"""The tokenizer for lines the shared front end refuses."""

from __future__ import annotations

import pytest

from hookrun.hooks.shell_guard.fallback import parse, tokenize


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("a b", [("word", "a"), ("word", "b")]),
        ("a&&b", [("word", "a"), ("op", "&&"), ("word", "b")]),
        ("a|b;c", [("word", "a"), ("op", "|"), ("word", "b"), ("op", ";"), ("word", "c")]),
        ("'a b' \"c d\"", [("word", "'a b'"), ("word", '"c d"')]),
        ("echo $(a | b) x", [("word", "echo"), ("word", "$(a | b)"), ("word", "x")]),
        ("cat <(ls) >f", [("word", "cat"), ("word", "<(ls)"), ("redir", ">"), ("word", "f")]),
        ("a 2>&1", [("word", "a"), ("redir", ">&"), ("word", "1")]),
        ("a # rm -rf /", [("word", "a")]),
        ("a\\\nb", [("word", "a\\\nb")]),  # a line continuation joins the word
        ("x=$'a b' c", [("word", "x=$'a b'"), ("word", "c")]),
    ],
)
def test_tokens(text: str, tokens: list[tuple[str, str]]) -> None:
    assert tokenize(text) == tokens


def test_compound_keywords_are_stripped_and_headers_skipped() -> None:
    script = parse("if [[ -d x ]]; then rm -rf y; fi; for f in a b; do rm $f; done", 0)
    assert [[w.text for w in c.argv] for c in script.commands] == [
        ["rm", "-rf", "y"],
        ["rm", "$f"],
    ]
    assert script.parsed is False


def test_fork_bomb_is_found_by_scanning_the_compact_text() -> None:
    assert parse("[[ 1 ]] && :(){ :|:& };:", 0).fork_bombs


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        (
            "cat > f <<'EOF' && chmod +x f\nrm -rf /\nEOF",
            [
                ("word", "cat"),
                ("redir", ">"),
                ("word", "f"),
                ("heredoc-quoted", "rm -rf /\n"),
                ("word", "'EOF'"),
                ("op", "&&"),
                ("word", "chmod"),
                ("word", "+x"),
                ("word", "f"),
                ("op", "\n"),
            ],
        ),
        ("a <<X\n$(b)\nX", [("word", "a"), ("heredoc", "$(b)\n"), ("word", "X"), ("op", "\n")]),
        ("a <<-X\n\tb\n\tX", [("word", "a"), ("heredoc", "b\n"), ("word", "X"), ("op", "\n")]),
        (
            "a <<A <<B\n1\nA\n2\nB",
            [
                ("word", "a"),
                ("heredoc", "1\n"),
                ("word", "A"),
                ("heredoc", "2\n"),
                ("word", "B"),
                ("op", "\n"),
            ],
        ),
        # no DELIM line: a redirect, and what follows is read as commands
        (
            "a <<X\nrm -rf /",
            [
                ("word", "a"),
                ("redir", "<<"),
                ("word", "X"),
                ("op", "\n"),
                ("word", "rm"),
                ("word", "-rf"),
                ("word", "/"),
            ],
        ),
        # inside (( … )) `<<` is a shift
        (
            "(( x << 2 ))\n2",
            [
                ("op", "("),
                ("op", "("),
                ("word", "x"),
                ("redir", "<<"),
                ("word", "2"),
                ("op", ")"),
                ("op", ")"),
                ("op", "\n"),
                ("word", "2"),
            ],
        ),
    ],
)
def test_here_document_bodies_are_one_token_not_commands(
    text: str, tokens: list[tuple[str, str]]
) -> None:
    assert tokenize(text) == tokens


def test_a_fork_bomb_in_a_here_document_body_is_text() -> None:
    assert not parse("cat > f <<'EOF' && true\n:(){ :|:& };:\nEOF", 0).fork_bombs
