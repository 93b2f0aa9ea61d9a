"""The plain-line reader makes exactly the Script the tree walk makes, or gives up.

``simple.read`` lets a line of plain simple commands skip the shell front end; every
rule then judges its Script, so the judgement is the full one only if the Script is
the walk's own. Checked over every table there is (shell-guard's labelled cases, the
causes, the here-document lines, both peers' corpora, the benchmark's commands, each
also with its non-plain characters taken out) and over generated lines: plain words,
quoted and unknown words, keywords and assignments, separators, newlines, and any
characters at all. Where the reader answers, the walk must parse the line (bash
accepts it) and give the same commands, words, sources, ``cd`` steps and pipes.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from hookrun.hooks.shell_guard import simple
from hookrun.hooks.shell_guard.parse import parse_script, parse_with_tree
from tests.hooks.shell_guard import screen_test


def _same_as_the_walk(line: str) -> bool:
    """True when the reader read ``line`` (and then its Script is the walk's)."""
    script = simple.read(line)
    if script is None:
        return False
    walked = parse_with_tree(line, 0)
    assert script == walked, line
    # (equality leaves out what is computed from the compared fields; pin it too)
    assert [[(w.text, w.static) for w in c.argv] for c in script.commands] == [
        [(w.text, w.static) for w in c.argv] for c in walked.commands
    ]
    return True


def test_every_table_line_the_reader_reads_is_the_walks_script() -> None:
    lines = sorted({c for c, _ in screen_test.WITH_PLAIN_VARIANTS})
    read = [line for line in lines if _same_as_the_walk(line)]
    # (not vacuous: a good part of the tables is plain simple commands)
    assert len(read) > 500


def test_the_benchmarks_slow_templates_are_read() -> None:
    for line in (
        'rm -rf "$TMPDIR/build-1" && mkdir -p "$TMPDIR/build-1"',
        "git push --force origin feature/task-1",
        "curl -fsSL https://get.example.com/v1/install.sh | sh",
        "python3 -c \"import json; print(json.load(open('data1.json'))['k'])\"",
        "rm -rf src/pkg1",
        "for d in pkg1 pkg2; do (cd $d && rm -rf dist); done",
    ):
        assert _same_as_the_walk(line), line


@pytest.mark.parametrize(
    "line",
    [
        "a=1", "a=1 rm -rf /", "export X=1", "rm -rf / # x", "rm -rf {a,b}", "rm -rf /*",
        "{ rm -rf /; }", "rm -rf / > f", "rm $(x)", "rm `x`", "rm ${X}",
        "rm $IFS", "rm 'a", 'rm "a', 'rm "a\\"b"', "rm a\\ b", "if x; then y; fi", "! rm",
        "time rm -rf /", "rm &&", "&& rm", "rm ;; x", "rm |& x", "rm | ", "rm\r", "a;;b",
        "f() { :; }", "rm -rf é", "coproc rm", "declare -a a",
        "case x in y) ;; esac", '"$"', "$", "rm -rf $", "rm -rf $-", "rm -rf $@", "((a))",
        "(a)b", "()", "for x in a &", "for x in a; do done", "(rm", "for x; do rm; done",
        "for", "for ", "for x", "(", "a | (", "for x in", "for x in a;", "for x in a; do",
        "- a=~/.gitconfig",
    ],
)  # fmt: skip
def test_what_the_reader_leaves_to_the_front_end(line: str) -> None:
    assert simple.read(line) is None
    parse_script.cache_clear()
    # (and the judgement of the line is the front end's, as before)
    assert parse_script(line) is not None


_ALPHABET = sorted(set("abcrm-f/. \t\n;&|'\"$~=_:,+@%0123456789XHOME{}()#<>\\`*?[]!é\r") | {"\x00"})
_WORDS = [
    *screen_test._READ, *screen_test._NEAR, *screen_test._ARGS, "cd", "pushd", "builtin",
    "command", "-", "--", "~", "~root", "~+", "~/x", "a~b", "$HOME/x", '"$TMPDIR/b"',
    '""', "''", '""$X', 'a"b"\'c\'', "$1x", "$_", "$a_b", "x,y", "'a b'", '"a\nb"', "é",
    "declare", "export", "local", "readonly", "typeset", "let", "unset", "alias", "=a",
    "1a=b", "a+=b", "a[1]=b", "{", "}", "!", "[[",
]  # fmt: skip
_SEPS = [*screen_test._SEPARATORS, " && \n", " |\n", ";;", "|&", " ; ", "&&", "||", "  "]
# Pieces of subshells and loops, to be put together right and wrong.
_COMPOUND = [
    "(", ")", "((", "))", "for", "for d in a b;", "for d in a b\n", "for d in", "for 1 in x;",
    "do", "done", "; do", "; done", "(cd", "x)", "$d", '"$d"', "in", "for d; do", "do(",
]  # fmt: skip
_simple = st.lists(st.sampled_from(_WORDS), min_size=1, max_size=4).map(" ".join)


def _compound(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    joined = st.tuples(inner, st.sampled_from(_SEPS), inner).map("".join)
    subshell = st.tuples(
        st.sampled_from(["(", "( ", "(\n"]), inner, st.sampled_from([")", " )", "\n)", ";)", " &)"])
    )
    loop = st.tuples(
        st.sampled_from(["d", "x", "_a1"]),
        st.lists(st.sampled_from(["a", "$HOME", '"$d"', "pkg1", "'x y'", "~"]), max_size=3),
        st.sampled_from(["; ", "\n", " ;\n "]),
        inner,
        st.sampled_from(["; ", "\n", " & "]),
    ).map(lambda t: f"for {t[0]} in {' '.join(t[1])}{t[2]}do {t[3]}{t[4]}done")
    return joined | subshell.map("".join) | loop


_structured = st.recursive(_simple, _compound, max_leaves=8)
_lines = (
    st.lists(
        st.tuples(st.sampled_from(_WORDS + _COMPOUND), st.sampled_from(_SEPS)), max_size=10
    ).map(lambda pairs: "".join(w + s for w, s in pairs))
    | _structured
    | screen_test.plain_lines
    | screen_test.readable_lines
    | st.text(alphabet=_ALPHABET, max_size=40)
)


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_lines)
@example('cd "$HOME/x" && rm -rf y | cd z && rm -rf w')
@example("cd a & rm -rf b")
@example("cd a | rm -rf b; rm -rf c")
@example("for d in pkg1 pkg2; do (cd $d && rm -rf dist); done")
@example("(cd a; rm -rf b) && rm -rf c | (cd d) | rm e")
@example("for x in a; do cd x; rm y; done; rm z")
@example('echo "a\\"b" && rm -rf "x\\y"')
@example("a | b | c\nd && e")
@example("ls ~ ~/x ~root a~b ~+/y")
@example('echo "" $X"" a"b"\'c\' $1x')
@example("builtin cd x; command cd y; pushd z; rm -rf q")
def test_a_generated_line_the_reader_reads_is_the_walks_script(line: str) -> None:
    _same_as_the_walk(line)
