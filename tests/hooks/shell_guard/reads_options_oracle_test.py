"""What ``read``'s options, ``read -a``, ``mapfile`` and ``printf -v`` set, against bash.

shell-guard reads ``read -ra a <<< '-rf /'; rm "${a[@]}"`` through
:func:`hookrun.hooks.shell_guard.reads.set_by`: each name's value is what a later
``$name`` runs. The oracle is bash: each call runs there with the same text on stdin,
and the words its names expand to (unquoted, split at blanks, no globbing — how a
command line uses them) must be the words of ``set_by``'s values. A call ``set_by``
does not follow (``-n 3`` counts characters; an unknown option is bash's error) must
give nothing rather than a guess.
"""

from __future__ import annotations

import shutil
import subprocess

import pytest

from hookrun.hooks.shell_guard.reads import read_fields, set_by

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="bash is the oracle")


def _quoted(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


# (the command, its arguments, the text on its stdin)
FOLLOWED: list[tuple[str, list[str], str]] = [
    ("read", ["-r", "a", "b"], "rm -rf /\n"),
    ("read", ["--", "a", "b"], "rm -rf /\n"),
    ("read", ["-r", "--", "a"], "rm  -rf /\n"),
    ("read", ["-s", "-e", "a", "b"], "rm -rf /\n"),
    ("read", ["-p", "go? ", "a", "b"], "rm -rf /\n"),
    ("read", ["-pgo", "a"], "rm -rf /\n"),
    ("read", ["-t", "5", "a", "b"], "rm -rf /\n"),
    ("read", ["-u", "0", "a"], "rm -rf /\n"),
    ("read", ["-d", "", "a", "b"], "rm -rf /\nmore\n"),  # -d '': up to a NUL (the end)
    ("read", ["-d:", "a", "b"], "rm -rf /:ls\n"),
    ("read", ["-rd", ":", "a"], "rm\\ -rf /:ls\n"),
    ("read", ["a"], "rm \\\n-rf /\n"),  # a backslash-newline joins lines without -r
    ("read", [], "  rm -rf /  \n"),  # REPLY keeps its blanks
    ("read", ["-a", "arr"], "rm -rf /\n"),
    ("read", ["-ra", "arr"], "rm  -rf   /\n"),
    ("read", ["-r", "-a", "arr"], "rm -rf /\n"),
    ("read", ["-aarr"], "rm -rf /\n"),
    ("read", ["-raarr"], "rm -rf /\n"),
    ("read", ["-a", "arr"], "rm\\ -rf /\n"),
    ("mapfile", ["-t", "arr"], "rm\n-rf\n/\n"),
    ("mapfile", ["arr"], "rm\n-rf\n/"),
    ("readarray", ["-t"], "rm\n-rf\n/\n"),  # MAPFILE
    ("mapfile", ["-t", "--", "arr"], "rm\n-rf\n/\n"),
    ("printf", ["-v", "arr", "%s %s", "rm", "-rf /"], ""),
    ("printf", ["-v", "arr", "rm -rf /"], ""),
]


def _bash_words(command: str, args: list[str], text: str, names: list[str]) -> list[list[str]]:
    """The words each name expands to in bash after ``command ARGS`` read ``text``."""
    show = "".join(f'set -f; printf "%s\\037" ${{{n}[@]}}; printf "\\036"; ' for n in names)
    call = " ".join(_quoted(a) for a in [command, *args])
    script = f"{call} < <(printf %s {_quoted(text)}); {show}"
    out = subprocess.run(
        ["bash", "-c", script], capture_output=True, timeout=30, check=False
    ).stdout.decode()
    return [part.split("\037")[:-1] for part in out.split("\036")[:-1]]


@pytest.mark.parametrize(("command", "args", "text"), FOLLOWED, ids=lambda v: repr(v)[:30])
def test_what_a_followed_call_sets_expands_to_bashs_words(
    command: str, args: list[str], text: str
) -> None:
    got = set_by([command, *args], text, None)
    assert got, "a call set_by follows sets something"
    names = [name for name, _, _ in got]
    want = _bash_words(command, args, text, names)
    assert [value.split() for _, value, _ in got] == want


# Calls set_by leaves alone: a character count, an option bash refuses, printf without -v,
# mapfile's line-picking options, no text to read.
NOT_FOLLOWED: list[tuple[list[str], str | None]] = [
    (["read", "-n", "3", "a"], "rm -rf /\n"),
    (["read", "-N3", "a"], "rm -rf /\n"),
    (["read", "-x", "a"], "rm -rf /\n"),
    (["read", "-d"], "rm -rf /\n"),  # an option missing its value
    (["read", "-a"], "rm -rf /\n"),
    (["mapfile", "-n", "1", "arr"], "rm\n-rf\n"),
    (["mapfile", "-s", "1", "arr"], "rm\n-rf\n"),
    (["printf", "rm -rf /"], None),
    (["printf", "-v"], None),
    (["printf", "-v", "x"], None),
    (["read", "a"], None),
]


@pytest.mark.parametrize(("argv", "text"), NOT_FOLLOWED, ids=lambda v: repr(v)[:30])
def test_a_call_set_by_does_not_follow_sets_nothing(argv: list[str], text: str | None) -> None:
    assert set_by(argv, text, None) == []


def test_read_fields_leaves_an_array_read_to_set_by() -> None:
    assert read_fields(["-a", "arr"], "rm -rf /\n", None) == []
    assert read_fields(["-ra", "arr"], "rm -rf /\n", None) == []
