"""Subscripts the grammar's arithmetic cannot read (gap 23), and integer bases.

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
        ("a=(1 2 3); echo $(( a[1] )); echo $(( a[1][1] )); echo after", 1, "2\n"),
        ("foo=bar; echo $(( x$foo[5] = 42 )); echo ${xbar[5]}", 0, "42\n42\n"),
        ("foo=bar; xbar[5]=42; echo $(( x$foo[5]++ )) ${xbar[5]}", 0, "42 43\n"),
        ("i=(0 1 2); a=(5 6 7); echo $(( a[i[2]] ))", 0, "7\n"),
        ("i=(0 1 2); (( a[i[1]] = 9 )); echo ${a[1]}", 0, "9\n"),
        ("a=(1 2 3); (( a[1][1] )); echo $?", 0, "1\n"),
        ("echo $(( 02#0110 )); echo $?", 1, ""),
        ("echo $(( 2#0110 ))", 0, "6\n"),
        ("echo $(( (1 + 2) * 3 )) $(( $((1)) + (2) ))", 0, "9 3\n"),
        # set -u: a name with no value at all is unbound; a missing element is 0.
        ("set -u; echo $(( undef[0] )); echo after", 127, ""),
        ("set -u; a=(1); echo $(( a[3] )); echo after", 0, "0\nafter\n"),
        ("set -u; echo $(( undef )); echo after", 127, ""),
        ("set -u; declare -A A; echo $(( A[k] )); echo after", 127, ""),
        ("set -u; a=(1 2); echo $(( a[1] )) ${#a[@]}", 0, "2 2\n"),
        ("set -u; declare -A A=([x]=1); echo $(( A[k] )); echo after", 0, "0\nafter\n"),
        ("set -u; declare -a B; echo $(( B[0] )); echo after", 127, ""),
        ("set -u; x=5; echo $(( x[1] )); echo after", 0, "0\nafter\n"),
    ],
)
def test_subscripts_in_arithmetic_agree_with_bash(
    run: Runner, source: str, code: int, stdout: str
) -> None:
    got = run(source)
    assert (got.code, got.out) == (code, stdout), got.err
