"""Gap 28: a newline ends a simple command, whatever tree-sitter-bash 0.25 reads.

The grammar reads ``a | b | c⏎d && e`` (a pipeline of three or more stages, then a list
on the next line) as ``c d`` — one command — and with a comment at the end of the first
line it dropped the next line altogether. So ``ls | cat | head⏎rm -rf / && true`` was a
harmless ``head`` to shell-guard (allowed), and the interpreter ran ``cat d``. bash is
the oracle for what runs; shell-guard must deny what bash would run.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from hookrun.dispatch import run
from hookrun.hooks.base import PolicyContext
from hookrun.hooks.shell_guard import POLICY, engine, where_for
from hookrun.shellsyntax import parser

LINES = [
    "echo a | cat | cat\necho d && echo e",
    "echo a | cat | cat # x\necho d && echo e",
    "echo a | cat | cat\n# z\necho d && echo e",
    "echo a | cat | cat # x y\n# z\n\necho d && echo e",
    "echo a | cat | cat\n\n\necho d || echo e",
    "echo a | tr a b | cat\necho d && echo e | cat | cat\necho f && echo g",
    "echo a | cat | cat # c \\\necho d && echo e",
    "echo a | cat | cat >f\necho d && echo e; cat f; rm f",
    "echo a | cat | cat 2>/dev/null\necho d && echo e",
    # line continuations stay one command; gaps 15 and 16 as before
    'x=1 >f\necho "$x"; ls f; rm f',
    "x=1 y=2\necho $x$y | cat | cat\necho d && echo e",
    "echo a | cat | cat \\\n && echo e",
    "echo a | cat | cat \\\\\necho d && echo e",
    "echo a\n\\echo 5",
]


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is the oracle")
@pytest.mark.parametrize("line", LINES)
def test_the_in_process_shell_runs_what_bash_runs(line: str, tmp_path: Path) -> None:
    ours = run(line, cwd=str(tmp_path), env=dict(os.environ), timeout=10)
    bash = subprocess.run(["bash", "-c", line], capture_output=True, cwd=tmp_path, timeout=10)
    assert (ours.stdout, ours.exit_code) == (bash.stdout, bash.returncode)


@pytest.mark.parametrize(
    ("line", "count"),
    [("a | b | c\nd && e", 2), ("a | b | c # x\nd && e", 2), ("a | b | c \\\nd && e", 1)],
)
def test_the_tree_has_a_statement_a_line(line: str, count: int) -> None:
    assert len(parser.parse(line).stmts) == count


@pytest.mark.parametrize(
    "line",
    [
        "ls | cat | head\nrm -rf / && true",
        "ls | cat | head # list\nrm -rf / && true",
        "ls | cat | head\n# then\nrm -rf / || true",
        "git log | grep x | head -5\nrm -rf ~ && echo done",
    ],
)
def test_shell_guard_denies_the_line_after_a_long_pipeline(line: str) -> None:
    ctx = PolicyContext(
        "/home/user/project", "/home/user/project", "/nonexistent", {"HOME": "/home/user"}
    )
    where = where_for({"cwd": "/home/user/project"}, POLICY.bind({}), ctx)  # type: ignore[arg-type]
    assert [f.rule for f in engine.judge(line, where)], line
