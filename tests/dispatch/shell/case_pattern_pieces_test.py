"""A ``case`` pattern the grammar gives in pieces — each script run by bash and by the
in-process shell, and read the same by both front-end paths.

tree-sitter-bash reads ``*"rm -rf"*`` as three adjacent nodes (a glob, a string, a
glob), and the converter made each a pattern of its own: ``*|"rm -rf"|*`` (gap 39).
The lone ``*`` matched every value, so ``case $cmd in *"git status"*) exit 0;; *) exit 2;;
esac`` allowed ``rm -rf /`` (a fail-open) and ``*"rm -rf"*) exit 2`` blocked ``ls``.
The fast path read these lines right, so only scripts it leaves to tree-sitter (a
function, a here-document, a construct it does not read) were wrong.
"""

from __future__ import annotations

import shutil

import pytest

from hookrun.shellsyntax import parser, plain
from tests.dispatch.shell.shellrun import Runner, base_env, bash_result

BASH = shutil.which("bash")

# `f() { :; }` first: the fast path leaves a function to tree-sitter.
SCRIPTS = [
    'c="ls -la"; f() { :; }; case "$c" in *"rm -rf"*) echo BLOCK; exit 2;; esac; echo ok',
    'c="rm -rf /"; f() { :; }; case "$c" in *"git status"*) exit 0;; *) echo BLOCK; exit 2;; esac',
    'c=ls; f() { :; }; case $c in *\'rm -rf\'*) echo BLOCK;; *"a"|"b c"*) echo two;; esac',
    'c=abc; f() { :; }; case $c in a"b"*) echo pre;; esac',
    'c=abc; f() { :; }; case $c in *"b"c) echo suf;; esac',
    'v=b; c=abc; f() { :; }; case $c in *"$v"*) echo var;; esac',
    'v=b; c=abc; f() { :; }; case $c in "a"$v*) echo mix;; esac',
    'c=xay; f() { :; }; case $c in (*"a"*|"q") echo paren;; esac',
    'c=xay; f() { :; }; case $c in *[a]"y") echo br;; x*"a"?) echo q;; esac',
    'c="p q"; f() { :; }; case $c in "p"\\ "q") echo esc;; esac',  # (gap 42)
    'c=z; f() { :; }; case $c in *"a"*) echo no;; "z") echo plain;; esac',
    'c="Git PUSH"; f() { :; }; shopt -s nocasematch; case $c in *"push"*) echo nc;; esac',
    'c=ls; cat <<EOF >/dev/null\nx\nEOF\ncase "$c" in *"rm -rf"*) echo NO; exit 2;; esac; echo ok',
]


@pytest.mark.skipif(BASH is None, reason="bash is the oracle")
@pytest.mark.parametrize("source", SCRIPTS)
def test_case_patterns_in_pieces_as_bash(run: Runner, source: str) -> None:
    env = base_env()
    ran = run(source, env=env)
    assert (ran.code, ran.out) == bash_result(source, env), ran.err


@pytest.mark.parametrize(
    "line",
    [
        'case x in *"push --force"*) exit 2;; esac',
        'case x in *"a"|b*) a;; esac',
        "case x in *'a b'*) a;; esac",
        'case x in (*"a"*|"b"c) a;; esac',
    ],
)
def test_both_paths_read_one_pattern(line: str) -> None:
    fast = plain.read(line)
    assert fast is not None
    assert fast == parser.parse_tree(line)
