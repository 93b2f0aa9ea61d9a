"""A ``)`` inside a bracket expression of a ``${…}`` operand (gap 37) — each line run by
bash and by the in-process shell.

Found in a published hook (``path="${path%%[,;)\\"\\'\\\\]*}"``): the grammar ended the
expansion at the ``)``, so the whole script was a syntax error — exit 2, which a host
reads as a block on every tool call, where bash trims the path and allows.
"""

from __future__ import annotations

import shutil

import pytest

from tests.dispatch.shell.shellrun import Runner, base_env, bash_result

BASH = shutil.which("bash")
pytestmark = pytest.mark.skipif(BASH is None, reason="bash is the oracle")

LINES = [
    'p="a,b)c"; echo "${p%%[,;)]*}"',
    'p="a)b"; echo ${p%%[)]*}',
    'p="a)b"; echo "${p/[)]/x}"',
    'p="a)b(c"; echo "${p//[()]/-}"',
    'a=(x y); echo "${a[1]%%[)]*}"',
    'p="a)b,c"; echo "${p#*[),]}"',
    'path="/a/b,c;d"; path="${path%%[,;)\\"\\\'\\\\]*}"; echo "$path"',
    'p="))x"; echo "${p##*[!)]}" "${p%%[!)]*}"',
    'p="a)b"; case ${p%%[)]*} in a) echo trimmed;; esac',
    'f() { echo "${1%%[)]*}"; }; f "q)r"',
    'p="a)b"; [[ ${p%%[)]*} == a ]] && echo eq',
    "p='x)y'; echo \"${p/[)]/$(echo Z)}\"",
    'p=ab; a=([0]=z); echo "${a[0]}" "${p%%[)b]*}"',
]


@pytest.mark.parametrize("source", LINES)
def test_parentheses_in_pattern_brackets_as_bash(run: Runner, source: str) -> None:
    env = base_env()
    ran = run(source, env=env)
    assert (ran.code, ran.out) == bash_result(source, env), ran.err
