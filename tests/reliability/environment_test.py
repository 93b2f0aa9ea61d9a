"""Host environment oddities: non-UTF-8 bytes in the environment and in hook output, a working
directory that was deleted, a state dir or audit log that cannot be written, a missing HOME →
a clear behaviour (an answer, or one ``hookrun: …`` line and exit 1), never a crash."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.reliability.helpers import Ran, assert_answer, assert_clean_failure, hookrun, hookrun_env

BASH = {"tool_name": "bash", "tool_input": {"command": "ls"}, "session_id": "s1"}


def _project(tmp_path: Path, hooks: list[dict[str, Any]], **top: Any) -> Path:
    root = tmp_path / "proj"
    (root / ".hookrun").mkdir(parents=True, exist_ok=True)
    (root / ".hookrun" / "hooks.json").write_text(
        json.dumps({**top, "hooks": {"PreToolUse": hooks}})
    )
    return root


def _no_traceback(ran: Ran) -> None:
    assert "Traceback" not in ran.err, ran.err


def test_non_utf8_environment_bytes_reach_hooks_and_do_not_crash(tmp_path: Path) -> None:
    root = _project(
        tmp_path,
        [
            {"name": "inline", "command": 'echo "{\\"context\\": \\"$ODD_VALUE\\"}"'},
            {"name": "py", "command": f"{sys.executable} -c \"import os, json; "
             "print(json.dumps({'context': repr(os.environb[b'ODD_VALUE'])}))\""},
            {"name": "deny", "command": "./deny.sh"},
        ],
    )  # fmt: skip
    # A bash script, not inline: one in-process shell hook only, so this test does not also
    # trip the front end's loading race pinned in races_test.py.
    (root / "deny.sh").write_text('#!/bin/bash\necho "no: $ODD_VALUE" >&2\nexit 2\n')
    (root / "deny.sh").chmod(0o755)
    env: dict[bytes, bytes] = {k.encode(): v.encode() for k, v in hookrun_env(tmp_path).items()}
    env[b"ODD_VALUE"] = b"caf\xe9-\xff"
    env[b"ODD_\xffKEY"] = b"x"
    ran = hookrun("run", "PreToolUse", cwd=root, stdin=json.dumps(BASH).encode(), full_env=env)
    _no_traceback(ran)
    assert ran.code == 2, ran
    answer = ran.json
    assert_answer(answer)
    assert answer["reason"].startswith("no: caf"), answer["reason"]
    assert repr(b"caf\xe9-\xff") in answer["context"], "a python hook sees the exact bytes"


@pytest.mark.parametrize(
    ("out", "err", "code", "decision"),
    [
        (b'\xff\xfe{"decision": "deny"}', b"", 0, None),  # not an answer: "no opinion"
        (b"", b"denied: \xff\xfe bad bytes", 2, "deny"),
        (b'{"context": "caf\xe9"}', b"", 0, None),
        (b"", b"halt \xc3\x28 now", 49, None),
    ],
    ids=["stdout-bom-garbage", "stderr-reason", "latin1-json", "halt-reason"],
)
def test_non_utf8_hook_output_gives_an_answer(
    tmp_path: Path, out: bytes, err: bytes, code: int, decision: str | None
) -> None:
    (tmp_path / "out").write_bytes(out)
    (tmp_path / "err").write_bytes(err)
    root = _project(
        tmp_path, [{"command": f"cat {tmp_path / 'out'}; cat {tmp_path / 'err'} >&2; exit {code}"}]
    )
    ran = hookrun("run", "PreToolUse", cwd=root, stdin=json.dumps(BASH).encode(), env={})
    _no_traceback(ran)
    answer = ran.json
    assert_answer(answer)
    assert answer["decision"] == decision
    assert answer["halt"] is (code == 49)
    assert ran.code == {0: 0, 2: 2, 49: 49}[code], ran


def _in_deleted_dir(tmp_path: Path, *args: str, stdin: bytes) -> Ran:
    gone = tmp_path / "gone"
    gone.mkdir()
    hookrun_cmd = " ".join(shlex.quote(a) for a in [sys.executable, "-m", "hookrun", *args])
    proc = subprocess.run(
        ["/bin/sh", "-c", f'cd {shlex.quote(str(gone))} && rmdir "$PWD" && exec {hookrun_cmd}'],
        input=stdin,
        capture_output=True,
        env=hookrun_env(tmp_path),
        timeout=60,
    )
    assert not gone.exists()
    return Ran(
        proc.returncode,
        proc.stdout.decode("utf-8", "replace"),
        proc.stderr.decode("utf-8", "replace"),
    )


def test_a_deleted_working_directory_is_a_clear_error(tmp_path: Path) -> None:
    ran = _in_deleted_dir(tmp_path, "run", "PreToolUse", stdin=json.dumps(BASH).encode())
    _no_traceback(ran)
    assert_clean_failure(ran)
    assert "director" in ran.err, ran.err  # it says the working directory is the problem


def test_a_deleted_working_directory_with_explicit_config_and_cwd_still_runs(
    tmp_path: Path,
) -> None:
    root = _project(tmp_path, [{"command": 'echo \'{"context": "ran"}\''}])
    args = ["run", "PreToolUse", "--config", str(root / ".hookrun" / "hooks.json")]
    ran = _in_deleted_dir(tmp_path, *args, "--cwd", str(root), stdin=json.dumps(BASH).encode())
    _no_traceback(ran)
    assert ran.code == 0, ran
    assert ran.json["context"] == ["ran"]


def test_a_payload_cwd_that_does_not_exist_is_that_hooks_error(tmp_path: Path) -> None:
    root = _project(tmp_path, [{"name": "ext", "command": "true"}, {"command": "echo '{}'"}])
    payload = {**BASH, "cwd": str(tmp_path / "no-such-dir")}
    ran = hookrun("run", "PreToolUse", cwd=root, stdin=json.dumps(payload).encode(), env={})
    _no_traceback(ran)
    if ran.code == 1:  # refusing the payload up front is clear too
        assert_clean_failure(ran)
        assert "no-such-dir" in ran.err
        return
    assert ran.code == 0, ran
    assert_answer(ran.json)


ASK = {"tool_name": "ask_user", "tool_input": {"question": "which db?"}, "session_id": "s1"}


@pytest.mark.parametrize("how", ["state-is-a-file", "state-dir-read-only"])
def test_an_unwritable_state_dir_is_the_policys_error_not_a_crash(tmp_path: Path, how: str) -> None:
    root = _project(tmp_path, [{"builtin": "ask-user-limit", "on_error": "deny"}])
    state = root / ".hookrun" / "state"
    if how == "state-is-a-file":
        state.write_text("not a directory")
    else:
        state.mkdir()
        state.chmod(0o555)
    try:
        ran = hookrun("run", "PreToolUse", cwd=root, stdin=json.dumps(ASK).encode(), env={})
    finally:
        if state.is_dir():
            state.chmod(0o755)
    _no_traceback(ran)
    answer = ran.json
    assert_answer(answer)
    hook = answer["hooks"][0]
    if how == "state-dir-read-only" and os.geteuid() == 0 and hook["error"] is None:
        assert ran.code == 0  # root writes through 0o555: counting simply works
        return
    assert ran.code == 2, ran  # on_error: deny, fail closed
    assert hook["error"] and "state" in hook["error"], hook


def test_an_unwritable_audit_log_is_reported_and_the_run_still_answers(tmp_path: Path) -> None:
    root = _project(tmp_path, [{"command": "echo no >&2; exit 2"}], audit_log="blocker/audit.jsonl")
    (root / "blocker").write_text("a file where a directory should be")
    ran = hookrun("run", "PreToolUse", cwd=root, stdin=json.dumps(BASH).encode(), env={})
    _no_traceback(ran)
    assert ran.code == 2, ran
    assert ran.json["decision"] == "deny"
    assert "audit" in ran.err, "the lost audit line is said on stderr"


@pytest.mark.parametrize("home", [None, "/nonexistent/home", ""])
def test_a_missing_home_still_runs_and_checks(tmp_path: Path, home: str | None) -> None:
    root = _project(
        tmp_path,
        [{"command": 'echo \'{"context": "ok"}\''}, {"builtin": "shell-guard"}],
    )
    env = hookrun_env(tmp_path)
    for key in ("HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "USERPROFILE"):
        env.pop(key, None)
    if home is not None:
        env["HOME"] = home
    ran = hookrun("run", "PreToolUse", cwd=root, stdin=json.dumps(BASH).encode(), full_env=env)
    _no_traceback(ran)
    assert ran.code == 0, ran
    assert ran.json["context"] == ["ok"]
    checked = hookrun("check", cwd=root, full_env=env)
    _no_traceback(checked)
    assert checked.code == 0, checked


def test_a_tilde_hook_without_home_is_that_hooks_error(tmp_path: Path) -> None:
    root = _project(tmp_path, [{"name": "tilde", "command": "~/hooks/x.sh"}, {"command": "true"}])
    env = hookrun_env(tmp_path)
    env.pop("HOME", None)
    ran = hookrun("run", "PreToolUse", cwd=root, stdin=json.dumps(BASH).encode(), full_env=env)
    _no_traceback(ran)
    assert ran.code == 0, ran
    hook = ran.json["hooks"][0]
    assert hook["error"], hook


def test_a_state_path_that_is_a_file_is_named_as_not_a_directory(tmp_path: Path) -> None:
    root = _project(tmp_path, [{"builtin": "ask-user-limit", "on_error": "deny"}])
    (root / ".hookrun" / "state").write_text("not a directory")
    ran = hookrun("run", "PreToolUse", cwd=root, stdin=json.dumps(ASK).encode(), env={})
    error = ran.json["hooks"][0]["error"]
    assert "not a directory" in error, error
    assert "File exists" not in error, error


def test_an_audit_log_under_a_file_is_named_as_not_a_directory(tmp_path: Path) -> None:
    root = _project(tmp_path, [{"command": "true"}], audit_log="blocker/audit.jsonl")
    (root / "blocker").write_text("a file")
    ran = hookrun("run", "PreToolUse", cwd=root, stdin=json.dumps(BASH).encode(), env={})
    assert "not a directory" in ran.err, ran.err


def _run_with_stdout(tmp_path: Path, stdout: Any) -> subprocess.CompletedProcess[bytes]:
    root = _project(tmp_path, [{"command": 'echo \'{"context": "x"}\''}])
    return subprocess.run(
        [sys.executable, "-m", "hookrun", "run", "PreToolUse"],
        input=json.dumps(BASH).encode(),
        stdout=stdout,
        stderr=subprocess.PIPE,
        cwd=root,
        env=hookrun_env(tmp_path),
        timeout=60,
    )


def test_a_host_that_stopped_reading_stdout_gets_exit_1_and_no_traceback(tmp_path: Path) -> None:
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        proc = _run_with_stdout(tmp_path, write_end)
    finally:
        os.close(write_end)
    assert proc.returncode == 1, proc.stderr
    assert b"Traceback" not in proc.stderr, proc.stderr


@pytest.mark.parametrize("target", ["broken-pipe", "dev-full"])
def test_an_answer_that_cannot_be_written_is_one_clear_line(tmp_path: Path, target: str) -> None:
    if target == "dev-full":
        with open("/dev/full", "wb") as full:
            proc = _run_with_stdout(tmp_path, full)
    else:
        read_end, write_end = os.pipe()
        os.close(read_end)
        try:
            proc = _run_with_stdout(tmp_path, write_end)
        finally:
            os.close(write_end)
    err = proc.stderr.decode("utf-8", "replace")
    assert proc.returncode == 1, err
    assert err.startswith("hookrun: ") and "stdout" in err, err
    assert "internal error" not in err, err
