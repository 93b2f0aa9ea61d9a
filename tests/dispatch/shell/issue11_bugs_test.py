"""Every bug and missing feature listed in issue 11, pinned by bash's own answer.

Each row's code and stdout were captured by running the source with ``bash -c SOURCE
hookrun`` in an empty directory with the shell tests' environment (bash 5.2); when bash
is on PATH the test runs it again and checks the row still is what bash does.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.dispatch.shell.shellrun import Runner, base_env, bash_result

BASH = shutil.which("bash")

# (what the issue says was wrong, source, exit code, stdout)
ROWS = [
    ("two elifs", "if false; then :; elif false; then :; elif true; then echo foo; fi", 0, "foo\n"),
    (
        "while cond, newline, do",
        "x=2; while [ $x -gt 0 ]\ndo x=$((x-1)); echo $x; done",
        0,
        "1\n0\n",
    ),
    ("while while", "while while false; do :; done; false; do :; done; echo ok", 0, "ok\n"),
    ("nested backquotes", "echo `echo \\`echo hi\\``", 0, "hi\n"),
    ("break outside a loop", "break; echo $?", 0, "0\n"),
    ("continue outside a loop", "continue; echo $?", 0, "0\n"),
    ("break with a bad count ends", "x=oops; while true; do break $x; done; echo no", 128, ""),
    ("brace expansion", "echo a{b,c} {1..3} {a..c..2} x{1,{2,3}}", 0, "ab ac 1 2 3 a c x1 x2 x3\n"),
    ("default IFS", "printf '%q\\n' \"$IFS\"", 0, "$' \\t\\n'\n"),
    ("&& short-circuits in $(( ))", "x=0; echo $(( 0 && (x=1) )) $x", 0, "0 0\n"),
    ("|| short-circuits in $(( ))", "echo $(( 1 || 1/0 ))", 0, "1\n"),
    ("fd 3", "exec 3>f; echo hi >&3; exec 3>&-; read l < f; echo $l", 0, "hi\n"),
    ("fd 9 for a group", "{ echo nine >&9; } 9>f; read l < f; echo $l", 0, "nine\n"),
    ("<> opens read-write", "echo abc > f; read l <> f; echo $l", 0, "abc\n"),
    ("{fd}> picks a descriptor", "exec {fd}>f; echo x >&$fd; read l < f; echo $fd $l", 0, "10 x\n"),
    ("test -d on an empty string", 'test -d ""; echo $?', 0, "1\n"),
    ("~ follows the shell's HOME", "HOME=/tmp/h; echo ~ ~/x", 0, "/tmp/h /tmp/h/x\n"),
    ('"${@:2:2}"', 'set -- a b c d; printf "<%s>" "${@:2:2}"; echo', 0, "<b><c>\n"),
    ('"${x:-"q"}"', 'echo "${x:-"q"}"', 0, "q\n"),
    ("${x@Q}", 'x="a b\'c"; echo ${x@Q}', 0, "'a b'\\''c'\n"),
    (
        "getopts",
        'set -- -a -b val rest; while getopts ab: o; do echo "$o ${OPTARG-}"; done; echo $OPTIND',
        0,
        "a \nb val\n4\n",
    ),
    (
        "pushd/popd/dirs",
        "cd /; pushd /tmp >/dev/null; dirs; popd >/dev/null; dirs",
        0,
        "/tmp /\n/\n",
    ),
    ("shopt nullglob", "shopt -s nullglob; echo nomatch*; echo end", 0, "\nend\n"),
    (
        "shopt globstar",
        "mkdir -p a/b; : > a/b/c.txt; shopt -s globstar; echo **/*.txt",
        0,
        "a/b/c.txt\n",
    ),
    ("shopt extglob", "shopt -s extglob; x=foo.tar; echo ${x%.@(tar|gz)}", 0, "foo\n"),
    ("alias", "shopt -s expand_aliases; alias hi='echo hello'\nhi there", 0, "hello there\n"),
    ("hash", "hash nosuchcommand-x; echo $?", 0, "1\n"),
    ("umask", "umask 027; umask; umask -S", 0, "0027\nu=rwx,g=rx,o=\n"),
    ("set -f", "set -f; echo /*", 0, "/*\n"),
    ("set -x traces", "set -x; echo 'a b' c 2>/dev/null", 0, "a b c\n"),
    ("set -x trace text", "{ set -x; echo 'a b'; } 2>&1", 0, "+ echo 'a b'\na b\n"),
    (
        "printf widths, precision, %b, %q, negative %x",
        "printf '[%5s][%-3s][%.2s][%b][%q][%x]\\n' a b cdef 'x\\ty' 'a b' -1",
        0,
        "[    a][b  ][cd][x\ty][a\\ b][ffffffffffffffff]\n",
    ),
    ("readonly is enforced", "readonly r=1; r=2; echo not-reached", 1, ""),
    ("trap ERR fires", "trap 'echo err $?' ERR; false; echo after", 0, "err 1\nafter\n"),
    ("$(<file)", 'echo content > f; x=$(<f); echo "[$x]"', 0, "[content]\n"),
    ("arrays", 'a=(x "y z"); a+=(w); echo ${#a[@]} "${a[1]}" ${a[-1]}', 0, "3 y z w\n"),
    (
        "associative arrays",
        "declare -A m=([k]=v); m[j]=u; echo ${m[k]}${m[j]} ${#m[@]}",
        0,
        "vu 2\n",
    ),
]


@pytest.mark.parametrize(
    ("source", "code", "stdout"),
    [pytest.param(src, code, out, id=what) for what, src, code, out in ROWS],
)
def test_the_listed_bug_is_fixed_as_bash_behaves(
    run: Runner, tmp_path: Path, source: str, code: int, stdout: str
) -> None:
    ran = run(source, cwd=str(tmp_path))
    assert (ran.code, ran.out) == (code, stdout), ran.err
    assert ran.route is None  # run in-process, not handed to a real shell
    assert "internal error" not in ran.err


@pytest.mark.skipif(BASH is None, reason="bash is the oracle; not on PATH here")
@pytest.mark.parametrize(
    ("source", "code", "stdout"),
    [pytest.param(src, code, out, id=what) for what, src, code, out in ROWS],
)
def test_the_row_is_what_bash_does(tmp_path: Path, source: str, code: int, stdout: str) -> None:
    assert bash_result(source, base_env(), cwd=tmp_path, args=["hookrun"]) == (code, stdout)
