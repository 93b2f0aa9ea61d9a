"""``[[ s =~ re ]]`` matches as bash does (glibc's POSIX ERE, leftmost-longest), with
bash as the oracle: a generated corpus of regex × value pairs and hook-style cases,
each run by bash and by the in-process shell (one process per batch).

On main before hookrun/dispatch/shell/ere.py the corpus agreed on 1638 of 3136 pairs
(status 2248, whole match 2216, groups 2198, stderr 2016); what is still different is
listed in KNOWN, each a strict xfail with its reason.
"""

from __future__ import annotations

import contextlib
import shutil
import warnings

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hookrun.dispatch.shell import ere
from tests.dispatch.shell import ere_corpus as corpus
from tests.dispatch.shell.ere_catastrophic import CATASTROPHIC, hostile_value
from tests.dispatch.shell.shellrun import Runner, base_env

BASH = shutil.which("bash")
needs_bash = pytest.mark.skipif(BASH is None, reason="bash is the oracle")

PAIRS = corpus.pairs_of(corpus.regexes())
BATCHES = 4

# What still differs from bash, and why.
KNOWN = {
    ("[=a=](b*)+*", "abcd"): "a loop over a loop whose body matches empty: glibc's walk "
    "leaves the inner group empty here, Python's backtracking keeps the last 'b'",
}


def _batch(k: int) -> list[tuple[str, str]]:
    return PAIRS[k::BATCHES]


@needs_bash
@pytest.mark.nocov
@pytest.mark.parametrize("k", range(BATCHES))
def test_generated_corpus_agrees_with_bash(k: int) -> None:
    """Status, every BASH_REMATCH entry and stderr, pair by pair (KNOWN aside)."""
    rows = corpus.compare(_batch(k), corpus._inprocess)
    differ = {pair: (b, h) for pair, b, h in rows if b != h or b is None}
    assert {p: d for p, d in differ.items() if p not in KNOWN} == {}


