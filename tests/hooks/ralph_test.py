"""The five Ralph guards through their registered names (hookrun.hooks.ralph)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from hookrun.hooks import ralph, registry
from hookrun.hooks.base import Policy, PolicyContext, Verdict
from hookrun.hooks.state import StateError

SID = "260215-173319"
S = f".ralph-sessions/{SID}"


def _run(
    policy: Policy[Any],
    tmp_path: Path,
    payload: dict[str, Any],
    env: dict[str, str] | None = None,
    **opts: Any,
) -> Verdict:
    ctx = PolicyContext(str(tmp_path), str(tmp_path), str(tmp_path / ".hookrun/state"), env or {})
    return policy.decide({"cwd": str(tmp_path), **payload}, policy.bind(opts), ctx)


@pytest.mark.parametrize(
    ("name", "attr", "on_error", "events"),
    [
        ("session-dir-guard", "SESSION_DIR_GUARD", "allow", ("SessionStart",)),
        ("ssot-guard", "SSOT_GUARD", "deny", ("PreToolUse",)),
        ("signal-schema", "SIGNAL_SCHEMA", "allow", ("PreToolUse", "SessionStart")),
        ("single-mode-guard", "SINGLE_MODE_GUARD", "allow", ("PreToolUse",)),
        ("task-file-check", "TASK_FILE_CHECK", "allow", ("PreToolUse",)),
    ],
)
def test_each_guard_is_registered_with_the_seeds_fail_mode(
    name: str, attr: str, on_error: str, events: tuple[str, ...]
) -> None:
    policy = registry.get(name)
    assert policy is getattr(ralph, attr)
    assert (policy.name, policy.on_error, policy.events) == (name, on_error, events)


# --- session-dir-guard ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sid", "why"),
    [
        ("invalid-id", "does not match required format YYMMDD-HHmmss"),
        ("2602151-73319", "does not match"),
        ("260215-173319x", "does not match"),
        ("260215/173319", "contains a path separator"),
        ("..\\260215-173319", "contains a path separator"),
        ("4f1c6c1e-8a0e-4c55-9d4e-1d2b1f0e9a11", "does not match"),
    ],
)
def test_session_dir_guard_blocks_bad_session_ids(tmp_path: Path, sid: str, why: str) -> None:
    verdict = _run(ralph.SESSION_DIR_GUARD, tmp_path, {"session_id": sid})
    assert verdict.decision == "deny" and not verdict.halt
    assert verdict.reason is not None
    assert verdict.reason.startswith(f"session-dir-guard: Session ID '{sid}' {why}")
    assert not (tmp_path / ".ralph-sessions").exists()
    assert _run(ralph.SESSION_DIR_GUARD, tmp_path, {"session_id": sid}, halt=True).halt


def test_session_dir_guard_creates_the_scaffold_and_reports_it(tmp_path: Path) -> None:
    verdict = _run(ralph.SESSION_DIR_GUARD, tmp_path, {"session_id": SID})
    assert verdict.decision is None
    assert verdict.context == (
        f"session-dir-guard: Created directory: {S}/",
        "session-dir-guard: Created scaffold: signals/inputs/, signals/processed/, logs/",
    )
    for sub in ("signals/inputs", "signals/processed", "logs"):
        assert (tmp_path / S / sub).is_dir()
    assert _run(ralph.SESSION_DIR_GUARD, tmp_path, {"session_id": SID}) == Verdict()


def test_session_dir_guard_warns_about_missing_scaffold_dirs(tmp_path: Path) -> None:
    (tmp_path / S / "logs").mkdir(parents=True)
    verdict = _run(ralph.SESSION_DIR_GUARD, tmp_path, {"session_id": SID})
    assert verdict.decision is None
    assert verdict.context == (
        f"session-dir-guard: WARN: {S}/ exists but lacks signals/inputs/, signals/processed/ — "
        "create them before writing signals or logs.",
    )


@pytest.mark.parametrize(
    ("payload", "env", "created"),
    [
        ({"ralph_session_id": SID, "session_id": "host-uuid"}, {}, True),
        ({"session_id": "host-uuid"}, {"RALPH_SESSION_ID": SID}, True),
        ({}, {}, False),
    ],
)
def test_session_dir_guard_prefers_ralphs_own_session_id(
    tmp_path: Path, payload: dict[str, Any], env: dict[str, str], created: bool
) -> None:
    verdict = _run(ralph.SESSION_DIR_GUARD, tmp_path, payload, env)
    assert verdict.decision is None
    assert (tmp_path / S).is_dir() is created


def test_session_dir_guard_options_change_folder_and_scaffold(tmp_path: Path) -> None:
    _run(
        ralph.SESSION_DIR_GUARD,
        tmp_path,
        {"session_id": "s-1"},
        sessions_dir="runs",
        session_id_pattern=r"^s-\d+$",
        scaffold=["inbox"],
    )
    assert (tmp_path / "runs" / "s-1" / "inbox").is_dir()


def test_session_dir_guard_cannot_create_is_a_state_error(tmp_path: Path) -> None:
    (tmp_path / ".ralph-sessions").write_text("a file, not a folder")
    with pytest.raises(StateError, match="cannot create .ralph-sessions/260215-173319/"):
        _run(ralph.SESSION_DIR_GUARD, tmp_path, {"session_id": SID})


# --- ssot-guard: progress.md ----------------------------------------------------------------

PROGRESS = f"{S}/progress.md"
OLD_PROGRESS = "# Progress\n\n- [x] plan-init\n- [/] task-1 started\n- [ ] task-2\n"


def _edit(path: str, old: str, new: str) -> dict[str, Any]:
    return {
        "tool_name": "Edit",
        "tool_input": {"file_path": path, "old_string": old, "new_string": new},
    }


def _write(path: str, content: str) -> dict[str, Any]:
    return {"tool_name": "Write", "tool_input": {"file_path": path, "content": content}}


@pytest.fixture
def session(tmp_path: Path) -> Path:
    (tmp_path / S).mkdir(parents=True)
    (tmp_path / PROGRESS).write_text(OLD_PROGRESS)
    return tmp_path


@pytest.mark.parametrize(
    ("payload", "blocked", "warned"),
    [
        (_edit(PROGRESS, "- [/] task-1", "- [P] task-1"), False, False),
        (_edit(PROGRESS, "- [ ] task-2", "- [/] task-2"), False, False),
        (_edit(PROGRESS, "- [/] task-1", "- [F] task-1"), False, False),
        (_edit(PROGRESS, "- [ ] task-2", "- [C] task-2"), False, False),
        (_edit(PROGRESS, "- [ ] task-2", "- [x] task-2"), False, True),  # skips [/] and [P]
        (_edit(PROGRESS, "- [/] task-1", "- [✓] task-1"), True, False),
        (_edit(PROGRESS, "- [/] task-1", "- [Z] task-1"), True, False),
        (_edit(PROGRESS, "- [/] task-1", "- [] task-1"), True, False),
        (_edit(PROGRESS, "- [/] task-1", "- [xx] task-1"), True, False),
        (_edit(PROGRESS, "- [x] plan-init", "- [done] plan-init"), True, False),
        (_write(PROGRESS, OLD_PROGRESS.replace("[ ] task-2", "[/] task-2")), False, False),
        (_write(PROGRESS, OLD_PROGRESS + "- [ ] task-2\n"), False, True),  # duplicate id
        (_write(PROGRESS, "- [?] task-9\n"), True, False),
        (_write(f"{S}/iterations/2/progress.md", "- [Q] task-1\n"), True, False),
        (_write(PROGRESS, "## Legend\n- [✓] means done\n"), False, False),  # not a task line
        (_write("docs/progress.md", "- [Z] task-1\n"), False, False),  # outside sessions
        ({"tool_name": "Read", "tool_input": {"file_path": PROGRESS}}, False, False),
    ],
)
def test_ssot_guard_checks_progress_statuses(
    session: Path, payload: dict[str, Any], blocked: bool, warned: bool
) -> None:
    verdict = _run(ralph.SSOT_GUARD, session, payload)
    assert (verdict.decision == "deny") is blocked, verdict.reason
    assert bool(verdict.context) is warned, verdict.context


def test_ssot_guard_reason_names_the_status_task_and_allowed_set(session: Path) -> None:
    verdict = _run(
        ralph.SSOT_GUARD, session, _edit(PROGRESS, "- [/] task-1", "- [✓] task-1 (completed)")
    )
    assert verdict.reason == (
        f"ssot-guard: {PROGRESS}: Invalid status '[✓]' for task-1 (line 1 of the new text). "
        "Allowed: [ ], [/], [P], [x], [F], [C]. Use [x] for completed tasks."
    )
    warn = _run(ralph.SSOT_GUARD, session, _edit(PROGRESS, "- [ ] task-2", "- [x] task-2"))
    assert warn.context[0].startswith(
        "ssot-guard: WARN: task-2: status [ ] → [x] skips the workflow"
    )


# --- ssot-guard: metadata.yaml ---------------------------------------------------------------

META = f"{S}/metadata.yaml"
GOOD_META = f"""version: 1
session_id: "{SID}"
created_at: 2026-02-15T17:33:19+07:00
updated_at: 2026-02-15T18:00:00+07:00
iteration: 1
orchestrator:
  state: PLANNING
