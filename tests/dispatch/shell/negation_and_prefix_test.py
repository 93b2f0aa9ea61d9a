"""``!`` (its groups, ``set -e`` under it) and ``A=1 B=$A cmd`` (left to right).

Every row was run through bash 5 (``bash -c SOURCE hookrun`` in an empty directory, the
shell tests' environment) and agrees with it; ``bash_confirm_test.py`` runs them through
bash again. stderr is hookrun's own wording and is not compared.
"""

from __future__ import annotations

import pytest

from tests.dispatch.shell.shellrun import Runner


@pytest.mark.parametrize(
    ("source", "code", "stdout"),
    [
        # `!` ignores -e inside only when -e was on: else a `set -e` inside takes effect.
        ("f() { set -e; false; echo x; }; ! f; echo y", 1, ""),
        ("set -e; f() { false; echo x; }; ! f; echo y", 0, "x\ny\n"),
        ("f() { set -e; false; echo x; }; if f; then echo t; fi; echo y", 0, "x\nt\ny\n"),
        ("f() { set -e; false; echo x; }; ! { f; echo in; }; echo y", 1, ""),
        ("f() { set -e; false; echo x; }; ! (f); echo y", 0, "y\n"),
        ("set -e; ! { set -e; false; echo in; }; echo done", 0, "in\ndone\n"),
        ("trap 'echo ERR' ERR; ! { false; echo in; }; echo done", 0, "ERR\nin\ndone\n"),
        ("set -e; trap 'echo ERR' ERR; ! { false; echo in; }; echo done", 0, "in\ndone\n"),
        ("trap 'echo ERR' ERR; ! true; echo done", 0, "done\n"),
        # `! { …; }` is a negated group (gap 22), in any position.
        ("! { echo 1; false; }; echo $?", 0, "1\n0\n"),
        ("if ! { false; }; then echo neg; fi", 0, "neg\n"),
        ("! { echo a; } | cat; echo $?", 0, "a\n1\n"),
        ("! { true; } && echo no || echo yes", 0, "yes\n"),
        ("while ! { false; }; do echo w; break; done", 0, "w\n"),
        ("! { ! { true; }; }; echo $?", 0, "0\n"),
        ("f() { ! { return 3; }; }; f; echo $?", 0, "3\n"),
        ("! { echo x; } >f; echo $?; cat f", 0, "1\nx\n"),
        ("x='!'; echo \"! {\" $x", 0, "! { !\n"),
        # Prefix assignments are made left to right.
        (
            "FOO=foo BAR=\"[$FOO][$BAZ]\" BAZ=baz sh -c 'echo $FOO $BAR $BAZ'",
            0,
            "foo [foo][] baz\n",
        ),
        ('f() { echo "$A $B"; }; A=1 B=$A+ f; echo "[$A][$B]"', 0, "1 1+\n[][]\n"),
        ("A=x; A=1 B=$A sh -c 'echo $A $B'", 0, "1 1\n"),
    ],
)
def test_negation_and_prefix_assignments_agree_with_bash(
    run: Runner, source: str, code: int, stdout: str
) -> None:
    got = run(source)
    assert (got.code, got.out) == (code, stdout), got.err
