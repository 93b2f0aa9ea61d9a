"""``set``/``shopt`` listings and queries, ``set -``, and ``[`` string order.

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
        ("[ b \\> a ] && echo y; [ a \\< b ] && echo y2", 0, "y\ny2\n"),
        ("[ a -xx b ]; echo $?", 0, "2\n"),
        ('set - a b; echo "$# $1"', 0, "2 a\n"),
        ("set -o > /dev/null; echo $?; set +o | grep -c errexit", 0, "0\n1\n"),
        ("set -o errexit; set +o errexit; echo $-", 0, "hBc\n"),
        ("shopt -q nullglob; echo $?; shopt -s nullglob; shopt -q nullglob; echo $?", 0, "1\n0\n"),
        ("shopt -z; echo $?", 0, "2\n"),
        ("shopt -q nosuchopt; echo $?", 0, "1\n"),
        (
            "shopt -s nullglob; shopt -p nullglob extglob",
            1,
            "shopt -s nullglob\nshopt -u extglob\n",
        ),
        ("shopt -s nullglob; shopt -s | grep -c nullglob", 0, "1\n"),
        ("shopt -u nullglob; shopt -u | grep -c nullglob", 0, "1\n"),
        ("shopt -po errexit; shopt -o -p nounset", 1, "set +o errexit\nset +o nounset\n"),
        ("shopt -s -o errexit; echo $-", 0, "ehBc\n"),
        ("shopt nullglob extglob; echo $?", 0, "nullglob       \toff\nextglob        \toff\n1\n"),
        ("shopt -q nullglob extglob; echo $?", 0, "1\n"),
        ("set -o noglob; echo *; set +o noglob", 0, "*\n"),
        # vi and emacs are accepted (no prompt here) and exclude each other, as in bash.
        ("set -o vi; echo $?; set -o emacs; echo $?", 0, "0\n0\n"),
        (
            "show() { shopt -o -p | egrep 'emacs$|vi$'; echo ___; }; "
            "show; set -o emacs; show; set -o vi; show",
            0,
            "set +o emacs\nset +o vi\n___\nset -o emacs\nset +o vi\n___\n"
            "set +o emacs\nset -o vi\n___\n",
        ),
        ("set -o vi; set +o vi; shopt -o -p vi emacs", 1, "set +o vi\nset +o emacs\n"),
        (
            "set -o emacs; set -o | grep -E '^(vi|emacs) '",
            0,
            "emacs          \ton\nvi             \toff\n",
        ),
        ("set -o vi; set +o emacs; shopt -po vi emacs", 1, "set -o vi\nset +o emacs\n"),
    ],
)
def test_set_and_shopt_agree_with_bash(run: Runner, source: str, code: int, stdout: str) -> None:
    got = run(source)
    assert (got.code, got.out) == (code, stdout), got.err
