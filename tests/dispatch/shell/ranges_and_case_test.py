"""Bracket ranges written backwards, and case conversion of letters without a
one-letter case partner — each line run by bash and by the in-process shell.

bash: a reversed range (``[z-a]``) matches nothing while the rest of its bracket still
counts (``echo [spam-eggs]`` lists a file ``a``); Python's ``re`` refuses such a range,
which made pathname expansion an internal error. ``${v^^}`` converts one character at a
time to one character (towupper): ß and ﬀ stay, ᾳ becomes ᾼ, İ lowers to i — Python's
full mappings give SS, FF, ΑΙ and i + a combining dot.
"""

from __future__ import annotations

import os
import shutil

import pytest

from tests.dispatch.shell.shellrun import Runner, base_env, bash_result

BASH = shutil.which("bash")
pytestmark = pytest.mark.skipif(BASH is None, reason="bash is the oracle")

PATTERNS = [
    "[z-a]", "[!z-a]", "[xz-a]", "[z-ax]", "[b-a-c]", "[--a]", "[a--]", "[\\z-a]",
    "[a-\\c]", "[c-\\a]", "[spam-eggs]", "[a-c]", "[!a-c]", "[a-]", "[-a]", "[]-a]",
    "[z-[:alpha:]]", "[[:alpha:]-a]", "x[b-a]*",
]  # fmt: skip

RANGES = [
    # case: each pattern against a few words
    "for p in " + " ".join(f"'{p}'" for p in PATTERNS) + "; do for v in b x - c ] Z xb; do "
    'case $v in $p) echo "$p $v";; esac; done; done',
    # [[ == ]] and ${v/pat/rep} take the same translation
    'for v in b a -; do [[ $v == [b-a-c] ]] && echo "dbl $v"; done; v=abc; '
    'echo "${v/[c-a]/X} ${v//[z-ax]/Y} ${v/[b-a]b/Z}"',
    # pathname expansion
    "touch a p xb; echo [spam-eggs] [z-a] x[b-a]* [!z-a] [c-a]*",
]

CASES = [
    "for v in straße İSTANBUL ǰx ᾳ ŉ ﬀ ΣΑΣ ǅx Straße ÀÉÎ àéî ß; do "
    'echo "${v^^} ${v,,} ${v^} ${v,} ${v^^[sß]} ${v,,[A-ZÀ-ÿ]}"; done',
    'v=straße; a=(ﬀ ß x); echo "${v@U} ${v@u} ${a[@]^^} ${a[*]^}"; v=İX; echo "${v@L} ${v,,}"',
]


@pytest.mark.parametrize("source", RANGES)
def test_reversed_ranges_as_bash(run: Runner, tmp_path: os.PathLike[str], source: str) -> None:
    ours_dir, bash_dir = os.path.join(tmp_path, "ours"), os.path.join(tmp_path, "bash")
    os.mkdir(ours_dir)
    os.mkdir(bash_dir)
    ran = run(source, cwd=ours_dir)
    assert (ran.code, ran.out) == bash_result(source, base_env(), cwd=bash_dir), ran.err


@pytest.mark.parametrize("source", CASES)
def test_case_conversion_as_bash(run: Runner, tmp_path: os.PathLike[str], source: str) -> None:
    env = base_env(LC_ALL="C.UTF-8")
    want = bash_result("printf 'ß\\n' | { read -r c; echo ${c^^}; }", env, cwd=tmp_path)
    if want != (0, "ß\n"):  # no UTF-8 locale here: bash would convert bytes
        pytest.skip("bash has no C.UTF-8 locale on this machine")
    ran = run(source, env=env)
    assert (ran.code, ran.out) == bash_result(source, env, cwd=tmp_path), ran.err
