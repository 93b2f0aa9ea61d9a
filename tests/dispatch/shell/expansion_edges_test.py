"""Expansion edge cases: parameter operators, quoting inside substitutions, unterminated text.

Every row was run through bash 5 as ``bash -c SOURCE sh "a b" c`` in an empty directory
with the same environment: bash gives the same exit code and stdout. stderr is hookrun's
own wording (bash's differs only by its prefix).
"""

from __future__ import annotations

import pytest

from tests.dispatch.shell.shellrun import Runner

ARGS = ("a b", "c")  # $1 has a space, so splitting and quoting show


@pytest.mark.parametrize(
    ("source", "code", "stdout", "stderr"),
    [
        ("x=$(echo 'a)b'); echo \"$x\"", 0, "a)b\n", ""),
        ("x=$(echo \\)); echo $x", 0, ")\n", ""),
        ("x=$(echo `echo q`); echo $x", 0, "q\n", ""),
        ("x=$(echo $(echo in) ${HOME}); echo $x", 0, "in /home/hooker\n", ""),
        ('echo "$(echo \\" x)"', 0, '" x\n', ""),
        ('echo "`echo hi`"', 0, "hi\n", ""),
        ('echo "${HOME}$(echo z)"', 0, "/home/hookerz\n", ""),
        ('echo "a\\$b\\`c\\\\d"', 0, "a$b`c\\d\n", ""),
        ("echo `echo a\\$b`", 0, "a\n", ""),
        ("echo $'a\\tb'", 0, "a\tb\n", ""),
        ('echo $"hi"', 0, "hi\n", ""),
        ("echo $", 0, "$\n", ""),
        ('echo "$"', 0, "$\n", ""),
        ("echo a$", 0, "a$\n", ""),
        (
            'set -- p q r; echo $@ $* "$*" ${#} ${@} ${*} ${#@} ${#*}',
            0,
            "p q r p q r p q r 3 p q r p q r 3 3\n",
            "",
        ),
        ("echo ${1} ${10:-none}", 0, "a b none\n", ""),
        ("a=b; b=hello; echo ${!a}", 0, "hello\n", ""),
        ("echo ${!1x}", 1, "", "hookrun: ${!1x}: bad substitution\n"),
        ("echo ${#x-y}", 1, "", "hookrun: ${#x-y}: bad substitution\n"),
        ("set -u; echo ${#nope}", 127, "", "hookrun: nope: unbound variable\n"),
        ("set -u; echo ${nope:-ok}", 0, "ok\n", ""),
        ("set -u; echo $nope; echo after", 127, "", "hookrun: nope: unbound variable\n"),
        ("echo ${x:=}", 0, "\n", ""),
        ("x=1; echo ${x:=2} $x", 0, "1 1\n", ""),
        ("echo ${1:=v}", 0, "a b\n", ""),
        ("x=; echo ${x:?}", 127, "", "hookrun: x: parameter null or not set\n"),
        ("echo ${nope?}", 127, "", "hookrun: nope: parameter not set\n"),
        ("x=set; echo ${x?msg}", 0, "set\n", ""),
        ("x=ABC; echo ${x,} ${x,,} ${x^}", 0, "aBC abc ABC\n", ""),
        ("echo ${%}", 1, "", "hookrun: ${%}: bad substitution\n"),
        # Inside backquotes the message quotes the user's own text (the body's nodes
        # point at it, escapes and multi-byte characters before it included).
        (
            "x=1; echo `echo é ${x@Z}`; echo after",
            0,
            "\nafter\n",
            "hookrun: ${x@Z}: bad substitution\n",
        ),
        ('x=1; echo "`echo \\"é\\" ${x@Z}`"', 0, "\n", "hookrun: ${x@Z}: bad substitution\n"),
        ("echo ${}", 1, "", "hookrun: ${}: bad substitution\n"),  # found by hypothesis
        ("echo ${x!}", 1, "", "hookrun: ${x!}: bad substitution\n"),
        (
            "x=aXbXc; echo ${x/#a/Z} ${x/%c/Z} ${x/#q/Z} ${x/%q/Z}",
            0,
            "ZXbXc aXbXZ aXbXc aXbXc\n",
            "",
        ),
        ("x=a/b/c; echo ${x#q} ${x%q} ${x##*/} ${x%%/*}", 0, "a/b/c a/b/c c a\n", ""),
        ("x='a\\/b'; echo ${x/\\//-}", 0, "a\\-b\n", ""),
        ("x=a.b; echo ${x/\\./-}", 0, "a-b\n", ""),
        ("x=abc; echo ${x:1:-1} ${x: -2} ${x:5}", 0, "b bc\n", ""),
        ("echo $((1+2)) $(( (1+2)*3 ))", 0, "3 9\n", ""),
        (
            "x=$((1+; echo bad",
            2,
            "",
            "hookrun: syntax error: syntax error near unexpected token `$((1+;' "
            "(line 1, column 3)\n",
        ),
        ("echo $((2**62*4))", 0, "0\n", ""),
        ("x=5; echo $((x+1)) $((y+1))", 0, "6 1\n", ""),
        ("set -u; echo $((zz+1))", 127, "", "hookrun: zz: unbound variable\n"),
        ("x=~/a:~/b; echo $x", 0, "/home/hooker/a:/home/hooker/b\n", ""),
        ('IFS=:; x=a:b::c; for i in $x; do echo "[$i]"; done', 0, "[a]\n[b]\n[]\n[c]\n", ""),
        ("IFS=; x='a b'; for i in $x; do echo \"[$i]\"; done", 0, "[a b]\n", ""),
        ("x='  a  b '; for i in $x; do echo \"[$i]\"; done", 0, "[a]\n[b]\n", ""),
        ('echo "$@"', 0, "a b c\n", ""),
        ('set --; for i in "$@"; do echo x; done; echo n', 0, "n\n", ""),
        (
            'echo "a\\',
            2,
            "",
            "hookrun: syntax error: unexpected EOF while looking "
            "for matching `\"' (line 1, column 9)\n",
        ),
        (
            "echo 'a",
            2,
            "",
            "hookrun: syntax error: unexpected EOF while looking "
            "for matching `'' (line 1, column 8)\n",
        ),
        (
            "echo `echo a",
            2,
            "",
            "hookrun: syntax error: unexpected EOF while looking "
            "for matching ``' (line 1, column 13)\n",
        ),
        (
            'echo "${x"',
            2,
            "",
            "hookrun: syntax error: unexpected EOF while looking "
            "for matching `}' (line 1, column 11)\n",
        ),
        (
            "echo $(echo a",
            2,
            "",
            "hookrun: syntax error: unexpected EOF while looking "
            "for matching `)' (line 1, column 14)\n",
        ),
        (
            "echo ${x",
            2,
            "",
            "hookrun: syntax error: unexpected EOF while looking "
            "for matching `}' (line 1, column 9)\n",
        ),
        (
            "echo ${x/a",
            2,
            "",
            "hookrun: syntax error: unexpected EOF while looking "
            "for matching `}' (line 1, column 11)\n",
        ),
        ("x=abc; echo ${x/b}", 0, "ac\n", ""),
        ("x=abc; echo ${x//[ab]/-}", 0, "--c\n", ""),
        ("echo ${x:-$(echo d)}", 0, "d\n", ""),
        ("echo \"${x:-'q'}\"", 0, "'q'\n", ""),
        ('echo ${x:-"a b"}', 0, "a b\n", ""),
        ("echo $$ | grep -q '^[0-9]*$' && echo pid", 0, "pid\n", ""),
        ("false; echo ${?}", 0, "1\n", ""),
        ('echo "${#}"', 0, "2\n", ""),
        ("echo ${#1}", 0, "3\n", ""),
        ("echo ${!}", 0, "\n", ""),
        (
            "echo ~ ~/a ~nosuchuser123/x a~",
            0,
            "/home/hooker /home/hooker/a ~nosuchuser123/x a~\n",
            "",
        ),
        ("x=~/a:~/b; echo $x", 0, "/home/hooker/a:/home/hooker/b\n", ""),
        ("x=abc; echo ${x@}", 127, "", "hookrun: ${x@}: bad substitution\n"),
        (
            "empty=''; echo ${empty:?'is em'pty}; echo not here",
            127,
            "",
            "hookrun: empty: is empty\n",
        ),
        ("echo ${unset?}; echo not here", 127, "", "hookrun: unset: parameter not set\n"),
        ('x=; echo "${x:?}"', 127, "", "hookrun: x: parameter null or not set\n"),
        (
            'echo "[${!hs}]"; echo "same line $?"\necho "next $?"',
            0,
            "next 1\n",
            "hookrun: hs: invalid indirect expansion\n",
        ),
        (
            '(echo "[${!hs+"${!hs}"}]"); echo "st $?"; '
            'hs=x; echo "[${!hs+"${!hs}"}]"; foo=42; hs=foo; echo "[${!hs+"${!hs}"}]"',
            0,
            "st 1\n[]\n[42]\n",
            "hookrun: hs: invalid indirect expansion\n",
        ),
        (
            'var=}; echo "${var#}}" "[${var#\\}}]" "[${var#\'}\'}]" "[${var#"}"}]"',
            0,
            "}} [] [] []\n",
            "",
        ),
        ("foo=\"'a b c d'\"; printf '%s|' ${foo%d\\'} \"${foo%d\\'}\"", 0, "'a|b|c|'a b c |", ""),
        ('x=a}b; echo ${x:-a\\}b} ${x/\\}/y} "${x%\\}b}"', 0, "a}b ayb a\n", ""),
        (
            'echo ${a&}; echo "same line $?"\necho "next $?"',
            0,
            "next 1\n",
            "hookrun: ${a&}: bad substitution\n",
        ),
        (
            'f() { echo ${a&}; echo in; }; f; echo after\necho "next $?"',
            0,
            "next 1\n",
            "hookrun: ${a&}: bad substitution\n",
        ),
        (
            'y=$(echo ${a;}; echo in); echo "got [$y] $?"',
            0,
            "got [] 1\n",
            "hookrun: ${a;}: bad substitution\n",
        ),
        (
            '( echo ${a&}; echo in ); echo "after $?"',
            0,
            "after 1\n",
            "hookrun: ${a&}: bad substitution\n",
        ),
        ("echo foo\\\n$", 0, "foo$\n", ""),
        (
            "x='[foo]'; echo ${x//[\\[z]/<} ${x//[\\]z]/>} ${x//[[z]/<} ${x//[]z]/>}",
            0,
            "<foo] [foo> <foo] [foo>\n",
            "",
        ),
        ("x='[foo]'; echo ${x#[]]} ${x%[!]]} \"${x//[]f]/-}\"", 0, "[foo] [foo] [-oo-\n", ""),
        ("base=16; echo $(( ${base}#a )); b=2; (( x = ${b}#101 )); echo $x", 0, "10\n5\n", ""),
        (
            'echo $(( 02#0110 )); echo "same $?"\necho "next $?"',
            0,
            "next 1\n",
            'hookrun: 02#0110: invalid number (error token is "02#0110")\n',
        ),
        (
            'echo $(( 0#1 )); echo "same $?"\necho "next $?"',
            0,
            "next 1\n",
            'hookrun: 0#1: invalid number (error token is "0#1")\n',
        ),
        (
            'echo $(( 0x2#1 ))\necho "next $?"',
            0,
            "next 1\n",
            'hookrun: 0x2#1: syntax error in expression (error token is "#1")\n',
        ),
        (
            'echo $(( 1#1 ))\necho "next $?"',
            0,
            "next 1\n",
            'hookrun: 1#1: invalid arithmetic base (error token is "1#1")\n',
        ),
        (
            'echo $(( 10# ))\necho "next $?"',
            0,
            "next 1\n",
            'hookrun: 10#: syntax error in expression (error token is "#")\n',
        ),
        ("echo $(( 64#@_ )) $(( 36#Z )) $(( 2#0110 ))", 0, "4031 35 6\n", ""),
        (
            "set -u; a=(1); echo $(( a[1] )); x=1; echo $(( x[0] )) $(( x[1] )); echo st",
            0,
            "0\n1 0\nst\n",
            "",
        ),
        (
            "set -u; declare -A A; echo $(( A[x] )); echo st",
            127,
            "",
            "hookrun: A: unbound variable\n",
        ),
        (
            "set -o nounset; echo UNSET $(( undef[0] )); echo status=$?",
            127,
            "",
            "hookrun: undef: unbound variable\n",
        ),
        (
            'echo `echo "`; echo "st $?"',
            0,
            "\nst 0\n",
            "hookrun: syntax error: syntax error near unexpected token `\"' (line 1, column 6)\n",
        ),
        (
            'x=`if`; echo "[$x] $?"',
            0,
            "[] 2\n",
            "hookrun: syntax error: unexpected end of file (line 1, column 3)\n",
        ),
        (
            "x=abc; echo ${x@Z}; echo same\necho next",
            127,
            "",
            "hookrun: ${x@Z}: bad substitution\n",
        ),
        ("x=abc; echo ${x@Q} ${x@U}", 0, "'abc' ABC\n", ""),
        ('echo "${x@Z}"; echo no', 0, "\nno\n", ""),
        (
            'echo "[${x@Q}]" "[${x@U}]" "[${x@A}]" "[${x@a}]"; y=; echo "[${y@Q}]"',
            0,
            "[] [] [] []\n['']\n",
            "",
        ),
        ("a=(1 2); echo ${a[0]@Z}", 127, "", "hookrun: ${a[0]@Z}: bad substitution\n"),
        ('echo "${u[0]@Q}|${u[@]@Q}|${u@a}"', 0, "||\n", ""),
    ],
)
def test_expansion_agrees_with_bash(
    run: Runner, source: str, code: int, stdout: str, stderr: str
) -> None:
    ran = run(source, args=ARGS)
    assert (ran.code, ran.out, ran.err) == (code, stdout, stderr)


def test_export_expands_the_tilde_after_the_equals_sign(run: Runner) -> None:
    ran = run("export P=~/a:~/b; echo $P")
    assert ran.out == "/home/hooker/a:/home/hooker/b\n"
