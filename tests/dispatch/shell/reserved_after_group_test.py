"""A reserved word right after a group or subshell (``if { a; } then``; gap 27).

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
        (
            "set -o errexit; if { ! false; false; true; } then echo true; fi; false; echo done",
            1,
            "true\n",
        ),
        ("if (true) then echo t; fi", 0, "t\n"),
        ("while { false; } do :; done; echo w", 0, "w\n"),
        ("if true; then { echo a; } fi", 0, "a\n"),
        ("if false; then :; else { echo b; } fi", 0, "b\n"),
        ("for i in 1; do { echo $i; } done", 0, "1\n"),
        ("case x in x) { echo c; } esac", 0, "c\n"),
        ("{ { echo in; } }", 0, "in\n"),
        ("echo '{ a; } then'", 0, "{ a; } then\n"),
    ],
)
def test_reserved_word_after_a_group_agrees_with_bash(
    run: Runner, source: str, code: int, stdout: str
) -> None:
    got = run(source)
    assert (got.code, got.out) == (code, stdout), got.err
