"""Issue 9, through the real ``hookrun`` command: a wrong-typed field in an otherwise valid
payload counts as absent, not as "no answer" — and never makes a guard fail open.

The property: for every common payload field and any JSON value of the wrong type in
it, ``hookrun run`` answers exactly as it answers when the field is left out (same exit
code, same stdout), and that answer is never exit 1. The oracle is hookrun itself on
the payload without the field — the one input whose meaning is not in question.

The guard table: what a fail-closed guard cannot read (a ``tool_input`` that is not an
object, a ``command`` or ``file_path`` that is not a string, a ``tool_name`` that is
not a string) is denied by the guard's fail mode, not waved through as "nothing to
check"; a hook script still sees the host's value as sent.
"""

from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

if TYPE_CHECKING:
    from conftest import Project, Ran

# Each common field, and the type the runner reads it as.
COMMON = {
    "session_id": str,
    "cwd": str,
    "project_dir": str,
    "tool_name": str,
    "prompt": str,
    "source": str,
    "trigger": str,
    "event": str,
    "hook_event_name": str,
    "is_sub_agent": bool,
    "tool_input": dict,
}

_TEXT = st.text(max_size=8)
_SCALAR = st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.booleans() | _TEXT
_JSON = st.recursive(
    _SCALAR, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_TEXT, inner, max_size=3),
    max_leaves=5,
)  # fmt: skip


def _wrong(field: str) -> st.SearchStrategy[Any]:
    """JSON values of any type but the field's own (null is "absent" already)."""
    kind = COMMON[field]
    if kind is dict:  # a JSON string of an object is a tool_input hosts really send
        return _JSON.filter(lambda v: not isinstance(v, dict) and not _object_text(v))
    return _JSON.filter(lambda v: not isinstance(v, kind))


def _object_text(value: Any) -> bool:
    if not isinstance(value, str):
        return False
    try:
        return isinstance(json.loads(value), dict)
    except ValueError:
        return False


# Hooks that show what the runner made of each field: the environment it hands out, the
# matchers it tests, the sub-agent rule, the tool's command — all fail open.
_SEEN = (
    'printf \'{"context": "%s|%s|%s|%s|%s|%s"}\' "$HOOKRUN_TOOL_NAME" '
    '"$HOOKRUN_SESSION_ID" "$HOOKRUN_CWD" "$HOOKRUN_PROJECT_DIR" "$HOOKRUN_IS_SUB_AGENT" '
    '"$HOOKRUN_TOOL_INPUT_COMMAND"'
)
CONFIG = {
    "hooks": {
        "PreToolUse": [
            {"name": "seen", "command": _SEEN, "include_sub_agents": True},
            {"name": "bash-only", "matcher": "^Bash$", "command": "echo bash-matched >&2"},
            {"name": "main-only", "command": 'echo \'{"context": "main thread"}\''},
        ],
        "UserPromptSubmit": [
            {"name": "seen", "command": _SEEN, "include_sub_agents": True},
            {"name": "block", "command": "echo no >&2; exit 2"},
        ],
        "SessionStart": [
            {"name": "seen", "command": _SEEN},
            {"name": "on-startup", "matcher": "^startup$", "command": "echo started"},
        ],
    }
}


def _payload(project: Project, event: str) -> dict[str, Any]:
    return {
        "event": event,
        "hook_event_name": event,
        "session_id": "s1",
        "cwd": str(project.root),
        "project_dir": str(project.root),
        "tool_name": "Bash",
        "tool_input": {"command": "ls -la"},
        "prompt": "hello",
        "source": "startup",
        "trigger": "manual",
        "is_sub_agent": False,
    }


def _timeless(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _timeless(v) for k, v in value.items() if k != "duration_ms"}
    if isinstance(value, list):
        return [_timeless(v) for v in value]
    return value


def _answer(ran: Ran) -> tuple[int, Any]:
    return ran.code, _timeless(json.loads(ran.out)) if ran.out.strip() else None


@pytest.mark.nocov
@pytest.mark.timeout(900)
@pytest.mark.parametrize("field", sorted(COMMON))
@settings(
    # Two real hookrun processes per example: a few per field and event by default,
    # more with HOOKRUN_PROPERTY_EXAMPLES=200.
    max_examples=int(os.environ.get("HOOKRUN_PROPERTY_EXAMPLES", "4")),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    data=st.data(),
    event=st.sampled_from(["PreToolUse", "UserPromptSubmit", "SessionStart"]),
    host=st.sampled_from(["auto", "hookrun", "claude"]),
)
def test_a_wrong_typed_field_is_answered_as_if_it_were_absent(
    project: Project, field: str, data: st.DataObject, event: str, host: str
) -> None:
    project.config(CONFIG)
    value = data.draw(_wrong(field), label="value")
    payload = _payload(project, event)
    wrong = {**payload, field: value}
    absent = {k: v for k, v in payload.items() if k != field}

    got = project.run("run", event, "--host", host, payload=json.dumps(wrong))
    expected = project.run("run", event, "--host", host, payload=json.dumps(absent))

    assert got.code != 1, got.err
    assert "could not compute an answer" not in got.err
    assert _answer(got) == _answer(expected), (got.err, expected.err)


