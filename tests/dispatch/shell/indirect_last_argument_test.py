"""``${!#}``, the last positional parameter — each line run by bash and in-process.

The common idiom for "the last argument" (``last=${!#}``) was a bad substitution: the
grammar gives the ``#`` after ``!`` as a bare token, not a parameter name, so the
converter refused it and a hook written that way stopped with an error.
"""

from __future__ import annotations

import shutil

import pytest

from tests.dispatch.shell.shellrun import Runner, base_env, bash_result

BASH = shutil.which("bash")
pytestmark = pytest.mark.skipif(BASH is None, reason="bash is the oracle")

LINES = [
    'set -- a b c; echo "${!#}"',
    "set -- a b c; echo ${!##}",
    "set -- a b; echo ${!#:-d}",
    'set -- a b c; echo "${!#%c}x"',
    'f() { echo "last=${!#} n=$#"; }; f x y "z w"',
    'f() { local last="${!#}"; echo "${last^^}"; }; f one two',
    "set -- a b c; x='#'; echo ${!x}",
    'set -- p q; for a in "$@"; do [ "$a" = "${!#}" ] && echo "$a is last"; done',
]


@pytest.mark.parametrize("source", LINES)
def test_last_positional_parameter_as_bash(run: Runner, source: str) -> None:
    env = base_env()
    ran = run(source, env=env)
    assert (ran.code, ran.out) == bash_result(source, env), ran.err
