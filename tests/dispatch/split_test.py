from __future__ import annotations

import shlex

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hookrun.dispatch.split import split_simple, split_words


@pytest.mark.parametrize(
    ("command", "argv"),
    [
        ("./hooks/check.sh", ["./hooks/check.sh"]),
        ("python3 hook.py --strict", ["python3", "hook.py", "--strict"]),
        ("  echo \t hi  ", ["echo", "hi"]),
        ("echo 'a b' \"c d\"", ["echo", "a b", "c d"]),
        ('echo \'{"decision":"allow"}\'', ["echo", '{"decision":"allow"}']),
        ("echo 'it''s'", ["echo", "its"]),
        ("echo a\\ b", ["echo", "a b"]),
        ("echo \\$HOME \\*", ["echo", "$HOME", "*"]),
        ('echo "a\\"b" "c\\\\d" "e\\nf"', ["echo", 'a"b', "c\\d", "e\\nf"]),
        ("echo '$HOME `x` | ; & *'", ["echo", "$HOME `x` | ; & *"]),
        ("echo ''", ["echo", ""]),
        ('echo ""x', ["echo", "x"]),
        ("echo a#b", ["echo", "a#b"]),
        ("echo x=1", ["echo", "x=1"]),
        ("echo !", ["echo", "!"]),
        ("echo a~b", ["echo", "a~b"]),
        ("~/hooks/x.sh arg", ["~/hooks/x.sh", "arg"]),
        ("'if' x", ["if", "x"]),
        ("git commit -m 'fix: a, b'", ["git", "commit", "-m", "fix: a, b"]),
    ],
)
def test_split_simple_splits_plain_words_like_a_posix_shell(command: str, argv: list[str]) -> None:
    assert split_simple(command, "linux") == argv
    if not command.startswith("~"):
        assert shlex.split(command) == argv  # the same words a POSIX shell would see


@pytest.mark.parametrize(
    "command",
    [
        "",
        "   ",
        "echo a | grep a",
        "a && b",
        "a || b",
        "a; b",
        "a & ",
        "echo hi > out",
        "cat < in",
        "echo $HOME",
        "echo ${X:-y}",
        "echo $(date)",
        "echo `date`",
        'echo "$HOME"',
        'echo "`date`"',
        'echo "a\\$b"',
        "ls *.py",
        "ls ?.py",
        "ls [ab].py",
        "echo {a,b}",
        "(cd x)",
        "{ echo; }",
        "echo hi # comment",
        "# only a comment",
        "echo ~",
        "echo ~/x",
        "cd ~user",
        "A=b cmd",
        "A= cmd",
        "echo a\nb",
        "echo a\r\n",
        "echo a\\\nb",
        "echo trailing\\",
        "echo 'unterminated",
        'echo "unterminated',
        "if true",
        "! false",
        "[[ -f x ]]",
        "time sleep 1",
        "while true",
        "for x in a",
        "case x in",
        "function f",
    ],
)
def test_split_simple_refuses_anything_the_shell_must_parse(command: str) -> None:
    assert split_simple(command, "linux") is None


@pytest.mark.parametrize(
    ("command", "argv"),
    [
        ("C:\\hooks\\check.exe --x", ["C:\\hooks\\check.exe", "--x"]),
        ("C:/hooks/check.exe", ["C:/hooks/check.exe"]),
        ("\\\\server\\share\\x.exe a", ["\\\\server\\share\\x.exe", "a"]),
        (".\\hooks\\x.cmd", [".\\hooks\\x.cmd"]),
        ("..\\x.cmd", ["..\\x.cmd"]),
        ("~\\hooks\\x.cmd", ["~\\hooks\\x.cmd"]),
        ("'C:\\Program Files\\x.exe' a", ["C:\\Program Files\\x.exe", "a"]),
        ('"C:\\Program Files\\x.exe" a', ["C:\\Program Files\\x.exe", "a"]),
        # only the first word keeps its backslashes: later words follow the shell
        ("C:\\x.exe a\\ b", ["C:\\x.exe", "a b"]),
        ("python3 C:\\x.py", ["python3", "C:x.py"]),
    ],
)
def test_split_simple_on_windows_keeps_backslashes_of_a_leading_windows_path(
    command: str, argv: list[str]
) -> None:
    assert split_simple(command, "win32") == argv


def test_split_simple_on_posix_treats_backslashes_as_escapes() -> None:
    assert split_simple("C:\\hooks\\check.exe", "linux") == ["C:hookscheck.exe"]
    assert split_simple(".\\x.cmd", "linux") == [".x.cmd"]


_ALPHABET = "ab =~#'\"\\$`|&;<>()*?[]{}!\t\n\r:/.-_é"


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=_ALPHABET, max_size=30))
def test_split_simple_agrees_with_posix_word_splitting_whenever_it_answers(command: str) -> None:
    argv = split_simple(command, "linux")
    if argv is not None:
        assert argv == shlex.split(command)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40), st.sampled_from(["linux", "darwin", "win32"]))
def test_split_simple_never_raises(command: str, platform: str) -> None:
    result = split_simple(command, platform)
    assert result is None or (result and all(isinstance(w, str) for w in result))


# Words plain and not: the fast path (whole-text scans) must give exactly what the
# one-character-at-a-time reference gives, for every platform.
_PLAIN_HEAVY = "ab =~#'\"\\$|;{[\t\n\x0b\xa0/.-:"


@settings(max_examples=1500, deadline=None)
@given(
    st.text(alphabet=_PLAIN_HEAVY, max_size=24) | st.text(max_size=24),
    st.sampled_from(["linux", "darwin", "win32"]),
)
def test_split_simple_is_the_character_by_character_reference(command: str, platform: str) -> None:
    assert split_simple(command, platform) == split_words(command, platform)


@pytest.mark.parametrize(
    "command",
    [
        "true",
        "true;",
        "./hooks/check.sh --strict",
        "~/x.sh ~/y",
        "~x a",
        "a ~/x",
        "a=1 b",
        "b a=1",
        "if x",
        "x if",
        "a #b",
        "a b#",
        "a\tb",
        "a\x0bb",
        "C:/tools/x.exe a",
        "echo 'a' b",
        "echo a\\ b",
        "  ",
        "",
    ],
)
def test_split_simple_matches_the_reference_on_edges(command: str) -> None:
    for platform in ("linux", "win32"):
        assert split_simple(command, platform) == split_words(command, platform)