FAIL_CLOSED = {
    "hooks": {
        "PreToolUse": [
            {"name": "shell", "builtin": "shell-guard"},
            {"name": "write", "builtin": "write-guard", "matcher": "^(Write|Edit)$"},
        ]
    }
}


@pytest.mark.parametrize(
    ("payload", "reason"),
    [
        ({"tool_name": "Bash", "tool_input": 5}, '"tool_input" is a number, not an object'),
        ({"tool_name": "Bash", "tool_input": "rm -rf /"}, '"tool_input" is a string, not an'),
        ({"tool_name": "Bash", "tool_input": ["rm", "-rf", "/"]}, '"tool_input" is an array'),
        (
            {"tool_name": "Bash", "tool_input": {"command": ["rm", "-rf", "/"]}},
            '"tool_input.command" is an array, not a string',
        ),
        (
            {"tool_name": "Bash", "tool_input": {"command": "ls", "cmd": {"rm": "-rf /"}}},
            '"tool_input.cmd" is an object, not a string',
        ),
        (
            {"tool_name": "Write", "tool_input": {"file_path": 5, "content": "x"}},
            '"tool_input.file_path" is a number, not a string',
        ),
        (
            {"tool_name": "Edit", "tool_input": {"file_path": "a.txt", "path": ["/etc/passwd"]}},
            '"tool_input.path" is an array, not a string',
        ),
        # The matcher cannot be tested: the fail-closed write-guard runs all the same,
        # and cannot tell which tool this is.
        (
            {"tool_name": {"name": "Write"}, "tool_input": {"file_path": "/etc/passwd"}},
            '"tool_name" is an object, not a string',
        ),
        # shell-guard does not need the tool's name: it judges the command.
        ({"tool_name": 7, "tool_input": {"command": "rm -rf /"}}, "delete.catastrophic"),
    ],
    ids=[
        "input-number", "input-plain-string", "input-array", "command-array", "cmd-object",
        "file-path-number", "second-path-spelling", "tool-name-object", "tool-name-number",
    ],
)  # fmt: skip
def test_a_fail_closed_guard_denies_what_it_cannot_read(
    project: Project, payload: dict[str, Any], reason: str
) -> None:
    project.config(FAIL_CLOSED)
    for command in (["run", "PreToolUse"], ["run", "PreToolUse", "--host", "claude"]):
        ran = project.run(*command, payload=payload)
        assert ran.code == 2, (command, ran.out, ran.err)
        assert reason in ran.err, ran.err


@pytest.mark.parametrize(
    ("policy", "payload"),
    [
        ("shell-guard", {"tool_name": "Bash", "tool_input": {"command": ["rm", "-rf", "/"]}}),
        ("shell-guard", {"tool_name": "Bash", "tool_input": 5}),
        ("write-guard", {"tool_name": "Write", "tool_input": {"file_path": ["/etc/passwd"]}}),
        ("write-guard", {"tool_name": ["Write"], "tool_input": {"file_path": "/etc/passwd"}}),
    ],
    ids=["shell-command-array", "shell-input-number", "write-path-array", "write-name-array"],
)
def test_hookrun_policy_fails_closed_on_what_it_cannot_read(
    project: Project, policy: str, payload: dict[str, Any]
) -> None:
    ran = project.run("policy", policy, payload=payload)
    assert ran.code == 2, (ran.out, ran.err)
    assert "cannot be judged" in ran.err


def test_guards_still_allow_a_readable_call_next_to_a_wrong_typed_common_field(
    project: Project,
) -> None:
    project.config(FAIL_CLOSED)
    payload = {"tool_name": "Bash", "session_id": [], "cwd": 5, "tool_input": {"command": "ls"}}
    ran = project.run("run", "PreToolUse", payload=payload)
    assert ran.code == 0, ran.err
    assert [h["error"] for h in ran.json["hooks"]] == [None]  # write-guard's matcher: no


def test_a_hook_script_sees_the_hosts_value_as_sent_and_the_matcher_sees_it_absent(
    project: Project,
) -> None:
    project.config(
        {
            "hooks": {
                "PreToolUse": [
                    {"name": "save", "command": "cat > seen.json"},
                    {"name": "bash-only", "matcher": "^Bash$", "command": "touch matched"},
                ]
            }
        }
    )
    payload = {"tool_name": ["Bash"], "tool_input": "rm -rf /", "session_id": 5}
    ran = project.run("run", "PreToolUse", payload=payload)
    assert ran.code == 0, ran.err
    seen = json.loads((project.root / "seen.json").read_text())
    assert (seen["tool_name"], seen["tool_input"]) == (["Bash"], "rm -rf /")
    assert seen["session_id"] == ""  # a field the runner fills: its value when absent
    assert not (project.root / "matched").exists()
