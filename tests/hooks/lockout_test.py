from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from hookrun import fields
from hookrun.hooks import lockout, registry
from hookrun.hooks.base import PolicyContext, Verdict
from hookrun.hooks.state import StateError
from tests.hooks.together import in_processes


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "src").mkdir()
    return tmp_path


def _ctx(project: Path, env: dict[str, str] | None = None) -> PolicyContext:
    return PolicyContext(
        cwd=str(project),
        project_dir=str(project),
        state_dir=str(project / ".hookrun" / "state"),
        env=env or {},
    )


def _sd(project: Path) -> str:
    return str(project / ".hookrun" / "state")


def _decide(project: Path, payload: dict[str, Any], **opts: Any) -> Verdict:
    return lockout.decide(payload, lockout.POLICY.bind(opts), _ctx(project))


def _edit(path: str, agent: str | None = "Backend", tool: str = "Edit") -> dict[str, Any]:
    p: dict[str, Any] = {"tool_name": tool, "tool_input": {"file_path": path}}
    if agent is not None:
        p["agent_name"] = agent
    return p


# --- the Python API ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("given", "stored"),
    [
        ("src/auth.ts", "src/auth.ts"),
        ("./src/auth.ts", "src/auth.ts"),
        ("src//x/../auth.ts", "src/auth.ts"),
        ("src\\auth.ts", "src/auth.ts"),
        ("src/auth/**", "src/auth/**"),
        ("  docs/a.md ", "docs/a.md"),
    ],
)
def test_add_stores_a_normalised_project_relative_artifact(
    project: Path, given: str, stored: str
) -> None:
    entry = lockout.add(_sd(project), given, "Backend")
    assert entry.artifact == stored
    assert lockout.entries(_sd(project)) == [entry]


def test_add_makes_an_absolute_path_relative_to_the_project(project: Path) -> None:
    entry = lockout.add(_sd(project), str(project / "src" / "auth.ts"), "Backend")
    assert entry.artifact == "src/auth.ts"


