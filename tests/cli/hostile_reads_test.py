"""Issue 9 item 5 and the exit-code rules, through the real ``hookrun`` command: a config
that is not a regular file and a stdin that never closes end at once or within the
stdin timeout, and when no answer can be computed a fail-closed guard still denies."""

from __future__ import annotations

import json
import os
import subprocess
import time
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from conftest import Project

DENY = {"name": "guard", "command": "exit 2", "on_error": "deny"}
OPEN = {"name": "note", "command": 'echo \'{"context": "ran"}\''}


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="POSIX device files")
@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
@pytest.mark.parametrize("command", ["check", "run"])
def test_a_device_as_config_is_refused_at_once(project: Project, device: str, command: str) -> None:
    args = [command, "--config", device] + (["PreToolUse"] if command == "run" else [])
    ran = project.run(*args, payload={}, timeout=30)
    assert ran.code == 1
    assert f"{device}: is a character device, not a regular file" in ran.err + ran.out


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX FIFOs")
@pytest.mark.parametrize("command", ["check", "run"])
def test_a_fifo_without_a_writer_as_config_is_refused_at_once(
    project: Project, command: str
) -> None:
    os.mkfifo(project.root / "hooks.json")
    args = [command, "--config", "hooks.json"] + (["PreToolUse"] if command == "run" else [])
    ran = project.run(*args, payload={}, timeout=30)
    assert ran.code == 1
    assert "hooks.json: is a FIFO (named pipe), not a regular file" in ran.err + ran.out


def test_an_oversized_config_is_refused(project: Project) -> None:
    project.write("big.json", '{"hooks": {}}' + " " * (8 << 20))
    ran = project.run("run", "PreToolUse", "--config", "big.json", payload={})
    assert ran.code == 1 and "larger than 8 MiB" in ran.err


