"""``[``/``test`` and ``[[ ]]`` edge cases: file comparisons, grouping, malformed expressions.

Rows that end in a clean exit code and stdout were run through bash 5 the same way
(``bash -c SOURCE sh "a b" c``, empty directory) and agree with it. bash rejects a
malformed ``[[ ]]`` while parsing the whole script; hookrun reports it when the command
runs, with exit 2 and a message naming the expression — those rows pin hookrun's message.
"""

from __future__ import annotations

import pytest

from tests.dispatch.shell.shellrun import Runner

ARGS = ("a b", "c")  # $1 has a space, so splitting and quoting show


@pytest.mark.parametrize(
    ("source", "code", "stdout", "stderr"),
    [
        ("[[ a < b ]] && echo y", 0, "y\n", ""),
        # `<` and `>` are tokens of their own in [[ ]], written without blanks too.
        ("[[ b>a ]] && echo true; [[ b<a ]] || echo false", 0, "true\nfalse\n", ""),
        ("[[ a<b&&c>b ]] && echo both", 0, "both\n", ""),
        ("[[ 'b>a' ]] && echo str", 0, "str\n", ""),
        ('[[ x>"y" ]] || echo q', 0, "q\n", ""),
        ("[[ b < a ]] || echo n", 0, "n\n", ""),
        ("[ -t 0 ]; echo $?", 0, "1\n", ""),
        ("[ -t x ]; echo $?", 0, "1\n", ""),
        ("[ a -zz b ]", 2, "", "hookrun: [: -zz: unexpected argument\n"),
        ("[ ]; echo $?", 0, "1\n", ""),
        ("[ '(' ]; echo $?", 0, "0\n", ""),
        ("[ '(' a ]; echo $?", 0, "2\n", "hookrun: [: (: unary operator expected\n"),
        ("[ '(' a b ]; echo $?", 0, "2\n", "hookrun: [: ')' expected\n"),
        ("[ '(' a = a ')' ] && echo y", 0, "y\n", ""),
        ("[ ! '(' a = b ')' ] && echo y", 0, "y\n", ""),
        ("[ '(' a = a ]", 2, "", "hookrun: [: ')' expected\n"),
        (
            "[[ ]]",
            2,
            "",
            "hookrun: syntax error: unexpected EOF while looking for matching `]' "
            "(line 1, column 6)\n",
        ),
        ("[[ a || b ]] && echo y", 0, "y\n", ""),
        ("[[ '' || b ]] && echo y", 0, "y\n", ""),
        ("[[ ( a == a ) ]] && echo y", 0, "y\n", ""),
        ("[[ ( a == b ) || b ]] && echo y", 0, "y\n", ""),
        ("[[ a =~ \\( ]]; echo $?", 0, "1\n", ""),
        ("[[ 'a(' =~ \\( ]] && echo y", 0, "y\n", ""),
        ("[[ ab =~ 'a'b ]] && echo y", 0, "y\n", ""),
        ('[[ ab =~ "a"b ]] && echo y', 0, "y\n", ""),
        ("[[ ab =~ (a)(b) ]] && echo y", 0, "y\n", ""),
        (
            "[[ a =~ ( ]]",
            2,
            "",
            "hookrun: syntax error: syntax error near unexpected token `[[' (line 1, column 1)\n",
        ),
        (
            "[[ a == ]]",
            2,
            "",
            "hookrun: syntax error: unexpected EOF while looking for matching `]' "
            "(line 1, column 11)\n",
        ),
        (
            "[[ a = ]]",
            2,
            "",
            "hookrun: syntax error: unexpected argument to conditional binary operator `=' "
            "(line 1, column 1)\n",
        ),
        ("[[ a ]] && echo y", 0, "y\n", ""),
        ("[[ -n a && -z '' ]] && echo y", 0, "y\n", ""),
        (
            "[[ a b ]]",
            2,
            "",
            "hookrun: syntax error: syntax error near unexpected token `a' (line 1, column 4)\n",
        ),
        (
            "[[ ( a ]]",
            2,
            "",
            "hookrun: syntax error: unexpected EOF while looking for matching `)' "
            "(line 1, column 10)\n",
        ),
        (
            "[[ a ; ]]",
            2,
            "",
            "hookrun: syntax error: syntax error near unexpected token `[[' (line 1, column 1)\n",
        ),
        (
            "touch a; touch -d '2001-01-01' b; [ a -nt b ] && echo nt; [ b -ot a ] && echo ot; "
            "[ a -ef a ] && echo ef; [ a -ef b ] || echo ne; [ nosuch -nt a ] || echo missing",
            0,
            "nt\not\nef\nne\nmissing\n",
            "",
        ),
        # A file that exists is newer than one that does not; two missing ones are
        # neither; -ef with one missing is false.
        (
            "touch a; [ a -nt missing ] && echo 1; [ missing -ot a ] && echo 2;"
            " [ missing -nt a ] || echo 3; [ a -ot missing ] || echo 4;"
            " [ m1 -nt m2 ] || echo 5; [ m1 -ot m2 ] || echo 6; [ a -ef missing ] || echo 7;"
            " [[ a -nt missing ]] && echo 8",
            0,
            "1\n2\n3\n4\n5\n6\n7\n8\n",
            "",
        ),
        # Modification times compare to the nanosecond.
        (
            "touch -d '2020-01-01 00:00:00.1' a; touch -d '2020-01-01 00:00:00.2' b;"
            " [ b -nt a ] && echo newer; [ a -ot b ] && echo older",
            0,
            "newer\nolder\n",
            "",
        ),
    ],
)
def test_condition_agrees_with_bash(
    run: Runner, source: str, code: int, stdout: str, stderr: str
) -> None:
    ran = run(source, args=ARGS)
    assert (ran.code, ran.out, ran.err) == (code, stdout, stderr)