@needs_bash
@pytest.mark.nocov
@pytest.mark.parametrize("k", range(BATCHES))
def test_generated_corpus_agrees_with_bash_through_re2(
    k: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same, with every match found by RE2 (values short enough for a tame regex
    are searched by Python alone otherwise)."""
    monkeypatch.setattr(ere, "_tame", lambda tree: -1)
    monkeypatch.setattr(ere, "_CACHE", {})
    rows = corpus.compare(_batch(k), corpus._inprocess)
    differ = {pair: (b, h) for pair, b, h in rows if b != h or b is None}
    assert {p: d for p, d in differ.items() if p not in KNOWN} == {}


@needs_bash
@pytest.mark.parametrize(
    "pair",
    [pytest.param(p, marks=pytest.mark.xfail(strict=True, reason=r)) for p, r in KNOWN.items()],
)
def test_known_differences(pair: tuple[str, str]) -> None:
    ((_, b, h),) = corpus.compare([pair], corpus._inprocess)
    assert b == h


# Hook-style right sides (and the quoting and status rules around them), run whole by
# bash and by the in-process shell.
SCRIPTS = [
    # the guards the brief names
    'for c in "rm -rf /" "rm  -rf x" "rm -r x" "echo rm -rf"; do'
    ' [[ "$c" =~ rm[[:space:]]+-rf ]]; echo "$? ${BASH_REMATCH[*]}"; done',
    "for f in a.env .env x.pem a.envx pem; do [[ $f =~ \\.(env|pem)$ ]];"
    ' echo "$? ${BASH_REMATCH[@]}"; done',
    'for c in "git push --force" "git  push origin main --force-with-lease" "git pull --force"'
    ' "xgit push --force"; do [[ $c =~ ^git[[:space:]]+push.*--force ]];'
    ' echo "$? <${BASH_REMATCH[0]}>"; done',
    "for p in ../a a/../b a/..b /x/../ a../; do [[ $p =~ (^|/)\\.\\./ ]];"
    ' echo "$? <${BASH_REMATCH[0]}> <${BASH_REMATCH[1]}>"; done',
    # leftmost-longest where Python's first match is shorter
    '[[ /b/ =~ (^|/)b*(/|$) ]]; echo "$? ${BASH_REMATCH[*]}"',
    '[[ abc =~ (a|ab)c? ]]; echo "$? ${BASH_REMATCH[*]}"',
    '[[ foobar =~ (foo|foobar)(bar)? ]]; echo "$? ${BASH_REMATCH[*]}"',
    '[[ b =~ ^(b*)+$ ]]; echo "$? ${BASH_REMATCH[*]}"',
    # regexes Python's re refuses and glibc takes
    "r='ab**'; [[ abbb =~ $r ]]; echo \"$? ${BASH_REMATCH[*]}\"",
    "r='^ab|c)b'; [[ 'c)b' =~ $r ]]; echo \"$? ${BASH_REMATCH[*]}\"",
    "r='^[[ab]]+$'; [[ 'a]' =~ $r ]]; echo \"$? ${BASH_REMATCH[*]}\"",
    # a regex glibc refuses: status 2, nothing said, BASH_REMATCH kept; || and ! read 2
    # as false, && stops with it
    "BASH_REMATCH=(kept); r='a{1'; [[ a =~ $r ]]; echo \"$? ${BASH_REMATCH[*]}\"",
    "r='*a'; [[ a =~ $r || b ]]; echo $?; [[ ! a =~ $r ]]; echo $?; [[ a =~ $r && b ]]; echo $?",
    "r='('; [[ x && a =~ $r ]]; echo $?; [[ ( a =~ $r ) ]]; echo $?; [[ a =~ $r ]] || echo or",
    "r='[[:word:]]'; [[ a =~ $r || a =~ $r ]]; echo $?",
    # shopt -s nocasematch: bash compiles with REG_ICASE (a guard's 'rm' meets 'RM')
    'shopt -s nocasematch; c="RM  -RF /"; [[ $c =~ rm[[:space:]]+-rf ]];'
    ' echo "$? ${BASH_REMATCH[*]}";'
    ' [[ ABC =~ ^a(b)c$ ]]; echo "$? ${BASH_REMATCH[*]}"; [[ abc =~ [[:upper:]]+ ]]; echo $?;'
    " [[ ÉTÉ =~ été ]]; echo $?; shopt -u nocasematch; [[ $c =~ rm ]]; echo $?",
    # no match: an empty BASH_REMATCH, set
    '[[ a =~ (a) ]]; [[ b =~ (a) ]]; echo "$? ${#BASH_REMATCH[@]}"; [[ -v BASH_REMATCH ]]; echo $?',
    # quoting: special characters quoted outside brackets are letters, quoting inside a
    # bracket expression is dropped (bash 5.2)
    '[[ abc =~ a"."c ]]; echo $?; [[ a.c =~ a"."c ]]; echo $?; x=\'a.c\'; [[ abc =~ "$x" ]];'
    " echo $?; [[ abc =~ $x ]]; echo $?",
    # (not [" "]: the front end refuses a blank quoted in a regex — a parser gap)
    '[[ b =~ ["a-c"] ]]; echo $?; [[ \'\\\' =~ ["."] ]]; echo $?; [[ b =~ ["^a"] ]]; echo $?',
    "[[ a =~ [\"[:alpha:]\"] ]]; echo $?; [[ x =~ [\\x] ]]; echo $?; [[ '\\' =~ [\\\\] ]]; echo $?",
    '[[ x =~ "w" ]]; echo $?; [[ x1 =~ x"1" ]]; echo $?; [[ \'[x]\' =~ "["x] ]]; echo $?',
    "[[ a1 =~ (a)\"1\" ]]; echo $?; [[ '^a' =~ '^'a ]]; echo $?; [[ 'a b' =~ a\\ b ]]; echo $?",
]


@needs_bash
@pytest.mark.parametrize("source", SCRIPTS)
def test_hook_style_cases_as_bash(run: Runner, source: str) -> None:
    out, err = corpus.run_bash(source)
    ran = run(source, env=base_env(LC_ALL="C.UTF-8"))
    assert (ran.out, ran.err) == (out, err)


# -- the translator on its own ------------------------------------------------------------
def test_loading_ere_imports_re_and_nothing_else() -> None:
    """A script's first =~ loads ere and re (as the shell did before ere), not typing
    (~5 ms), which the shell path does not load."""
    import subprocess
    import sys

    code = (
        "import sys, hookrun.dispatch.shell.interp, hookrun.dispatch.shell.expand\n"
        "before = set(sys.modules)\n"
        "import hookrun.dispatch.shell.ere\n"
        "print(' '.join(sorted(set(sys.modules) - before)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    new = set(out.stdout.split())
    assert new - {"hookrun.dispatch.shell.ere", "copyreg", "_sre"} <= {
        m for m in new if m == "re" or m.startswith("re.")
    }


def test_no_python_warning_from_any_regex() -> None:
    """re's FutureWarning ("Possible nested set") never reaches stderr."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for rx in corpus.regexes():
            for v in ("a]", "[[ab]]", "x"):
                with contextlib.suppress(ere.RegexInvalid):
                    ere.search(rx, v)


def test_repeated_repetitions_are_one_repetition() -> None:
    """'a**', 'a+*', 'a*{2,3}' compile as the repetition they amount to (nested ones
    make Python's backtracking exponential where it fails)."""
    star = ere.compile_ere("a*").tree
    for rx in ("a**", "a+*", "a*{2,3}", "a?*", "a*?", "a+?", "a?+"):
        assert ere.compile_ere(rx).tree == star, rx
    assert ere.compile_ere("a+{2,3}").tree == ere.compile_ere("a{2,}").tree


@pytest.mark.timeout(20)
def test_repeated_repetition_fails_fast() -> None:
    assert ere.search(r".+*\S{2}[--/]", "x" * 40 + "ab") is None


@pytest.mark.timeout(30)
def test_a_missing_literal_ends_the_search_at_once() -> None:
    """'x.*y' over 100 KB of 'x ': no 'y', so no match — without trying 50,000 starts."""
    assert ere.compile_ere("x.*y").musts == ["y"]
    assert ere.compile_ere("(ab|c)[^a]*d+e?(fg){2}").musts == ["d", "fg"]
    assert ere.compile_ere("rm[[:space:]]+-rf").musts == []  # (search is linear there)
    assert ere.search("x.*y", "x " * 50_000) is None


def test_longest_end_over_a_long_value() -> None:
    """The longest end from the leftmost start, past Python's first end, on 100 KB."""
    value = "rm -rf x " + "y" * 100_000 + " rm -rf z"
    assert ere.search(r"rm[[:space:]]+-rf", value) == ["rm -rf"]
    assert ere.search(r"(a|ab)(c|bcd)?", "x" * 100_000 + "abcd") == ["abcd", "a", "bcd"]
    got = ere.search(r"r(m|m -rf.*)", value)
    assert got is not None and got[0] == value[value.index("rm") :]


@pytest.mark.parametrize("seed", range(4))
def test_greedy_shapes_need_no_reversed_search(seed: int) -> None:
    """For the shapes ere reads as 'first match is longest' (single characters and their
    greedy repetitions), the whole match is the longest end for which the pattern holds
    (every end tried), and the shortcut is taken."""
    import random

    rnd = random.Random(seed)
    atoms = ["a", "b", "[ab]", ".", "c", "(a)", "[^a]"]
    quantifiers = ["", "?", "*", "+", "{0,2}", "{1,2}", "{2}", "{2,}"]
    for _ in range(1500):
        rx = "".join(rnd.choice(atoms) + rnd.choice(quantifiers) for _ in range(rnd.randint(1, 4)))
        c = ere.compile_ere(rx)
        assert c.greedy, rx
        text = "".join(rnd.choice("abc") for _ in range(rnd.randint(0, 8)))
        got = ere.search(rx, text)
        m = c.find(True).search(text)
        assert (got is None) == (m is None)
        if m is None:
            continue
        s = m.start()
        ends = [
            e
            for e in range(s, len(text) + 1)
            if c.held(ere._ctx(text, e), True).fullmatch(text, s, e)
        ]
        assert got is not None and got[0] == text[s : max(ends)], (rx, text)


def test_back_references_take_the_longest_end() -> None:
    assert ere.search(r"(a)\1(b|bc)?", "aabc") == ["aabc", "a", "bc"]


def test_cache_is_bounded() -> None:
    for k in range(ere._CACHE_MAX + 50):
        ere.compile_ere(f"a{{{k % 300}}}x{k}")
    assert len(ere._CACHE) <= ere._CACHE_MAX


@pytest.mark.parametrize(
    ("rx", "message"),
    [
        ("a{1", "Unmatched \\{"),
        ("a{1,2", "Unmatched \\{"),
        ("a{x}", "Invalid content of \\{\\}"),
        ("(", "Unmatched ( or \\("),
        ("a[", "Unmatched [, [^, [:, [., or [="),
        ("a\\", "Trailing backslash"),
        ("[[:foo:]]", "Invalid character class name"),
        ("[b-a]", "Invalid range end"),
        ("*a", "Invalid preceding regular expression"),
        ("\\2(a)", "Invalid back reference"),
        ("a{32768}", "Regular expression too big"),
        ("[[.hyphen.]]", "Invalid collation character"),
    ],
)
def test_glibc_errors_and_their_text(rx: str, message: str) -> None:
    with pytest.raises(ere.RegexInvalid) as info:
        ere.search(rx, "a")
    assert str(info.value).startswith(message)


ERE_ALPHABET = st.sampled_from(
    list("ab.^$|()[]{}*+?\\-,:=01239x")
    + ["[:alpha:]", "[=a=]", "[.-.]", "\\<", "\\>", "\\b", "\\w", "\\1", "{2,3}", "é"]
)


@pytest.mark.nocov
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(ERE_ALPHABET, max_size=10).map("".join), st.text("ab-.x(é", max_size=8))
def test_any_regex_text_matches_or_is_refused(rx: str, value: str) -> None:
    """Every regex text: a match (with one entry per group), no match, or RegexInvalid."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            got = ere.search(rx, value)
        except ere.RegexInvalid:
            return
    if got is not None:
        assert len(got) == 1 + len(ere.compile_ere(rx).names)
        assert got[0] in value


def test_dot_is_pythons_dot_unless_the_value_holds_an_undecodable_byte() -> None:
    """'.' repeats as Python's own '.' (a plain scan, ~7x fewer instructions for '.*'
    over 100 KB than a class) when the value holds no undecodable byte; with one, the
    class that leaves those bytes out (glibc's '.' matches none)."""
    c = ere.compile_ere("a.b[^x]")
    assert c.find(True).pattern == "a.b(?![x])."
    assert ere.search("a.b[^x]", "a\u00e9bc") == ["a\u00e9bc"]
    assert ere.search("a.b", "a\udcffb") is None
    assert ere.search("a[^x]b", "za\udcffb a-b") == ["a-b"]


# -- no stall: the match is found in linear time (RE2) ----------------------------------
# Ten classic catastrophic regexes (ere_catastrophic.py), each over 10 KB and 100 KB
# values with no match and with a match at the very end. Python's search must not run
# at all (its time is what stalled): RE2 finds the span, and Python's re only reads the
# groups of text that matches. bench/ere_bench.py gives the instruction counts.


def _no_python_search(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(self: object, clean: bool) -> None:
        raise AssertionError("Python's backtracking search ran")

    monkeypatch.setattr(ere._Compiled, "find", refuse)
    monkeypatch.setattr(ere, "_longest_end", refuse)


@pytest.mark.timeout(120)
@pytest.mark.parametrize("size", [10_000, 100_000])
@pytest.mark.parametrize(("rx", "unit", "miss", "hit"), CATASTROPHIC)
def test_catastrophic_regexes_do_not_stall(
    monkeypatch: pytest.MonkeyPatch, rx: str, unit: str, miss: str, hit: str, size: int
) -> None:
    _no_python_search(monkeypatch)
    body = hostile_value(unit, size, "")
    if miss:  # (with nothing added, the case's value matches whole)
        assert ere.search(rx, body + miss) is None
    got = ere.search(rx, body + hit)
    assert got is not None
    assert body.endswith(got[0][: -len(hit)] if hit else got[0])
    assert len(got) == 1 + len(ere.compile_ere(rx).names)


def test_the_span_is_the_one_the_python_search_finds() -> None:
    """RE2's leftmost-longest span and groups are those of the Python search (the corpus
    checks them against bash) on shapes where leftmost-first and leftmost-longest part."""
    import random

    rnd = random.Random(7)
    atoms = ["a", "b", "ab", "(a|ab)", "(ab|a)", "[ab]", ".", "(b*)", "(a|b)+", "[[:alpha:]]", "é"]
    quantifiers = ["", "", "?", "*", "+", "{1,2}"]
    for _ in range(3000):
        rx = "".join(rnd.choice(atoms) + rnd.choice(quantifiers) for _ in range(rnd.randint(1, 4)))
        value = "".join(rnd.choice("abcé") for _ in range(rnd.randint(0, 10)))
        c = ere.compile_ere(rx)
        span = c.linear().span(value)
        m = c.find(True).search(value)
        assert (span is None) == (m is None), (rx, value)
        if m is not None:
            assert span is not None and span[0] == m.start(), (rx, value)
            assert ere.search(rx, value) == _python_only(rx, value), (rx, value)


def _python_only(rx: str, value: str) -> list[str] | None:
    c = ere.compile_ere(rx)
    saved = c._linear
    c._linear = _Inexact()  # type: ignore[assignment]
    try:
        return ere.search(rx, value)
    finally:
        c._linear = saved


class _Inexact:
    def span(self, value: str) -> tuple[int, int]:
        return ere._INEXACT


@pytest.mark.parametrize(
    ("rx", "value"),
    [
        (r"\<rm\>", "a rm b"),  # \< \>: no look-around in RE2
        (r"(a)\1", "xaa"),  # a back-reference
        (r"\brm\b", "é rm"),  # \b next to a non-ASCII letter... (é is a word character)
        ("a{1001}", "a" * 1001),  # an interval RE2 does not take
        ("[[:alpha:]]", "x\udcff"),  # an undecodable byte is fine (read as a stand-in)
    ],
)
def test_what_re2_cannot_answer_goes_to_python(rx: str, value: str) -> None:
    """RE2's form says it cannot answer (all but the last), and the answer is Python's."""
    exact = rx == "[[:alpha:]]"
    span = ere.compile_ere(rx).linear().span(value)
    assert (span is not ere._INEXACT) == exact
    assert ere.search(rx, value) == _python_only(rx, value)


@pytest.mark.nocov
def test_space_is_the_class_it_stands_for() -> None:
    """[:space:] and \\s are written as Python's \\s less what glibc's table leaves out
    (cheaper to compile than the class of _SPACES): the same characters, every code
    point checked, with and without nocasematch."""
    import re

    for flags in (0, re.IGNORECASE):
        cls = re.compile("[" + ere._SPACES + "]", flags)
        pat = re.compile(ere._SPACE, flags)
        found = [cp for cp in range(0x110000) if cls.fullmatch(chr(cp)) is not None]
        assert [cp for cp in range(0x110000) if pat.fullmatch(chr(cp)) is not None] == found