def _open_stdin(project: Project, written: bytes, *args: str) -> tuple[int, str, str, float]:
    """Run hookrun with ``written`` on a stdin pipe that stays open until it exits."""
    proc = project.popen(
        *args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    started = time.monotonic()
    proc.stdin.write(written)
    proc.stdin.flush()
    try:
        code = proc.wait(timeout=30)
    finally:
        proc.kill()
        proc.stdin.close()
    elapsed = time.monotonic() - started
    out, err = proc.stdout.read().decode(), proc.stderr.read().decode()
    proc.stdout.close()
    proc.stderr.close()
    return code, out, err, elapsed


def test_a_complete_object_on_a_stdin_left_open_is_answered(project: Project) -> None:
    project.hooks("PreToolUse", OPEN)
    code, out, err, elapsed = _open_stdin(
        project, b'{"tool_name": "Bash"}', "run", "PreToolUse", "--stdin-timeout", "25"
    )
    assert (code, json.loads(out)["context"]) == (0, ["ran"]), err
    assert elapsed < 20  # answered, not timed out


@pytest.mark.parametrize(
    ("written", "what"),
    [(b"", "nothing"), (b'{"tool_name": "Ba', "17 bytes that are not a complete JSON object")],
    ids=["empty", "partial"],
)
def test_a_stdin_that_never_closes_ends_at_the_stdin_timeout_with_exit_1(
    project: Project, written: bytes, what: str
) -> None:
    project.hooks("PreToolUse", OPEN)
    code, out, err, _ = _open_stdin(project, written, "run", "PreToolUse", "--stdin-timeout", "0.5")
    assert (code, out) == (1, "")
    assert err == f"hookrun: stdin was still open after 0.5s with {what} on it: " + (
        "the host must write the event as one JSON object (and should close stdin); "
        "raise --stdin-timeout if it is slow\n"
    )


def test_a_stdin_timeout_on_an_event_guarded_fail_closed_denies(project: Project) -> None:
    project.hooks("PreToolUse", OPEN, DENY)
    code, out, err, _ = _open_stdin(project, b"", "run", "PreToolUse", "--stdin-timeout", "0.5")
    assert (code, json.loads(out)["decision"]) == (2, "deny")
    assert err.startswith("hookrun could not compute an answer (stdin was still open after 0.5s")
    assert err.rstrip().endswith("and hook guard fails closed: denied")


@pytest.mark.parametrize("value", ["0", "-1", "soon", "inf", "nan"])
def test_a_bad_stdin_timeout_is_a_usage_error(project: Project, value: str) -> None:
    ran = project.run("run", "PreToolUse", "--stdin-timeout", value, payload={})
    assert ran.code == 1
    assert f"--stdin-timeout {value!r}: expected a positive number of seconds" in ran.err


# (why no answer can be computed, how to cause it)
NO_ANSWER: list[Any] = [
    pytest.param(b"[1, 2]", [], id="payload-not-an-object"),
    pytest.param(b"{nope", [], id="payload-not-json"),
    pytest.param(b"\xff{}", [], id="payload-not-utf8"),
]


@pytest.mark.parametrize("payload", [p.values[0] for p in NO_ANSWER], ids=[p.id for p in NO_ANSWER])
@pytest.mark.parametrize(
    ("hooks", "flags", "event", "code"),
    [
        ([OPEN], [], "PreToolUse", 1),
        ([OPEN, DENY], [], "PreToolUse", 2),
        ([OPEN], ["--fail-closed"], "PreToolUse", 2),
        ([OPEN, DENY], [], "SessionStart", 1),  # cannot block: nothing to deny
        ([OPEN], ["--fail-closed"], "Notification", 1),
        ([{"builtin": "write-guard"}], [], "PreToolUse", 2),  # a built-in that fails closed
    ],
    ids=["open", "fail-closed-hook", "flag", "non-blocking", "flag-non-blocking", "builtin"],
)
def test_no_answer_is_a_deny_only_where_a_blocking_event_is_guarded_fail_closed(
    project: Project, payload: bytes, hooks: list[Any], flags: list[str], event: str, code: int
) -> None:
    config: dict[str, Any] = {"hooks": {event: hooks}}
    project.config(config)
    ran = project.run("run", event, *flags, payload=payload)
    assert ran.code == code, ran.err
    if code == 2:
        assert json.loads(ran.out)["decision"] == "deny"
        assert ran.err.startswith("hookrun could not compute an answer (")
    else:
        assert ran.out == "" and ran.err.startswith("hookrun: ")


def test_a_broken_config_with_fail_closed_denies_in_the_hosts_shape(project: Project) -> None:
    project.config('{"hooks": {"PreToolUse": [')
    ran = project.run("run", "PreToolUse", "--fail-closed", "--format", "claude", payload={})
    assert ran.code == 2
    specific = json.loads(ran.out)["hookSpecificOutput"]
    assert specific["permissionDecision"] == "deny"
    assert "and --fail-closed is set: denied" in specific["permissionDecisionReason"]


def test_a_bad_payload_for_a_fail_closed_policy_denies(project: Project) -> None:
    ran = project.run("policy", "write-guard", payload=b"[]")
    assert ran.code == 2 and json.loads(ran.out)["decision"] == "deny"
    assert "hook write-guard fails closed: denied" in ran.err


def test_an_unknown_policy_is_exit_1_unless_fail_closed_on_a_blocking_event(
    project: Project,
) -> None:
    assert project.run("policy", "no-such-guard", "--event", "PreToolUse", payload={}).code == 1
    # Without --event, nothing says the event could have been blocked.
    assert project.run("policy", "no-such-guard", "--fail-closed", payload={}).code == 1
    ran = project.run(
        "policy", "no-such-guard", "--fail-closed", "--event", "pre_tool_use", payload={}
    )
    assert ran.code == 2 and "unknown policy" in ran.err


def test_a_closed_stdout_keeps_the_decision_in_the_exit_code(project: Project) -> None:
    project.hooks("PreToolUse", {"command": "exit 2"})
    proc = project.popen(
        "run", "PreToolUse", stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert proc.stdout is not None
    proc.stdout.close()  # the host stopped reading
    _, err = proc.communicate(b"{}", timeout=60)
    assert proc.returncode == 2, err
