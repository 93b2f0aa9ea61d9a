"""``set``/``shopt`` options, ``$-``, and what declare/local/readonly/export keep and print.

Every row was run through bash 5.2 as ``bash -c SOURCE hookrun`` in an empty directory
(bash_confirm_test.py reruns them): bash gives the same exit code and stdout. stderr is
hookrun's own wording and is not compared.
"""

from __future__ import annotations

import pytest

from tests.dispatch.shell.shellrun import Runner


@pytest.mark.parametrize(
    ("source", "code", "stdout"),
    [
        # $- lists the single-letter options in bash's order, then "c" (a command string).
        ("set -o pipefail -o nounset; echo $-", 0, "huBc\n"),
        ("set -efuC; echo $-", 0, "efhuBCc\n"),
        # set -n: later commands are read, not run (set +n included).
        ("echo 1; set -n; echo 2; set +n; echo 3", 0, "1\n"),
        # shopt -p -o prints `set` options as set commands.
        ("shopt -po nounset; set -u; shopt -po nounset", 0, "set +o nounset\nset -o nounset\n"),
        ("shopt -p -o errexit nosuch; echo $?", 0, "set +o errexit\n1\n"),
        # set -C refuses to truncate with >, &> and >&; <> opens for reading and writing.
        (
            "set -C; echo foo >| f; exec 3<> f; read -n 1 <&3; echo -n . >&3; exec 3>&-; cat f",
            0,
            "f.o\n",
        ),
        ("set -C; echo a > g; echo b &> g; echo $?; echo c >& g; echo $?; cat g", 0, "1\n1\na\n"),
        # A readonly assignment skips the rest of its line, not the script.
        ("readonly a=1\na=2; echo no\necho st=$?", 0, "st=1\n"),
        ("readonly a=1; f() { a=3; echo in; }\nf; echo no\necho next", 0, "next\n"),
        # …but a readonly loop variable only ends the loop.
        ("readonly a=1; for a in 1; do :; done; echo st=$?", 0, "st=1\n"),
        # set lists variables quoted only where the shell needs it.
        (
            "x=1 y='a b' z=$'q\\n' w='~h' v=a#; set | grep '^[vwxyz]='",
            0,
            "v=a#\nw='~h'\nx=1\ny='a b'\nz=$'q\\n'\n",
        ),
        ("declare -a __arr=(1 '3 4'); set | grep ^__", 0, '__arr=([0]="1" [1]="3 4")\n'),
        # Declared without a value: unset, but declare -p lists it.
        ("declare -a arr; declare -p arr", 0, "declare -a arr\n"),
        ("readonly -a r; declare -p r", 0, "declare -r r\n"),
        ("declare x; declare -p x; echo ${x-unset}", 0, "declare -- x\nunset\n"),
        ("declare -p nosuch; echo $?", 0, "1\n"),
        # A new local starts unset and leaves the caller's value alone.
        ('x=g; f() { local x; echo "[${x-unset}]"; }; f; echo $x', 0, "[unset]\ng\n"),
        (
            "a=(1 2); f() { local a; a[5]=x; declare -p a; }; f; declare -p a",
            0,
            'declare -a a=([5]="x")\ndeclare -a a=([0]="1" [1]="2")\n',
        ),
        ("f() { local x=1 y; local; }; f", 0, 'declare -- x="1"\ndeclare -- y\n'),
        # -u / -l convert on every assignment.
        ("declare -u u=abc; echo $u; u=def; declare -p u", 0, 'ABC\ndeclare -u u="DEF"\n'),
        ("declare -l l=ABC; l+=DEF; echo $l", 0, "abcdef\n"),
        # Attribute letters in bash's order; export -p / readonly -p / declare -x filter.
        ("declare -xr q=5; declare -p q; readonly -p | grep ' q='", 0, 'declare -rx q="5"\n' * 2),
        ('export v; export -p | grep " v$"', 0, "declare -x v\n"),
        ("declare -x e=1; declare -x | grep ' e='", 0, 'declare -x e="1"\n'),
        # Associative arrays list in bash's hash-table order.
        (
            'declare -A A=([a]=1 [b]=2 [c]=3 [one]=x [two]=y ["k e y"]=z); echo "${!A[@]}"; '
            "declare -p A",
            0,
            'c b a k e y two one\ndeclare -A A=([c]="3" [b]="2" [a]="1" ["k e y"]="z" '
            '[two]="y" [one]="x" )\n',
        ),
    ],
)
def test_options_and_declarations_agree_with_bash(
    run: Runner, source: str, code: int, stdout: str
) -> None:
    ran = run(source)
    assert (ran.code, ran.out) == (code, stdout), ran.err
