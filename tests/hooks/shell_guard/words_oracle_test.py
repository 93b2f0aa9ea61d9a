"""The words shell-guard reads off one shell word, against the words bash makes of it.

Generated words of quotes, ``$'…'``, command substitutions whose output has blanks at
either end or is empty, ``${IFS}``, brace lists nested and side by side with sequence
expressions, escapes and ``~"x"``: each runs in bash as ``set -- WORD`` (globbing
off) and the words bash passes must be the words :func:`words_of` gives, in bash's
order. Found by this oracle: a nested brace list was left unexpanded
(``git push {origin,{-f,x}} main`` pushes with -f: it was allowed), a list before a
sequence expression came out in another order, and an unquoted substitution that
prints nothing made an empty word (``$(true) rm -rf /`` runs rm: it was allowed).
"""

from __future__ import annotations

import random
import shutil
import subprocess

import pytest

from hookrun.hooks.shell_guard import treewords
from tests.hooks.shell_guard.conftest import Judge
from tests.hooks.shell_guard.treewords_test import expand_word

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="bash is the oracle")

ATOMS = [
    "rm", "-rf", "/", "a", "'b c'", '"d e"', "$'\\x72'", "$(printf ' rm ')",
    "$(printf 'x\\ny')", "$(printf '')", "$(printf '\\t')", "${IFS}", "{a,b}", "{x,'y z'}",
    "{1..3}", "{a..c}", "\\ ", "\\{", '~"x"', ",", "{", "}", "$(echo -rf /)",
    "\"$(printf ' q ')\"", "{a,{b,c}}", "{r,{m,n}}", "{,}", "{a,}", "{'',x}", "{1,{2..3}}",
]  # fmt: skip


def _words(seed: int, count: int) -> list[str]:
    rnd = random.Random(seed)
    return ["".join(rnd.choice(ATOMS) for _ in range(rnd.randint(1, 4))) for _ in range(count)]


def _bash_words(raws: list[str]) -> list[list[str]]:
    script = "set -f\n" + "".join(
        f"set -- {raw}; printf '%s\\037' \"$#\" \"$@\"; printf '\\036'\n" for raw in raws
    )
    out = subprocess.run(
        ["bash", "-c", script], capture_output=True, timeout=60, check=False
    ).stdout.decode("utf-8", "surrogateescape")
    parts = out.split("\036")[: len(raws)]
    assert len(parts) == len(raws)
    return [part.split("\037")[1:-1] for part in parts]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_word_gives_the_words_bash_gives_in_bashs_order(seed: int) -> None:
    raws = _words(seed, 300)
    wrong = [
        (raw, want, got)
        for raw, want in zip(raws, _bash_words(raws), strict=True)
        if (got := [w.text for w in expand_word(raw)]) != want
        # (past MAX_BRACE_WORDS the word is kept as written: a bound, not a reading)
        and not (len(want) > treewords.MAX_BRACE_WORDS and got == [raw])
    ]
    assert not wrong, wrong[:5]


@pytest.mark.parametrize(
    "command",
    [
        "git push {origin,{-f,x}} main",  # bash: git push origin -f x main
        "$(true) rm -rf /",  # the empty substitution is no word: rm is the command
        "$(printf '') rm -rf /",
        "rm -rf {x,{y,{/,z}}}",
    ],
)
def test_what_bash_runs_through_these_words_is_denied(judge: Judge, command: str) -> None:
    assert judge(command).decision == "deny"


@pytest.mark.parametrize(
    "command",
    [
        "{x,{rm,y}} -rf /",  # bash runs x (with rm y -rf / as its arguments)
        '""$(true) rm -rf /',  # a quoted empty word is the command: "command not found"
        "echo {rm,{-rf,/}}",
    ],
)
def test_words_that_do_not_run_a_delete_are_allowed(judge: Judge, command: str) -> None:
    assert judge(command).decision != "deny"
