"""State and ledger files the policies cannot use: a clear StateError naming the file.

Real files, real failures: a state file nested past the JSON decoder's depth or holding
a number too long to read, a ledger path that is a directory, and a ledger on a full
disk (``/dev/full`` behind a link: every write fails with ENOSPC). A policy that fails
closed turns a StateError into a deny that says what to fix; a crash or a half-written
audit line would not.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from hookrun.hooks import state


@pytest.mark.parametrize(
    "content",
    [
        "[" * 200_000 + "]" * 200_000,  # nested past the decoder's depth
        '{"n": ' + "7" * 50_000 + "}",  # past Python's digit limit for an int
    ],
    ids=["deep", "long-number"],
)
def test_a_state_file_the_decoder_cannot_read_is_named_as_corrupt(
    tmp_path: Path, content: str
) -> None:
    path = tmp_path / "s.json"
    path.write_text(content)
    for call in (lambda: state.read(str(path)), lambda: state.update(str(path), lambda d: 0)):
        with pytest.raises(state.StateError) as info:
            call()
        message = str(info.value)
        assert f"state file {path} is corrupt (nested too deeply or a number too long" in message
        assert "delete it to start from empty state" in message
    assert path.read_text() == content  # (left as found, for whoever fixes it)


def test_a_ledger_path_that_is_a_directory_cannot_be_opened(tmp_path: Path) -> None:
    ledger = tmp_path / "audit.jsonl"
    ledger.mkdir()
    with pytest.raises(state.StateError) as info:
        state.append_line(str(ledger), {"tool": "Bash"})
    assert f"cannot open ledger {ledger}: Is a directory" in str(info.value)
    assert "make its directory writable" in str(info.value)


@pytest.mark.skipif(
    not sys.platform.startswith("linux") or not os.path.exists("/dev/full"),
    reason="/dev/full: a device every write to fails as on a full disk (Linux)",
)
def test_a_ledger_on_a_full_disk_is_an_error_not_half_a_line(tmp_path: Path) -> None:
    ledger = tmp_path / "audit.jsonl"
    ledger.symlink_to("/dev/full")
    with pytest.raises(state.StateError) as info:
        state.append_line(str(ledger), {"tool": "Bash", "command": "x" * 100})
    assert f"cannot append to ledger {ledger}: No space left on device" in str(info.value)


def test_a_ledger_line_is_whole_json_when_the_write_succeeds(tmp_path: Path) -> None:
    ledger = tmp_path / "audit.jsonl"
    state.append_line(str(ledger), {"tool": "Bash", "when": "now"})
    state.append_line(str(ledger), {"tool": "Edit"})
    lines = ledger.read_text(encoding="utf-8").splitlines()
    assert [json.loads(line) for line in lines] == [
        {"tool": "Bash", "when": "now"},
        {"tool": "Edit"},
    ]
