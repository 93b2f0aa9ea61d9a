from __future__ import annotations

import json
from typing import Any

import pytest

from hookrun.runner.envelope import HookAnswer, parse_envelope, parse_stdout

NO_OPINION = HookAnswer()


@pytest.mark.parametrize(
    ("obj", "expected"),
    [
        pytest.param({}, NO_OPINION, id="empty-object-is-no-opinion"),
        pytest.param({"version": 1}, NO_OPINION, id="version-only"),
        pytest.param(
            {"version": 2, "decision": "allow"},
            HookAnswer(decision="allow"),
            id="newer-version-still-read",
        ),
        pytest.param({"decision": "allow"}, HookAnswer(decision="allow"), id="allow"),
        pytest.param(
            {"decision": "deny", "reason": "no"},
            HookAnswer(decision="deny", reason="no"),
            id="deny-with-reason",
        ),
        pytest.param({"decision": "ask"}, HookAnswer(decision="ask"), id="ask"),
        pytest.param({"decision": None}, NO_OPINION, id="null-decision"),
        pytest.param(
            {"decision": "DENY"}, HookAnswer(decision="deny"), id="decision-case-insensitive"
        ),
        pytest.param(
            {"decision": "block", "reason": "r"},
            HookAnswer(decision="deny", reason="r"),
            id="claude-block-is-deny",
        ),
        pytest.param(
            {"decision": "approve"}, HookAnswer(decision="allow"), id="claude-approve-is-allow"
        ),
        pytest.param(
            {"halt": True, "reason": "stop"}, HookAnswer(halt=True, reason="stop"), id="halt"
        ),
        pytest.param({"halt": False}, NO_OPINION, id="halt-false"),
        pytest.param({"context": "one"}, HookAnswer(context=("one",)), id="context-string"),
        pytest.param(
            {"context": ["a", "", "  ", "b"]},
            HookAnswer(context=("a", "b")),
            id="context-list-empties-dropped",
        ),
        pytest.param({"context": ""}, NO_OPINION, id="empty-context-string-dropped"),
        pytest.param(
            {"additionalContext": "x"},
            HookAnswer(context=("x",)),
            id="top-level-additionalContext-crush-compat",
        ),
        pytest.param(
            {"context_files": ["README.md", "docs/a.md"]},
            HookAnswer(context_files=("README.md", "docs/a.md")),
            id="context-files",
        ),
        pytest.param(
            {"updated_input": {"command": "ls -la"}},
            HookAnswer(patch_input={"command": "ls -la"}),
            id="updated-input-object",
        ),
        pytest.param(
            {"updated_input": '{"command": "ls -la"}'},
            HookAnswer(patch_input={"command": "ls -la"}),
            id="updated-input-json-string",
        ),
        pytest.param(
            {"updated_prompt": "new"}, HookAnswer(updated_prompt="new"), id="updated-prompt"
        ),
        pytest.param(
            {"updated_output": {"content": "x"}},
            HookAnswer(updated_output={"content": "x"}, has_updated_output=True),
            id="updated-output-object",
        ),
        pytest.param(
            {"updated_output": "scrubbed"},
            HookAnswer(updated_output="scrubbed", has_updated_output=True),
            id="updated-output-string",
        ),
        pytest.param({"updated_output": None}, NO_OPINION, id="updated-output-null-is-unset"),
        pytest.param(
            {"system_message": "hi"}, HookAnswer(system_message="hi"), id="system-message"
        ),
        pytest.param(
            {"systemMessage": "hi"}, HookAnswer(system_message="hi"), id="claude-systemMessage"
        ),
        pytest.param(
            {"decision": "allow", "whatever": [1, 2], "rule": "x"},
            HookAnswer(decision="allow"),
            id="unknown-fields-ignored",
        ),
        # Claude Code's shape
        pytest.param(
            {
                "hookSpecificOutput": {
                    "hookEventName": "PreToolUse",
                    "permissionDecision": "deny",
                    "permissionDecisionReason": "nope",
                }
            },
            HookAnswer(decision="deny", reason="nope"),
            id="claude-permission-deny",
        ),
        pytest.param(
            {
                "hookSpecificOutput": {
                    "permissionDecision": "allow",
                    "updatedInput": {"command": "ls"},
                }
            },
            HookAnswer(decision="allow", replace_input={"command": "ls"}),
            id="claude-updatedInput-replaces",
        ),
        pytest.param(
            {"hookSpecificOutput": {"permissionDecision": "ask"}},
            HookAnswer(decision="ask"),
            id="claude-ask",
        ),
        pytest.param(
            {"hookSpecificOutput": {"permissionDecision": "defer"}},
            NO_OPINION,
            id="claude-defer-is-no-opinion",
        ),
        pytest.param(
            {
                "hookSpecificOutput": {
                    "hookEventName": "SessionStart",
                    "additionalContext": "branch main",
                }
            },
            HookAnswer(context=("branch main",)),
            id="claude-additionalContext",
        ),
        pytest.param(
            {"continue": False, "stopReason": "done"},
            HookAnswer(halt=True, reason="done"),
            id="claude-continue-false-halts",
        ),
        pytest.param(
            {"continue": True, "stopReason": "ignored"},
            NO_OPINION,
            id="claude-continue-true-no-halt",
        ),
        pytest.param(
            {"decision": "allow", "hookSpecificOutput": {"permissionDecision": "deny"}},
            HookAnswer(decision="deny"),
            id="both-shapes-stricter-decision-wins",
        ),
        pytest.param(
            {
                "reason": "a",
                "hookSpecificOutput": {
                    "permissionDecision": "deny",
                    "permissionDecisionReason": "b",
                },
            },
            HookAnswer(decision="deny", reason="a\nb"),
            id="both-shapes-reasons-joined",
        ),
        pytest.param(
            {
                "hookSpecificOutput": {
                    "hookEventName": "PermissionRequest",
                    "decision": {"behavior": "deny", "message": "m"},
                }
            },
            HookAnswer(decision="deny", reason="m"),
            id="claude-permission-request-deny",
        ),
        pytest.param(
            {"hookSpecificOutput": {"decision": {"behavior": "allow", "updatedInput": {"a": 1}}}},
            HookAnswer(decision="allow", replace_input={"a": 1}),
            id="claude-permission-request-allow-updatedInput",
        ),
        pytest.param(
            {"hookSpecificOutput": {"updatedMCPToolOutput": {"x": 1}}},
            HookAnswer(updated_output={"x": 1}, has_updated_output=True),
            id="claude-updatedMCPToolOutput",
        ),
    ],
)
def test_envelope_fields_are_read_in_both_shapes(obj: dict[str, Any], expected: HookAnswer) -> None:
    assert parse_envelope(obj) == expected


