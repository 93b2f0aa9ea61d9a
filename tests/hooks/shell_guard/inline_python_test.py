"""python -c code: what it would run, read with ast (never evaluated)."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from hookrun.hooks.shell_guard.inline_python import calls, may_call, read_calls


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


_SNIPPETS = [
    "import os", "import subprocess as sp", "from subprocess import run", "import shutil",
    "from os import system", "print('x')", "json.load(open('d.json'))['k']", "x = 1",
    "os.system('rm -rf /')", "sp.run(['rm', '-rf', '/'])", "run(['ls'])", "shutil.rmtree('/')",
    "os.remove('f')", "p.unlink()", "getattr(os, 'system')('ls')", "os.popen('ls')",
    "ｓｙｓｔｅｍ('rm -rf /')", "os.ｓｙｓｔｅｍ('rm -rf /')", "subprocess.Popen('ls', shell=True)",
    "pty.spawn('sh')", "commands.getoutput('ls')", "f = lambda: os.rmdir('x')", "import pathlib",
    "for f in fs: f.remove()", "if x: sys.exit(1)",
]  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_SNIPPETS), max_size=4).map("; ".join))
@example("os.ｓｙｓｔｅｍ('rm -rf /')")
def test_code_the_text_check_passes_over_calls_nothing(code: str) -> None:
    """``calls`` parses only code that may call what it reports: what the parse finds in
    code the check passes over is nothing (NFKC-folded identifiers included)."""
    if not may_call(code):
        assert read_calls(code) == ([], [])
    assert calls(code) == read_calls(code)
