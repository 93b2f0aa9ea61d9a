"""Substitutions inside here-document bodies and inside ``${…}`` defaults: quotes, nested
``$(…)``, backquotes and arithmetic: where the front end finds their ends.

Every row was run through bash 5 as ``bash -c SOURCE sh "a b" c`` in an empty directory
with the same environment: bash gives the same exit code and stdout. stderr is hookrun's
own wording.
"""

from __future__ import annotations

import pytest

from tests.dispatch.shell.shellrun import Runner

ARGS = ("a b", "c")


@pytest.mark.parametrize(
    ("source", "code", "stdout", "stderr"),
    [
        ("cat <<EOF\n$(echo 'a)b')\nEOF", 0, "a)b\n", ""),
        ("cat <<EOF\n$(echo `echo bt`)\nEOF", 0, "bt\n", ""),
        ("cat <<EOF\n$(echo ${HOME} $(echo in))\nEOF", 0, "/home/hooker in\n", ""),
        ("cat <<EOF\n$(echo \\) x)\nEOF", 0, ") x\n", ""),
        ('cat <<EOF\n$(echo "q)")\nEOF', 0, "q)\n", ""),
        ("cat <<EOF\n${x:-$(echo s)}\nEOF", 0, "s\n", ""),
        ("cat <<EOF\n$((1+(2*3)))\nEOF", 0, "7\n", ""),
        ("cat <<EOF\n\"$HOME\" 'q' \\t\nEOF", 0, "\"/home/hooker\" 'q' \\t\n", ""),
        ("x='a b'; cat <<EOF\n$x ${x} ${#x}\nEOF", 0, "a b a b 3\n", ""),
        ('cat <<EOF\n$(echo "$(echo deep)")\nEOF', 0, "deep\n", ""),
        ('cat <<EOF\n$(echo "a\\"b")\nEOF', 0, 'a"b\n', ""),
        ("cat <<EOF\n$(echo ${x:-'q'})\nEOF", 0, "q\n", ""),
        ("cat <<EOF\n$(echo $(( (1) )))\nEOF", 0, "1\n", ""),
        ("y=v; echo \"${y:-'a'}\" ${y:-'a'} ${nope:-'a b'}", 0, "v v a b\n", ""),
        ("echo ${nope:-$(echo c)} ${nope:-`echo d`} ${nope:-${y:-e}}", 0, "c d e\n", ""),
        ("echo ${nope:-{x}}", 0, "{x}\n", ""),
        ("echo ${nope:-a\\}b}", 0, "a}b\n", ""),
        ('echo $(echo "(")', 0, "(\n", ""),
        ("echo $(case x in x) echo c;; esac)", 0, "c\n", ""),
        ("echo $(echo a # comment )\n)", 0, "a\n", ""),
        ("echo $(echo 'it''s')", 0, "its\n", ""),
        ("echo $( echo \\( )", 0, "(\n", ""),
        ('echo "$(echo "$(echo "x")")"', 0, "x\n", ""),
        ("x=`echo a`; echo $x", 0, "a\n", ""),
        ("echo `echo '\\$HOME'`", 0, "$HOME\n", ""),
        ('echo "$HOME""$HOME" | tr -cd / | wc -c', 0, "4\n", ""),
        ("a=1; echo $((a + $((2)) ))", 0, "3\n", ""),
        ("echo $((0x10 + 010 + 2#11))", 0, "27\n", ""),
        ("echo ${#HOME} ${HOME:0:1} ${HOME: -1}", 0, "12 / r\n", ""),
        ("x=hello; echo ${x^^} ${x:1} ${x::2}", 0, "HELLO ello he\n", ""),
        ("x=a-b-c; echo ${x//-/ } ${x/-}", 0, "a b c ab-c\n", ""),
        ("x=abc; echo ${x/#} ${x/%/z}", 0, "abc abcz\n", ""),
        ("x='*'; echo ${x:-y}", 0, "*\n", ""),
        ("x=abcabc; echo ${x#*b} ${x##*b} ${x%b*} ${x%%b*}", 0, "cabc c abca a\n", ""),
    ],
)
def test_nested_substitutions_agree_with_bash(
    run: Runner, source: str, code: int, stdout: str, stderr: str
) -> None:
    ran = run(source, args=ARGS)
    assert (ran.code, ran.out, ran.err) == (code, stdout, stderr)


def test_a_quoted_default_inside_double_quotes_keeps_its_text(run: Runner) -> None:
    ran = run('echo "${nope:-"q"}"; cat <<EOF\n${x:-"a}b"}\nEOF')
    assert ran.out == "q\na}b\n"


def test_an_escaped_brace_in_a_double_quoted_default_loses_its_backslash(run: Runner) -> None:
    ran = run('echo "${nope:-a\\}b}"')
    assert ran.out == "a}b\n"


def test_escaped_backquotes_nest_a_substitution(run: Runner) -> None:
    ran = run("echo `echo \\`echo inner\\``")
    assert (ran.code, ran.out) == (0, "inner\n")
