"""The interpreter's written-out paths for the common statement, against bash.

``exec_stmt`` sets ``PIPESTATUS`` for a simple command itself (pipestatus_of_one
written out, keeping the array when it already holds that one status); ``assign``
takes ``x=value`` first; arithmetic reads and writes variables through the expander's
bound methods; ``test``'s integer comparisons are tested in turn. Each row is run by
bash (``bash -c SOURCE hookrun`` in an empty directory with the shell tests'
environment) and in-process: the exit code and stdout must be bash's.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.dispatch.shell.shellrun import Runner, base_env, bash_result

BASH = shutil.which("bash")

ROWS = [
    # PIPESTATUS after simple commands: kept when it already holds the status, replaced
    # when it was changed in place, grown, unset or made associative.
    'true; echo "${PIPESTATUS[@]}"; false; echo "${PIPESTATUS[@]}"; false; echo ${PIPESTATUS[@]}',
    '(exit 3); echo "${PIPESTATUS[@]}"; true | false | true; echo ${PIPESTATUS[@]}; true',
    'true | false; true; echo "${PIPESTATUS[@]}"',
    'PIPESTATUS[0]=7; true; echo "${PIPESTATUS[@]}"',
    'false; PIPESTATUS[0]=1; false; echo "${PIPESTATUS[@]}"',
    'PIPESTATUS=(0 0); true; echo "${#PIPESTATUS[@]} ${PIPESTATUS[@]}"',
    'unset PIPESTATUS; true; echo "${PIPESTATUS[@]}"; x=1; echo ${PIPESTATUS[@]}',
    'false; x=$(exit 4); echo "$? ${PIPESTATUS[@]}"; ! true; echo "${PIPESTATUS[@]}"',
    'f() { return 5; }; f; echo "${PIPESTATUS[@]}"; { false; }; echo "${PIPESTATUS[@]}"',
    "set -e; true; false; echo not here",
    "trap 'echo err $?' ERR; false; true; (exit 6); echo end",
    # Assignments: scalar, append, element, array.
    'x=1; x+=2; echo $x; a=(1 2); a[1]=5; a+=(3); echo "${a[@]}"; a+=x; echo "${a[@]}"',
    'declare -A m; m[k]=v; m[k]+=w; echo "${m[k]}"; y=; y+=; echo "[$y]"',
    "readonly r=1; r=2; echo after",
    "x=1 y=$x; echo $x$y; HOME=/h; echo ~",
    # Arithmetic's variables: read, written, elements, set -u.
    "i=0; i=$((i+1)); echo $i $((i*3)) $((j)) $((i++)) $i",
    "a=(1 2); echo $((a[1]+1)) $((a[0]+=5)) ${a[@]} $((b[2]=4)) ${b[2]}",
    "s='1+2'; echo $((s*2)) $((s))",
    "set -u; i=1; echo $((i+1)); echo $((zz+1)); echo no",
    "set -u; a=(1); echo $((a[0]+1)) $((a[5])); echo $((q[0])); echo no",
    # test's integer comparisons, each way.
    "for op in -eq -ne -lt -le -gt -ge; do\n"
    "  for v in 1 2 3; do [ $v $op 2 ] && echo $op$v; done\n"
    "done",
    '[ " 3" -eq 3 ] && echo sp; [ 3 -eq x ]; echo $?; test 1 -gt; echo $?',
    "[ a -lt b ]; echo $?; [ 1 -ge 1 ] && [ 2 -ne 1 ] && test 5 -le 5 && echo ok; [ ]; echo $?",
    # Arithmetic's plan of a three-token text (made on the first evaluation, used after),
    # under what changes between two evaluations of one text.
    "for v in 1 -1 9223372036854775807 '' ' 7 ' abc 'q+1' -; do\n"
    "  q=2; x=$v; echo $((x+1)) $((x*2)) $((x<5)) $((x == 1)) $((1-x)) $((x^3))\n"
    "done",
    "i=0; while [ $i -lt 3 ]; do i=$((i+1)); echo $((i + 1)) $((i|8)); done; echo $i",
    "set -u; x=1; echo $((x+1)); unset x; echo $((x+1)); echo no",
    "readonly r=1; for k in 1 2; do r=$((r+1)); echo $r; done; echo after",
    "echo $((09+1)); echo $((09+1)); echo end",
    "a=a; echo $((a+1)); echo next; b=c; c=3; echo $((b+1)) $((b+1))",
]


@pytest.mark.skipif(BASH is None, reason="needs bash as the oracle")
@pytest.mark.parametrize("source", ROWS)
def test_common_statements_agree_with_bash(source: str, run: Runner, tmp_path: Path) -> None:
    work = tmp_path / "bash"
    work.mkdir()
    want = bash_result(source, base_env(), cwd=work, args=["hookrun"])
    ran = run(source)
    assert (ran.code, ran.out) == want, ran.err
