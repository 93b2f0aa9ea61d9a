"""Expansion details: globbing against the shell's cwd, splitting, quoting of patterns."""

from __future__ import annotations

from pathlib import Path

import pytest

from hookrun.dispatch.shell.expand import glob_in, match
from tests.dispatch.shell.shellrun import Runner


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    for name in ("a.py", "b.py", "c.txt", ".hidden.py", "sub/d.py", "sub/e.sh", "[x].py"):
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("")
    return tmp_path


@pytest.mark.parametrize(
    ("pattern", "found"),
    [
        ("*.py", ["[x].py", "a.py", "b.py"]),
        ("?.py", ["a.py", "b.py"]),
        ("[ab].py", ["a.py", "b.py"]),
        ("[!a].py", ["b.py"]),
        (".*.py", [".hidden.py"]),
        ("sub/*", ["sub/d.py", "sub/e.sh"]),
        ("*/*.sh", ["sub/e.sh"]),
        ("*/", ["sub/"]),
        ("nomatch*", []),
    ],
)
def test_glob_relative_to_the_given_cwd(tree: Path, pattern: str, found: list[str]) -> None:
    assert glob_in(pattern, str(tree)) == found


def test_absolute_glob(tree: Path) -> None:
    assert glob_in(f"{tree}/sub/*.py", "/") == [f"{tree}/sub/d.py"]


@pytest.mark.parametrize(
    ("source", "stdout"),
    [
        ("echo *.py", "[x].py a.py b.py\n"),
        ("echo '*'.py", "*.py\n"),
        ('p="*.txt"; echo $p "$p"', "c.txt *.txt\n"),
        ("cd sub; echo *", "d.py e.sh\n"),
        ("echo \\*.py", "*.py\n"),
        ('x=*.py; echo "$x"', "*.py\n"),
        ('for f in sub/*.py; do echo "<$f>"; done', "<sub/d.py>\n"),
        ("[ -f a.py ] && echo lone-bracket-is-not-a-glob", "lone-bracket-is-not-a-glob\n"),
    ],
)
def test_glob_in_scripts_uses_the_shell_cwd(
    run: Runner, tree: Path, source: str, stdout: str
) -> None:
    ran = run(source, cwd=str(tree))
    assert (ran.out, ran.err) == (stdout, "")


@pytest.mark.parametrize(
    ("value", "pattern", "hit"),
    [
        ("a/b.py", "*.py", True),
        ("abc", "a?c", True),
        ("abc", "a[xyz]c", False),
        ("a*c", "a[*]c", True),
        ("abc", "a[*]c", False),
    ],
)
def test_case_patterns_match_across_slashes(value: str, pattern: str, hit: bool) -> None:
    assert match(value, pattern) is hit


@pytest.mark.parametrize(
    ("source", "stdout"),
    [
        ('x="a b"; set -- $x; echo $#', "2\n"),
        ('x="a b"; set -- "$x"; echo $#', "1\n"),
        ('x=" lead trail "; set -- $x; echo "$#:$1:$2"', "2:lead:trail\n"),
        ('IFS=; x="a b"; set -- $x; echo $#', "1\n"),
        ('x=a; set -- "$x"b"$x"; echo $1', "aba\n"),
        ('set -- "a b" c; x="$@"; echo "$x"', "a b c\n"),
        ('set -- a b; IFS=-; echo "$*"', "a-b\n"),
        ("echo \"$(printf 'a\\n\\n\\n')\"", "a\n"),
        ('echo ${UNSET:-"a  b"}', "a  b\n"),
        ("echo ${UNSET:-a  b}", "a b\n"),
        ('echo "${UNSET:-a  b}"', "a  b\n"),
        ("A=~/x; echo $A", "/home/hooker/x\n"),
        ("echo a{b,c}", "ab ac\n"),
    ],
)
def test_splitting_and_quoting(run: Runner, source: str, stdout: str) -> None:
    ran = run(source)
    assert (ran.out, ran.err) == (stdout, "")