@pytest.mark.parametrize(
    ("artifact", "agent", "message"),
    [
        ("", "Backend", "artifact is empty"),
        ("../other/x.ts", "Backend", "leaves the project"),
        ("/etc/passwd", "Backend", "outside the project"),
        (".", "Backend", "names the project root"),
        ("src/a.ts", "  ", "agent name is empty"),
    ],
)
def test_add_refuses_unusable_input_with_a_clear_message(
    project: Path, artifact: str, agent: str, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        lockout.add(_sd(project), artifact, agent)
    assert lockout.entries(_sd(project)) == []


def test_add_records_when_and_why_and_is_idempotent(project: Path) -> None:
    first = lockout.add(_sd(project), "src/a.ts", "Backend", reason="tests missing")
    assert first.since.endswith("Z") and first.reason == "tests missing" and first.denials == 0
    again = lockout.add(_sd(project), "src/a.ts", "backend", reason="still no tests")
    assert (again.since, again.agent, again.reason) == (first.since, "Backend", "still no tests")
    assert len(lockout.entries(_sd(project))) == 1


@pytest.mark.parametrize(
    ("artifact", "agent", "removed", "left"),
    [
        (None, None, 3, []),
        ("src/a.ts", None, 2, [("src/b.ts", "Backend")]),
        (None, "backend", 2, [("src/a.ts", "Frontend")]),
        ("src/a.ts", "Frontend", 1, [("src/a.ts", "Backend"), ("src/b.ts", "Backend")]),
        (
            "src/zzz.ts",
            None,
            0,
            [("src/a.ts", "Backend"), ("src/a.ts", "Frontend"), ("src/b.ts", "Backend")],
        ),
    ],
)
def test_clear_removes_what_matches_and_counts_it(
    project: Path, artifact: str | None, agent: str | None, removed: int, left: list[Any]
) -> None:
    for art, who in [("src/a.ts", "Backend"), ("src/a.ts", "Frontend"), ("src/b.ts", "Backend")]:
        lockout.add(_sd(project), art, who)
    assert lockout.clear(_sd(project), artifact, agent) == removed
    assert [(e.artifact, e.agent) for e in lockout.entries(_sd(project))] == left


def test_clear_without_a_registry_removes_nothing_and_creates_nothing(project: Path) -> None:
    assert lockout.clear(_sd(project)) == 0
    assert not (project / ".hookrun").exists()


def test_the_registry_is_the_documented_json_file(project: Path) -> None:
    lockout.add(_sd(project), "src/a.ts", "Backend", reason="r")
    data = json.loads((project / ".hookrun" / "state" / "lockout.json").read_text())
    assert data["version"] == 1
    assert data["entries"] == [
        {
            "artifact": "src/a.ts",
            "agent": "Backend",
            "since": data["entries"][0]["since"],
            "reason": "r",
            "denials": 0,
        }
    ]


# --- the policy ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("payload", "denied"),
    [
        (_edit("src/auth.ts"), True),
        (_edit("src/auth.ts", agent="BACKEND"), True),
        (_edit("./src/../src/auth.ts"), True),
        (_edit("src/auth.ts", tool="Write"), True),
        (_edit("src/auth.ts", tool="write"), True),
        (_edit("src/auth.ts", tool="MultiEdit"), True),
        (_edit("src/auth/session.ts"), True),  # glob entry src/auth/**
        (_edit("src/auth/deep/er.ts"), True),
        ({"toolName": "edit", "arguments": {"path": "src/auth.ts"}, "agentName": "Backend"}, True),
        (_edit("src/auth.ts", agent="Frontend"), False),
        (_edit("src/other.ts"), False),
        (_edit("src/auth.ts", tool="Read"), False),
        (_edit("src/auth.ts", agent=None), False),  # cannot attribute the call
        ({"tool_name": "Edit", "tool_input": {}, "agent_name": "Backend"}, False),
        (
            {
                "tool_name": "Bash",
                "tool_input": {"command": "vim src/auth.ts"},
                "agent_name": "Backend",
            },
            False,
        ),
        ({}, False),
        (
            {"tool_name": "Edit", "tool_input": {"file_path": "src/x.ts"}, "agent_name": ["x"]},
            False,
        ),
    ],
)
def test_a_locked_out_agent_is_denied_writes_to_its_artifact_only(
    project: Path, payload: dict[str, Any], denied: bool
) -> None:
    lockout.add(_sd(project), "src/auth.ts", "Backend")
    lockout.add(_sd(project), "src/auth/**", "Backend")
    verdict = _decide(project, payload)
    assert (verdict.decision == "deny") is denied
    assert verdict.halt is False


def test_a_tool_it_cannot_read_is_unreadable_not_absent(project: Path) -> None:
    """The runner makes it the hook's error; reviewer-lockout fails closed, so it denies."""
    lockout.add(_sd(project), "src/auth.ts", "Backend")
    with pytest.raises(fields.Unreadable, match='"tool_name"'):
        _decide(project, {"tool_name": 3, "tool_input": "x", "agent_name": "Backend"})


def test_the_denial_reason_names_agent_artifact_and_the_way_forward(project: Path) -> None:
    lockout.add(_sd(project), "src/auth.ts", "Backend", reason="rejected by Keaton: no tests")
    verdict = _decide(project, _edit("src/auth.ts"))
    assert verdict.rule == "lockout.locked-out"
    assert verdict.reason is not None
    for part in (
        "reviewer-lockout: Backend is locked out from revising src/auth.ts",
        "rejected by Keaton: no tests",
        "A different agent must produce the revision",
    ):
        assert part in verdict.reason


def test_denials_are_counted_persistently_and_escalate_to_halt(project: Path) -> None:
    lockout.add(_sd(project), "src/auth.ts", "Backend")
    halts = [_decide(project, _edit("src/auth.ts")).halt for _ in range(5)]
    assert halts == [False, False, False, True, True]
    assert lockout.entries(_sd(project))[0].denials == 5
    last = _decide(project, _edit("src/auth.ts"))
    assert last.rule == "lockout.escalated" and last.decision == "deny"
    assert (
        last.reason is not None
        and "hookrun lockout clear src/auth.ts --agent Backend" in last.reason
    )


