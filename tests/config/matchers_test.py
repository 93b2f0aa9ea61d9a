from __future__ import annotations

import re
import subprocess
import sys
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hookrun.config.matchers import (
    _PLAIN,
    Matcher,
    _bounded,
    claude_to_regex,
    compile_matcher,
    is_plain,
)

TOOLS = ["Bash", "Edit", "Write", "NotebookEdit", "MultiEdit", "Read", "mcp__github__create_pr"]


@pytest.mark.parametrize(
    ("matcher", "matched"),
    [
        (None, TOOLS),
        ("", TOOLS),
        ("*", TOOLS),
        (" * ", TOOLS),
        ("|", TOOLS),  # only separators: no name given, so all
        ("Bash", ["Bash"]),
        ("Edit", ["Edit"]),  # exact: not NotebookEdit / MultiEdit
        ("Edit|Write", ["Edit", "Write"]),
        ("Edit | Write", ["Edit", "Write"]),
        ("Edit,Write", ["Edit", "Write"]),
        ("Edit, Write, Read", ["Edit", "Write", "Read"]),
        ("bash", []),  # exact names are case-sensitive
        ("mcp__github__create_pr", ["mcp__github__create_pr"]),
        ("mcp__.*", ["mcp__github__create_pr"]),  # anything else is a regex
        (".*Edit", ["Edit", "NotebookEdit", "MultiEdit"]),
        ("^(Edit|Write)$", ["Edit", "Write"]),
        ("Notebook.*", ["NotebookEdit"]),
        ("Ed.t", ["Edit", "NotebookEdit", "MultiEdit"]),  # regexes are unanchored
    ],
)
def test_claude_matcher_keeps_claude_codes_meaning(matcher: str | None, matched: list[str]) -> None:
    compiled = compile_matcher(claude_to_regex(matcher))
    found = [tool for tool in TOOLS if compiled is None or compiled.search(tool)]
    assert found == matched


@pytest.mark.parametrize(
    ("pattern", "matched"),
    [
        ("^bash$", ["bash"]),
        ("bash", ["bash", "bash_output"]),  # hookrun/Crush matchers search unanchored
        ("^mcp_", ["mcp_github"]),
        ("edit|write", ["edit", "write", "multiedit"]),
    ],
)
def test_hookrun_matcher_is_an_unanchored_python_regex(pattern: str, matched: list[str]) -> None:
    compiled = compile_matcher(pattern)
    assert compiled is not None
    tools = ["bash", "bash_output", "edit", "write", "multiedit", "mcp_github"]
    assert [tool for tool in tools if compiled.search(tool)] == matched


@pytest.mark.parametrize(
    ("pattern", "message"),
    [
        ("(bash", 'invalid regex "(bash" — missing ), unterminated subpattern at position 0'),
        ("[a-", 'invalid regex "[a-" — unterminated character set at position 0'),
        ("a{2,1}", 'invalid regex "a{2,1}" — min repeat greater than max repeat at position 2'),
        ("(?<x)", 'invalid regex "(?<x)" — unknown extension ?<x at position 1'),
    ],
)
def test_invalid_regex_message_carries_pythons_reason(pattern: str, message: str) -> None:
    with pytest.raises(ValueError) as info:
        compile_matcher(pattern)
    assert str(info.value) == message


@pytest.mark.parametrize(
    ("pattern", "engine"),
    [
        ("^Bash$", "re"),
        ("Edit|Write", "re"),
        ("^(?:Edit|Write|MultiEdit)$", "re"),
        (claude_to_regex("Edit, Write"), "re"),
        (claude_to_regex("my-tool|other tool"), "re"),
        ("^mcp_", "re"),
        ("mcp__github__.*", "re2"),
        ("(a+)+$", "re2"),
        ("(a|aa)+$", "re2"),
        ("^(a|a?)+$", "re2"),
        ("^(Edit|Write)(Tool)?$", "re2"),
        ("(?!Bash)", "bounded"),
        ("(?<=x)Bash", "bounded"),
        (r"(a)\1", "bounded"),
    ],
)
def test_each_pattern_gets_a_linear_or_bounded_engine(pattern: str, engine: str) -> None:
    compiled = compile_matcher(pattern)
    assert compiled is not None and compiled.engine == engine


