from __future__ import annotations

import pytest

from hookrun.config.matchers import claude_to_regex, compile_matcher

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