@pytest.mark.parametrize(
    ("escalate_after", "halts"), [(0, [True, True]), (1, [False, True]), (None, [False] * 6)]
)
def test_escalate_after_is_configurable(
    project: Path, escalate_after: int | None, halts: list[bool]
) -> None:
    lockout.add(_sd(project), "src/auth.ts", "Backend")
    got = [
        _decide(project, _edit("src/auth.ts"), escalate_after=escalate_after).halt for _ in halts
    ]
    assert got == halts


def test_clearing_the_lockout_lets_the_author_write_again(project: Path) -> None:
    lockout.add(_sd(project), "src/auth.ts", "Backend")
    assert _decide(project, _edit("src/auth.ts")).decision == "deny"
    lockout.clear(_sd(project), "src/auth.ts")
    assert _decide(project, _edit("src/auth.ts")).decision is None


def test_the_agent_can_come_from_the_environment(project: Path) -> None:
    lockout.add(_sd(project), "src/auth.ts", "Backend")
    opts = lockout.POLICY.bind({})
    env_ctx = _ctx(project, {"HOOKRUN_AGENT": "Backend"})
    assert lockout.decide(_edit("src/auth.ts", agent=None), opts, env_ctx).decision == "deny"
    custom = lockout.POLICY.bind({"agent_env": "SQUAD_AGENT"})
    squad_ctx = _ctx(project, {"SQUAD_AGENT": "Backend"})
    assert lockout.decide(_edit("src/auth.ts", agent=None), custom, squad_ctx).decision == "deny"


@pytest.mark.parametrize(
    ("command", "denied"),
    [
        ("sed -i 's/a/b/' src/auth.ts", True),
        ("echo x > src/auth.ts", True),
        ("cp /tmp/new.ts ./src/auth.ts", True),
        ("git diff -- src/auth/session.ts", True),  # conservative: any mention
        ("npm test", False),
        ("sed -i 's/a/b/' src/other.ts", False),
    ],
)
def test_check_shell_denies_commands_that_mention_a_locked_artifact(
    project: Path, command: str, denied: bool
) -> None:
    lockout.add(_sd(project), "src/auth.ts", "Backend")
    lockout.add(_sd(project), "src/auth/**", "Backend")
    payload = {"tool_name": "Bash", "tool_input": {"command": command}, "agent_name": "Backend"}
    assert (_decide(project, payload, check_shell=True).decision == "deny") is denied
    assert _decide(project, payload).decision is None  # off by default


def test_a_corrupt_registry_is_a_state_error_naming_the_file(project: Path) -> None:
    path = project / ".hookrun" / "state" / "lockout.json"
    path.parent.mkdir(parents=True)
    path.write_text('{"entries": [')
    with pytest.raises(StateError, match="lockout.json is corrupt"):
        _decide(project, _edit("src/auth.ts"))
    path.write_text('{"entries": 7}')
    with pytest.raises(StateError, match="'entries' is not a list"):
        lockout.entries(_sd(project))


def test_malformed_entries_are_skipped_not_fatal(project: Path) -> None:
    path = project / ".hookrun" / "state" / "lockout.json"
    path.parent.mkdir(parents=True)
    path.write_text(
        json.dumps(
            {
                "entries": [
                    7,
                    {"artifact": 1},
                    {"artifact": "src/auth.ts", "agent": "Backend", "denials": -3},
                ]
            }
        )
    )
    assert [(e.artifact, e.denials) for e in lockout.entries(_sd(project))] == [("src/auth.ts", 0)]
    assert _decide(project, _edit("src/auth.ts")).decision == "deny"


def test_the_policy_is_registered_fail_closed_for_pre_tool_use() -> None:
    policy = registry.get("reviewer-lockout")
    assert policy is lockout.POLICY
    assert policy.on_error == "deny" and policy.events == ("PreToolUse",)
    with pytest.raises(Exception, match="escalate_after"):
        policy.bind({"escalate_after": -1})
    with pytest.raises(Exception, match="extra"):
        policy.bind({"escalate_afterr": 2})


