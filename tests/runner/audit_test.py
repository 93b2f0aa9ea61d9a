from __future__ import annotations

import json
import os
import subprocess
import sys
import types
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from hookrun.runner import audit
from hookrun.runner.envelope import HookAnswer
from hookrun.runner.result import HookResult, RunResult

RESULT = RunResult(
    event="PreToolUse",
    decision="deny",
    reason="no rm",
    hooks=(
        HookResult(
            name="no-rm",
            source="h.json#PreToolUse[0]",
            route="inprocess",
            exit_code=2,
            duration_ms=4.1,
            answer=HookAnswer(decision="deny", reason="no rm"),
        ),
        HookResult(
            name="slow",
            source="h.json#PreToolUse[1]",
            route="binary",
            exit_code=124,
            duration_ms=1000.0,
            answer=HookAnswer(error="timed out after 1s"),
            timed_out=True,
        ),
    ),
)


def test_record_has_time_event_session_tool_decision_and_each_hook() -> None:
    when = datetime(2026, 11, 22, 3, 4, 5, 678000, tzinfo=timezone(timedelta(hours=2)))
    assert audit.record(RESULT, session_id="s1", tool_name="bash", when=when) == {
        "time": "2026-11-22T01:04:05.678Z",
        "event": "PreToolUse",
        "session": "s1",
        "tool": "bash",
        "decision": "deny",
        "halt": False,
        "reason": "no rm",
        "cancelled": False,
        "hooks": [
            {"name": "no-rm", "exit": 2, "duration_ms": 4.1, "error": None},
            {"name": "slow", "exit": 124, "duration_ms": 1000.0, "error": "timed out after 1s"},
        ],
    }


def test_a_line_is_one_line_whatever_the_reason_contains() -> None:
    entry = {"reason": "a\nb\u2028c", "x": "é"}
    line = audit.encode_line(entry)
    assert line.count(b"\n") == 1 and line.endswith(b"\n")
    assert json.loads(line) == entry


def test_write_appends_and_creates_the_directory(tmp_path: Path) -> None:
    path = tmp_path / "logs" / "audit.jsonl"
    assert audit.write(str(path), RESULT, session_id="s", tool_name="bash") is None
    assert audit.write(str(path), RESULT, session_id="s", tool_name="bash") is None
    lines = path.read_text().splitlines()
    assert [json.loads(line)["event"] for line in lines] == ["PreToolUse", "PreToolUse"]


def test_a_failure_to_write_is_reported_not_raised(tmp_path: Path) -> None:
    (tmp_path / "audit.jsonl").mkdir()  # a directory where the file should be
    problem = audit.write(str(tmp_path / "audit.jsonl"), RESULT, session_id="s", tool_name=None)
    assert problem is not None
    assert problem.startswith(f"audit log {tmp_path / 'audit.jsonl'}: could not append: ")
    assert problem.endswith("check audit_log in the config")


def test_an_audit_log_under_a_file_names_that_file(tmp_path: Path) -> None:
    (tmp_path / "blocker").write_text("a file")
    path = tmp_path / "blocker" / "logs" / "audit.jsonl"
    problem = audit.write(str(path), RESULT, session_id="s", tool_name=None)
    assert problem == (
        f"audit log {path}: could not append: {tmp_path / 'blocker'} is not a directory"
        " — check audit_log in the config"
    )


class FakeMsvcrt(types.ModuleType):
    LK_LOCK = 1
    LK_UNLCK = 0

    def __init__(self) -> None:
        super().__init__("msvcrt")
        self.calls: list[tuple[str, int, int]] = []

    def locking(self, fd: int, mode: int, nbytes: int) -> None:
        self.calls.append(
            ("lock" if mode == self.LK_LOCK else "unlock", os.lseek(fd, 0, os.SEEK_CUR), nbytes)
        )


def test_windows_locks_byte_zero_around_the_single_write(tmp_path: Path) -> None:
    fake = FakeMsvcrt()
    path = tmp_path / "a.jsonl"
    path.write_bytes(b"old\n")
    audit.append_line(str(path), b"new\n", platform="win32", msvcrt=fake)
    assert fake.calls == [("lock", 0, 1), ("unlock", 0, 1)]
    assert path.read_bytes() == b"old\nnew\n"  # O_APPEND: written at the end despite the seek


WRITER = r"""
import sys
from hookrun.runner import audit
path, ident, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
pad = "x" * 6000  # lines far over PIPE_BUF so only the append/lock discipline keeps them whole
for i in range(count):
    audit.append_line(path, audit.encode_line({"writer": ident, "i": i, "pad": pad}))
"""


def test_concurrent_processes_never_tear_or_lose_a_line(tmp_path: Path) -> None:
    path = tmp_path / "audit.jsonl"
    writers, count = 24, 40
    procs = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(path), str(n), str(count)])
        for n in range(writers)
    ]
    assert all(p.wait(timeout=60) == 0 for p in procs)
    lines = path.read_bytes().split(b"\n")
    assert lines[-1] == b""
    entries: list[dict[str, Any]] = [json.loads(line) for line in lines[:-1]]
    seen = {(e["writer"], e["i"]) for e in entries}
    assert len(entries) == writers * count
    assert seen == {(str(w), i) for w in range(writers) for i in range(count)}


def test_a_record_starts_on_a_fresh_line_after_a_partial_one(tmp_path: Path) -> None:
    from hookrun.runner.audit import append_line

    log = tmp_path / "audit.jsonl"
    log.write_bytes(b'{"from": "a hook"}\n{"half": ')
    append_line(str(log), b'{"hookrun": 1}\n')
    append_line(str(log), b'{"hookrun": 2}\n')
    assert log.read_bytes().splitlines()[-2:] == [b'{"hookrun": 1}', b'{"hookrun": 2}']
