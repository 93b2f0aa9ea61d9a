"""The front end: source → typed tree, pinned as a compact rendering per case."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from hookrun.shellsyntax import ShellSyntaxError, Unsupported, line_col, parse
from hookrun.shellsyntax.walk import calls, literal
from tests.shellsyntax.render import stmts

TREES = [
    # (source, rendering)
    ("echo hi # c", "call(echo hi)"),
    (
        "a=1 b=$x echo \"x$y${z:-\"q\"}\" $(ls) `pwd` 's' $'\\n' a\\ b >f 2>&1",
        "call(a=1 b=${x} echo D\"x${y}${z:-(D\"q\")}\" $(call(ls)) $(call(pwd)) S's' S'\\n' a\\ b)"
        " >f 2>&1",
    ),
    (
        "if false; then :; elif false; then :; elif true; then echo foo; fi",
        "if([call(false)]->[call(:)] [call(false)]->[call(:)] [call(true)]->[call(echo foo)])",
    ),
    (
        "while [ $x -gt 0 ]\ndo x=$((x-1)); done",
        "while([call([ ${x} -gt 0 ])] [call(x=$((x-1)))])",
    ),
    (
        "while while false; do :; done; do :; done",
        "while([while([call(false)] [call(:)])] [call(:)])",
    ),
    (
        'x=(a [k]=b "c d"); a[1]+=2; declare -A m=([a]=1)',
        'call(x=(a [k]=b D"c d")); call(a[1]+=2); call(declare -A m=([a]=1))',
    ),
    (
        "case $x in a|b) echo;; *.txt) :;& *) ;; esac",
        "case(${x} a|b->[call(echo)];; *.txt->[call(:)];& *->[];;)",
    ),
    (
        "for i; do :; done; for ((i=0; i<3; i++)); do :; done",
        "for(i in $@ [call(:)]); cfor(i=0; i<3; i++ [call(:)])",
    ),
    ("f() { local x=1; } >o; function g { :; }", "func(f {call(local x=1)} >o); func(g {call(:)})"),
    (
        '[[ ! -f $a || ( $b == x* && -n "$c" ) ]]',
        '[[((! (-f ${a})) || [((${b} == x*) && (-n D"${c}"))])]]',
    ),
    ("[[ $a =~ ^x(.*)$ ]]", "[[(${a} =~ ^x(.*)$)]]"),
    (
        'cat <<-EOF\n\ta $x\n\tEOF\ncat <<"E"\n$y\nE',
        "call(cat) <<-EOF['a ${x}\\n']; call(cat) <<E['$y\\n']",
    ),
    (
        "cat <<EOF | grep x && echo y\nhi $x\nEOF\n",
        "(pipe(call(cat) <<EOF['hi ${x}\\n'] | call(grep x)) && call(echo y))",
    ),
    ("x=$(cat <<EOF\na\nEOF\n)", "call(x=$(call(cat) <<EOF['a\\n']))"),
    ("cat <<EOF\nEOF\n", "call(cat) <<EOF['']"),
    ("! a | b |& c && d || e &", "((!pipe(call(a) | call(b) |& call(c)) && call(d)) || call(e)) &"),
    (
        "echo ${#x[@]} ${x[1]} ${!p*} ${!r} ${x@Q} ${#} ${10} $@ ${x:=1} ${@:2:2} ${x/a b/$y}",
        "call(echo ${#x[@]} ${x[1]} ${p*} ${!r} ${x@(Q)} ${#} ${10} ${@} ${x:=(1)} ${@:(2,2)}"
        " ${x/(a b,${y})})",
    ),
    (
        "echo $(( 1 + $(echo 2) )) $[3]; (( x += 1 ))",
        "call(echo $(( 1 + $(call(echo 2)) )) $((3))); (( x += 1 ))",
    ),
    ("x=$(<f)", "call(x=$((redirects) <f))"),
    ("2>&1 >/dev/null", "(redirects) 2>&1 >/dev/null"),
    (
        "( cd d && ls ) >x; { b; } 2>/dev/null",
        "sub((call(cd d) && call(ls))) >x; {call(b)} 2>/dev/null",
    ),
    ("echo `echo \\`echo hi\\``", "call(echo $(call(echo $(call(echo hi)))))"),
    ("export A=1 B; unset -f x", "call(export A=1 B); call(unset -f x)"),
    ('echo "a\\$b\\"c\\\\d\\e"', 'call(echo D"a$b"c\\d\\e")'),
    ('cat <<<"$x" >&2', 'call(cat) <<<D"${x}" >&2'),
]

GAPS = [
    # (source, rendering): each of the grammar gaps in hookrun/shellsyntax/gaps.py
    ("cat 2>&1 <<<x", "call(cat) 2>&1 <<<x"),
    ("cat 4<>g", "call(cat) 4<>g"),
    ("exec {fd}>f", "call(exec) {fd}>f"),
    ("echo a\\\nb c", "call(echo ab c)"),
    ("! a | b && c", "(!pipe(call(a) | call(b)) && call(c))"),
    ("rm$IFS-rf$IFS~", "call(rm${IFS}-rf${IFS}~)"),
    # gap 15: assignments, a newline, a command (at the end of the input)
    ("a=1 b=2\ncmd $a | cat", "call(a=1 b=2); pipe(call(cmd ${a}) | call(cat))"),
    ("a=1 b=2\nx && y", "call(a=1 b=2); (call(x) && call(y))"),
    ("a=1 b=2 # c\ncmd >f", "call(a=1 b=2); call(cmd) >f"),
    ("a=1 b=2 \\\ncmd", "call(a=1 b=2 cmd)"),  # a line continuation: one command
    ("echo $\\\n?", "call(echo ${?})"),
    # gap 16: a line that starts with a backslash-escaped word is a new command
    ("echo a\n\\exit 5", "call(echo a); call(\\exit 5)"),
    ("if x\n\\true\nthen :; fi", "if([call(x); call(\\true)]->[call(:)])"),
    # gap 17: extended globs are one word (not a word and a subshell); arithmetic is not
    ('g=--@(help|"v")', 'call(g=--@(help|D"v"))'),
    ("case $w in --@(h|v)) echo A;; esac", "case(${w} --@(h|v)->[call(echo A)];;)"),
    ("[[ --verbose == --@(help|verbose) ]]", "[[(--verbose == --@(help|verbose))]]"),
    ("echo $(( 2*(3+1) ))", "call(echo $(( 2*(3+1) )))"),
    ("case $w in x|--@(h|v)|y) echo A;; esac", "case(${w} x|--@(h|v)|y->[call(echo A)];;)"),
    ("echo *(a|@(b|c)) $(( 2*(3+1) ))", "call(echo *(a|@(b|c)) $(( 2*(3+1) )))"),
    ("echo @(a|'(|)'|$(b))", "call(echo @(a|S'(|)'|$(call(b))))"),
    ("g=x!(a|b)", "call(g=x!(a|b))"),
    # a [[ ]] word starting -- is a word, not a decrement
    ("[[ -- == $g ]]", "[[(-- == ${g})]]"),
    # Here-documents (gap 5, hookrun/shellsyntax/heredocs.py)
    ("cat <<EOF; echo a\nb\nEOF\n", "call(cat) <<EOF['b\\n']; call(echo a)"),
    ("cat <<EOF\na\n  EOF\nEOF\n", "call(cat) <<EOF['a\\n  EOF\\n']"),
    ("cat <<A <<-B && x\na\nA\n\tb\n\tB\n", "(call(cat) <<A['a\\n'] <<-B['b\\n'] && call(x))"),
    ("cat 0<<E x\nE\n", "call(cat x) 0<<E['']"),
    ("a | b <f 2>&1", "pipe(call(a) | call(b) <f 2>&1)"),
    ("a >x && b | c >f", "(call(a) >x && pipe(call(b) | call(c) >f))"),
    ("echo == a ==", "call(echo == a ==)"),
    # Backquotes (gap 8, hookrun/shellsyntax/backquotes.py)
    ("echo `a` `b`", "call(echo $(call(a)) $(call(b)))"),
    ('echo "x`echo \\"q\\"`" $`b`', 'call(echo D"x$(call(echo D"q"))" $$(call(b)))'),
    ("echo \\ \\(", "call(echo \\ \\()"),
    # gap 22: \v, \f and a \r not before a newline are word characters, as in bash
    ("echo -\r- -\v- -\f-", "call(echo -\r- -\v- -\f-)"),
    ("echo a\r", "call(echo a\r)"),
    ("echo a\r\necho b\r\n", "call(echo a); call(echo b)"),  # CRLF: a line end
    # gap 23: `for x do`, and a loop name bash refuses only when it runs the loop
    ("for x do echo $x; done", "for(x in $@ [call(echo ${x})])"),
    ("for - in a; do :; done", "for(- in a [call(:)])"),
    ("for a-b in a; do :; done", "for(a-b in a [call(:)])"),
    # gap 24: `!` before a compound command negates the pipeline it starts
    ("! { a; } || b", "(!{call(a)} || call(b))"),
    ("! if a; then b; fi", "!if([call(a)]->[call(b)])"),
    ("x; ! while a; do :; done | c", "call(x); !pipe(while([call(a)] [call(:)]) | call(c))"),
    # gap 25: an escaped byte in a ${x#…} / ${x%…} pattern
    ('echo "${v#\\}}" ${f%d\\\'}', 'call(echo D"${v#(\\})}" ${f%(d\\\')})'),
    # `! {` nested and in a pipeline (gap 24)
    ("! { a; b; } | c", "!pipe({call(a); call(b)} | call(c))"),
    ("! { ! { a; }; }", "!{!{call(a)}}"),
    # gap 26: arithmetic the grammar cannot read is read from the user's text
    ("echo $(( a[1][1] )) x", "call(echo $(( a[1][1] )) x)"),
    ("(( x$f[5] = 4 )); y", "(( x${f}[5] = 4 )); call(y)"),
    # gap 27: `#` in arithmetic is never a comment
    ("echo $(( ${b}#a ))", "call(echo $(( ${b}#a )))"),
    ("(( x = ${b}#1 )); echo", "(( x = ${b}#1 )); call(echo)"),
    # gap 28: an operator byte inside `${name…}` is a bad substitution, not a new command
    ("echo ${a&}", "call(echo ${${a&}!bad()})"),
    ("y=$(echo ${a;})", "call(y=$(call(echo ${${a;}!bad()})))"),
    ("echo ${x@Z} ${a[0]@Z}", "call(echo ${x@(Z)} ${a[0]@(Z)})"),
    # gap 29: a lone `$` continuing a word after backslash-newline
    ("echo foo\\\n$", "call(echo foo$)"),
    # gap 30: a bracket that starts with `]` in a ${…} pattern
    ("echo ${x//[]z]/>} ${x#[!]]}", "call(echo ${x//([]z],>)} ${x#([!]])})"),
    # gap 31: a reserved word right after a group or subshell
    ("if { a; } then b; fi", "if([{call(a)}]->[call(b)])"),
    ("while (a) do b; done", "while([sub(call(a))] [call(b)])"),
    # gap 32: one assignment and redirections, no command
    ("x=1 2>f; echo", "call(x=1) 2>f; call(echo)"),
    ("x=$(a) 2>/dev/null && b", "(call(x=$(call(a))) 2>/dev/null && call(b))"),
    ("x=1 >f | c", "pipe(call(x=1) >f | call(c))"),
    ("x=1 >f\necho $x", "call(x=1) >f; call(echo ${x})"),
    ("x=1 >f cmd", "call(x=1 cmd) >f"),
]

UNSUPPORTED = [
    # (source, construct named): what the front end refuses by name
    ("select x in a; do :; done", "'select'"),
]

SYNTAX_ERRORS = [
    # (source, line, column): bash refuses each too (checked when bash is on PATH); the
    # position is where tree-sitter found the error (bash names a line only)
    ("if true; then", 1, 14),
    ("echo (", 1, 7),
    ("echo (42)", 1, 6),
    ("a | ! b", 1, 1),
    ("a &&", 1, 5),
    ("for x in; do", 1, 13),
    ("echo 'unterminated", 1, 19),
    ("$(echo f)$(echo or) i in a; do echo; done", 1, 29),
    ("echo a\nfi", 2, 1),
]


@pytest.mark.parametrize(("source", "expected"), TREES + GAPS)
def test_source_becomes_this_tree(source: str, expected: str) -> None:
    assert stmts(parse(source).stmts) == expected


@pytest.mark.parametrize(("source", "construct"), UNSUPPORTED)
def test_known_gaps_and_unhandled_constructs_are_refused_by_name(
    source: str, construct: str
) -> None:
    with pytest.raises(Unsupported) as info:
        parse(source)
    assert info.value.construct == construct


@pytest.mark.parametrize(("source", "line", "column"), SYNTAX_ERRORS)
def test_invalid_shell_is_a_syntax_error_with_its_position(
    source: str, line: int, column: int
) -> None:
    with pytest.raises(ShellSyntaxError) as info:
        parse(source)
    assert (info.value.line, info.value.column) == (line, column)
    bash = shutil.which("bash")
    if bash is not None:
        assert subprocess.run([bash, "-n", "-c", source], capture_output=True).returncode == 2


def test_positions_point_into_the_users_own_text() -> None:
    source = "echo héllo\n  cat  <<EOF\nx\nEOF\n"
    script = parse(source)
    second = script.stmts[1]
    assert script.source[second.pos : second.end].decode() == "cat  <<EOF\nx\nEOF"
    assert line_col(script.source, second.pos) == (2, 3)
    word = script.stmts[0].cmd.args[1]  # type: ignore[union-attr]
    assert script.source[word.pos : word.end].decode() == "héllo"
    assert line_col(script.source, word.end) == (1, 11)


def test_walk_finds_commands_inside_substitutions_and_bodies() -> None:
    script = parse('if x=$(rm -rf /); then for f in "$(cat <(ls))"; do git push; done; fi')
    names = [literal(c.args[0]) for c in calls(script.stmts) if c.args]  # type: ignore[arg-type]
    assert names == ["rm", "git", "cat", "ls"] or sorted(names) == sorted(
        ["rm", "git", "cat", "ls"]
    )


def test_literal_is_the_value_after_quote_removal_or_none() -> None:
    args = parse('echo a\\ b \'c\'"d" $x "$y"').stmts[0].cmd.args  # type: ignore[union-attr]
    assert [literal(w) for w in args] == ["echo", "a b", "cd", None, None]  # type: ignore[arg-type]