tasks:
  total: 3
  completed: 0
  failed: 0
  pending: 3
"""


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (
            GOOD_META.replace("PLANNING", "DANCING"),
            "Unknown orchestrator.state 'DANCING'. Valid states: INITIALIZING",
        ),
        (
            GOOD_META.replace("iteration: 1", "iteration: 0"),
            "iteration must be a positive integer, found 0",
        ),
        (
            GOOD_META.replace("iteration: 1", "iteration: one"),
            "iteration must be a positive integer, found 'one'",
        ),
        (GOOD_META.replace("  pending: 3\n", ""), "lacks required field(s): tasks.pending"),
        (
            GOOD_META.replace("version: 1\n", "").replace("iteration: 1\n", ""),
            "lacks required field(s): version, iteration",
        ),
        # The subset refused nested flow ("[1, [2]]"); YAML reads it, so an unclosed list.
        (GOOD_META + "  bad: [1, 2\n", "is not valid YAML: line 14: did not find expected"),
        ("- a list\n", "must be a mapping"),
    ],
)
def test_ssot_guard_blocks_bad_metadata(tmp_path: Path, content: str, message: str) -> None:
    verdict = _run(ralph.SSOT_GUARD, tmp_path, _write(META, content))
    assert verdict.decision == "deny"
    assert verdict.reason is not None and message in verdict.reason, verdict.reason


def test_ssot_guard_passes_good_metadata_and_warns_on_bad_timestamps(tmp_path: Path) -> None:
    assert _run(ralph.SSOT_GUARD, tmp_path, _write(META, GOOD_META)) == Verdict()
    bad_time = GOOD_META.replace("2026-02-15T18:00:00+07:00", "yesterday")
    verdict = _run(ralph.SSOT_GUARD, tmp_path, _write(META, bad_time))
    assert verdict.decision is None
    assert verdict.context == (
        "ssot-guard: WARN: updated_at = 'yesterday' is not an ISO 8601 timestamp.",
    )


def test_ssot_guard_judges_an_edit_of_metadata_by_the_resulting_file(tmp_path: Path) -> None:
    (tmp_path / S).mkdir(parents=True)
    (tmp_path / META).write_text(GOOD_META)
    ok = _edit(META, "state: PLANNING", "state: BATCHING")
    bad = _edit(META, "state: PLANNING", "state: batching")
    assert _run(ralph.SSOT_GUARD, tmp_path, ok).decision is None
    assert _run(ralph.SSOT_GUARD, tmp_path, bad).decision == "deny"
    # An edit whose old_string is absent fails in the tool; nothing to judge.
    assert _run(ralph.SSOT_GUARD, tmp_path, _edit(META, "nope", "x")).decision is None


def test_ssot_guard_iteration_metadata_has_no_required_fields_by_default(tmp_path: Path) -> None:
    path = f"{S}/iterations/2/metadata.yaml"
    assert (
        _run(
            ralph.SSOT_GUARD, tmp_path, _write(path, "iteration: 2\nstarted_at: 2026-02-16\n")
        ).decision
        is None
    )
    assert _run(ralph.SSOT_GUARD, tmp_path, _write(path, "iteration: -1\n")).decision == "deny"
    custom = _run(
        ralph.SSOT_GUARD,
        tmp_path,
        _write(path, "iteration: 2\n"),
        iteration_required=["started_at"],
    )
    assert custom.decision == "deny"


# --- signal-schema ---------------------------------------------------------------------------

SIG = f"{S}/signals/inputs/signal.260215-180000.yaml"


@pytest.mark.parametrize(
    ("path", "content", "blocked", "warns"),
    [
        (SIG, "type: STEER\nmessage: focus on tests\ntarget: ALL\n", False, []),
        (SIG, "type: APPROVE\nmessage: ok\ntarget: task-3\niteration: 2\n", False, []),
        (SIG, "type: INVALID\nmessage: test\ntarget: ALL\n", True, []),
        (SIG, "type: steer\nmessage: test\ntarget: ALL\n", True, []),
        (SIG, "message: test\ntarget: ALL\n", True, []),
        (SIG, "type: STEER\nmessage: ''\ntarget: ALL\n", True, []),
        (SIG, "type: STEER\nmessage: '   '\ntarget: ALL\n", True, []),
        (SIG, "type: PAUSE\ntarget: ALL\n", True, []),
        (SIG, "type: [unclosed\n", True, []),
        (SIG, "just text\n", True, []),
        (SIG, "type: INFO\nmessage: hi\n", False, ["no target"]),
        (
            SIG,
            "type: INFO\nmessage: hi\ntarget: ALL\niteration: zero\n",
            False,
            ["iteration must be"],
        ),
        (
            f"{S}/signals/inputs/steer.yaml",
            "type: INFO\nmessage: hi\ntarget: ALL\n",
            False,
            ["file name"],
        ),
        (f"{S}/signals/processed/x.yaml", "type: NOPE\n", False, []),  # not an input
        ("signals/inputs/x.yaml", "type: NOPE\n", False, []),  # not in a session
    ],
)
def test_signal_schema_checks_new_signal_files(
    tmp_path: Path, path: str, content: str, blocked: bool, warns: list[str]
) -> None:
    verdict = _run(ralph.SIGNAL_SCHEMA, tmp_path, _write(path, content))
    assert (verdict.decision == "deny") is blocked, verdict.reason
    if not blocked:
        assert len(verdict.context) == len(warns)
        for line, expected in zip(verdict.context, warns, strict=True):
            assert expected in line


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (
            "type: INVALID\nmessage: test\ntarget: ALL\n",
            "Invalid signal type 'INVALID'. "
            "Must be one of: STEER, PAUSE, ABORT, INFO, APPROVE, SKIP.",
        ),
        ("type: STEER\nmessage: ''\ntarget: ALL\n", "Signal message must be non-empty."),
    ],
)
def test_signal_schema_reasons_are_the_seeds(tmp_path: Path, content: str, reason: str) -> None:
    verdict = _run(ralph.SIGNAL_SCHEMA, tmp_path, _write(SIG, content))
    assert verdict.reason == f"signal-schema: {SIG}: {reason}"


@pytest.mark.parametrize(
    "payload",
    [
        {"tool_name": "Read", "tool_input": {"file_path": SIG}},
        {
            "tool_name": "Edit",
            "tool_input": {"file_path": SIG, "old_string": "a", "new_string": "b"},
        },
        {"tool_name": "NotebookEdit", "tool_input": {"notebook_path": SIG}},
        {
            "tool_name": "Write",
            "tool_input": {"file_path": "/elsewhere/signal.yaml", "content": "x"},
        },
    ],
)
def test_signal_schema_has_no_opinion_on_what_it_cannot_judge(
    tmp_path: Path, payload: dict[str, Any]
) -> None:
    assert _run(ralph.SIGNAL_SCHEMA, tmp_path, payload) == Verdict()


def test_signal_schema_judges_an_edit_by_the_resulting_file(tmp_path: Path) -> None:
    (tmp_path / SIG).parent.mkdir(parents=True)
    (tmp_path / SIG).write_text("type: STEER\nmessage: a\ntarget: ALL\n")
    assert _run(ralph.SIGNAL_SCHEMA, tmp_path, _edit(SIG, "STEER", "PAUSE")).decision is None
    assert _run(ralph.SIGNAL_SCHEMA, tmp_path, _edit(SIG, "STEER", "STOP")).decision == "deny"


def test_signal_schema_warns_at_session_start_about_waiting_bad_signals(tmp_path: Path) -> None:
    inbox = tmp_path / S / "signals" / "inputs"
    inbox.mkdir(parents=True)
    (inbox / "signal.260215-180000.yaml").write_text("type: STEER\nmessage: ok\ntarget: ALL\n")
    (inbox / "signal.260215-180001.yaml").write_text("type: STOP\nmessage: halt\ntarget: ALL\n")
    (inbox / "notes.txt").write_text("not a signal")
    start = {"hook_event_name": "SessionStart", "session_id": SID}
    verdict = _run(ralph.SIGNAL_SCHEMA, tmp_path, start)
    assert verdict.decision is None
    assert verdict.context == (
        f"signal-schema: WARN: {S}/signals/inputs/signal.260215-180001.yaml: Invalid signal "
        "type 'STOP'. Must be one of: STEER, PAUSE, ABORT, INFO, APPROVE, SKIP. The "
        "orchestrator cannot act on it.",
    )
    assert _run(ralph.SIGNAL_SCHEMA, tmp_path, {**start, "session_id": "other"}) == Verdict()
    assert (
        _run(ralph.SIGNAL_SCHEMA, tmp_path, {**start, "session_id": "260101-000000"}) == Verdict()
    )


# --- single-mode-guard -----------------------------------------------------------------------


def _task(prompt: str, tool: str = "Task", **extra: Any) -> dict[str, Any]:
    return {"tool_name": tool, "tool_input": {"prompt": prompt, **extra}}


@pytest.mark.parametrize(
    ("payload", "blocked"),
    [
        (_task(f"SESSION_PATH: {S}/\nMODE: EXECUTE\nTASK_ID: task-1\nITERATION: 1"), False),
        (_task("MODE: brainstorm, CYCLE: 2"), False),
        (_task("MODE: INITIALIZE\nUSER_REQUEST: build X and Y, then Z"), False),
        (_task("Please look at the auth module."), False),  # not a Ralph call
        (_task("MODE: EXECUTE\nMODE: EXECUTE\nTASK_ID: task-1"), False),  # same mode twice
        (_task("MODE: EXECUTE, REVIEW\nTASK_ID: task-1"), True),
        (_task("MODE: EXECUTE\nMODE: REVIEW"), True),
        (_task("- **MODE**: EXECUTE | REVIEW"), True),
        (_task("MODE: EXECUTE\nTASK_ID: task-1, task-2"), True),
        (_task("MODE: EXECUTE\nTASK_IDS: [task-1, task-2]"), True),
        (_task("MODE: EXECUTE\nTASK_ID: task-1\nTASK_ID: task-2"), True),
        (_task("MODE: EXECUTE\nTASK_ID: task-1 and task-2"), True),
        (_task("MODE: EXECUTE", tool="runSubagent", description="MODE: REVIEW"), True),
        (_task("MODE: A\nMODE: B", tool="@agent Ralph-v2-Executor"), True),
        (_task("MODE: A\nMODE: B", tool="Bash"), False),
        (_task("Mode: dark\nmode: light\nTask_id: a, b"), False),  # prose, not parameters
    ],
)
def test_single_mode_guard_blocks_multi_mode_and_multi_task_calls(
    tmp_path: Path, payload: dict[str, Any], blocked: bool
) -> None:
    assert (_run(ralph.SINGLE_MODE_GUARD, tmp_path, payload).decision == "deny") is blocked


def test_single_mode_guard_reason_lists_what_it_found(tmp_path: Path) -> None:
    verdict = _run(
        ralph.SINGLE_MODE_GUARD, tmp_path, _task("MODE: EXECUTE\nTASK_ID: task-1, task-2")
    )
    assert verdict.reason == (
        "single-mode-guard: Multiple TASK_IDs detected: [task-1, task-2]. Each subagent call "
        "must handle exactly one task — make one call per task."
    )


# --- task-file-check -------------------------------------------------------------------------


@pytest.fixture
def tasks(tmp_path: Path) -> Path:
    (tmp_path / S / "iterations" / "1" / "tasks").mkdir(parents=True)
    (tmp_path / S / "tasks").mkdir(parents=True)
    (tmp_path / S / "iterations" / "1" / "tasks" / "task-1.md").write_text("# Task 1\n")
    (tmp_path / S / "tasks" / "task-2.md").write_text("# Task 2 (old layout)\n")
    (tmp_path / S / "iterations" / "1" / "tasks" / "task-3.md").write_text("")
    return tmp_path


def _exec(
    task: str, iteration: str | None = "1", session: str | None = f"{S}/", **extra: Any
) -> dict[str, Any]:
    lines = ["MODE: EXECUTE", f"TASK_ID: {task}"]
    if session:
        lines.insert(0, f"SESSION_PATH: {session}")
    if iteration:
        lines.append(f"ITERATION: {iteration}")
    return _task("\n".join(lines), subagent_type="Ralph-v2-Executor", **extra)


@pytest.mark.parametrize(
    ("payload", "env", "blocked", "warned"),
    [
        (_exec("task-1"), {}, False, False),
        (_exec("task-2"), {}, False, False),  # fallback <session>/tasks/
        (_exec("task-1", iteration=None), {}, False, False),  # any iteration
        (_exec("task-3"), {}, False, True),  # empty file
        (_exec("task-99"), {}, True, False),
        (_exec("task-1", iteration="2"), {}, True, False),
        (_exec("../../etc/passwd"), {}, True, False),
        (_exec("task-1", session=None, ralph_session_id=SID), {}, False, False),
        (_exec("task-99", session=None), {"RALPH_SESSION_ID": SID}, True, False),
        (_exec("task-99", session=None), {}, False, False),  # no session known
        (_exec("task-99", session="/elsewhere/session/"), {}, True, False),
        (
            _task("MODE: TASK_BREAKDOWN\nTASK_ID: task-99", subagent_type="Ralph-v2-Planner"),
            {},
            False,
            False,
        ),
        (_task(f"SESSION_PATH: {S}/\nTASK_ID: task-99"), {}, True, False),  # no target named
        (_task("MODE: EXECUTE"), {}, False, False),
    ],
)
def test_task_file_check_requires_the_task_file(
    tasks: Path, payload: dict[str, Any], env: dict[str, str], blocked: bool, warned: bool
) -> None:
    if "ralph_session_id" in payload["tool_input"]:
        payload["ralph_session_id"] = payload["tool_input"].pop("ralph_session_id")
    verdict = _run(ralph.TASK_FILE_CHECK, tasks, payload, env)
    assert (verdict.decision == "deny") is blocked, verdict.reason
    assert bool(verdict.context) is warned


def test_task_file_check_reason_names_the_expected_path(tasks: Path) -> None:
    verdict = _run(ralph.TASK_FILE_CHECK, tasks, _exec("task-99"))
    assert verdict.reason == (
        "task-file-check: Task file not found: iterations/1/tasks/task-99.md (also looked for "
        f"tasks/task-99.md in {S}/). Create the task file first (Planner, TASK_BREAKDOWN) or "
        "fix the TASK_ID."
    )
