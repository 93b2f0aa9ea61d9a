"""The pre-pass that makes bashlex-rejected bash constructs parseable."""

from __future__ import annotations

import pytest

from hookrun.dispatch.shell.prepass import (
    PrepassError,
    Unsupported,
    decode_ansi_c,
    rewrite,
    single_quote,
)


@pytest.mark.parametrize(
    "source",
    [
        "echo hello",
        "a && b || c; d | e",
        "echo \"'x'\" `pwd` ${X:-y}",
        "f() { echo; }",
    ],
)
def test_source_without_gaps_is_unchanged(source: str) -> None:
    assert rewrite(source) == source


@pytest.mark.parametrize(
    ("source", "marker"),
    [
        ("echo $((1 + 2))", "${__hookrun_arith_"),
        ('echo "$(( x * 2 ))"', "${__hookrun_arith_"),
        ("(( i++ ))", "__hookrun_arith_cmd "),
        ("[[ -n $x ]] && echo", "__hookrun_dbl "),
        ("case $x in a) echo;; esac", "__hookrun_case_arm "),
        ("cat <<'EOF'\nbody\nEOF\n", "cat <__hookrun_heredoc_"),
        ('cat <<"EOF"\nbody\nEOF\n', "cat <__hookrun_heredoc_"),
        ("cat <<EOF\n$((1+2)) case [[\nEOF\n", "cat <__hookrun_heredoc_"),
        ("x=$(a && b)", "x=${__hookrun_subst_"),
        ('echo "$(a || b)"', '"${__hookrun_subst_'),
    ],
)
def test_rejected_construct_is_rewritten(source: str, marker: str) -> None:
    assert marker in rewrite(source)


def test_quoted_text_is_never_interpreted() -> None:
    rewritten = rewrite("echo '$((1)) [[ case' \"[[ x ]]\" 'a [[ b'")
    assert "__hookrun_arith" not in rewritten and "__hookrun_dbl" not in rewritten
    assert rewritten.endswith(" \"[[ x ]]\" 'a [[ b'")


def test_single_quoted_dollar_text_never_reaches_bashlex() -> None:
    # bashlex 0.18 loops forever on `a'${'b`; the pre-pass hides such text from it.
    rewritten = rewrite("a'${'b")
    assert rewritten.startswith('a"${__hookrun_lit_') and rewritten.endswith('}"b')


def test_ansi_c_string_becomes_plain_single_quotes() -> None:
    assert rewrite("echo $'a\\tb\\'c'") == "echo 'a\tb'\\''c'"


@pytest.mark.parametrize(
    ("body", "text"),
    [
        ("a\\nb", "a\nb"),
        ("\\x41\\u00e9", "Aé"),
        ("\\101", "A"),
        ("tab\\there", "tab\there"),
        ("cut\\0rest", "cut"),
        ("\\cA", "\x01"),
        ("\\q", "\\q"),
    ],
)
def test_decode_ansi_c(body: str, text: str) -> None:
    assert decode_ansi_c(body) == text


def test_single_quote_round_trips_a_quote() -> None:
    assert single_quote("it's") == "'it'\\''s'"


@pytest.mark.parametrize(
    ("source", "construct"),
    [
        ("a=(1 2)", "arrays"),
        ("x=1 a+=(3)", "arrays"),
        ("echo ${a[1]}", "arrays"),
        ("a[0]=x", "arrays"),
        ("select x in a; do :; done", "'select'"),
        ("coproc cat", "'coproc'"),
        ("time ls", "'time'"),
        ("for ((i=0;i<2;i++)); do :; done", "for ((…))"),
        ("cat <(ls)", "process substitution"),
        ("case a in a) echo ;;& esac", "fall-through"),
    ],
)
def test_uninterpreted_construct_is_named(source: str, construct: str) -> None:
    with pytest.raises(Unsupported) as info:
        rewrite(source)
    assert construct in info.value.construct


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("case x in a) echo", "esac"),
        ("case x a) echo;; esac", "'in'"),
        ("[[ -n x", "]]"),
        ("echo $(echo", ")"),
        ("(())echo", "after '))'"),
    ],
)
def test_broken_construct_is_a_syntax_error(source: str, message: str) -> None:
    with pytest.raises(PrepassError) as info:
        rewrite(source)
    assert message in info.value.message
