"""``source``/``.`` of what is not a regular file — each line run by bash and in-process.

``source /dev/null`` said "No such file or directory" (bash: status 0), and a device, a
FIFO or ``/dev/stdin`` could not be sourced. ``/dev/stdin`` and ``/dev/fd/N`` are the
shell's own descriptors (the hook's input), never the host process's: ``/dev/fd/9``
with no 9 open in the shell is "No such file or directory", not a read of whatever the
host holds there.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.dispatch.shell.shellrun import Runner, base_env, bash_result

BASH = shutil.which("bash")
pytestmark = [
    pytest.mark.skipif(BASH is None, reason="bash is the oracle"),
    pytest.mark.skipif(sys.platform == "win32", reason="FIFOs and /dev/fd are POSIX"),
]

LINES = [
    "source /dev/null; echo $?",
    ". /dev/null a b; echo $? $#",
    "echo 'echo stdin $1' | source /dev/stdin x; echo $?",
    "echo 'echo fd3' > f3; source /dev/fd/3 3<f3; echo $?",
    "echo 'echo fd3b' > f3; . /dev/fd/3 3<f3",
    "mkfifo ff; (echo 'echo fifo $1' > ff &); source ff a; echo $?",
    "source /tmp; echo $?",
    "source /nonexist; echo $?",
    "source /dev/fd/9; echo $?",
    "printf 'x=1\\nreturn 3\\necho no\\n' > r.sh; source ./r.sh; echo $? $x",
    "source <(echo echo psub); echo $?",
    "mkdir d; source d; echo $?",
    "echo 'echo $# $1' > a.sh; set -- p q; source ./a.sh; source ./a.sh z",
]


@pytest.mark.parametrize("source", LINES)
def test_source_reads_what_bash_reads(run: Runner, source: str, tmp_path: Path) -> None:
    env = base_env()
    ours, theirs = tmp_path / "ours", tmp_path / "bash"
    ours.mkdir()
    theirs.mkdir()
    want = bash_result(source, env, cwd=theirs, stdin=subprocess.DEVNULL)
    ran = run(source, env=env, cwd=str(ours), timeout=20)
    assert (ran.code, ran.out) == want, ran.err
