"""The interpreter's language features, each pinned by exact stdout, stderr and status."""

from __future__ import annotations

import pytest

from tests.dispatch.shell.shellrun import Runner

CASES = [
    # id, source, stdout, stderr, status
    ("echo", "echo hello world", "hello world\n", "", 0),
    ("single quotes keep everything", "echo 'a  $HOME \\n'", "a  $HOME \\n\n", "", 0),
    ("double quotes expand", 'X=1; echo "x=$X  y"', "x=1  y\n", "", 0),
    ("backslash escapes", 'echo \\$HOME a\\ b "q\\"q"', '$HOME a b q"q\n', "", 0),
    ("braced variable", "X=ab; echo ${X}c", "abc\n", "", 0),
    (
        "default value",
        "echo ${U:-dflt} ${U-d2}; E=; echo ${E:-empty} [${E-set}]",
        "dflt d2\nempty []\n",
        "",
        0,
    ),
    ("assign default", "echo ${V:=x}; echo $V", "x\nx\n", "", 0),
    ("alternative value", "A=1; echo ${A:+yes}[${B:+no}]", "yes[]\n", "", 0),
    (
        "length and trims",
        "p=dir/sub/file.tar.gz; echo ${#p} ${p##*/} ${p%%.*} ${p#*/} ${p%.*}",
        "19 file.tar.gz dir/sub/file sub/file.tar.gz dir/sub/file.tar\n",
        "",
        0,
    ),
    ("replace", "s=a-b-c; echo ${s/-/+} ${s//-/+}", "a+b-c a+b+c\n", "", 0),
    ("substring", "s=abcdef; echo ${s:2} ${s:1:3} ${s: -2}", "cdef bcd ef\n", "", 0),
    ("case conversion", "s=abC; echo ${s^^} ${s,,} ${s^}", "ABC abc AbC\n", "", 0),
    ("status of last command", "false; echo $?; true; echo $?", "1\n0\n", "", 0),
    (
        "positional parameters",
        'set -- a "b c" d; echo $# $1 "$2" $3; echo "$*"; echo $0',
        "3 a b c d\na b c d\nhookrun\n",
        "",
        0,
    ),
    (
        "quoted $@ keeps words",
        'set -- "a b" c; for x in "$@"; do echo "<$x>"; done',
        "<a b>\n<c>\n",
        "",
        0,
    ),
    ("empty $@ gives no word", 'set --; for x in "$@"; do echo no; done; echo end', "end\n", "", 0),
    ("shift", "set -- a b c; shift; echo $@; shift 2; echo $#", "b c\n0\n", "", 0),
    (
        "word splitting on IFS",
        'x="a  b\tc"; for w in $x; do echo "[$w]"; done',
        "[a]\n[b]\n[c]\n",
        "",
        0,
    ),
    (
        "custom IFS keeps empty fields",
        'IFS=,; x="a,,b"; for w in $x; do echo "[$w]"; done',
        "[a]\n[]\n[b]\n",
        "",
        0,
    ),
    ("quoted expansion is not split", 'x="a  b"; echo "$x"', "a  b\n", "", 0),
    ("empty unquoted expansion vanishes", 'e=; set -- $e "" x; echo $#', "2\n", "", 0),
    ("tilde", "echo ~ ~/bin '~' x~", "/home/hooker /home/hooker/bin ~ x~\n", "", 0),
    ("command substitution", 'echo "[$(echo a; echo b)]" `echo c`', "[a\nb] c\n", "", 0),
    ("nested command substitution", 'echo "$(echo "in $(echo deep)")"', "in deep\n", "", 0),
    ("substitution status", "x=$(exit 3); echo $?", "3\n", "", 0),
    (
        "and-or list inside a substitution",
        'x=$(false || echo alt); y="$(true && echo and)"; echo $x $y',
        "alt and\n",
        "",
        0,
    ),
    ("double brackets inside a substitution", "y=$( [[ -d / ]] && echo D ); echo $y", "D\n", "", 0),
    ("case inside a substitution", "x=$(case a in a) echo A;; esac); echo $x", "A\n", "", 0),
    (
        "arithmetic in a here-document",
        "cat <<EOF\nsum=$((1+2)) [[ x ]]\nEOF",
        "sum=3 [[ x ]]\n",
        "",
        0,
    ),
    (
        "arithmetic expansion",
        "i=3; echo $((i * 2 + 1)) $(( (1+2) << 2 )) $((7 % 4)) $((2**8))",
        "7 12 3 256\n",
        "",
        0,
    ),
    ("arithmetic assignment", "i=0; : $((i += 5)); echo $i; echo $((i++)) $i", "5\n5 6\n", "", 0),
    ("arithmetic command", "(( 2 > 1 )) && echo yes; (( 0 )) || echo zero", "yes\nzero\n", "", 0),
    ("and-or lists", "true && echo a || echo b; false && echo c || echo d", "a\nd\n", "", 0),
    ("negation", "! false; echo $?; ! true; echo $?", "0\n1\n", "", 0),
    (
        "pipeline status is the last stage",
        "false | true; echo $?; true | false; echo $?",
        "0\n1\n",
        "",
        0,
    ),
    ("pipefail", "set -o pipefail; false | true; echo $?", "1\n", "", 0),
    (
        "if elif else",
        "x=2; if [ $x = 1 ]; then echo one; elif [ $x = 2 ]; then echo two; else echo many; fi",
        "two\n",
        "",
        0,
    ),
    ("if without a branch taken", "if false; then echo no; fi; echo $?", "0\n", "", 0),
    ("for loop", "for i in 1 2 3; do echo -n $i; done; echo", "123\n", "", 0),
    ("while loop", "i=0; while [ $i -lt 3 ]; do echo $i; i=$((i+1)); done", "0\n1\n2\n", "", 0),
    ("until loop", "i=0; until [ $i -ge 2 ]; do i=$((i+1)); done; echo $i", "2\n", "", 0),
    (
        "break and continue",
        "for i in 1 2 3 4; do [ $i = 2 ] && continue; [ $i = 4 ] && break; echo $i; done",
        "1\n3\n",
        "",
        0,
    ),
    (
        "break 2",
        "for a in x y; do for b in 1 2; do [ $b = 2 ] && break 2; echo $a$b; done; done",
        "x1\n",
        "",
        0,
    ),
    ("brace group shares state", "{ X=1; echo in; }; echo $X", "in\n1\n", "", 0),
    ("subshell isolates state", "X=1; (X=2; cd /; echo $X); echo $X", "2\n1\n", "", 0),
    ("subshell exit", "(exit 3); echo $?", "3\n", "", 0),
    (
        "functions",
        'greet() { echo "hi $1 ($#)"; return 4; }; greet you; echo $?',
        "hi you (1)\n4\n",
        "",
        0,
    ),
    ("function keyword", "function f { echo fn; }; f", "fn\n", "", 0),
    ("local variables", "x=g; f() { local x=l; echo $x; }; f; echo $x", "l\ng\n", "", 0),
    ("function positional restore", "set -- a; f() { echo $1; }; f b; echo $1", "b\na\n", "", 0),
    (
        "prefix assignment is temporary",
        "X=1; X=2 true; echo $X; f() { echo $Y; }; Y=t f; echo [$Y]",
        "1\nt\n[]\n",
        "",
        0,
    ),
    (
        "case",
        "case foo.py in *.sh|*.bash) echo sh;; *.py) echo py;; *) echo other;; esac",
        "py\n",
        "",
        0,
    ),
    ("case without match is status 0", "false; case x in y) echo y;; esac; echo $?", "0\n", "", 0),
    (
        "case with quoted pattern",
        'p="*"; case a in "$p") echo lit;; $p) echo glob;; esac',
        "glob\n",
        "",
        0,
    ),
    (
        "case on several lines",
        "case $1 in\n  start)\n    echo go\n    ;;\n  (stop) echo halt ;;\nesac",
        "",
        "",
        0,
    ),
    (
        "case inside a function and loop",
        'f() { for a in "$@"; do case $a in -v) echo verbose;; *) echo "arg $a";; esac; done; }; '
        "f -v x",
        "verbose\narg x\n",
        "",
        0,
    ),
    (
        "double brackets",
        "x=abc; [[ $x == a* && -n $x ]] && echo m; [[ $x =~ ^a(b)c$ ]] && echo r; "
        "[[ $x != abc ]] || echo n",
        "m\nr\nn\n",
        "",
        0,
    ),
    ("double brackets do not split", 'x="a b"; [[ $x == "a b" ]] && echo same', "same\n", "", 0),
    (
        "double bracket comparisons",
        "[[ 10 -gt 9 ]] && [[ b > a ]] && [[ ! -e /nonexistent ]] && echo ok",
        "ok\n",
        "",
        0,
    ),
    ("ansi-c quoting", "echo $'a\\tb' $'it\\'s'", "a\tb it's\n", "", 0),
    ("here-document", "X=v; cat <<EOF\nx=$X $(echo s)\nEOF", "x=v s\n", "", 0),
    ("quoted here-document", "X=v; cat <<'EOF'\nx=$X $(echo s)\nEOF", "x=$X $(echo s)\n", "", 0),
    ("tab-stripping here-document", "cat <<-EOF\n\t\tindented\n\tEOF", "indented\n", "", 0),
    ("here-document into a builtin", 'read a <<EOF\nline one\nEOF\necho "$a"', "line one\n", "", 0),
    ("here-string", 'read a b <<< "x y z"; echo "$a|$b"', "x|y z\n", "", 0),
    ("stderr redirect", "echo err >&2; echo out", "out\n", "err\n", 0),
    ("2>&1", "{ echo e >&2; } 2>&1", "e\n", "", 0),
    (
        "discard output",
        "echo gone >/dev/null; echo gone 2>/dev/null >&2; echo kept",
        "kept\n",
        "",
        0,
    ),
    ("&> redirect", "{ echo a; echo b >&2; } &>/dev/null; echo $?", "0\n", "", 0),
    ("exit status", "echo x; exit 3; echo no", "x\n", "", 3),
    ("exit keeps the last status", "false; exit", "", "", 1),
    ("exit in a function ends the script", "f() { exit 4; }; f; echo no", "", "", 4),
    ("set -e stops at a failure", "set -e; echo a; false; echo b", "a\n", "", 1),
    (
        "set -e ignores conditions",
        "set -e; if false; then :; fi; false || true; ! true; false && true; echo alive",
        "alive\n",
        "",
        0,
    ),
    ("set +e", "set -e; set +e; false; echo alive", "alive\n", "", 0),
    (
        "set -u",
        "set -u; echo ${OK:-fine}; echo $MISSING; echo no",
        "fine\n",
        "hookrun: MISSING: unbound variable\n",
        127,
    ),
    ("${x:?} message", "echo ${NOPE:?is required}", "", "hookrun: NOPE: is required\n", 127),
    ("division by zero", "echo $((1/0))", "", "hookrun: 1/0: division by 0\n", 1),
    ("eval", "cmd='echo ev; X=9'; eval \"$cmd\"; echo $X", "ev\n9\n", "", 0),
    ("exit trap", "trap 'echo bye' EXIT; echo hi; exit 2", "hi\nbye\n", "", 2),
    ("comments", "echo a # not this\n# nor this\necho b", "a\nb\n", "", 0),
    ("line continuation", "echo a \\\n  b", "a b\n", "", 0),
    ("crlf line endings", "echo a\r\necho b\r\n", "a\nb\n", "", 0),
    ("empty script", "", "", "", 0),
    ("comment-only script", "# nothing\n   # here\n", "", "", 0),
    ("glob with no match stays literal", "echo *.nomatch", "*.nomatch\n", "", 0),
    ("quoted glob is literal", "echo '*'", "*\n", "", 0),
    (
        "command not found",
        "nosuchcommand-xyz arg; echo $?",
        "127\n",
        "hookrun: nosuchcommand-xyz: command not found\n",
        0,
    ),
    (
        "cd and pwd are shell state",
        "cd /; pwd; echo $PWD; cd - >/dev/null; [ $PWD != / ] && echo back",
        "/\n/\nback\n",
        "",
        0,
    ),
    (
        "cd to a missing directory",
        "cd /nonexistent-dir; echo $?",
        "1\n",
        "hookrun: cd: /nonexistent-dir: No such file or directory\n",
        0,
    ),
    ("export to children", "export HR_X=exported; env | grep ^HR_X=", "HR_X=exported\n", "", 0),
    ("unexported variable stays local", "HR_Y=local; env | grep -c ^HR_Y= ; true", "0\n", "", 0),
    ("prefix assignment reaches child", "HR_Z=one env | grep ^HR_Z=", "HR_Z=one\n", "", 0),
    ("unset", "X=1; unset X; echo [${X-unset}]", "[unset]\n", "", 0),
    (
        "source a file",
        "echo 'SRC=1; echo sourced $1' > lib.sh; . ./lib.sh arg; echo $SRC",
        "sourced arg\n1\n",
        "",
        0,
    ),
    ("exec redirection stays", "exec >/dev/null; echo hidden; echo err >&2", "", "err\n", 0),
    (
        "exec redirection in a subshell stays inside",
        "(exec >/dev/null; echo hidden); echo shown",
        "shown\n",
        "",
        0,
    ),
    ("exec 2>&1", "exec 2>&1; echo moved >&2", "moved\n", "", 0),
    (
        "single quotes with dollar and backquote",
        "echo 'a${'b x'`'y 'c\\d'",
        "a${b x`y c\\d\n",
        "",
        0,
    ),
    ("syntax error in a substitution stops the script", "x=$(echo ok; if); echo no", "", "", 2),
    ("syntax error", "if true; then", "", "", 2),
]


