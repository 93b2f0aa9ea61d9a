"""Interpreter edge cases: nested loop control, redirections to the standard streams, sourced
files that fail or return, traps, local variables, arithmetic bases, subshells and pipelines.

Every row was run through bash 5 as ``bash -c SOURCE sh "a b" c`` in an empty directory
with the same environment: bash gives the same exit code and stdout. stderr is hookrun's
own wording. ``route`` is ``"sh-fallback"`` where the construct is handed to a real shell.
"""

from __future__ import annotations

import pytest

from tests.dispatch.shell.shellrun import Runner

ARGS = ("a b", "c")


@pytest.mark.parametrize(
    ("source", "code", "stdout", "stderr", "route"),
    [
        (
            "for i in 1 2; do for j in a b; do echo $i$j; break 2; done; done; echo out",
            0,
            "1a\nout\n",
            "",
            None,
        ),
        (
            "for i in 1 2; do for j in a b; do continue 2; echo no; done; echo no2; done; echo out",
            0,
            "out\n",
            "",
            None,
        ),
        ("if false; then echo a; elif false; then echo b; else echo c; fi", 0, "c\n", "", None),
        ("if false; then echo a; else echo c; fi", 0, "c\n", "", None),
        ("x=a; x+=bc; echo $x", 0, "abc\n", "", None),
        ("f() { y+=z; }; y=q; f; echo $y", 0, "qz\n", "", None),
        ("echo x > /dev/stdout", 0, "x\n", "", None),
        ("echo x 2>/dev/stderr >&2", 0, "", "x\n", None),
        ("cat < /dev/stdin <<< here", 0, "here\n", "", None),
        ("echo a >| f; cat f", 0, "a\n", "", None),
        (
            "echo 'echo ((' > bad.sh; . ./bad.sh; echo $?",
            0,
            "2\n",
            "hookrun: syntax error: unexpected EOF while looking for matching `)' "
            "(line 2, column 1)\n",
            None,
        ),
        ("echo 'return 3; echo no' > r.sh; . ./r.sh; echo $?", 0, "3\n", "", None),
        ("trap 'exit 7' EXIT; echo x", 7, "x\n", "", None),
        ("trap 'echo t$?' EXIT; false", 1, "t1\n", "", None),
        ("f() { local newvar=1; }; f; echo ${newvar-unset}", 0, "unset\n", "", None),
        ("declare d=1; echo $d", 0, "1\n", "", None),
        ("g=1; f() { local g=2; echo $g; }; f; echo $g", 0, "2\n1\n", "", None),
        ("echo $((64#z)) $((2#101)) $((16#ff))", 0, "35 5 255\n", "", None),
        (
            "echo $((65#1))",
            1,
            "",
            'hookrun: 65#1: invalid arithmetic base (error token is "65#1")\n',
            None,
        ),
        (
            "echo $((09))",
            1,
            "",
            'hookrun: 09: value too great for base (error token is "09")\n',
            None,
        ),
        ("echo $((1 + ))", 1, "", "hookrun: 1 +: syntax error: operand expected\n", None),
        (
            "echo $((1 +  * 2))",
            1,
            "",
            'hookrun: 1 +  * 2: syntax error: operand expected (error token is "*")\n',
            None,
        ),
        ("echo $((010))", 0, "8\n", "", None),
        ("{ echo a; echo b; } | cat", 0, "a\nb\n", "", None),
        ("wait 99999; echo $?", 0, "127\n", "", None),
        ("sleep 0 & wait $!; echo $?", 0, "0\n", "", None),
        ("! true; echo $?", 0, "1\n", "", None),
        (
            "echo a | ! grep -q b; echo $?",
            2,
            "",
            "hookrun: syntax error: syntax error near unexpected token `!' (line 1, column 1)\n",
            None,
        ),
        ("x=1 y=2 env | grep -c '^[xy]='", 0, "2\n", "", None),
        ("x=1 :; echo ${x-unset}", 0, "unset\n", "", None),
        ("(exit 3); echo $?", 0, "3\n", "", None),
        ("(cd /; pwd); pwd | grep -c /", 0, "/\n1\n", "", None),
        ("cd /tmp && pwd", 0, "/tmp\n", "", None),
        ("echo $(exit 4); echo $?", 0, "\n0\n", "", None),
        ("false | true; echo $?", 0, "0\n", "", None),
        ("set -o pipefail; false | true; echo $?", 0, "1\n", "", None),
        ("set -e; false; echo no", 1, "", "", None),
        ("set -e; false || echo ok; echo after", 0, "ok\nafter\n", "", None),
        ("f() { return 5; }; f; echo $?", 0, "5\n", "", None),
        (
            "return 2",
            2,
            "",
            "hookrun: return: can only `return' from a function or sourced script\n",
            None,
        ),
        ("exit 3; echo no", 3, "", "", None),
        ("echo a && false || echo b", 0, "a\nb\n", "", None),
        ("coproc true", 0, "", "", "sh-fallback"),
        (
            "f(){ echo fn; }; builtin f; echo $?; builtin echo hi; builtin",
            0,
            "1\nhi\n",
            "hookrun: builtin: f: not a shell builtin\n",
            None,
        ),
        # A pipeline of one (assignment, subshell, negated command) sets PIPESTATUS;
        # a compound command leaves that of its last pipeline.
        (
            "false | true; x=1; echo ${PIPESTATUS[@]}; false|false; if true; then :; fi; "
            "echo ${PIPESTATUS[@]}; (exit 3); echo ${PIPESTATUS[@]}; ! false; "
            "echo ${PIPESTATUS[@]}",
            0,
            "0\n0\n3\n1\n",
            "",
            None,
        ),
        (
            "for i in 1 2; do (continue; echo in); echo out$i; done",
            0,
            "in\nout1\nin\nout2\n",
            "hookrun: continue: only meaningful in a `for', `while', or `until' loop\n" * 2,
            None,
        ),
        (
            'shopt -s lastpipe; echo v | read x; echo "[$x]"; echo a | exit 3; echo no',
            3,
            "[v]\n",
            "",
            None,
        ),
        ("echo a\n\\exit 4\necho no", 4, "a\n", "", None),
        # An arithmetic error in a word discards the rest of its line (the script goes
        # on); in (( )), let and [[ -eq ]] it is the command's status 1.
        (
            "echo $((1/0)); echo same\necho next; (( 1/0 )); echo st=$?; let 1/0; "
            "echo st=$?; [[ 1/0 -eq 0 ]]; echo st=$?; x=abc; echo ${x:1:-5}; echo no\necho end",
            0,
            "next\nst=1\nst=1\nst=1\nend\n",
            "hookrun: 1/0: division by 0\nhookrun: ((: 1/0: division by 0\n"
            "hookrun: let: 1/0: division by 0\nhookrun: [[: 1/0: division by 0\n"
            "hookrun: -5: substring expression < 0\n",
            None,
        ),
        # A builtin whose read fails (a directory on stdin) fails with status 1 and the
        # script goes on — it was an internal error of the shell.
        (
            "read x < /; echo st=$?; read -n 1 y < /; echo st=$?; echo end",
            0,
            "st=1\nst=1\nend\n",
            "hookrun: read: Is a directory\nhookrun: read: Is a directory\n",
            None,
        ),
        (
            'for x in a b c; do echo $x; continue 1 2 3; done; echo "same line $?"\necho "next $?"',
            1,
            "a\n",
            "hookrun: continue: too many arguments\n",
            None,
        ),
        (
            "for x in a b; do echo $x; break 1 2; done",
            1,
            "a\n",
            "hookrun: break: too many arguments\n",
            None,
        ),
        (
            'continue x y; echo "st $?"',
            0,
            "st 0\n",
            "hookrun: continue: only meaningful in a `for', `while', or `until' loop\n",
            None,
        ),
        (
            'for - in a b; do echo hi; done; echo "st $?"',
            0,
            "st 1\n",
            "hookrun: `-': not a valid identifier\n",
            None,
        ),
        (
            'for a-b in a; do echo hi; done; for 1x do echo hi; done; echo "st $?"',
            0,
            "st 1\n",
            "hookrun: `a-b': not a valid identifier\nhookrun: `1x': not a valid identifier\n",
            None,
        ),
        ('for x do echo "[$x]"; done', 0, "[a b]\n[c]\n", "", None),
        ("! { echo 1; echo 2; } || echo FAILED", 0, "1\n2\nFAILED\n", "", None),
        ("! { echo 1; false; } && echo negated; echo $?", 0, "1\nnegated\n0\n", "", None),
        ("! if true; then echo in; fi; echo $?", 0, "in\n1\n", "", None),
        ("x=0; ! while [ $x -lt 2 ]; do x=$((x+1)); done; echo $?", 0, "1\n", "", None),
        ("! { true; } | { false; }; echo $?", 0, "0\n", "", None),
        (
            "set -x; printf 'aaaa' > /dev/null 2> f; set +x; cat f",
            0,
            "",
            "+ printf aaaa\n+ set +x\n",
            None,
        ),
        (
            'for i in 1 2; do echo $i; break 0; done; echo "st $?"',
            0,
            "1\nst 1\n",
            "hookrun: break: 0: loop count out of range\n",
            None,
        ),
        (
            'for i in 1 2; do for j in a b; do echo $i$j; continue 0; done; done; echo "st $?"',
            0,
            "1a\nst 1\n",
            "hookrun: continue: 0: loop count out of range\n",
            None,
        ),
        (
            'x=0; while [ $x -lt 3 ]; do x=$((x+1)); echo $x; break -1; done; echo "st $?"',
            0,
            "1\nst 1\n",
            "hookrun: break: -1: loop count out of range\n",
            None,
        ),
        (
            'for i in 1 2; do while break 0; do echo no; done; echo "in $?"; done; echo "st $?"',
            0,
            "st 0\n",
            "hookrun: break: 0: loop count out of range\n",
            None,
        ),
        (
            'for ((i=0;i<3;i++)); do echo $i; break 0; done; echo "st $?"',
            0,
            "0\nst 1\n",
            "hookrun: break: 0: loop count out of range\n",
            None,
        ),
        ('for i in 1 2 3; do echo $i; break; done; echo "st $?"', 0, "1\nst 0\n", "", None),
        (
            'for i in 1 2 3; do for j in a b; do echo $i$j; break 2; done; done; echo "st $?"',
            0,
            "1a\nst 0\n",
            "",
            None,
        ),
        (
            'x=0; while [ $x -lt 2 ]; do x=$((x+1)); false; done; echo "st $?"; '
            'y=0; while y=$((y+1)); [ $y -lt 3 ] || break; do false; done; echo "st $?"',
            0,
            "st 1\nst 0\n",
            "",
            None,
        ),
        (
            "for i in 1; do y=0; while y=$((y+1)); [ $y -lt 3 ] || break 2; do false; done; "
            'done; echo "st $?"',
            0,
            "st 0\n",
            "",
            None,
        ),
        ('x=$(echo err >&2; echo out) 2>/dev/null; echo "[$x]"', 0, "[out]\n", "err\n", None),
        ('x=$(false) 2>/dev/null; echo "[$x] $?"', 0, "[] 1\n", "", None),
        ('x=1 2>f; echo "$x"; ls f', 0, "1\nf\n", "", None),
        ('x=1 >f\necho "$x"; ls f', 0, "1\nf\n", "", None),
        ('x=1 >f 2>g; echo "$x"; ls f g', 0, "1\nf\ng\n", "", None),
        ("x=1 >f cmd; echo $?", 0, "127\n", "hookrun: cmd: command not found\n", None),
        ('f() { local y; y=$(echo hi) 2>/dev/null; echo "[$y]"; }; f', 0, "[hi]\n", "", None),
        (
            'x=1 2>/nonexistent/dir; echo "st $? $x"',
            0,
            "st 1 1\n",
            "hookrun: /nonexistent/dir: No such file or directory\n",
            None,
        ),
        ('x=1 2>f && echo "ok $x"', 0, "ok 1\n", "", None),
        ('x=1 2>f || echo no; echo "$x"', 0, "1\n", "", None),
        ('a=1 b=$(echo err >&2; echo out) 2>/dev/null; echo "[$b]"', 0, "[out]\n", "err\n", None),
        (
            'a=1 b=2 >/nonexistent/x; echo "st $? $a $b"',
            0,
            "st 1 1 2\n",
            "hookrun: /nonexistent/x: No such file or directory\n",
            None,
        ),
        ('x=$(exit 3) >f; echo "st $?"', 0, "st 3\n", "", None),
        ("set -x; x=1 2>f; set +x; cat f", 0, "", "+ x=1\n+ set +x\n", None),
        ('x=1 2>f | cat; echo "[$x]"', 0, "[]\n", "", None),
        ('x=1 2>f && y=2 >g; echo "$x $y"; ls', 0, "1 2\nf\ng\n", "", None),
        ('out=$(echo hi) 2>/dev/null\necho "[$out]"', 0, "[hi]\n", "", None),
        ('x=1 >f\necho "$x"; ls f', 0, "1\nf\n", "", None),
        ('x=1 2>f y=2\necho "$x $y"', 0, "1 2\n", "", None),
        ('f() {\n  v=$(echo in) 2>/dev/null\n  echo "[$v]"\n}\nf', 0, "[in]\n", "", None),
        ("x=1 >f echo hi\ncat f", 0, "hi\n", "", None),
    ],
)
def test_interpreter_agrees_with_bash(
    run: Runner, source: str, code: int, stdout: str, stderr: str, route: str | None
) -> None:
    ran = run(source, args=ARGS)
    assert (ran.code, ran.out, ran.err, ran.route) == (code, stdout, stderr, route)


@pytest.mark.parametrize(
    ("source", "code", "stdout"),
    [
        # bash reads a script a line at a time: the complete commands before a syntax
        # error run (an EXIT trap they set fires, seeing status 2), then it stops.
        ("echo a\nfor", 2, "a\n"),
        ("trap 'echo T $?' EXIT\necho b\nif true; then\necho c\nfi fi\necho d", 2, "b\nT 2\n"),
        ('echo a\necho "unterminated', 2, "a\n"),
        ("exit 3\nfor", 3, ""),
        ("echo a; for", 2, ""),
        ("trap 'echo T; exit 0' EXIT\nfor", 0, "T\n"),
        ("f() {\necho in f\n}\nf\nfor x in; do\n(", 2, "in f\n"),
        ("echo a\nif true; then\necho b\nfi\ndone", 2, "a\nb\n"),
    ],
)
def test_the_commands_before_a_syntax_error_run_as_in_bash(
    run: Runner, source: str, code: int, stdout: str
) -> None:
    ran = run(source, args=ARGS)
    assert (ran.code, ran.out) == (code, stdout), ran.err
    if code == 2:
        assert "syntax error" in ran.err
