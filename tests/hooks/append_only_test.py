from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from hookrun.hooks import append_only, registry
from hookrun.hooks.base import PolicyContext, Verdict

DECISIONS = "# Decisions\n\n- 2026-01-02: use Postgres\n- 2026-01-05: no ORM\n"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / ".squad" / "orchestration-log").mkdir(parents=True)
    (tmp_path / ".squad" / "decisions.md").write_text(DECISIONS)
    (tmp_path / ".squad" / "orchestration-log" / "001.md").write_text("spawned Backend\n")
    (tmp_path / "src" / "log").mkdir(parents=True)
    (tmp_path / "src" / "log" / "logger.py").write_text("x = 1\n")
    return tmp_path


def _decide(project: Path, tool: str, args: dict[str, Any], **opts: Any) -> Verdict:
    payload = {"tool_name": tool, "tool_input": args, "cwd": str(project)}
    ctx = PolicyContext(str(project), str(project), str(project / ".hookrun" / "state"), {})
    return append_only.decide(payload, append_only.POLICY.bind(opts), ctx)


D = ".squad/decisions.md"
TAIL = "- 2026-01-05: no ORM\n"
NEW = "- 2026-02-01: adopt hookrun\n"


@pytest.mark.parametrize(
    ("tool", "args", "allowed"),
    [
        # Edit: old_string is the tail, new_string starts with it → append.
        ("Edit", {"file_path": D, "old_string": TAIL, "new_string": TAIL + NEW}, True),
        ("Edit", {"file_path": D, "old_string": TAIL.rstrip(), "new_string": TAIL + NEW}, True),
        ("edit", {"path": D, "old_str": TAIL, "new_str": TAIL + NEW}, True),
        (
            "replace_string_in_file",
            {"filePath": D, "oldString": TAIL, "newString": TAIL + NEW},
            True,
        ),
        # Edit in the middle, or rewriting the tail, or deleting → denied.
        ("Edit", {"file_path": D, "old_string": "use Postgres", "new_string": "use MySQL"}, False),
        (
            "Edit",
            {"file_path": D, "old_string": "use Postgres", "new_string": "use Postgres!"},
            False,
        ),
        (
            "Edit",
            {"file_path": D, "old_string": TAIL, "new_string": "- 2026-01-05: ORM ok\n"},
            False,
        ),
        ("Edit", {"file_path": D, "old_string": TAIL, "new_string": ""}, False),
        (
            "Edit",
            {
                "file_path": D,
                "old_string": "- 2026",
                "new_string": "- 2026" + NEW,
                "replace_all": True,
            },
            False,
        ),
        # old_string not in the file: the tool itself fails, nothing to judge.
        ("Edit", {"file_path": D, "old_string": "nope", "new_string": "x"}, True),
        # MultiEdit judged by its combined result.
        (
            "MultiEdit",
            {
                "file_path": D,
                "edits": [
                    {"old_string": TAIL, "new_string": TAIL + NEW},
                    {"old_string": NEW, "new_string": NEW + "- more\n"},
                ],
            },
            True,
        ),
        (
            "MultiEdit",
            {
                "file_path": D,
                "edits": [
                    {"old_string": TAIL, "new_string": TAIL + NEW},
                    {"old_string": "Postgres", "new_string": "MySQL"},
                ],
            },
            False,
        ),
        ("MultiEdit", {"file_path": D, "edits": "garbage"}, False),
        # Write must keep the old content as a prefix (trailing whitespace aside).
        ("Write", {"file_path": D, "content": DECISIONS + NEW}, True),
        ("Write", {"file_path": D, "content": DECISIONS.rstrip()}, True),
        ("Write", {"file_path": D, "content": "# Decisions\n\n" + NEW}, False),
        ("create", {"path": D, "file_text": ""}, False),
        # Creating a new append-only file, anywhere.
        ("Write", {"file_path": "team/decisions.md", "content": "# D\n"}, True),
        ("Write", {"file_path": "history.md", "content": "x"}, True),
        # Not protected / not a write tool.
        ("Write", {"file_path": "README.md", "content": "new"}, True),
        ("Read", {"file_path": D}, True),
        ("Write", {"file_path": "/etc/decisions.md", "content": ""}, True),
        ("Write", {"content": "no path"}, True),
    ],
)
def test_append_only_files_only_grow_at_the_end(
    project: Path, tool: str, args: dict[str, Any], allowed: bool
) -> None:
    verdict = _decide(project, tool, args)
    assert (verdict.decision is None) is allowed, verdict.reason
    if not allowed:
        assert verdict.rule == "append-only.history"


def test_the_denial_names_the_file_the_rule_the_line_and_how_to_append(project: Path) -> None:
    verdict = _decide(
        project, "Edit", {"file_path": D, "old_string": "use Postgres", "new_string": "use MySQL"}
    )
    assert verdict.reason == (
        "append-only: .squad/decisions.md is append-only (matches **/decisions.md) and it "
        "changes or removes existing content (line 3). Add new entries at the end of the file "
        "instead: Edit with old_string = the file's last lines and new_string = those lines "
        "followed by the new entry."
    )


@pytest.mark.parametrize(
    ("tool", "path", "allowed"),
    [
        ("Write", ".squad/orchestration-log/002.md", True),  # create: fine
        ("Write", ".squad/orchestration-log/001.md", False),  # overwrite
        ("Edit", ".squad/orchestration-log/001.md", False),
        ("Write", "x/orchestration-log/deep/new.md", True),
        ("Edit", "src/log/logger.py", True),  # a source package named log is not a log
    ],
)
def test_log_directories_allow_create_not_edit(
    project: Path, tool: str, path: str, allowed: bool
) -> None:
    args = (
        {
            "file_path": path,
            "content": "spawned Backend\nmore\n",
            "old_string": "spawned",
            "new_string": "spawned",
        }
        if tool == "Edit"
        else {"file_path": path, "content": "x\n"}
    )
    verdict = _decide(project, tool, args)
    assert (verdict.decision is None) is allowed
    if not allowed:
        assert verdict.rule == "append-only.log"
        assert verdict.reason is not None and "create a new file instead" in verdict.reason


def test_paths_and_create_only_are_configurable(project: Path) -> None:
    args = {"file_path": "src/log/logger.py", "content": "y = 2\n"}
    assert _decide(project, "Write", args, create_only=["src/log/**"]).decision == "deny"
    assert _decide(project, "Write", args, paths=["src/**/*.py"]).decision == "deny"
    assert _decide(project, "Write", {"file_path": D, "content": ""}, paths=[]).decision is None


def test_an_existing_file_that_cannot_be_read_is_a_clear_error(project: Path) -> None:
    (project / "history.md").mkdir()  # a directory where the file should be
    from hookrun.hooks.state import StateError

    with pytest.raises(StateError, match="cannot read .*history.md"):
        _decide(project, "Write", {"file_path": "history.md", "content": "x"})


def test_the_policy_is_registered() -> None:
    assert registry.get("append-only") is append_only.POLICY
    assert append_only.POLICY.on_error == "allow"