@pytest.mark.parametrize(
    ("obj", "message"),
    [
        (
            {"decision": "maybe"},
            'field "decision" must be one of "allow", "deny", "ask", "block", "approve" or null, got "maybe"',  # noqa: E501
        ),
        (
            {"decision": 1},
            'field "decision" must be one of "allow", "deny", "ask", "block", "approve" or null, got a number',  # noqa: E501
        ),
        ({"halt": "yes"}, 'field "halt" must be true or false, got a string'),
        ({"reason": ["a"]}, 'field "reason" must be a string, got an array'),
        ({"context": 5}, 'field "context" must be a string or a list of strings, got a number'),
        (
            {"context": ["a", 1]},
            'field "context" must be a string or a list of strings, got an array',
        ),
        (
            {"context_files": "README.md"},
            'field "context_files" must be a list of path strings, got a string',
        ),
        (
            {"updated_input": [1]},
            'field "updated_input" must be an object (or a JSON string of one), got an array',
        ),
        ({"updated_input": "ls -la"}, 'field "updated_input" is a string but not a JSON object'),
        ({"updated_prompt": 3}, 'field "updated_prompt" must be a string, got a number'),
        ({"version": "1"}, 'field "version" must be an integer, got a string'),
        ({"version": True}, 'field "version" must be an integer, got a boolean'),
        ({"system_message": {}}, 'field "system_message" must be a string, got an object'),
        ({"continue": "no"}, 'field "continue" must be true or false, got a string'),
        (
            {"hookSpecificOutput": "deny"},
            'field "hookSpecificOutput" must be an object, got a string',
        ),
        (
            {"hookSpecificOutput": {"permissionDecision": "nope"}},
            'field "hookSpecificOutput.permissionDecision" must be one of "allow", "deny", "ask", "defer" or null, got "nope"',  # noqa: E501
        ),
        (
            {"hookSpecificOutput": {"decision": "allow"}},
            'field "hookSpecificOutput.decision" must be an object, got a string',
        ),
        (
            {"hookSpecificOutput": {"decision": {"behavior": "ask"}}},
            'field "hookSpecificOutput.decision.behavior" must be one of "allow", "deny" or null, got "ask"',  # noqa: E501
        ),
        (
            {"hookSpecificOutput": {"updatedInput": "x"}},
            'field "hookSpecificOutput.updatedInput" must be an object, got a string',
        ),
        (
            {"hookSpecificOutput": {"additionalContext": 1}},
            'field "hookSpecificOutput.additionalContext" must be a string or a list of strings, got a number',  # noqa: E501
        ),
    ],
)
def test_a_wrong_typed_field_makes_the_answer_no_opinion_with_the_error(
    obj: dict[str, Any], message: str
) -> None:
    answer = parse_envelope(obj)
    assert answer == HookAnswer(error=f"bad envelope: {message}")


