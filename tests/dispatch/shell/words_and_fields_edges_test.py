"""Words and fields: here-document bodies, tildes in assignments, escapes inside double
quotes and backquotes, parameter operators on positional and special parameters, IFS
splitting with empty fields, and globs that match nothing or go through directories.

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
        ("cat <<EOF\na\\$b \\`c\\` d\\\\e \\\nf\nEOF", 0, "a$b `c` d\\e f\n", ""),
        ("cat <<EOF\n$HOME `echo bt` $(echo ds)\nEOF", 0, "/home/hooker bt ds\n", ""),
        ("x=a:~/b; echo $x", 0, "a:/home/hooker/b\n", ""),
        ("x=~; echo $x", 0, "/home/hooker\n", ""),
        ("x=~/q:~; echo $x", 0, "/home/hooker/q:/home/hooker\n", ""),
        ("x=~nosuchuser9/a; echo $x", 0, "~nosuchuser9/a\n", ""),
        ("x=a~; echo $x", 0, "a~\n", ""),
        ('echo "\\$x \\` \\\\ \\""', 0, '$x ` \\ "\n', ""),
        ('echo "$(( 1 + 2 ))" $(( 3 ))', 0, "3 3\n", ""),
        ("echo $(( $(echo 2) * 3 ))", 0, "6\n", ""),
        ("echo $( (echo sub) )", 0, "sub\n", ""),
        ("echo \"$'x'\"", 0, "$'x'\n", ""),
        ('echo "$\\"x"', 0, '$"x\n', ""),
        ('echo "$@" "$*"', 0, "a b c a b c\n", ""),
        ("echo ${#*}", 0, "2\n", ""),
        ('echo "${@}"', 0, "a b c\n", ""),
        ("echo ${1+set}", 0, "set\n", ""),
        ("echo ${9+set}", 0, "\n", ""),
        ("echo ${@:-d}", 0, "a b c\n", ""),
        ("echo ${nope=def} $nope", 0, "def def\n", ""),
        ("echo ${1=x}", 0, "a b\n", ""),
        ("echo ${nope:+alt}x", 0, "x\n", ""),
        ("x=1; echo ${x:+alt}", 0, "alt\n", ""),
        ("echo ${nope:?custom message}", 127, "", "hookrun: nope: custom message\n"),
        ("x=; echo ${x+plus} ${x:+colon}", 0, "plus\n", ""),
        ("echo $((1/0))", 1, "", "hookrun: 1/0: division by 0\n"),
        ("echo $(( ((((((((((1)))))))))) ))", 0, "1\n", ""),
        ('for a in "" x; do echo "[$a]"; done', 0, "[]\n[x]\n", ""),
        ('set -- \'\' x; for a in "$@"; do echo "[$a]"; done', 0, "[]\n[x]\n", ""),
        ("x=' '; set -- $x; echo $#", 0, "0\n", ""),
        ("IFS=, ; x='a,,b'; set -- $x; echo $#", 0, "3\n", ""),
        ("echo /*/nosuchglob*", 0, "/*/nosuchglob*\n", ""),
        ("echo /no/such/dir/*", 0, "/no/such/dir/*\n", ""),
        ("echo .*", 0, ".*\n", ""),
        ("mkdir -p d/e; touch d/e/f; echo d/*/f d/e/* d/nope/*", 0, "d/e/f d/e/f d/nope/*\n", ""),
        ("touch '[ab]'; echo \\[ab\\] '[ab]'", 0, "[ab] [ab]\n", ""),
        # A tilde prefix ends at `:` too; arguments that look like assignments get
        # tildes after `=` and `:`; ${u-word} expands word as its context would.
        (
            "echo ~: x=~ y=a:~ --a=~ ${u-~:~}",
            0,
            "/home/hooker: x=/home/hooker y=a:/home/hooker --a=~ /home/hooker:~\n",
            "",
        ),
        ('x=${u-a:~}; echo "$x" "${u:-~}" "${u-\\z\\}}"', 0, "a:/home/hooker ~ \\z}\n", ""),
        ('a=(1 "2 3"); printf "[%s]" "${a[*]}" "${!a[*]}"', 0, "[1 2 3][0 1]", ""),
        ('set -- ""; echo ${@:-minus} "${*:-m}"', 0, "minus m\n", ""),
        ('a=(); : ${a[0]=first}; echo "${a[@]}"', 0, "first\n", ""),
        # Quoted characters in a pattern are literal, inside brackets too.
        ('touch a-b a_b; echo a["-"]b a[\\-]b a[_-]b', 0, "a-b a-b a-b a_b\n", ""),
        ("v=++--x; echo \"${v//['+-']}\"", 0, "x\n", ""),
        # An unmatched `{` is text before a brace expression that expands.
        ("echo {{a,b} x{y{a,b}z {{{a,b}}", 0, "{a {b x{yaz x{ybz {{a} {{b}\n", ""),
        # \r, \v, \f are word characters, not blanks (a \r before a newline is a CRLF
        # line end to hookrun on purpose: bash_confirm_test lists it); in arithmetic they
        # are errors, where a tab or newline is a blank.
        (
            "a() { printf '<%s>' \"$@\"; echo; }; a -\r- -\x0b- -\x0c- x\r",
            0,
            "<-\r-><-\x0b-><-\x0c-><x\r>\n",
            "",
        ),
        (
            "x=$'\\r42'; echo $((x+1)); echo after",
            1,
            "",
            'hookrun: x+1: syntax error in expression (error token is "42")\n',
        ),
        ("x=$'\\t42\\n'; echo $((x+1))", 0, "43\n", ""),
        (
            "echo $(( 1 +\x0b2 )); echo $?",
            1,
            "",
            'hookrun: 1 +\x0b2: syntax error in expression (error token is "2")\n',
        ),
        # A double-quoted string of blanks only keeps them (the grammar's closing quote
        # starts at the first blank; its text was read as empty).
        ('echo "[" " " "]"; x=" "; echo "<$x>" "<  >"', 0, "[   ]\n< > <  >\n", ""),
        ('printf "%s|" "\t" "  " " $1"', 0, "\t|  | a b|", ""),
    ],
)
def test_words_and_fields_agree_with_bash(
    run: Runner, source: str, code: int, stdout: str, stderr: str
) -> None:
    ran = run(source, args=ARGS)
    assert (ran.code, ran.out, ran.err) == (code, stdout, stderr)
