"""``exit``/``return`` with too many arguments, and a file without a shebang run as the
script bash would run it — each run by bash and by hookrun.

``exit 2 3`` ended the hook with 2 (a host reads it as a block); bash reports "too many
arguments" and ends with 1 (a `-c` string), or goes on after the line (a script file).
A hook file without a shebang (the ``script`` route) ran as a ``-c`` string, so its
errors ended it as a ``-c`` string's do, not as the file bash runs.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from hookrun.dispatch import run as dispatch_run
from tests.dispatch.shell.shellrun import Runner, base_env, bash_result

BASH = shutil.which("bash")
pytestmark = pytest.mark.skipif(BASH is None, reason="bash is the oracle")

LINES = [
    "exit 2 3; echo after",
    "exit 2 3\necho line2",
    'f() { return 2 3; echo in; }; f; echo "r=$?"',
    "exit abc 3",
    "f() { return 4; }; f; echo $?; exit 3 ; echo no",
]


@pytest.mark.parametrize("source", LINES)
def test_exit_arguments_as_bash(run: Runner, source: str) -> None:
    env = base_env()
    ran = run(source, env=env)
    assert (ran.code, ran.out) == bash_result(source, env), ran.err


SCRIPTS = [
    "exit 2 3\necho line2\n",
    'f() { return 4 5; echo in; }; f; echo "r=$?"\necho line2\n',
    'echo "flags=[${-//[^c]/}]"\n',
    'set -u\necho "$nosuch"\necho after\n',
    "echo ${x:?needed}\necho after\n",
]


@pytest.mark.parametrize("text", SCRIPTS)
def test_a_file_without_a_shebang_runs_as_bash_runs_it(tmp_path: Path, text: str) -> None:
    script = tmp_path / "hook"
    script.write_text(text)
    script.chmod(0o755)
    env = base_env()
    assert BASH is not None
    want = subprocess.run(
        [BASH, str(script)], env=env, capture_output=True, timeout=30, check=False, cwd=tmp_path
    )
    got = dispatch_run(str(script), cwd=os.fspath(tmp_path), env=env, timeout=30)
    assert got.route == "script"
    assert (got.exit_code, got.stdout) == (want.returncode, want.stdout), got.stderr
