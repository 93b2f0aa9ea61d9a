"""Builtins, through the shell: exact output and status (cases checked against bash)."""

from __future__ import annotations

import pytest

from tests.dispatch.shell.shellrun import Runner

CASES = [
    # id, source, stdout, status
    ("echo -n", "echo -n a; echo b", "ab\n", 0),
    ("echo -e escapes", "echo -e 'a\\tb\\x41\\0101\\\\'", "a\tbAA\\\n", 0),
    ("echo -e \\c stops output", "echo -e 'ab\\cde'; echo", "ab\n", 0),
    ("echo without -e keeps backslashes", "echo 'a\\tb'", "a\\tb\n", 0),
    ("echo stops at a non-option", "echo -n -x", "-x", 0),
    ("printf reuses the format", "printf '%s=%d\\n' a 1 b 2 c", "a=1\nb=2\nc=0\n", 0),
    (
        "printf width and flags",
        "printf '[%5s][%-4s][%03d][%+d][%x][%X][%o]\\n' ab cd 7 5 255 255 8",
        "[   ab][cd  ][007][+5][ff][FF][10]\n",
        0,
    ),
    ("printf precision", "printf '%.2f %.3s %5.1f\\n' 3.14159 abcdef 2.25", "3.14 abc   2.2\n", 0),
    ("printf %b and %%", "printf '%b|%%|%s\\n' 'x\\ty' done", "x\ty|%|done\n", 0),
    ("printf %q", "printf '%q %q %q\\n' simple 'a b' \"it's\"", "simple a\\ b it\\'s\n", 0),
    ("printf %c and char code", "printf '%c %d\\n' hello \"'A\"", "h 65\n", 0),
    ("printf escapes in format", "printf 'a\\tb\\\\n\\n'", "a\tb\\n\n", 0),
    ("printf invalid number", "printf '%d\\n' abc", "0\n", 1),
    ("printf with no arguments", "printf 'x%sy\\n'", "xy\n", 0),
    (
        "test strings",
        "test abc = abc && test a != b && test -n x && test -z '' && echo ok",
        "ok\n",
        0,
    ),
    ("test integers", "[ 3 -lt 10 ] && [ 10 -ge 10 ] && [ -5 -ne 5 ] && echo ok", "ok\n", 0),
    (
        "test not and or",
        "[ ! -e /nonexistent -a -d / ] && [ -f /nonexistent -o 1 = 1 ] && echo ok",
        "ok\n",
        0,
    ),
    ("test parentheses", "[ \\( 1 = 2 \\) -o \\( a = a \\) ] && echo ok", "ok\n", 0),
    (
        "test files",
        "mkdir d; : > e; echo x > f; [ -d d ] && [ -e e ] && [ ! -s e ] && [ -s f ] "
        "&& [ -f f ] && [ ! -f d ] && [ -r f ] && [ -w f ] && [ ! -x f ] && echo ok",
        "ok\n",
        0,
    ),
    ("test single argument", "[ x ] && echo a; [ '' ] || echo b", "a\nb\n", 0),
    ("test missing bracket", "[ 1 = 1; echo $?", "2\n", 0),
    ("test bad integer", "[ a -eq 1 ]; echo $?", "2\n", 0),
    ("read splits on IFS", "echo 'a b c d' | { read x y z; echo \"$x|$y|$z\"; }", "a|b|c d\n", 0),
    (
        "read -r keeps backslashes",
        "printf 'a\\\\tb\\n' | { read -r x; echo \"$x\"; }",
        "a\\tb\n",
        0,
    ),
    ("read without -r unescapes", "printf 'a\\\\tb\\n' | { read x; echo \"$x\"; }", "atb\n", 0),
    ("read with custom IFS", "IFS=: read a b <<< 'x:y:z'; echo \"$a $b\"", "x y:z\n", 0),
    ("read REPLY", "read <<< '  spaced  '; echo \"[$REPLY]\"", "[  spaced  ]\n", 0),
    ("read at end of input", 'read x < /dev/null; echo $? "[$x]"', "1 []\n", 0),
    ("read last line without newline", "printf 'last' | { read x; echo $? $x; }", "1 last\n", 0),
    (
        "read loop",
        "printf '1\\n2\\n3\\n' | while read n; do echo \"n=$n\"; done",
        "n=1\nn=2\nn=3\n",
        0,
    ),
    ("read -n", "read -n 3 a <<< 'abcdef'; echo $a", "abc\n", 0),
    ("read -t is accepted", "read -t 5 a <<< 'x'; echo $a", "x\n", 0),
    ("printf -v", "printf -v out '%s-%d' a 5; echo \"[$out]\"", "[a-5]\n", 0),
    ("read -d", "read -d , a <<< 'x,y'; echo $a", "x\n", 0),
    ("shift too far", "set -- a; shift 2; echo $? $#", "1 1\n", 0),
    ("set -- replaces parameters", "set -- x y; echo $# $2", "2 y\n", 0),
    ("set -eu together", "set -eu; echo ${U-unset}; false; echo no", "unset\n", 1),
    ("set -o errexit", "set -o errexit; false; echo no", "", 1),
    ("set invalid option", "set -Q; echo $?", "2\n", 0),
    ("export listing", "export HRX=1; export | grep HRX", 'declare -x HRX="1"\n', 0),
    ("export -n", "export HRX=1; export -n HRX; env | grep -c HRX; true", "0\n", 0),
    ("export invalid name", "export 1x=2; echo $?", "1\n", 0),
    ("unset -f", "f() { echo f; }; unset -f f; f 2>/dev/null; echo $?", "127\n", 0),
    ("local outside a function", "local x=1; echo $?", "1\n", 0),
    ("return outside a function", "return 3; echo $?", "2\n", 0),
    (
        "return from a sourced file",
        "echo 'echo in; return 5; echo no' > s.sh; . ./s.sh; echo $?",
        "in\n5\n",
        0,
    ),
    ("eval with syntax error", "eval 'if'; echo $?", "2\n", 0),
    (
        "command -v",
        "f() { :; }; command -v f cd ls nosuch-x; echo $?",
        "f\ncd\n/usr/bin/ls\n0\n",
        0,
    ),
    ("command -v none found", "command -v nosuch-x nosuch-y; echo $?", "1\n", 0),
    ("command skips functions", "echo() { printf 'fn\\n'; }; command echo builtin", "builtin\n", 0),
    (
        "type",
        "f() { :; }; type f cd; type -t ls",
        "f is a function\nf () \n{ \n    :\n}\ncd is a shell builtin\nfile\n",
        0,
    ),
    ("type not found", "type nosuch-x; echo $?", "1\n", 0),
    ("exec without command", "exec; echo still", "still\n", 0),
    ("let", "let 'x = 2 * 3' && echo $x; let 0; echo $?", "6\n1\n", 0),
    ("true false colon", "true; echo $?; false; echo $?; :; echo $?", "0\n1\n0\n", 0),
    ("pwd", "mkdir sub; cd sub; pwd | grep -c '/sub$'", "1\n", 0),
    ("cd with no argument goes home", "HOME=/; cd; pwd", "/\n", 0),
    ("wait for nothing", "wait; echo $?", "0\n", 0),
    ("trap reset", "trap 'echo no' EXIT; trap - EXIT; echo yes", "yes\n", 0),
    ("exit with a bad number", "exit abc", "", 2),
    ("declare -x", "declare -x HRD=1; env | grep ^HRD", "HRD=1\n", 0),
    ("readonly assigns", "readonly R=1; echo $R", "1\n", 0),
    ("break out of while", "while :; do break; done; echo out", "out\n", 0),
]


