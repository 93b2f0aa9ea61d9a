"""Command line → Script: the shared front end's tree, the fallback, context."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from hookrun.hooks.shell_guard.parse import MAX_DEPTH, TooDeep, parse_script

from .conftest import Judge


def test_unparseable_line_falls_back_and_says_so() -> None:
    script = parse_script("rm -rf y 'unterminated")
    assert script.parsed is False
    assert [[w.text for w in c.argv] for c in script.commands][0][:3] == ["rm", "-rf", "y"]


def test_the_tree_reads_what_bashlex_could_not() -> None:
    # [[ ]], case, arithmetic, arrays: parsed by the shared front end now
    for line in ("[[ -d x ]] && rm -rf y", "case $x in a) rm -rf y;; esac", "a=(1 2); rm -rf y"):
        script = parse_script(line)
        assert script.parsed is True, line
        assert ["rm", "-rf", "y"] in [[w.text for w in c.argv] for c in script.commands], line


def test_cd_steps_apply_to_later_commands_and_stay_inside_subshells() -> None:
    script = parse_script("cd /a && (cd b; rm x) && rm y")
    by_name = [([w.text for w in c.argv], [w.text for w in c.cd]) for c in script.commands]
    # (`rm x` runs after `;`: also where `cd b` failed — the step is marked so)
    assert (["rm", "x"], ["/a", "$MAYBE?b"]) in by_name
    assert (["rm", "y"], ["/a"]) in by_name


def test_pipeline_stage_knows_which_stage_feeds_it() -> None:
    script = parse_script("curl -s x | tee f | sh")
    assert [c.pipe_from for c in script.commands] == [-1, 0, 1]


def test_substitution_commands_are_collected_with_the_outer_command() -> None:
    script = parse_script("echo $(rm -rf /) `ls`")
    names = [c.name for c in script.commands]
    assert names == ["rm", "ls", "echo"]


def test_heredoc_body_becomes_the_commands_stdin_text() -> None:
    script = parse_script("sh <<'EOF'\nrm -rf /\nEOF")
    assert script.commands[0].stdin is not None
    assert script.commands[0].stdin.text == "rm -rf /\n"


@pytest.mark.parametrize(
    ("line", "body"),
    [
        ("cat <<EOF\n$HOME/x \\$y\nEOF", "$HOME/x $y\n"),
        ("cat <<'EOF'\n$HOME/x \\$y\nEOF", "$HOME/x \\$y\n"),
        ("cat <<-EOF\n\trm -rf /\n\tEOF", "rm -rf /\n"),
    ],
)
def test_heredoc_body_comes_from_the_tree(line: str, body: str) -> None:
    stdin = parse_script(line).commands[-1].stdin
    assert stdin is not None and stdin.text == body


def test_substitutions_in_an_unquoted_heredoc_body_run() -> None:
    script = parse_script("cat <<EOF\n$(rm -rf /)\nEOF")
    assert ["rm", "-rf", "/"] in [[w.text for w in c.argv] for c in script.commands]
    quoted = parse_script("cat <<'EOF'\n$(rm -rf /)\nEOF")
    assert [c.name for c in quoted.commands] == ["cat"]


def test_heredoc_inside_a_substitution_keeps_its_body() -> None:
    script = parse_script('bash -c "$(cat <<EOF\nrm -rf /\nEOF\n)"')
    cat = next(c for c in script.commands if c.name == "cat")
    assert cat.stdin is not None and cat.stdin.text == "rm -rf /\n"


@pytest.mark.parametrize(
    "text",
    [":(){ :|:& };:", "bomb() { bomb | bomb & }; bomb", "f(){ f & f; }; f"],
)
def test_self_replicating_function_is_reported_as_a_fork_bomb(text: str) -> None:
    assert parse_script(text).fork_bombs


def test_plain_recursion_is_not_a_fork_bomb() -> None:
    assert not parse_script("walk() { walk; }").fork_bombs


def test_assignment_then_use_is_followed_but_not_across_unknown_values() -> None:
    known = parse_script("c=rm; $c -rf /")
    assert [w.text for w in known.commands[-1].argv] == ["rm", "-rf", "/"]
    unknown = parse_script("c=$(cat f); $c -rf /")
    assert unknown.commands[-1].argv[0].static is False


def test_nesting_past_the_limit_raises_too_deep() -> None:
    text = "echo " + "$(" * (MAX_DEPTH + 3) + "ls" + ")" * (MAX_DEPTH + 3)
    with pytest.raises(TooDeep):
        parse_script(text)


@pytest.mark.parametrize(
    ("line", "argv"),
    [
        ("if false; then :; elif true; then rm -rf a; else rm -rf b; fi", ["rm", "-rf", "b"]),
        ("while true; do rm -rf a; done", ["rm", "-rf", "a"]),
        ("until false; do rm -rf a; done > log", ["rm", "-rf", "a"]),
        ("case $x in a) rm -rf a;; *) ls;; esac", ["rm", "-rf", "a"]),
        ("[[ -n $(rm -rf a) ]]", ["rm", "-rf", "a"]),
        ("echo ${x:-$(rm -rf a)}", ["rm", "-rf", "a"]),
        ('echo "${a[$(rm -rf a)]}"', ["rm", "-rf", "a"]),
        ("[[ ( $(rm -rf a) == x ) && ! -f y ]]", ["rm", "-rf", "a"]),
        ("for f in $(rm -rf a); do :; done", ["rm", "-rf", "a"]),
        ("for ((i=0; i<$(rm -rf a); i++)); do :; done", ["rm", "-rf", "a"]),
        ("(( $(rm -rf a) ))", ["rm", "-rf", "a"]),
        ("f() { rm -rf a; }", ["rm", "-rf", "a"]),
        ("{ rm -rf a; } 2>&1 >&- > out", ["rm", "-rf", "a"]),
    ],
)
def test_the_tree_walk_reaches_every_compound_command(line: str, argv: list[str]) -> None:
    script = parse_script(line)
    assert script.parsed is True
    assert argv in [[w.text for w in c.argv] for c in script.commands]


def test_descriptor_redirects_are_not_files() -> None:
    script = parse_script("{ echo x; } 2>&1 >&-")
    assert all(not c.redirects for c in script.commands)
    tree = parse_script("{ echo x > out 2>&1; }")
    assert [r.target.text for c in tree.commands for r in c.redirects if r.target] == ["out"]


# Words the walk once skipped or could not read, though bash expands them: a declaration
# builtin's `name=value` (an Assign, not a Word: `decide` raised AttributeError, a deny
# that named no rule, for any `export X=1; …`), an array's elements and a subscript
# (their `$(…)` never walked: `a=($(rm -rf /))` was ALLOWED), case patterns (ALLOWED),
# and the lines the front end refuses: `select x in $(…)` (skipped whole) and `coproc
# CMD` (judged as a program named coproc), both ALLOWED.
_EXPANDED_PLACES = [
    "a=(x {sub}); true",
    "a[{sub}]=1",
    "a[{sub}]=1 true",
    "declare -a a=({sub})",
    "declare -A m=([{sub}]=1)",
    "f() {{ local x={sub}; }}; f",
    "export X={sub}",
    "export X=1; {cmd}",
    "declare -r Y=2 && {cmd}",
    "case a in {sub}) ;; esac",
    "case a in x|{sub}) ;; esac",
    "select x in {sub}; do break; done </dev/null",
    "coproc {cmd}",
    "coproc N {{ {cmd}; }}",
]


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is the oracle")
@pytest.mark.parametrize("shape", _EXPANDED_PLACES)
def test_code_bash_runs_in_assignments_patterns_and_refused_lines_is_judged(
    shape: str, judge: Judge, tmp_path: Path
) -> None:
    # bash runs the command there (the oracle) …
    probe = shape.format(sub="$(echo RAN >&2)", cmd="echo RAN >&2")
    ran = subprocess.run(
        ["bash", "-c", probe], cwd=tmp_path, capture_output=True, text=True, timeout=20
    )
    assert "RAN" in ran.stderr, (probe, ran.stderr)
    # … so shell-guard judges it, and a deny names the rule and the command
    verdict = judge(shape.format(sub="$(rm -rf /)", cmd="rm -rf /"))
    assert verdict.decision == "deny", shape
    assert verdict.rule == "delete.catastrophic"
    assert 'shell-guard [delete.catastrophic]: "rm -rf /"' in (verdict.reason or "")


def test_a_declarations_assignment_is_one_word_with_its_value() -> None:
    argv = parse_script('export PATH=/x:$PATH X+="$(pwd)" C="a b" Z').commands[-1].argv
    assert [(w.text, w.static) for w in argv] == [
        ("export", True),
        ("PATH=/x:$PATH", False),
        ("X+=$PWD", False),
        ("C=a b", True),
        ("Z", True),
    ]
