"""Line continuations where the grammar loses them — each text run by bash and by the
in-process shell.

- A backslash-newline that ends the text: bash joins it to the end of the input and
  runs the line; the grammar called it an unexpected end of file (exit 2 — a hook's
  false block, and shell-guard judged the text by its words only).
- A backslash-newline inside an array element (gap 4 for ``a=(…)``): ``a=(r\\⏎m -rf)``
  holds ``rm``; the grammar gave two elements ``r`` and ``m``, so a command run from the
  array was not the one bash runs.
"""

from __future__ import annotations

import shutil

import pytest

from tests.dispatch.shell.shellrun import Runner, base_env, bash_result

BASH = shutil.which("bash")
pytestmark = pytest.mark.skipif(BASH is None, reason="bash is the oracle")

TEXTS = [
    "echo hi\\\n",
    "echo a; \\\n",
    "echo a # c\\\n",
    "echo a\\\\\n",  # an escaped backslash, then the newline: no continuation
    "echo a\\\\\\\n",
    'f() { echo "f $1"; }; f x\\\n',
    "x=1\\\n",
    "echo 'q\\\n",  # unterminated either way: bash's status 2
    'a=(r\\\nm -rf); echo ${#a[@]} "${a[0]}"',
    'a=( git reset --\\\nhard ); echo "${a[@]}"',
    'declare -A m=([k]=a\\\nb [j]=c); echo "${m[k]} ${m[j]}"',
    'a=(x "y"\\\n"z" $HOME\\\n/q); printf "<%s>" "${a[@]}"',
    "a=(x \\\n y); echo ${#a[@]}",
    "a=(\\\nx y\\\n); echo ${#a[@]} ${a[1]}",
    "a=(x); a+=(p\\\nq); echo ${a[@]}",
]


@pytest.mark.parametrize("source", TEXTS)
def test_line_continuations_as_bash(run: Runner, source: str) -> None:
    env = base_env(HOME="/home/someone")
    ran = run(source, env=env)
    assert (ran.code, ran.out) == bash_result(source, env), ran.err
