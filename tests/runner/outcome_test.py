from __future__ import annotations

import pytest

from hookrun.runner.envelope import HookAnswer, interpret


def run(
    exit_code: int = 0,
    stdout: bytes = b"",
    stderr: bytes = b"",
    *,
    event: str = "PreToolUse",
    on_error: str = "allow",
    **kw: object,
) -> HookAnswer:
    return interpret(
        event=event,
        name="guard",
        on_error=on_error,
        exit_code=exit_code,
        stdout=stdout,
        stderr=stderr,
        timeout=10,
        **kw,  # type: ignore[arg-type]
    )


@pytest.mark.parametrize(
    ("event", "exit_code", "stdout", "stderr", "expected"),
    [
        ("PreToolUse", 0, b"", b"", HookAnswer()),
        ("PreToolUse", 0, b'{"decision":"allow"}', b"noise", HookAnswer(decision="allow")),
        (
            "PreToolUse",
            2,
            b'{"decision":"allow"}',
            b"rm -rf / refused\n",
            HookAnswer(decision="deny", reason="rm -rf / refused"),
        ),
        ("PreToolUse", 2, b"", b"", HookAnswer(decision="deny", reason="denied by hook guard")),
        (
            "PostToolUse",
            2,
            b"",
            b"secret in output",
            HookAnswer(decision="deny", reason="secret in output"),
        ),
        ("UserPromptSubmit", 2, b"", b"no prod", HookAnswer(decision="deny", reason="no prod")),
        ("Stop", 2, b"", b"keep going", HookAnswer(decision="deny", reason="keep going")),
        ("SubagentStop", 2, b"", b"keep going", HookAnswer(decision="deny", reason="keep going")),
        (
            "Notification",
            2,
            b"",
            b"x",
            HookAnswer(error="exit 2 (deny) on Notification, which cannot be blocked: x"),
        ),
        (
            "SessionStart",
            2,
            b"",
            b"",
            HookAnswer(error="exit 2 (deny) on SessionStart, which cannot be blocked"),
        ),
        (
            "PreToolUse",
            49,
            b"",
            b"budget exhausted",
            HookAnswer(halt=True, reason="budget exhausted"),
        ),
        ("Notification", 49, b"", b"", HookAnswer(halt=True, reason="turn halted by hook guard")),
        (
            "PreToolUse",
            1,
            b'{"decision":"deny"}',
            b"Traceback...\nKeyError: x",
            HookAnswer(error="exit 1: Traceback...\nKeyError: x"),
        ),
        ("PreToolUse", 127, b"", b"", HookAnswer(error="exit 127")),
        ("PreToolUse", 137, b"", b"", HookAnswer(error="exit 137")),
    ],
    ids=[
        "0-empty",
        "0-envelope-stderr-ignored",
        "2-deny-stdout-ignored",
        "2-deny-default-reason",
        "2-post-tool-use",
        "2-prompt",
        "2-stop",
        "2-subagent-stop",
        "2-notification-is-error",
        "2-session-start-is-error",
        "49-halt",
        "49-default-reason",
        "1-error-stdout-ignored",
        "127-error",
        "137-killed",
    ],
)
def test_exit_codes_mean_what_crush_and_claude_code_say(
    event: str, exit_code: int, stdout: bytes, stderr: bytes, expected: HookAnswer
) -> None:
    assert run(exit_code, stdout, stderr, event=event) == expected


@pytest.mark.parametrize(
    ("kw", "problem"),
    [
        ({"exit_code": 1, "stderr": b"boom"}, "exit 1: boom"),
        ({"exit_code": -1, "timed_out": True}, "timed out after 10s"),
        ({"exit_code": 127, "error": "./missing.sh: no such file"}, "./missing.sh: no such file"),
        (
            {"exit_code": 0, "stdout": b"garbage"},
            'stdout is not JSON (Expecting value: line 1 column 1 (char 0)): "garbage"',
        ),
        (
            {"exit_code": 0, "stdout": b'{"halt": 1}'},
            'bad envelope: field "halt" must be true or false, got a number',
        ),
        (
            {"exit_code": 0, "stdout": b'{"decision": "al', "truncated": True},
            'stdout is not JSON (Unterminated string starting at: line 1 column 14 (char 13)): "{\\"decision\\": \\"al" (stdout was cut at the capture limit)',  # noqa: E501
        ),
    ],
    ids=["crash", "timeout", "missing", "garbage", "wrong-type", "truncated"],
)
def test_a_failing_hook_is_no_opinion_unless_on_error_deny(
    kw: dict[str, object], problem: str
) -> None:
    assert run(**kw) == HookAnswer(error=problem)  # type: ignore[arg-type]
    assert run(on_error="deny", **kw) == HookAnswer(  # type: ignore[arg-type]
        decision="deny",
        reason=f"hook guard failed ({problem}) and is set to on_error: deny",
        error=problem,
    )


def test_a_cancelled_hook_is_not_turned_into_a_deny_by_on_error() -> None:
    assert run(130, cancelled=True, on_error="deny") == HookAnswer(error="cancelled")


def test_a_timeout_wins_over_the_exit_code_the_killed_hook_got() -> None:
    assert run(0, b'{"decision":"allow"}', timed_out=True).error == "timed out after 10s"


def test_long_stderr_is_shortened_in_an_error_but_kept_whole_as_a_deny_reason() -> None:
    long = b"x" * 1000
    assert len(run(1, stderr=long).error or "") < 320
    assert run(2, stderr=long).reason == "x" * 1000
