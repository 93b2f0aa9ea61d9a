"""Source edges: comments, continuations, ``${…}`` quoting, case, here-docs (once the prepass's).

Every row was run through bash 5 as ``bash -c SOURCE sh "a b" c`` in an empty directory
with the same environment: bash gives the same exit code and stdout. stderr is hookrun's
own wording. ``route`` is ``"sh-fallback"`` where the front end hands the script whole
to a real shell (a grammar gap, see hookrun/shellsyntax/gaps.py).
"""

from __future__ import annotations

import pytest

from tests.dispatch.shell.shellrun import Runner

ARGS = ("a b", "c")


@pytest.mark.parametrize(
    ("source", "code", "stdout", "stderr", "route"),
    [
        ("printf '%s\\n' $'\\xZ' $'\\uZ'", 0, "\\xZ\n\\uZ\n", "", None),
        ("echo a \\\n b", 0, "a b\n", "", None),
        ("echo a # comment\necho b", 0, "a\nb\n", "", None),
        ("# only\n# comments", 0, "", "", None),
        ("", 0, "", "", None),
        ("   ", 0, "", "", None),
        ("x=(1 2)", 0, "", "", None),
        ("echo ${a[0]}", 0, "\n", "", None),
        ('echo `echo "in"`x', 0, "inx\n", "", None),
        ('f() { echo "${1}"; }; f q', 0, "q\n", "", None),
        ("echo ${x:-`echo bt`}", 0, "bt\n", "", None),
        ("echo ${x:-\\}}", 0, "}\n", "", None),
        ('echo ${x:-"}"}', 0, "}\n", "", None),
        ("echo ${x:-${y:-in}}", 0, "in\n", "", None),
        ("echo ${x:-$(echo c)}", 0, "c\n", "", None),
        ("echo ${x:-{a}}", 0, "{a}\n", "", None),
        ("echo $'it''s'", 0, "its\n", "", None),
        ('echo $"dq $HOME"', 0, "dq /home/hooker\n", "", None),
        ("echo $(( (1+2) ))", 0, "3\n", "", None),
        ("echo $((\n1+2\n))", 0, "3\n", "", None),
        ("x=$(echo 'q)'); echo $x", 0, "q)\n", "", None),
        ("x=$(echo \\)); echo $x", 0, ")\n", "", None),
        ('x=$(echo "("\n); echo $x', 0, "(\n", "", None),
        ("true \\\n&& echo cont", 0, "cont\n", "", None),
        ("if true; then # c\n echo y; fi", 0, "y\n", "", None),
        ("\\\necho x", 0, "x\n", "", None),
        (
            "case in esac",
            2,
            "",
            "hookrun: syntax error: unexpected end of file (line 1, column 13)\n",
            None,
        ),
        (
            "case x in",
            2,
            "",
            "hookrun: syntax error: unexpected end of file (line 1, column 10)\n",
            None,
        ),
        (
            "case x in\n",
            2,
            "",
            "hookrun: syntax error: unexpected end of file (line 2, column 1)\n",
            None,
        ),
        (
            "case x in ) echo;; esac",
            2,
            "",
            "hookrun: syntax error: syntax error near unexpected token `)' (line 1, column 10)\n",
            None,
        ),
        (
            "case x in a b) echo;; esac",
            2,
            "",
            "hookrun: syntax error: syntax error near unexpected token `a' (line 1, column 11)\n",
            None,
        ),
        ("case x in x) echo hit;; esac; echo after", 0, "hit\nafter\n", "", None),
        ("case x in x) sleep 0 & ;; esac; wait; echo bg", 0, "bg\n", "", None),
        ("case x in x) echo y;;\nesac", 0, "y\n", "", None),
        ("case x in\n x|y) echo alt ;;\n *) echo no ;;\nesac", 0, "alt\n", "", None),
        ("cat <<  EOF\nspaced\nEOF", 0, "spaced\n", "", None),
        (
            "cat <<",
            2,
            "",
            "hookrun: syntax error: syntax error near unexpected token `<<' (line 1, column 5)\n",
            None,
        ),
        ("cat <<'E O'\nx\nE O", 0, "x\n", "", None),
        ("cat <<'EOF'\nx\nEOF", 0, "x\n", "", None),
        ("cat <<\\EOF\n$HOME\nEOF", 0, "$HOME\n", "", None),
        ("cat <<-EOF\n\tx\n\tEOF", 0, "x\n", "", None),
        ("cat <<E1; cat <<E2\na\nE1\nb\nE2", 0, "a\nb\n", "", None),
    ],
)
def test_rewritten_source_agrees_with_bash(
    run: Runner, source: str, code: int, stdout: str, stderr: str, route: str | None
) -> None:
    ran = run(source, args=ARGS)
    assert (ran.code, ran.out, ran.err, ran.route) == (code, stdout, stderr, route)


def test_a_case_arm_with_an_empty_body_does_nothing(run: Runner) -> None:
    ran = run("case x in x) ;; esac; echo empty")
    assert (ran.code, ran.out, ran.err) == (0, "empty\n", "")


def test_a_quoted_brace_in_a_default_value_is_literal(run: Runner) -> None:
    ran = run("echo ${x:-'}'}")
    assert (ran.code, ran.out) == (0, "}\n")


def test_a_here_document_cut_short_by_end_of_input_still_runs(run: Runner) -> None:
    ran = run("cat <<EOF\nunterminated")
    assert (ran.code, ran.out) == (0, "unterminated\n")
