"""Reading past events: hookrun's audit log (with payloads) and its bad lines."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hookrun.replay.sources import SourceError, detect, from_audit, read


def test_audit_lines_with_payloads_become_events_and_the_rest_is_named(tmp_path: Path) -> None:
    log = tmp_path / "audit.jsonl"
    payload = {"tool_name": "Bash", "tool_input": {"command": "ls"}}
    lines = [
        {
            "event": "PreToolUse",
            "decision": "deny",
            "halt": False,
            "reason": "r",
            "hooks": [],
            "payload": payload,
            "context": ["c"],
            "updated_input": None,
        },
        {"event": "PreToolUse", "decision": None, "halt": False, "hooks": []},  # no payload
        "not json",
        {"no": "event"},
    ]
    log.write_text(
        "\n".join(x if isinstance(x, str) else json.dumps(x) for x in lines) + "\n\n",
        encoding="utf-8",
    )
    events, skipped = from_audit(str(log))
    assert [(e.origin, e.event, e.payload) for e in events] == [
        ("audit.jsonl:1", "PreToolUse", payload)
    ]
    before = events[0].before
    assert (before.decision, before.halt, before.reason, before.context) == (
        "deny",
        False,
        "r",
        ("c",),
    )
    assert before.known_input and before.updated_input is None
    assert [(s.origin, s.why) for s in skipped] == [
        ("audit.jsonl:2", 'no payload (set "audit_payload": true in the config)'),
        ("audit.jsonl:3", "not an audit record"),
        ("audit.jsonl:4", "not an audit record"),
    ]


def test_an_unknown_file_or_a_folder_is_a_clear_error(tmp_path: Path) -> None:
    other = tmp_path / "x.jsonl"
    other.write_text('{"hello": 1}\n')
    with pytest.raises(SourceError, match="not a hookrun audit log or a Claude Code transcript"):
        detect(str(other))
    with pytest.raises(SourceError, match="a folder"):
        read(str(tmp_path))
    with pytest.raises(SourceError, match="cannot read"):
        read(str(tmp_path / "missing.jsonl"))
