"""``${v/pat/rep}`` and ``${v//pat/rep}`` on long values.

Each position tried every span with a regex match, so ``${s//x/yy}`` on 5,000
characters ran past a 10 s hook timeout (bash: at once) — the JSON-escaping idiom
``${s//\\"/\\\\\\"}`` on a tool's output hung the hook. A literal pattern is now one
``str.replace``; a position where no span can match is passed by one search, and the
spans tried are no wider than the pattern can be. ``replace_scan`` (the old way) is the
reference the shortcuts are compared with.
"""

from __future__ import annotations

import random
import shutil

import pytest

from hookrun.dispatch.shell.expand import replace, replace_scan
from tests.dispatch.shell.shellrun import Runner, base_env, bash_result

_ATOMS = [
    "a", "b", "x", "*", "?", "[ab]", "[!a]", "[a-c]", "\\*", "\\[", "[", "]", "\\\\", ".",
    "(", ")", "@(a|b)", "+(a)", "!(b)", "[[:alpha:]]", "é", "\\", "ab", "[]]",
]  # fmt: skip
_VALUE_CHARS = "abxc.*[]\\()éA"


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_replace_agrees_with_the_scan(seed: int) -> None:
    rnd = random.Random(seed)
    wrong = []
    for _ in range(6000):
        pat = "".join(rnd.choice(_ATOMS) for _ in range(rnd.randrange(1, 4)))
        value = "".join(rnd.choice(_VALUE_CHARS) for _ in range(rnd.randrange(0, 14)))
        mode = rnd.choice(["", "/", "/", "#", "%"])
        nocase = rnd.random() < 0.3
        got = replace(value, pat, "R", mode, nocase)
        want = replace_scan(value, pat, "R", mode, nocase)
        if got != want:
            wrong.append((value, pat, mode, nocase, got, want))
    assert not wrong, wrong[:5]


LINES = [
    "s=$(printf '%*s' 20000 '' | tr ' ' x); t=${s//x/yy}; echo ${#t}",
    "s=$(head -c 20000 /dev/zero | tr '\\0' a); t=${s//[^b]/_}; echo ${#t} ${t:0:3}",
    "s=$(head -c 20000 /dev/zero | tr '\\0' a); u=${s//a?/-}; echo ${#u}; echo ${s/a*/z}",
    's=$(printf \'"q"\\\\%.0s\' {1..5000}); e=${s//\\\\/\\\\\\\\}; e=${e//\\"/\\\\\\"}; '
    "echo ${#s} ${#e} ${e:0:12}",
    "s=$(printf 'ab\\n%.0s' {1..5000}); e=\"${s//$'\\n'/\\\\n}\"; echo ${#e}",
    "shopt -s nocasematch; s=$(printf 'aB%.0s' {1..5000}); t=${s//b/c}; echo ${t:0:6}",
]


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is the oracle")
@pytest.mark.parametrize("source", LINES)
def test_long_values_as_bash(run: Runner, source: str) -> None:
    env = base_env(LC_ALL="C.UTF-8")
    ran = run(source, env=env)
    assert (ran.code, ran.out) == bash_result(source, env), ran.err
