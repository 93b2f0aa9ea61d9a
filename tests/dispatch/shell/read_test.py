"""``read`` and ``mapfile``: bash's reader, its backslash rules and its IFS splitting.

Every row was run through bash 5.2 (``bash -c SOURCE hookrun`` in an empty directory,
the shell tests' environment) and agrees with it; ``bash_confirm_test.py`` runs them
through bash again. stderr is hookrun's own wording and is not compared.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.dispatch.shell.shellrun import Runner


@pytest.mark.parametrize(
    ("source", "code", "stdout"),
    [
        ("echo '  a b  ' | { read; echo \"[$REPLY]\"; }", 0, "[  a b  ]\n"),
        ("echo '  a b  ' | { read v; echo \"[$v]\"; }", 0, "[a b]\n"),
        ("printf 'a b\\\\\\nc d\\n' | { read v; echo \"[$v]\"; }", 0, "[a bc d]\n"),
        ("printf 'a b\\\\\\nc d\\n' | { read -r v; echo \"[$v]\"; }", 0, "[a b\\]\n"),
        ("printf 'a\\\\tb\\n' | { read v; echo \"[$v]\"; }", 0, "[atb]\n"),
        ("printf 'abc' | { read v; echo \"$? [$v]\"; }", 0, "1 [abc]\n"),
        ('read v < /dev/null; echo "$? [$v]"', 0, "1 []\n"),
        ("echo 'a b c' > f; read -n 5 A B C < f; echo \"[$A][$B][$C]\"", 0, "[a][b][c]\n"),
        ("echo 'a b c' > f; read -N 5 A B C < f; echo \"[$A][$B][$C]\"", 0, "[a b c][][]\n"),
        ("printf 'a\\nb\\nc\\n' > f; read -N 3 v < f; echo \"[$v]\"", 0, "[a\nb]\n"),
        ('echo foobar | { read -n 5 -d b; echo "$REPLY"; }', 0, "foo\n"),
        ('echo foobar | { read -N 5 -d b; echo "$REPLY"; }', 0, "fooba\n"),
        ('echo hi | { read -rn1 v; echo "[$v]"; }', 0, "[h]\n"),
        ('echo abc | { read -n 0 v; echo "$? [$v]"; }', 0, "0 []\n"),
        ("echo 'abc\\def' | { read -n 4; echo \"[$REPLY]\"; }", 0, "[abcd]\n"),
        ("printf 'abc\\\\\\ndefg\\n' | { read -n 4; echo \"[$REPLY]\"; }", 0, "[abcd]\n"),
        ("printf 'a b\\\\\\nc d\\n' | { read -d ,; echo \"[$REPLY]\"; }", 0, "[a bc d\n]\n"),
        ("printf 'a b\\\\,c d\\n' | { read -d ,; echo \"[$REPLY]\"; }", 0, "[a b,c d\n]\n"),
        ("printf 'x,y' | { read -d , v; echo \"$? [$v]\"; }", 0, "0 [x]\n"),
        ("printf 'a\\0b\\n' | { read -r -d '' v; echo \"$? [$v]\"; }", 0, "0 [a]\n"),
        ("printf 'a\\0b\\n' | { read v; echo \"$? [$v]\"; }", 0, "0 [ab]\n"),
        ("echo 'a b c d' | { read -a arr; echo \"${#arr[@]} ${arr[3]}\"; }", 0, "4 d\n"),
        ("echo 'a  b' | { x=5; read -a x; declare -p x; }", 0, 'declare -a x=([0]="a" [1]="b")\n'),
        ("echo 'a b' | { read -a x y; echo \"${x[1]} [$y]\"; }", 0, "b []\n"),
        (
            "echo 'a\\ b c\\\\d' | { read -a arr; printf '<%s>' \"${arr[@]}\"; echo; }",
            0,
            "<a b><c\\d>\n",
        ),
        ("echo '' | { read -a arr; echo \"${#arr[@]}\"; }", 0, "0\n"),
        (
            "IFS='x '; echo 'a b x x' | { read -a arr; printf '<%s>' \"${arr[@]}\"; echo; }",
            0,
            "<a><b><>\n",
        ),
        (
            "IFS='x '; echo 'ax  xb' | { read -a arr; printf '<%s>' \"${arr[@]}\"; echo; }",
            0,
            "<a><><b>\n",
        ),
        (
            "IFS='x '; echo 'a\\b xx' | { read -a arr; printf '<%s>' \"${arr[@]}\"; echo; }",
            0,
            "<ab><>\n",
        ),
        ("declare -A m; echo a | { read -a m; echo $?; }", 0, "1\n"),
        ("echo 'a:b:' | { IFS=: read x; echo \"[$x]\"; }", 0, "[a:b:]\n"),
        ("echo 'a:' | { IFS=: read x; echo \"[$x]\"; }", 0, "[a]\n"),
        ("echo 'a:b:' | { IFS=: read x y; echo \"[$x][$y]\"; }", 0, "[a][b]\n"),
        ("echo 'a:b::' | { IFS=: read x y; echo \"[$x][$y]\"; }", 0, "[a][b::]\n"),
        (
            "echo 'hello world  test   ' | { read a b; echo \"[$a][$b]\"; }",
            0,
            "[hello][world  test]\n",
        ),
        ("IFS='x '; echo 'a ax  x  x  ' | { read a b; echo \"[$a][$b]\"; }", 0, "[a][ax  x  x]\n"),
        ("IFS='x '; echo xx | { read a b; echo \"[$a][$b]\"; }", 0, "[][]\n"),
        ("IFS='x '; echo xxx | { read a b; echo \"[$a][$b]\"; }", 0, "[][xx]\n"),
        ("IFS='x '; echo 'xax   ' | { read a b; echo \"[$a][$b]\"; }", 0, "[][a]\n"),
        ("IFS='x '; echo 'x \\ \\ ' | { read a b; echo \"[$a][$b]\"; }", 0, "[][  ]\n"),
        ("IFS='x '; echo 'x\\  ' | { read a b; echo \"[$a][$b]\"; }", 0, "[][ ]\n"),
        ("IFS='x '; echo 'x\\  \\ ' | { read a b; printf '%q\\n' \"$b\"; }", 0, "$'\\001'\n"),
        (
            "IFS='\\ '; echo 'hello\\ world  test' | { read a b; echo \"[$a][$b]\"; }",
            0,
            "[hello world][test]\n",
        ),
        (
            "IFS='\\'; echo 'hello\\ world  test' | { read a b; echo \"[$a][$b]\"; }",
            0,
            "[hello world  test][]\n",
        ),
        ("echo 'Aa b \\ a\\ b' | { read a b c; echo \"[$a][$b][$c]\"; }", 0, "[Aa][b][ a b]\n"),
        ("echo ' a ' | { IFS= read v; echo \"[$v]\"; }", 0, "[ a ]\n"),
        ("echo ' a b ' | { unset IFS; read x y; echo \"[$x][$y]\"; }", 0, "[a][b]\n"),
        ("printf ' a\\tb \\n' | { IFS=$'\\t' read x y; echo \"[$x][$y]\"; }", 0, "[ a][b ]\n"),
        (
            "echo 'one two three' | { read a b c d; echo \"[$a][$b][$c][$d]\"; }",
            0,
            "[one][two][three][]\n",
        ),
        ("echo x | { read 'a[2]'; declare -p a; }", 0, 'declare -a a=([2]="x")\n'),
        ("readonly ro; echo a | { read ro; echo $?; }", 0, "1\n"),
        ('echo hi > f; read -u 3 v 3< f; echo "[$v]"', 0, "[hi]\n"),
        ("read -u 9 v; echo $?", 0, "1\n"),
        ("read -u x v; echo $?", 0, "1\n"),
        ("read -t x v; echo $?", 0, "1\n"),
        ("read -t -1 v < /dev/null; echo $?", 0, "1\n"),
        ("read -n -1 v < /dev/null; echo $?", 0, "1\n"),
        ("read -x; echo $?", 0, "2\n"),
        ("read -n; echo $?", 0, "2\n"),
        ("read - x; echo $?", 0, "1\n"),
        ('echo abc | { read -- x; echo "[$x]"; }', 0, "[abc]\n"),
        ("read -t 0 < /dev/null; echo $?", 0, "0\n"),
        ('echo foo | { read -t 0; echo "[$REPLY]"; }', 0, "[]\n"),
        # The writer writes only once the reader has timed out (it says so with a file;
        # `sleep 1` before the write raced the reader's start on a loaded machine).
        (
            "rm -f t; { until [ -e t ]; do sleep 0.01; done; echo late; } | "
            '{ read -t 0.1 v; echo "$? [$v]"; : > t; }',
            0,
            "142 []\n",
        ),
        ("echo 'x y' | { read -t 5 a b; echo \"$? [$a][$b]\"; }", 0, "0 [x][y]\n"),
        ("printf 'a\\x01b\\x7fc\\n' | { read v; printf '%q\\n' \"$v\"; }", 0, "$'a\\001b\\177c'\n"),
        (
            "printf 'a\\x01 b\\x7f c d\\n' | { read x y; printf '%q\\n' \"$x\" \"$y\"; }",
            0,
            "$'a\\001'\n$'b\\177 c d'\n",
        ),
        (
            "printf 'l1\\nl2\\nl3\\n' | { while read -r l; do echo \"<$l>\"; done; }",
            0,
            "<l1>\n<l2>\n<l3>\n",
        ),
        (
            'printf \'l1\\nl2\' | { while read -r l || [ -n "$l" ]; do echo "<$l>"; done; }',
            0,
            "<l1>\n<l2>\n",
        ),
        ("printf 'k=v\\n' | { IFS== read -r k v; echo \"$k -> $v\"; }", 0, "k -> v\n"),
        ("printf 'a\\nb\\nc\\n' | { read x; cat; }", 0, "b\nc\n"),
        ("printf 'ab\\ncd\\n' | { read -n 1 x; cat; }", 0, "b\ncd\n"),
        (
            "printf 'a\\nb\\n' | { mapfile -t arr; declare -p arr; }",
            0,
            'declare -a arr=([0]="a" [1]="b")\n',
        ),
        (
            "printf 'a\\nb' | { mapfile arr; printf '<%s>' \"${arr[@]}\"; }",
            0,
            "<a\n><b>",
        ),
        (
            "printf 'a,b,c' | { mapfile -d , -t arr; declare -p arr; }",
            0,
            'declare -a arr=([0]="a" [1]="b" [2]="c")\n',
        ),
        (
            "printf 'a\\nb\\nc\\nd\\n' | { mapfile -s 1 -n 2 -t arr; declare -p arr; cat; }",
            0,
            'declare -a arr=([0]="b" [1]="c")\nd\n',
        ),
        (
            "printf 'a\\nb\\n' | { arr=(x y z); mapfile -O 1 -t arr; declare -p arr; }",
            0,
            'declare -a arr=([0]="x" [1]="a" [2]="b")\n',
        ),
        (
            "printf 'a\\nb\\n' | { readarray; printf '<%s>' \"${MAPFILE[@]}\"; }",
            0,
            "<a\n><b\n>",
        ),
        (
            "printf 'a\\nb\\nc\\n' | { mapfile -t -C 'echo cb' -c 2 arr; declare -p arr; }",
            0,
            'cb 1 b\ndeclare -a arr=([0]="a" [1]="b" [2]="c")\n',
        ),
        ("mapfile -q; echo $?", 0, "2\n"),
        ("mapfile 1x < /dev/null; echo $?", 0, "1\n"),
        ("mapfile -n x arr < /dev/null; echo $?", 0, "1\n"),
        ("mkdir d; mapfile arr < d; echo $?", 0, "0\n"),
    ],
)
def test_read_and_mapfile_agree_with_bash(run: Runner, source: str, code: int, stdout: str) -> None:
    got = run(source)
    assert (got.code, got.out) == (code, stdout), got.err


def _modules_after_running(script: str) -> set[str]:
    code = (
        "import os, sys\n"
        "from hookrun.dispatch import run\n"
        f"done = run({script!r}, cwd=os.getcwd(), env=dict(os.environ))\n"
        "assert done.exit_code == 0, done\n"
        "print('\\n'.join(sys.modules))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    return set(out.stdout.split())


@pytest.mark.parametrize(
    ("script", "loads"),
    [
        ("echo hi; x=1; [ $x = 1 ]", False),
        ("read -r x <<< 'a b'; [ \"$x\" = 'a b' ]", True),
        ("printf 'a\\n' | mapfile -t arr", True),
    ],
)
def test_the_reader_module_loads_only_when_a_script_reads(script: str, loads: bool) -> None:
    # Keeps the shell path's import cost flat: most hooks never call read or mapfile.
    assert ("hookrun.dispatch.shell.read" in _modules_after_running(script)) is loads
