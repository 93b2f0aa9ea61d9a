"""``unset 'name[key]'``, directly and through a nameref, as bash 5.2 does it: each text
run by bash and by the in-process shell; status, stdout and stderr compared.

``unset 'a[@]'`` unset the whole array (bash empties it and keeps it declared: a later
``a+=(x)`` or ``declare -p a`` sees an array); on an associative array it dropped
every key (bash drops the key ``@`` only); on a scalar any subscript but 0 was ignored
without bash's "not an array variable". The builtin and the nameref path each had a
copy of this; they share builtins.unset_element now. The nameref rows also run
paths no test ran (negative and arithmetic subscripts, a scalar's ``[0]``).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.dispatch.shell.shellrun import Runner, agrees_with_bash

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="bash is the oracle")

TEXTS = [
    "a=(1 2); unset 'a[@]'; declare -p a; a+=(x); declare -p a; b=(1); unset 'b[*]'; declare -p b",
    "declare -A m=([k]=v); unset 'm[@]'; declare -p m; declare -A n=([@]=1 [k]=2); "
    "unset 'n[@]'; declare -p n; declare -A o=([k]=2); unset 'o[*]'; declare -p o",
    "unset 'z[@]'; echo $?; x=1; unset 'x[1]'; declare -p x; unset 'x[@]' x; echo $?; declare -p x",
    "x=1; unset 'x[0]'; echo \"${x-gone}\"; a=(1 2 3); unset 'a[-1]' 'a[0]'; declare -p a; "
    "i=0; unset 'a[i+1]'; declare -p a",
    "declare -A m=([k]=v); declare -n r='m[@]'; unset r; declare -p m",
    "x=1; declare -n r='x[@]'; unset r; declare -p x; echo $?",
    "a=(x y z); declare -n l='a[-1]'; unset l; declare -p a; declare -n all='a[@]'; "
    "unset all; declare -p a; echo $?",
    "declare -A m=([k]=v [j]=w); declare -n r='m[k]'; echo \"$r\"; unset r; declare -p m",
    "a=(x y z); declare -n r='a[1]'; echo \"$r\"; declare -n l='a[-1]'; echo \"$l\"; "
    "declare -n s='a[@]'; echo \"$s\"; i=0; declare -n e='a[i+2]'; echo \"$e\"",
    "x=5; declare -n r='x[0]'; echo \"$r\"; declare -n q='x[1]'; echo \"[$q]\"; unset r; "
    'echo "[${x-unset}]"',
    # a nameref to an element read and set by arithmetic, [[ ]] and test -v
    "a=(1 2 3); declare -n r='a[1]'; echo $(( r + 1 )); declare -n l='a[-1]'; (( l += 5 )); "
    "echo ${a[@]}; [[ $r == 2 ]] && echo eq; declare -A m=([k]=4); declare -n q='m[k]'; "
    "echo $(( q * 2 )); x=7; declare -n s='x[0]'; echo $(( s ))",
    "a=(1 2 3); declare -n r='a[5]'; echo \"[${r:-unset}]\"; echo $(( r + 0 )); i=2; "
    "declare -n e='a[i]'; echo $((e)); test -v r; echo $?",
]


@pytest.mark.parametrize("source", TEXTS)
def test_unset_of_an_element_agrees_with_bash(run: Runner, tmp_path: Path, source: str) -> None:
    agrees_with_bash(run, tmp_path, source)
