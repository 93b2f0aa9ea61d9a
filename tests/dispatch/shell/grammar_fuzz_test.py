"""Fuzz over a shell grammar: no input ever escapes as an "internal error".

Programs are built from the grammar's pieces — words (literals, quotes, parameter
operators, substitutions, arithmetic, globs, braces), simple commands with assignments
and redirections, here-documents, pipelines, and-or lists, compound commands
(if/while/until/for/for ((…))/case/{ }/( )/[[ ]]/(( ))) and functions — so most of them
parse, and the interpreter (not only the front end) is exercised. Whatever the program,
the shell answers with a status; a Python exception surfacing as "internal error" (or
escaping at all) fails the test.
"""

from __future__ import annotations

import tempfile

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hookrun.dispatch.cancel import Interrupted
from tests.dispatch.shell.shellrun import make_shell

NAMES = st.sampled_from(["x", "y", "a", "HOME", "IFS", "1", "@", "*", "#", "?", "arr"])
LITERALS = st.sampled_from(
    ["a", "b c", "*", "?", "[ab]", "{1..3}", "{x,y}", "~", "-n", "0", "12", "=", ":", "/", ""]
)
OPS = st.sampled_from(
    [":-", "-", ":=", ":+", "#", "##", "%", "%%", "/", "//", ":", "^^", ",,", "@Q"]
)


def _param(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.one_of(
        NAMES.map(lambda n: f"${n}"),
        NAMES.map(lambda n: f"${{{n}}}"),
        NAMES.map(lambda n: f"${{#{n}}}"),
        st.tuples(NAMES, OPS, inner).map(lambda t: f"${{{t[0]}{t[1]}{t[2]}}}"),
        st.tuples(NAMES, inner).map(lambda t: f"${{{t[0]}[{t[1] or 0}]}}"),
    )


def _words(stmts: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    base = st.one_of(
        LITERALS,
        LITERALS.map(lambda s: f"'{s}'"),
        LITERALS.map(lambda s: f"\\{s}" if s else "\\$"),
        st.sampled_from(["$((1+2))", "$((x*2))", "$(( 1 && 0 ))", "$[3]", "$'\\n'", '$"t"']),
    )
    word = st.recursive(
        base,
        lambda inner: st.one_of(
            _param(inner),
            inner.map(lambda s: f'"{s}"'),
            st.lists(inner, min_size=2, max_size=3).map("".join),
            stmts.map(lambda s: f"$({s})"),
        ),
        max_leaves=6,
    )
    return word


def _program() -> st.SearchStrategy[str]:
    def extend(stmts: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        word = _words(st.just("echo sub"))
        words = st.lists(word, min_size=0, max_size=3).map(" ".join)
        redirect = st.sampled_from(
            [">/dev/null", "2>&1", "<<<x", ">&2", "3>/dev/null", "<>/dev/null", ">>/dev/null", ""]
        )
        name = st.sampled_from(["echo", "printf %s", "true", "false", ":", "read v", "test", "["])
        simple = st.tuples(
            st.sampled_from(["", "x=1 ", "a=(1 2) ", "y=$x "]), name, words, redirect
        ).map(lambda t: f"{t[0]}{t[1]} {t[2]} {t[3]}".strip())
        heredoc = st.tuples(st.sampled_from(["EOF", "'EOF'"]), words).map(
            lambda t: f"cat <<{t[0]}\n{t[1]} $x\nEOF\n"
        )
        return st.one_of(
            simple,
            heredoc.filter(lambda s: True),
            st.tuples(stmts, stmts).map(lambda t: f"{t[0]} | {t[1]}"),
            st.tuples(stmts, st.sampled_from(["&&", "||", ";"]), stmts).map(" ".join),
            st.tuples(stmts, stmts).map(lambda t: f"if {t[0]}; then {t[1]}; fi"),
            st.tuples(stmts, stmts, stmts).map(
                lambda t: f"if {t[0]}; then {t[1]}; elif false; then :; else {t[2]}; fi"
            ),
            st.tuples(words, stmts).map(lambda t: f"for i in {t[0]}; do {t[1]}; break; done"),
            stmts.map(lambda s: f"n=0; while [ $n -lt 2 ]; do n=$((n+1)); {s}; done"),
            stmts.map(lambda s: f"until true; do {s}; done"),
            stmts.map(lambda s: f"for ((i=0; i<2; i++)); do {s}; done"),
            st.tuples(word, stmts).map(lambda t: f"case {t[0]} in a|b) {t[1]};; *) :;; esac"),
            stmts.map(lambda s: f"{{ {s}; }}"),
            stmts.map(lambda s: f"( {s} )"),
            st.tuples(word, word).map(lambda t: f"[[ {t[0]} == {t[1]} || -n {t[0]} ]]"),
            word.map(lambda w: f"(( {w or 1} ))"),
            stmts.map(lambda s: f"f() {{ {s}; return 3; }}; f a b"),
            stmts.map(lambda s: f"! {s}"),
            st.sampled_from(["break", "continue", "exit 4", "shift", "set -e", "set -u"]),
        )

    return st.recursive(st.just("true"), extend, max_leaves=8)


@pytest.mark.nocov
@pytest.mark.timeout(600)
@settings(
    max_examples=400,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(source=_program())
def test_no_program_escapes_as_an_internal_error(source: str) -> None:
    # An empty PATH: no external command runs and there is no sh to fall back to.
    with tempfile.TemporaryDirectory() as cwd:
        shell, _, err, procs = make_shell(cwd=cwd, env={"PATH": ""}, timeout=2.0)
        try:
            code = shell.run_script(source)
        except Interrupted:
            return  # the run's own timeout: a status for the runner, not a crash
        finally:
            procs.end_all()
        err.finish(5)
        assert isinstance(code, int) and 0 <= code <= 255
        assert b"internal error" not in err.data, (source, err.data)
        assert b"Traceback" not in err.data