@pytest.mark.parametrize(
    ("source", "stdout", "status"),
    [pytest.param(*c[1:], id=c[0]) for c in CASES],
)
def test_builtin_output_and_status(run: Runner, source: str, stdout: str, status: int) -> None:
    ran = run(source)
    assert (ran.out, ran.code) == (stdout, status), ran.err


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("cd /nonexistent-x", "hookrun: cd: /nonexistent-x: No such file or directory\n"),
        ("[ 1 = 1", "hookrun: [: missing `]'\n"),
        ("[ a -eq 1 ]", "hookrun: [: a: integer expression expected\n"),
        ("[ a -lt b ]", "hookrun: [: a: integer expression expected\n"),  # (as bash)
        ("export 1x=2", "hookrun: export: `1x=2': not a valid identifier\n"),
        ("printf '%d' abc", "hookrun: printf: abc: invalid number\n"),
        ("local x", "hookrun: local: can only be used in a function\n"),
        ("exit abc", "hookrun: exit: abc: numeric argument required\n"),
    ],
)
def test_builtin_error_message(run: Runner, source: str, message: str) -> None:
    assert run(source).err == message


def test_builtins_spawn_nothing(run: Runner) -> None:
    ran = run(
        "echo a; printf b; test 1 = 1; [ -d . ]; read x <<< y; cd .; pwd >/dev/null; "
        "export A=1; set -- q; shift; : ; true"
    )
    assert (ran.code, ran.procs) == (0, 0)