@pytest.mark.parametrize(
    ("pattern", "subject", "expected"),
    [
        ("(a+)+$", "a" * 5000 + "!", False),
        ("(a|aa)+$", "a" * 5000 + "!", False),
        ("^(a|a?)+$", "a" * 5000 + "!", False),
        ("(a+)+!$", "a" * 5000 + "!", True),
        ("^(?!Bash)(a|aa)+\\1$", "a" * 40 + "!", True),  # times out: the hook runs
        ("^(?!Bash)", "Bash", False),
        ("^(?!Bash)", "Read", True),
        ("Bash", "Ba\ud800sh Bash", True),
        ("a.b", "a\udfffb", True),  # a surrogate is one character, as U+FFFD
    ],
    ids=lambda v: v if len(str(v)) < 20 else str(v)[:16] + "…",
)
def test_matching_ends_quickly_whatever_the_pattern_and_subject(
    pattern: str, subject: str, expected: bool
) -> None:
    compiled = compile_matcher(pattern)
    assert compiled is not None
    started = time.monotonic()
    assert compiled.search(subject) is expected
    # A bound a backtracking blow-up would pass by hours, a slow machine never reaches.
    assert time.monotonic() - started < 10


def test_a_pattern_regex_refuses_but_re_takes_counts_as_matching() -> None:
    compiled = Matcher("x", plain=None)
    compiled._search = _bounded("(?P<n>a)(?P=n")  # unterminated: regex raises on compile
    assert compiled.search("anything") is True


def test_ignoring_case_keeps_a_pattern_with_global_flags_as_is() -> None:
    compiled = compile_matcher("(?x) Bash")
    assert compiled is not None and compiled.ignoring_case() is compiled
    folded = compile_matcher("^bash$")
    assert folded is not None and folded.ignoring_case().search("BASH")


def test_plain_matchers_import_neither_re2_nor_regex() -> None:
    probe = (
        "import sys\n"
        "from hookrun.config.matchers import compile_matcher, claude_to_regex\n"
        "for p in ['^Bash$', 'Edit|Write', claude_to_regex('Edit,Write'), '^mcp_']:\n"
        "    m = compile_matcher(p); assert m is not None; m.search('Bash')\n"
        "print(sorted(n for n in ('re2', 'regex') if n in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


PLAIN = ["Bash", "^Bash$", "Edit|Write", "^mcp_", "mcp__github__create", "^(?:Edit|Write)$"]
NOT_PLAIN = ["", "^$", "|", "a||b", "Bash|", "a+", ".*", "^(?!Bash$)", "[ab]", "^^a", "a$$"]


@pytest.mark.parametrize("pattern", PLAIN + NOT_PLAIN)
def test_a_plain_matcher_is_a_list_of_literal_names(pattern: str) -> None:
    assert is_plain(pattern) is (pattern in PLAIN)


@given(st.text(alphabet="aZ0_- ,:/@.|^$()?\\+*[]é", max_size=12))
def test_the_quick_plain_check_agrees_with_the_plain_grammar(pattern: str) -> None:
    assert is_plain(pattern) is (re.fullmatch(_PLAIN, pattern) is not None)


@given(
    st.lists(st.text(alphabet="ab-_ ", min_size=1, max_size=3), min_size=1, max_size=3),
    st.booleans(),
    st.booleans(),
    st.text(alphabet="ab-_ \n", max_size=6),
)
def test_a_literal_name_list_is_searched_as_re_searches_it(
    names: list[str], start: bool, end: bool, subject: str
) -> None:
    pattern = ("^" if start else "") + "|".join(names) + ("$" if end else "")
    matcher = compile_matcher(pattern)
    assert matcher is not None and matcher.engine == "re"
    assert matcher.search(subject) is (re.search(pattern, subject) is not None)
