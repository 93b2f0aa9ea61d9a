"""``ulimit`` — each line run by bash and in-process; the host process keeps its limits.

``ulimit`` was "command not found" (127: under ``set -e`` the hook died). The shell runs
inside hookrun's process, so a limit set here is the one its children run under
(``setrlimit`` in the child before exec), never hookrun's own.
"""

from __future__ import annotations

import shutil
import sys

import pytest

from tests.dispatch.shell.shellrun import Runner, base_env, bash_result

BASH = shutil.which("bash")
pytestmark = [
    pytest.mark.skipif(BASH is None, reason="bash is the oracle"),
    pytest.mark.skipif(sys.platform == "win32", reason="no resource limits on Windows"),
]

LINES = [
    "ulimit; echo $?",
    "ulimit -a",
    "ulimit -Ha",
    "ulimit -n; ulimit -Hn; ulimit -Sn; ulimit -n -c",
    "ulimit -P; echo $?",
    "ulimit -b; echo $?",
    "ulimit -n abc; echo $?",
    "ulimit -c 0; echo $?; ulimit -c; ulimit -Sc unlimited; echo $?",
    "ulimit -t 5; ulimit -t; ulimit -Ht; sh -c 'ulimit -t'",
    "ulimit -n 64; ulimit -n; sh -c 'ulimit -n; ulimit -Hn'",
    "ulimit -Sn 100; ulimit -n; ulimit -Hn; bash -c 'ulimit -Sn'; (ulimit -n 50; ulimit -n; sh -c 'ulimit -n'); ulimit -n",  # noqa: E501
    "ulimit -Sv 1000000; ulimit -v; sh -c 'ulimit -v'; ulimit -Hv",
    "ulimit -f hard; echo $?; ulimit -f soft; echo $?; ulimit -f",
    "ulimit -p; ulimit -p 16; echo $?",
    "set -e; ulimit -c 0; ulimit -n >/dev/null; echo survived",
    "ulimit -s 100; ulimit -s; sh -c 'ulimit -s'",
    "ulimit -Hn 100; echo $?; ulimit -Sn 200; echo $?; ulimit -n",
    "ulimit -u 5000; sh -c 'ulimit -u'; ulimit -Hu",
    "ulimit -n 64; sh -c 'ulimit -n; ls /dev/fd/3 >/dev/null && echo three' 3</dev/null",
    "ulimit -n 70; sh -c 'ulimit -n' | cat; sh -c 'ulimit -n' & wait",
    "f() { ulimit -c 0; sh -c 'ulimit -c'; }; f; $(ulimit -t 7; echo true); x=$(ulimit -t 9; sh -c 'ulimit -t'); echo $x; ulimit -t",  # noqa: E501
    # the mode letters in every grouping, and the named values with each mode
    "ulimit -HSn 100; echo $?; ulimit -Hn; ulimit -Sn",
    "ulimit -aS | head -3; ulimit -Sa -H | head -2; ulimit -H -a | tail -1",
    "ulimit -n -- 50; echo $?; ulimit -n; ulimit --; echo $?",
    "ulimit -Hf soft; echo $?; ulimit -Hf; ulimit -Sc hard; ulimit -c",
    "ulimit -Hn unlimited; echo $?; ulimit -n -H hard; echo $?; ulimit -Z; echo $?",
    "ulimit -SS -HH -t 9; ulimit -t; ulimit -Ht; ulimit -Sa | grep cpu",
]


@pytest.mark.parametrize("source", LINES)
def test_ulimit_as_bash(run: Runner, source: str) -> None:
    env = base_env()
    ran = run(source, env=env)
    assert (ran.code, ran.out) == bash_result(source, env), ran.err


def test_ulimit_leaves_the_host_process_limits_alone(run: Runner) -> None:
    import resource

    names = ("RLIMIT_NOFILE", "RLIMIT_CORE", "RLIMIT_CPU", "RLIMIT_AS", "RLIMIT_FSIZE")
    before = {n: resource.getrlimit(getattr(resource, n)) for n in names}
    ran = run("ulimit -n 64; ulimit -c 0; ulimit -t 3; ulimit -v 100000; ulimit -f 10; ulimit -n")
    assert (ran.code, ran.out) == (0, "64\n"), ran.err
    assert {n: resource.getrlimit(getattr(resource, n)) for n in names} == before
