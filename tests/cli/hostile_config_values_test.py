"""Issue 9 item 8, through the real ``hookrun`` command: values no config can mean are
config errors with a position, in ``check`` and in ``run`` alike — never an internal error."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from conftest import Project

HUGE = "9" * 5000  # past Python's int-string limit


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"version": ' + HUGE + ', "hooks": {}}', "1:13: version: expected 1, got number"),
        ('{"timeout": ' + HUGE + ', "hooks": {}}', "1:13: timeout: expected a positive number"),
        (
            '{"audit_log": "a\\u0000b", "hooks": {"PreToolUse": [{"command": "true"}]}}',
            '1:15: audit_log: "audit_log" holds a NUL byte',
        ),
    ],
    ids=["huge-version", "huge-timeout", "audit-log-nul"],
)
@pytest.mark.parametrize("command", ["check", "run"])
def test_a_value_no_config_can_mean_is_a_located_config_error(
    project: Project, text: str, message: str, command: str
) -> None:
    project.config(text)
    args = [command] + (["PreToolUse"] if command == "run" else [])
    ran = project.run(*args, payload={})
    assert ran.code == 1
    assert f".hookrun/hooks.json:{message}" in ran.out + ran.err
    assert "internal error" not in ran.err


def test_a_huge_integer_in_the_payload_is_answered(project: Project) -> None:
    project.hooks("PreToolUse", {"command": "exit 2"})
    payload = '{"tool_name": "Bash", "tool_input": {"n": ' + HUGE + "}}"
    ran = project.run("run", "PreToolUse", payload=payload)
    assert (ran.code, ran.json["decision"]) == (2, "deny"), ran.err


def test_an_audit_record_starts_on_a_fresh_line_after_a_hooks_partial_line(
    project: Project,
) -> None:
    project.hooks(
        "PreToolUse",
        {"command": "printf '{\"partial\": ' >> audit.jsonl"},
        audit_log="audit.jsonl",
    )
    for _ in range(2):
        assert project.run("run", "PreToolUse", payload={}).code == 0
    lines = (project.root / "audit.jsonl").read_text().splitlines()
    records = [json.loads(line) for line in lines if not line.startswith('{"partial"')]
    assert len(records) == 2 and all(r["event"] == "PreToolUse" for r in records)


@pytest.mark.parametrize("text", ["[" * 100_000, '{"n": ' + HUGE + "}"], ids=["deep", "huge"])
def test_a_lockout_registry_no_decoder_can_read_is_reported_as_corrupt(
    project: Project, text: str
) -> None:
    project.write(".hookrun/state/lockout.json", text)
    ran = project.run("lockout", "list")
    assert ran.code == 1 and "is corrupt" in ran.err, ran.err
    assert "internal error" not in ran.err


@pytest.mark.parametrize("newline", ["\r", "\r\n", "\n"], ids=["cr", "crlf", "lf"])
def test_positions_count_lines_whatever_the_line_ends(project: Project, newline: str) -> None:
    text = newline.join(
        ["{", '"hooks": {', '"PreToolUse": [', '{"matcher": "(bash", "command": "true"}]}}']
    )
    project.config(text)
    ran = project.run("check")
    assert ran.code == 1
    assert ".hookrun/hooks.json:4:13: hooks.PreToolUse[0].matcher: invalid regex" in ran.out


# A config with comments of both kinds before the mistake: a `//` comment ends at any
# line end — before, in a CR-only file, it ran to the end of the file and took the rest
# of the config with it. Each case: the lines, and where `check` must point.
COMMENTED = [
    (
        [
            "{",
            "  // hooks for the agent",
            '  "hooks": { /* two lines',
            "     of comment */",
            '    "PreToolUse": [',
            '      {"matcher": "(bash", "command": "true"} // unbalanced',
            "    ]",
            "  }",
            "}",
        ],
        "6:19: hooks.PreToolUse[0].matcher: invalid regex",
    ),
    (
        ["{", "  // a comment", '  "hooks": {', '    "PreToolUse": [ x ]', "  }", "}"],
        '4:21: expected a value, got "x"',
    ),
    (["// first", '{"hooks": {}, // trailing', '  "timeout": -1}'], "3:14: timeout"),
]


@pytest.mark.parametrize("newline", ["\r", "\r\n", "\n"], ids=["cr", "crlf", "lf"])
@pytest.mark.parametrize(("lines", "where"), COMMENTED, ids=["matcher", "syntax", "value"])
def test_positions_after_comments_count_lines_whatever_the_line_ends(
    project: Project, newline: str, lines: list[str], where: str
) -> None:
    project.config(newline.join(lines))
    ran = project.run("check")
    assert ran.code == 1, ran.out
    assert f".hookrun/hooks.json:{where}" in ran.out + ran.err


@pytest.mark.parametrize("newline", ["\r", "\r\n", "\n"], ids=["cr", "crlf", "lf"])
def test_a_bad_utf8_byte_is_located_whatever_the_line_ends(project: Project, newline: str) -> None:
    lines = [b"{", b'  "hooks": {},', b'  "x": "\xff"}']
    (project.root / ".hookrun/hooks.json").write_bytes(newline.encode().join(lines))
    ran = project.run("check")
    assert ran.code == 1
    assert ".hookrun/hooks.json:3:9: invalid UTF-8 byte 0xff" in ran.out + ran.err