def _deny_worker(barrier: Any, project: str, i: int) -> None:
    ctx = PolicyContext(project, project, os.path.join(project, ".hookrun", "state"), {})
    opts = lockout.POLICY.bind({"escalate_after": None})
    who, path = ("Backend", "src/auth.ts") if i % 2 else ("Frontend", "src/other.ts")
    payload = {"tool_name": "Edit", "tool_input": {"file_path": path}, "agent_name": who}
    barrier.wait()
    for _ in range(10):
        assert lockout.decide(payload, opts, ctx).decision == "deny"
    if i == 7:
        lockout.add(ctx.state_dir, "src/late.ts", "Late")


def test_twenty_processes_denied_at_once_count_every_denial(project: Path) -> None:
    lockout.add(_sd(project), "src/auth.ts", "Backend")
    lockout.add(_sd(project), "src/other.ts", "Frontend")
    in_processes(_deny_worker, [(str(project), i) for i in range(20)])
    got = {e.artifact: e.denials for e in lockout.entries(_sd(project))}
    assert got == {"src/auth.ts": 100, "src/other.ts": 100, "src/late.ts": 0}


@pytest.mark.parametrize(
    ("cwd", "given", "stored"),
    [
        ("src", "auth.ts", "src/auth.ts"),
        ("src", "../docs/a.md", "docs/a.md"),
        ("src", "auth/**", "src/auth/**"),
        (".", "src/auth.ts", "src/auth.ts"),
    ],
)
def test_a_relative_artifact_is_relative_to_cwd_when_given(
    project: Path, cwd: str, given: str, stored: str
) -> None:
    entry = lockout.add(_sd(project), given, "Backend", cwd=str(project / cwd))
    assert entry.artifact == stored
    assert lockout.clear(_sd(project), given, cwd=str(project / cwd)) == 1


@pytest.mark.parametrize(
    ("artifact", "cwd", "message"),
    [
        ("x.ts", "/", "the current folder / is outside the project"),
        ("../../x.ts", "src", "leaves the project"),
        ("PROJECT", None, "names the project root"),
    ],
)
def test_cwd_and_absolute_paths_stay_inside_the_project(
    project: Path, artifact: str, cwd: str | None, message: str
) -> None:
    artifact = artifact.replace("PROJECT", str(project))
    where = None if cwd is None else (cwd if cwd.startswith("/") else str(project / cwd))
    with pytest.raises(ValueError, match=message):
        lockout.add(_sd(project), artifact, "Backend", cwd=where)


@pytest.mark.parametrize(
    ("path", "ignore_case", "denied"),
    [
        ("SRC/Auth.ts", True, True),
        ("src/AUTH/x.ts", True, True),
        ("SRC/Auth.ts", False, False),
        ("src/auth.ts", False, True),
    ],
)
def test_paths_compare_without_case_where_the_file_system_does(
    project: Path, path: str, ignore_case: bool, denied: bool
) -> None:
    lockout.add(_sd(project), "src/auth.ts", "Backend")
    lockout.add(_sd(project), "src/auth/**", "Backend")
    verdict = _decide(project, _edit(path), ignore_case=ignore_case)
    assert (verdict.decision == "deny") is denied


def test_locked_agents_lists_who_may_not_revise_an_artifact(project: Path) -> None:
    lockout.add(_sd(project), "src/auth.ts", "Backend")
    lockout.add(_sd(project), "src/**", "Intern")
    lockout.add(_sd(project), "docs/a.md", "Frontend")
    assert lockout.locked_agents(_sd(project), "src/auth.ts") == ["Backend", "Intern"]
    assert lockout.locked_agents(_sd(project), "docs/a.md") == ["Frontend"]
    assert lockout.locked_agents(_sd(project), "README.md") == []


def test_the_halt_reason_quotes_a_glob_artifact_for_the_shell(project: Path) -> None:
    lockout.add(_sd(project), "src/auth/**", "Back End")
    for _ in range(4):
        verdict = _decide(project, _edit("src/auth/x.ts", agent="Back End"))
    assert verdict.halt
    assert verdict.reason is not None
    assert "`hookrun lockout clear 'src/auth/**' --agent 'Back End'`" in verdict.reason
