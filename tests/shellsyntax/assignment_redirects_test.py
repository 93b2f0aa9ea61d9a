"""Gap 32 inside a list: an assignment with redirections and no command, after ``&&``/``||``/``|``.

``x=1 2>f && y=2 >g`` was read as ``(x=1 2>f && y=2); >g``: ``>g`` a statement of its
own, so ``false && y=2 >g`` created ``g`` (bash does not) and ``a && y=2 >g && b`` ran
``b`` whatever ``a`` did; before a newline (``a && y=2 >g⏎echo``) the next line's
command was y=2's; ``y=2 >g;echo`` was a syntax error; ``a && y=2 >g | cat`` (like
``a && b >g | c``, gap 34) piped the whole list. bash is the oracle: each generated
line runs in bash and in the in-process shell, in an empty directory, and what they
print, their status and the files they leave (names and contents) must be the same.
"""

from __future__ import annotations

import itertools
import os
import shutil
from pathlib import Path

import pytest

from hookrun.dispatch import run
from hookrun.shellsyntax import parser
from hookrun.shellsyntax.nodes import CallExpr
from hookrun.shellsyntax.walk import statements
from tests.shellsyntax.and_or_test import run_bash

_BEFORE = ("x=1 2>f", "true", "false", "! true")
_JOIN = (" && ", " || ", " &&\n", " | ")
_ASSIGN = ("y=2 >g", "y=2 z=3 2>g")
# What follows: more of the list, another list on the next line (bash ends the
# assignment's command at the newline), after a `;` with no blank.
_AFTER = ("", " && echo hi", " || echo no", " | cat", " &\nwait $!", "\necho hi", ";echo hi")
LINES = [
    f"{before}{join}{assign}{after}"
    for before, join, assign, after in itertools.product(_BEFORE, _JOIN, _ASSIGN, _AFTER)
]


def _files(where: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(where.iterdir())}


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is the oracle")
@pytest.mark.parametrize("line", LINES)
def test_what_runs_and_which_files_are_made_are_bashs(line: str, tmp_path: Path) -> None:
    source = f'{line}\necho "rc=$? x=$x y=$y"'
    theirs, ours = tmp_path / "bash", tmp_path / "ours"
    theirs.mkdir()
    ours.mkdir()
    bash = run_bash(source, theirs, timeout=30)
    ran = run(source, cwd=str(ours), env=dict(os.environ), timeout=30)
    assert (ran.stdout, ran.exit_code) == bash
    assert _files(ours) == _files(theirs)


@pytest.mark.parametrize("line", LINES)
def test_no_statement_is_redirections_alone(line: str) -> None:
    """The tree: ``>g`` stays y=2's (no statement of redirections alone)."""
    script = parser.parse_tree(line)
    for stmt in script.stmts:
        assert stmt.cmd is not None, line
    found = [line[s.pos : s.end] for s in statements(script.stmts) if isinstance(s.cmd, CallExpr)]
    assert any(text.startswith(("y=2 >g", "y=2 z=3 2>g")) for text in found), line
