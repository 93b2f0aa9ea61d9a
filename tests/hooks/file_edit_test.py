from __future__ import annotations

from typing import Any

import pytest

from hookrun.hooks.file_edit import Edit, WriteCall, apply, parse, tool_in


@pytest.mark.parametrize(
    ("payload", "call"),
    [
        (
            {"tool_name": "Write", "tool_input": {"file_path": "a.md", "content": "x"}},
            WriteCall("write", "a.md", content="x"),
        ),
        (
            {"tool": "create", "arguments": {"path": "a.md", "file_text": "x"}},
            WriteCall("write", "a.md", content="x"),
        ),
        (
            {
                "tool_name": "Edit",
                "tool_input": {
                    "file_path": "a",
                    "old_string": "o",
                    "new_string": "n",
                    "replace_all": True,
                },
            },
            WriteCall("edit", "a", edits=(Edit("o", "n", True),)),
        ),
        (
            {"toolName": "edit", "arguments": {"path": "a", "old_str": "o", "new_str": "n"}},
            WriteCall("edit", "a", edits=(Edit("o", "n"),)),
        ),
        (
            {
                "tool_name": "replace_string_in_file",
                "tool_input": {"filePath": "a", "oldString": "o", "newString": "n"},
            },
            WriteCall("edit", "a", edits=(Edit("o", "n"),)),
        ),
        (
            {
                "tool_name": "MultiEdit",
                "tool_input": {
                    "file_path": "a",
                    "edits": [
                        {"old_string": "1", "new_string": "2"},
                        {"old_string": "3", "new_string": "4"},
                    ],
                },
            },
            WriteCall("edit", "a", edits=(Edit("1", "2"), Edit("3", "4"))),
        ),
        (
            {"tool_name": "MultiEdit", "tool_input": {"file_path": "a", "edits": [{"old": 1}]}},
            WriteCall("other", "a"),
        ),
        (
            {"tool_name": "NotebookEdit", "tool_input": {"notebook_path": "n.ipynb"}},
            WriteCall("other", "n.ipynb"),
        ),
        ({"tool_name": "Write", "tool_input": {"content": "no path"}}, None),
        ({}, None),
    ],
)
def test_every_hosts_write_call_reads_the_same(
    payload: dict[str, Any], call: WriteCall | None
) -> None:
    assert parse(payload) == call


@pytest.mark.parametrize(
    ("current", "edits", "after"),
    [
        ("a b a", [Edit("a", "c")], "c b a"),
        ("a b a", [Edit("a", "c", True)], "c b c"),
        ("a b", [Edit("a", "x"), Edit("x b", "y")], "y"),
        ("a b", [Edit("zz", "x")], None),  # the tool fails: nothing to judge
        ("", [Edit("", "new file")], "new file"),
        ("text", [Edit("", "more")], None),
    ],
)
def test_apply_does_what_the_edit_tools_do(
    current: str, edits: list[Edit], after: str | None
) -> None:
    assert apply(current, edits) == after


def test_new_text_is_the_content_or_every_new_string() -> None:
    assert WriteCall("write", "a", content="c").new_text == "c"
    assert WriteCall("edit", "a", edits=(Edit("1", "x"), Edit("2", "y"))).new_text == "x\ny"


@pytest.mark.parametrize(
    ("name", "hit"),
    [("write", True), ("WRITE", True), ("Edit", True), ("Bash", False), ("", False)],
)
def test_tool_names_compare_without_case(name: str, hit: bool) -> None:
    assert tool_in(name, ("Write", "Edit")) is hit
