"""A builtin given an option it does not take answers as bash does: the message, the
usage line, status 2 — confirmed by running the same text in bash (stderr compared
too: the ``NAME: line N:`` that bash puts first is read as hookrun's ``hookrun:``)."""

from __future__ import annotations

import os
import shutil

import pytest

from tests.dispatch.shell.shellrun import Runner, agrees_with_bash

BASH = shutil.which("bash")

# Every builtin that answers through builtins._invalid / _letters, and one bundled
# form each where the bad letter is not the first.
CASES = [
    "type -x ls",
    "type -ay ls",
    "jobs -y",
    "jobs -ly",
    "enable -y",
    "declare -y x",
    "typeset -y x",
    "export -y x",
    "readonly -y x",
    "f() { local -y x; }; f",
    "cd -x",
    "cd -Lx /",
    "hash -y",
    "hash -ry",
    "hash -p",
    "set -y",
    "set +y",
    "set -ey",
    "shopt -y",
    "shopt -sy",
    "trap -y",
    "trap -xy",
]


@pytest.mark.skipif(BASH is None, reason="bash is not installed")
@pytest.mark.parametrize("source", CASES)
def test_an_invalid_option_is_answered_as_bash_does(
    run: Runner, tmp_path: os.PathLike[str], source: str
) -> None:
    ran = agrees_with_bash(run, tmp_path, f"{source}; echo status=$?")
    assert ran.code == 0 and "usage:" in ran.err  # (the line this table is about)
