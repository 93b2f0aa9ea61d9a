"""``wait -n`` and ``kill -s`` with no signal — each line run by bash and in-process.

``wait -n`` (the next job to end) was "`-n': not a pid or valid job spec" (status 1;
bash: that job's status, 127 with no job), and ``kill -s`` without a signal was status 2
where bash gives 1.
"""

from __future__ import annotations

import shutil

import pytest

from tests.dispatch.shell.shellrun import Runner, base_env, bash_result

BASH = shutil.which("bash")
pytestmark = pytest.mark.skipif(BASH is None, reason="bash is the oracle")

LINES = [
    "wait -n; echo $?",
    "sleep 1 & (exit 3) & wait -n; echo $?; wait; echo $?",
    "(sleep 0.2; exit 4) & wait -n; echo $?; wait -n; echo $?",
    "(exit 5) & p=$!; sleep 1 & wait -n $p; echo $?",
    "kill -l 9; kill -l SIGTERM; kill -s; echo $?; kill -n; echo $?",
    "f() { echo a; }; f & wait -n; echo $?",
]


@pytest.mark.parametrize("source", LINES)
def test_job_builtins_as_bash(run: Runner, source: str) -> None:
    env = base_env()
    ran = run(source, env=env)
    assert (ran.code, ran.out) == bash_result(source, env), ran.err
