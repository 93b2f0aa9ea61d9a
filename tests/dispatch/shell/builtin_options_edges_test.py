"""Builtin options: printf conversions, local/declare/export/unset flags, read's forms,
shift past the end, ``type``/``test`` corner cases.

Every row was run through bash 5 as ``bash -c SOURCE sh "a b" c`` in an empty directory
with the same environment: bash gives the same exit code and stdout. stderr is hookrun's
own wording.
"""

from __future__ import annotations

import pytest

from tests.dispatch.shell.shellrun import Runner

ARGS = ("a b", "c")  # $1 has a space, so splitting and quoting show


@pytest.mark.parametrize(
    ("source", "code", "stdout", "stderr"),
    [
        ("printf '%5.2s|\\n' abc", 0, "   ab|\n", ""),
        (
            "printf '%-4s|%04d|%x|%o|%e|%c\\n' a 7 255 8 1.5 xyz",
            0,
            "a   |0007|ff|10|1.500000e+00|x\n",
            "",
        ),
        ("printf '%s %s\\n' a b c", 0, "a b\nc \n", ""),
        ("printf '%i\\n' 0x1f", 0, "31\n", ""),
        ("printf '%d\\n' \"'A\"", 0, "65\n", ""),
        ("f() { local -x L=1; env | grep -c ^L=; }; f", 0, "1\n", ""),
        ("f() { local; }; f; echo $?", 0, "0\n", ""),
        ("local x", 1, "", "hookrun: local: can only be used in a function\n"),
        ("export -p | grep -c PATH", 0, "1\n", ""),
        ("unset -f nosuch; echo $?", 0, "0\n", ""),
        ("unset -v PATH; echo ${PATH-gone}", 0, "gone\n", ""),
        ('echo a | read -r x; echo "[$x]"', 0, "[]\n", ""),
        ("read -r a b <<< 'one two three'; echo \"$a|$b\"", 0, "one|two three\n", ""),
        ("read a <<< ''; echo $?", 0, "0\n", ""),
        ("IFS= read -r a <<< '  sp  '; echo \"[$a]\"", 0, "[  sp  ]\n", ""),
        ("shift 5; echo $?", 0, "1\n", ""),
        ("set -- a b c; shift 2; echo $@", 0, "c\n", ""),
        ("echo $(( 2 > 1 ? 10 : 20 ))", 0, "10\n", ""),
        ("pwd -P | grep -c /", 0, "1\n", ""),
        ("type -t nosuch; echo $?", 0, "1\n", ""),
        ("type -f echo", 0, "echo is a shell builtin\n", ""),
        ("true --help; echo $?", 0, "0\n", ""),
        (": args; echo $?", 0, "0\n", ""),
        ("test; echo $?", 0, "1\n", ""),
        ("[ -n ]; echo $?", 0, "0\n", ""),
        ("[ x -a '' ]; echo $?", 0, "1\n", ""),
        ("[ x -o '' ]; echo $?", 0, "0\n", ""),
        ("[ 1 -eq x ]; echo $?", 0, "2\n", "hookrun: [: x: integer expression expected\n"),
    ],
)
def test_builtin_options_agree_with_bash(
    run: Runner, source: str, code: int, stdout: str, stderr: str
) -> None:
    ran = run(source, args=ARGS)
    assert (ran.code, ran.out, ran.err) == (code, stdout, stderr)


def test_declare_g_in_a_function_sets_the_global(run: Runner) -> None:
    ran = run("f() { declare -g G=1; }; f; echo $G")
    assert ran.out == "1\n"
