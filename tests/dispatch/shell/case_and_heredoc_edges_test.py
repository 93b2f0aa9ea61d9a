"""``case`` arms and here-documents in every position: comments and continuations between
arms, quoted and substituted subjects and patterns, here-docs after pipes, loops and
other here-docs — and the here-document inside a compound command, which is a bug.

Rows were run through bash 5 as ``bash -c SOURCE sh "a b" c`` in an empty directory with
the same environment: bash gives the same exit code and stdout. stderr is hookrun's own
wording; ``route`` is ``"sh-fallback"`` where the construct goes to a real shell.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.dispatch.shell.shellrun import Runner

ARGS = ("a b", "c")


@pytest.mark.parametrize(
    ("source", "code", "stdout", "stderr", "route"),
    [
        ("case a in a) echo x;;\n# comment\nesac", 0, "x\n", "", None),
        ("case a in\n# c1\na) echo y;;\n# c2\nesac", 0, "y\n", "", None),
        ("case a \\\nin a) echo y;; esac", 0, "y\n", "", None),
        ("case ${x:-'a'} in a) echo q;; esac", 0, "q\n", "", None),
        ('case "$(echo a)" in a) echo r;; esac', 0, "r\n", "", None),
        ("case `echo a` in a) echo s;; esac", 0, "s\n", "", None),
        ("case ${x:-{a}} in {a}) echo br;; esac", 0, "br\n", "", None),
        ('case ${x:-"a"} in a) echo dq;; esac', 0, "dq\n", "", None),
        ("case ${x:-\\a} in a) echo bs;; esac", 0, "bs\n", "", None),
        ("case ${x:-$(echo a)} in a) echo cs;; esac", 0, "cs\n", "", None),
        ("case ${x:-`echo a`} in a) echo bt;; esac", 0, "bt\n", "", None),
        ("case a in ${y:-a}) echo t;; esac", 0, "t\n", "", None),
        ("case a in a) echo one;; b) echo two;; esac", 0, "one\n", "", None),
        ("case a in (a) echo paren;; esac", 0, "paren\n", "", None),
        ("case a in a) echo amp & wait;; esac", 0, "amp\n", "", None),
        ("a+=(x)", 0, "", "", None),
        ('echo $(( "1" + 2 ))', 0, "3\n", "", None),
        ("echo $(( (1) + (2) ))", 0, "3\n", "", None),
        ("echo $((1)) $(( 2 )) $((\\\n3))", 0, "1 2 3\n", "", None),
        ("x=$(( 1 +\n2 )); echo $x", 0, "3\n", "", None),
        ("echo a; \\\n echo b", 0, "a\nb\n", "", None),
        ("f() { echo f; }; f # c", 0, "f\n", "", None),
        # Backquotes found as bash finds them (hookrun/shellsyntax/backquotes.py).
        ("echo `echo a` `echo b`", 0, "a b\n", "", None),
        ("echo 1 `echo $` 2 `echo \\$` 3 `echo \\\\\\$`", 0, "1 $ 2 $ 3 $\n", "", None),
        ('echo "1 `echo \\"q\\"`" `echo \\"q\\"`', 0, '1 q "q"\n', "", None),
        ('echo [`echo \\ `] "[`echo \\ `]"', 0, "[ ] [ ]\n", "", None),
        ('echo `echo \\(` "`echo \\\\ \\\\(`"', 0, "(  (\n", "", None),
        ('echo $`echo x` a``b "c``d"', 0, "$x ab cd\n", "", None),
        ("echo '`' \"\\`\" \\` # `", 0, "` ` `\n", "", None),
        ("echo `echo \\`echo in\\``", 0, "in\n", "", None),
        ('x=`echo a; echo b`; echo "$x"', 0, "a\nb\n", "", None),
        ('echo ${u:-`echo d`} "${u:-`echo e`}"', 0, "d e\n", "", None),
        ("cat <<EOF\n`echo \\$HOME | tr H h`\nEOF", 0, "/home/hooker\n", "", None),
        ("`echo echo` hi; \\fi 2>/dev/null || echo nofi", 0, "hi\nnofi\n", "", None),
        ("echo $((`echo 1` + 2)); ((x=`echo 3`+1)); echo $x", 0, "3\n4\n", "", None),
        ("echo $(echo `echo n`)", 0, "n\n", "", None),
        ("{ echo g; } # after", 0, "g\n", "", None),
        ("cat <<EOF; echo after\nbody\nEOF", 0, "body\nafter\n", "", None),
        ("cat <<'EOF' | tr a-z A-Z\nlow\nEOF", 0, "LOW\n", "", None),
        ('cat << "EOF"\n$HOME\nEOF', 0, "$HOME\n", "", None),
        ("cat <<E\\OF\n$HOME\nEOF", 0, "$HOME\n", "", None),
        ("cat <<-'E'\n\t\tx\n\tE", 0, "x\n", "", None),
        ("cat <<EOF\nEOF", 0, "", "", None),
        ('while read l; do echo "<$l>"; done <<EOF\na\nb\nEOF', 0, "<a>\n<b>\n", "", None),
        ("cat <<A <<B\na\nA\nb\nB", 0, "b\n", "", None),
        # Here-documents read by hookrun/shellsyntax/heredocs.py, not by the grammar.
        ("cat <<EOF && echo and\nbody\nEOF", 0, "body\nand\n", "", None),
        ("cat <<EOF || echo no; echo yes\nbody\nEOF", 0, "body\nyes\n", "", None),
        ('cat <<EOF; echo "two\nthree"\none\nEOF', 0, "one\ntwo\nthree\n", "", None),
        ("cat <<EOF \\\n; echo two\none\nEOF", 0, "one\ntwo\n", "", None),
        ("cat 0<<EOF\nzero\nEOF", 0, "zero\n", "", None),
        ("cat <<'EOF'\"2\"\nq\nEOF2", 0, "q\n", "", None),
        ("cat <<-EOF\n\tx\n  EOF\n\tEOF", 0, "x\n  EOF\n", "", None),
        ("cat <<EOF\nit's [ a ( b\nEOF", 0, "it's [ a ( b\n", "", None),
        ("cat <<EOF\n$1 `echo bq` $((1+2))\nEOF", 0, "a b bq 3\n", "", None),
        ("f() { cat <<EOF\nin f\nEOF\n}; f", 0, "in f\n", "", None),
        ('x=$(cat <<EOF\nsub\nEOF\n); echo "[$x]"', 0, "[sub]\n", "", None),
        ("echo $(cat <<A; cat <<B\na\nA\nb\nB\n)", 0, "a b\n", "", None),
        (
            "while read l <<EOF\nw\nEOF\ndo echo $l; cat <<EOF\nbody\nEOF\nbreak; done",
            0,
            "w\nbody\n",
            "",
            None,
        ),
        ("cat <<A | cat - <<B\na\nA\nb\nB", 0, "b\n", "", None),
        ("cat <<EOF | wc -l\n1\n2\nEOF", 0, "2\n", "", None),
        ("cat <<EOF 1>&2 - ; echo out\nerr\nEOF", 0, "out\n", "err\n", None),
        ("echo == x; echo ==", 0, "== x\n==\n", "", None),
        ("echo x >/dev/null | cat - <<<here 2>&1", 0, "here\n", "", None),
        ("echo a && echo b >f; echo x | cat && echo y >>f; cat f", 0, "a\nx\nb\ny\n", "", None),
        ("cat <<A >f && cat <<B\nin f\nA\nout\nB\ncat f", 0, "out\nin f\n", "", None),
        ("echo $((1<<3)) <<<x; ((y=1<<2)); echo $y", 0, "8\n4\n", "", None),
        # A here-document in the body of a C-style for loop (its header is arithmetic,
        # its body commands: the here-document was refused, run by sh-fallback).
        ("for ((i=0; i<2; i++)); do cat <<EOF\nrow $i\nEOF\ndone", 0, "row 0\nrow 1\n", "", None),
        ("for ((i=1<<1; i<5; i<<=1)); do ( cat <<'E'\n$i\nE\n); done", 0, "$i\n$i\n", "", None),
        # A here-string on a descriptor (gap 35), and words after a here-string's word.
        ("cat 3<<< x <&3", 0, "x\n", "", None),
        ("read -u 3 v 3<<< hi; echo $v", 0, "hi\n", "", None),
        ('cat 3<<<"a b" <&3; cat 3<<< x; cat 10<<<$1 <&10', 0, "a b\na b\n", "", None),
        ("{ cat <&3 3<<< x; } 2>/dev/null; echo $?", 0, "1\n", "", None),
        ("echo 2>&1 <<< x y; echo 3<<< x y z", 0, "y\ny z\n", "", None),
        ("cat 2>/dev/null <<< x y; cat 3<<< x y <&3 2>/dev/null; echo $?", 0, "1\n", "", None),
    ],
)
def test_case_and_here_documents_agree_with_bash(
    run: Runner, source: str, code: int, stdout: str, stderr: str, route: str | None
) -> None:
    ran = run(source, args=ARGS)
    assert (ran.code, ran.out, ran.err, ran.route) == (code, stdout, stderr, route)


def test_a_here_document_inside_an_if_is_data_not_commands(run: Runner, tmp_path: Path) -> None:
    # An old front end read such a document one line late: its body ran as commands.
    ran = run("if true; then cat <<EOF\ntouch pwned\nEOF\nfi", cwd=str(tmp_path))
    assert not os.path.exists(tmp_path / "pwned")
    assert (ran.code, ran.out) == (0, "touch pwned\n")


# Every row was run as ``bash -c SOURCE sh`` (bash 5.2) in an empty directory with the same
# environment (HOME=/home/hooker): same exit code, same stdout, and no file left behind.
@pytest.mark.parametrize(
    ("source", "code", "stdout"),
    [
        ("if true; then cat <<EOF\nhello $HOME\nEOF\nfi", 0, "hello /home/hooker\n"),
        ("if false; then :; elif true; then cat <<EOF\nelif body\nEOF\nfi", 0, "elif body\n"),
        ("if false; then :; else cat <<'EOF'\nelse $HOME\nEOF\nfi", 0, "else $HOME\n"),
        ("for i in 1 2; do cat <<EOF\nrow $i\nEOF\ndone", 0, "row 1\nrow 2\n"),
        ("i=0; while [ $i -lt 2 ]; do cat <<EOF\nw$i\nEOF\ni=$((i+1)); done", 0, "w0\nw1\n"),
        ('i=0; until [ $i -ge 2 ]; do cat <<"E"\nu$i\nE\ni=$((i+1)); done', 0, "u$i\nu$i\n"),
        ("{ cat <<EOF\nbrace\nEOF\n}", 0, "brace\n"),
        ("( cat <<EOF\nsub\nEOF\n)", 0, "sub\n"),
        ("f() { cat <<EOF\nfn $1\nEOF\n}; f arg", 0, "fn arg\n"),
        ("f() {\n  cat <<-EOF\n\t\tindented\n\tEOF\n}\nf", 0, "indented\n"),
        ("if true; then for x in a; do { cat <<EOF\nnested $x\nEOF\n}; done; fi", 0, "nested a\n"),
        # <<- strips tabs from the delimiter line too: the first END ends it, the second runs
        ("if true; then\n\tcat <<-'END'\n\tq $HOME\n\t\tEND\n\tEND\nfi", 127, "q $HOME\n"),
        ("if true; then cat <<A; cat <<B\na\nA\nb\nB\nfi", 0, "a\nb\n"),
        ("if true; then cat <<EOF | tr a-z A-Z\nup\nEOF\nfi", 0, "UP\n"),
        ('if true; then while read l; do echo "[$l]"; done <<EOF\nin\nEOF\nfi', 0, "[in]\n"),
        ("if true; then cat <<EOF\nexit 3\nEOF\nfi; echo $?", 0, "exit 3\n0\n"),
        ("case a in a) cat <<EOF\ncase body\nEOF\n;; esac", 0, "case body\n"),
        ('x=$(if true; then cat <<EOF\nsubst\nEOF\nfi); echo "$x"', 0, "subst\n"),
        (
            "if true; then cat <<EOF\n$(echo cmd) `echo bt` $((1+2)) \\$HOME\nEOF\nfi",
            0,
            "cmd bt 3 $HOME\n",
        ),
        ("if true; then cat <<'EOF'\n$(echo cmd) \\$HOME\nEOF\nfi", 0, "$(echo cmd) \\$HOME\n"),
        ("if true; then cat <<E\\OF\n$HOME\nEOF\nfi", 0, "$HOME\n"),
        ("if true; then cat << EOF\nspaced\nEOF\nfi", 0, "spaced\n"),
        ("if true; then cat <<EOF\nfi\nEOF\nfi", 0, "fi\n"),
        ("if true; then cat <<EOF\nEOF\nfi", 0, ""),
        ("if true; then cat <<EOF\nrm -rf x; touch y\nEOF\nfi", 0, "rm -rf x; touch y\n"),
        ("cat <<EOF", 0, ""),
    ],
)
def test_a_here_document_in_a_compound_command_is_its_body_text(
    run: Runner, tmp_path: Path, source: str, code: int, stdout: str
) -> None:
    ran = run(source, cwd=str(tmp_path))
    assert (ran.code, ran.out) == (code, stdout)
    assert os.listdir(tmp_path) == []


def test_the_last_case_arm_may_omit_its_double_semicolon(run: Runner) -> None:
    ran = run("case a in a) echo last; esac")
    assert (ran.code, ran.out) == (0, "last\n")


# Checked with ``bash -c SOURCE sh`` (bash 5.2): same exit code and stdout.
@pytest.mark.parametrize(
    ("source", "code", "stdout"),
    [
        ("case x in x) ;; esac; echo empty", 0, "empty\n"),
        ("case x in x) esac; echo $?", 0, "0\n"),
        ("case x in y) echo no;; x) ;; esac; echo after", 0, "after\n"),
        ("case x in x)\n;;\nesac; echo nl", 0, "nl\n"),
        ("false; case x in x) ;; esac; echo $?", 0, "0\n"),
        ("case a in a) echo last; esac", 0, "last\n"),
        ("case a in b) echo b;; a) echo last; esac", 0, "last\n"),
        ("case a in a) echo one; echo two; esac", 0, "one\ntwo\n"),
        ("case a in a) echo nl\nesac", 0, "nl\n"),
        ("case a in a) echo \\\\; esac", 0, "\\\n"),
        ("case a in a) (exit 4); esac; echo $?", 0, "4\n"),
        ("case a in b) echo b; esac; echo none", 0, "none\n"),
    ],
)
def test_empty_and_unterminated_last_case_arms_agree_with_bash(
    run: Runner, source: str, code: int, stdout: str
) -> None:
    ran = run(source)
    assert (ran.code, ran.out, ran.err) == (code, stdout, "")
