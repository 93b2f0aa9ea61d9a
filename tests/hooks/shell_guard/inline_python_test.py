"""python -c code: what it would run, read with ast (never evaluated)."""

from __future__ import annotations

import pytest

from hookrun.hooks.shell_guard.inline_python import calls


@pytest.mark.parametrize(
    ("code", "shell", "argvs"),
    [
        ("import os; os.system('rm -rf /')", ["rm -rf /"], []),
        ("import os; os.popen('ls').read()", ["ls"], []),
        ("import subprocess; subprocess.run(['git', 'push', '-f'])", [], [["git", "push", "-f"]]),
        ("import subprocess as sp; sp.check_call('make', shell=True)", ["make"], []),
        ("from subprocess import run; run(['ls'])", [], [["ls"]]),
        ("import shutil; shutil.rmtree('build')", [], [["rm", "-rf", "build"]]),
        ("import shutil, x; shutil.rmtree(x.path)", [], [["rm", "-rf", "$python-expr"]]),
        ("import os; shutil.rmtree(os.getcwd())", [], [["rm", "-rf", "$PWD"]]),
        ("print('rm -rf /')", [], []),
        ("this is not python (", [], []),
    ],
)
def test_inline_python_calls_are_found(code: str, shell: list[str], argvs: list[list[str]]) -> None:
    found_shell, found_argvs = calls(code)
    assert found_shell == shell
    assert [[w.text for w in argv] for argv in found_argvs] == argvs