@pytest.mark.parametrize(
    ("source", "stdout", "stderr", "status"),
    [pytest.param(*c[1:], id=c[0]) for c in CASES],
)
def test_feature_gives_exact_output_and_status(
    run: Runner, source: str, stdout: str, stderr: str, status: int
) -> None:
    ran = run(source, args=())
    if source in ("if true; then", "x=$(echo ok; if); echo no"):
        assert ran.err.startswith("hookrun: syntax error")
        assert "(line 1, column" in ran.err
    else:
        assert ran.err == stderr
    assert (ran.out, ran.code) == (stdout, status)


def test_positional_arguments_come_from_run_script(run: Runner) -> None:
    ran = run('echo "$0|$1|$2|$#"', args=("a b", "c"))
    assert ran.out == "hookrun|a b|c|2\n"


def test_payload_on_stdin_reaches_read_and_children(run: Runner) -> None:
    ran = run('read -r first; echo "got $first"; cat', stdin=b'{"a":1}\nrest\n')
    assert ran.out == 'got {"a":1}\nrest\n'


@pytest.mark.parametrize(
    ("source", "stdout"),
    [
        ("echo 'C:\\tools\\x.exe'", "C:\\tools\\x.exe\n"),
        ("echo C:/tools/x.exe", "C:/tools/x.exe\n"),
        ("echo C:\\tools", "C:tools\n"),  # POSIX quoting: unquoted backslash escapes
    ],
)
def test_windows_paths_in_scripts_follow_posix_quoting(
    run: Runner, source: str, stdout: str
) -> None:
    assert run(source, platform="win32").out == stdout


def test_substitution_in_a_redirected_group_sees_the_redirection(run: Runner) -> None:
    ran = run("{ for w in $(echo a; echo gone >&2); do echo $w; done; } 2>/dev/null")
    assert (ran.out, ran.err) == ("a\n", "")


def test_dynamic_variables(run: Runner) -> None:
    ran = run(
        '[ "$RANDOM" != "$RANDOM" ] || [ "$RANDOM" != "$RANDOM" ]; echo $? $(( RANDOM < 32768 )); '
        'RANDOM=fixed; echo $RANDOM; [ "$UID" -ge 0 ] && [ "$PPID" -gt 0 ] && echo ids'
    )
    # (RANDOM=fixed seeds bash's generator with the arithmetic value of `fixed`, 0: its
    # first value is then 20814, as `bash -c 'RANDOM=fixed; echo $RANDOM'` prints)
    assert (ran.out, ran.err) == ("0 1\n20814\nids\n", "")