def test_a_wrong_typed_field_discards_even_a_valid_deny_in_the_same_envelope() -> None:
    answer = parse_envelope({"decision": "deny", "halt": "yes"})
    assert answer.decision is None
    assert answer.error is not None


@pytest.mark.parametrize(
    ("event", "stdout", "expected"),
    [
        ("PreToolUse", b"", NO_OPINION),
        ("PreToolUse", b"  \n\t ", NO_OPINION),
        ("PreToolUse", b'{"decision":"allow"}\n', HookAnswer(decision="allow")),
        ("PreToolUse", b'\xef\xbb\xbf{"decision":"deny"}', HookAnswer(decision="deny")),
        (
            "UserPromptSubmit",
            b"Current branch: main\n",
            HookAnswer(context=("Current branch: main",)),
        ),
        ("SessionStart", b"line one\nline two", HookAnswer(context=("line one\nline two",))),
        ("SessionStart", b'"just a json string"', HookAnswer(context=('"just a json string"',))),
        ("UserPromptSubmit", b'{"context": "x"}', HookAnswer(context=("x",))),
    ],
    ids=[
        "empty",
        "whitespace",
        "envelope",
        "bom-tolerated",
        "plain-text-prompt-context",
        "plain-text-session-context",
        "json-non-object-is-text-on-text-events",
        "json-on-text-event",
    ],
)
def test_stdout_of_a_successful_hook(event: str, stdout: bytes, expected: HookAnswer) -> None:
    assert parse_stdout(event, stdout) == expected


@pytest.mark.parametrize(
    ("event", "stdout", "prefix"),
    [
        (
            "PreToolUse",
            b"hello",
            'stdout is not JSON (Expecting value: line 1 column 1 (char 0)): "hello"',
        ),
        ("PostToolUse", b"[1, 2]", 'stdout is JSON but an array, not an object: "[1, 2]"'),
        ("PreToolUse", b"42", 'stdout is JSON but a number, not an object: "42"'),
        (
            "UserPromptSubmit",
            b'{"decision": ',
            "stdout is not JSON (Expecting value: line 1 column 13 (char 12))",
        ),
        ("Notification", b"\xff\xfe garbage", "stdout is not JSON"),
    ],
    ids=[
        "text-on-tool-event",
        "array",
        "number",
        "broken-object-on-text-event-is-an-error",
        "binary",
    ],
)
def test_garbage_stdout_is_no_opinion_with_the_error_recorded(
    event: str, stdout: bytes, prefix: str
) -> None:
    answer = parse_stdout(event, stdout)
    assert answer.decision is None and not answer.context
    assert answer.error is not None and answer.error.startswith(prefix)


def test_a_long_garbage_line_is_quoted_shortened() -> None:
    answer = parse_stdout("PreToolUse", b"x" * 500)
    assert answer.error is not None
    assert len(answer.error) < 200
    assert answer.error.endswith('…"')


def test_an_envelope_round_trips_through_json() -> None:
    env = {"decision": "deny", "reason": "r", "context": ["c"], "updated_input": {"a": 1}}
    assert parse_stdout("PreToolUse", json.dumps(env).encode()) == parse_envelope(env)


def test_a_permission_request_deny_with_interrupt_halts() -> None:
    obj = {"hookSpecificOutput": {"decision": {"behavior": "deny", "interrupt": True}}}
    assert parse_envelope(obj) == HookAnswer(decision="deny", halt=True)


_DEEP = "[" * 100_000 + "]" * 100_000


@pytest.mark.parametrize(
    ("stdout", "error"),
    [
        (_DEEP, "stdout is not JSON (nested too deeply): "),
        ('{"updated_input": "' + _DEEP + '"}', 'bad envelope: field "updated_input" is a JSON'),
    ],
    ids=["stdout", "updated-input-string"],
)
def test_deeply_nested_stdout_is_no_opinion_with_the_error_recorded(
    stdout: str, error: str
) -> None:
    answer = parse_stdout("PreToolUse", stdout)
    assert answer.decision is None
    assert answer.error is not None and answer.error.startswith(error), answer.error
    assert "nested too deeply" in answer.error
