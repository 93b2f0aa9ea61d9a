"""signal-schema on an inbox or a signal file it cannot read: said, never a crash.

Real file-system states, no mocks: a signal "file" that is a directory (``read`` fails
with EISDIR), an inbox that is a symlink loop (``listdir`` fails with ELOOP), an edited
signal whose current text cannot be read. At session start an unreadable signal is a
warning naming it and the others are still checked; an inbox that cannot be listed, or
an edit whose file cannot be read, is a StateError naming the path — the runner makes
that the hook's error, and signal-schema's fail mode applies.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hookrun.hooks import ralph
from hookrun.hooks.state import StateError
from tests.hooks.ralph_test import SID, SIG, S, _edit, _run

START = {"hook_event_name": "SessionStart", "session_id": SID}


def test_an_unreadable_waiting_signal_is_a_warning_and_the_rest_are_checked(
    tmp_path: Path,
) -> None:
    inbox = tmp_path / S / "signals" / "inputs"
    inbox.mkdir(parents=True)
    (inbox / "signal.260215-180000.yaml").mkdir()  # a directory where a signal should be
    (inbox / "signal.260215-180001.yaml").write_text("type: STOP\nmessage: halt\ntarget: ALL\n")
    verdict = _run(ralph.SIGNAL_SCHEMA, tmp_path, START)
    assert verdict.decision is None
    assert len(verdict.context) == 2
    assert verdict.context[0].startswith(
        f"signal-schema: WARN: {S}/signals/inputs/signal.260215-180000.yaml: cannot be read ("
    )
    assert "Invalid signal type 'STOP'" in verdict.context[1]


def test_an_inbox_that_cannot_be_listed_is_a_state_error_naming_it(tmp_path: Path) -> None:
    signals = tmp_path / S / "signals"
    signals.mkdir(parents=True)
    (signals / "inputs").symlink_to(signals / "inputs")  # a loop: ELOOP
    with pytest.raises(StateError, match=f"signal-schema: cannot list {S}/signals/inputs/: "):
        _run(ralph.SIGNAL_SCHEMA, tmp_path, START)


def test_an_inbox_that_is_a_file_or_missing_has_nothing_waiting(tmp_path: Path) -> None:
    assert _run(ralph.SIGNAL_SCHEMA, tmp_path, START).context == ()
    (tmp_path / S / "signals").mkdir(parents=True)
    (tmp_path / S / "signals" / "inputs").write_text("not a folder")
    assert _run(ralph.SIGNAL_SCHEMA, tmp_path, START).context == ()


def test_an_edit_of_a_signal_that_cannot_be_read_is_a_state_error(tmp_path: Path) -> None:
    (tmp_path / SIG).mkdir(parents=True)  # the signal's path is a directory
    with pytest.raises(StateError, match=f"signal-schema: cannot read {SIG}: "):
        _run(ralph.SIGNAL_SCHEMA, tmp_path, _edit(SIG, "STEER", "PAUSE"))
