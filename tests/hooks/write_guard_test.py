from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pydantic
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hookrun import fields
from hookrun.hooks import registry
from hookrun.hooks.base import PolicyContext, Verdict
from hookrun.hooks.write_guard import (
    READ_GUARD,
    WRITE_GUARD,
    ReadGuardOptions,
    file_restrictions,
    judge,
)

WS = "/nonexistent-ws/repo"  # never on disk: realpath leaves it as it is


def ctx(env: Mapping[str, str] | None = None, root: str = WS) -> PolicyContext:
    return PolicyContext(
        cwd=root, project_dir=root, state_dir=root + "/.hookrun/state", env=env or {}
    )


def call(tool: str, path: str | None, **extra: Any) -> dict[str, Any]:
    args: dict[str, Any] = {} if path is None else {"file_path": path}
    return {"tool_name": tool, "tool_input": args, **extra}


def write(payload: Mapping[str, Any], opts: Mapping[str, Any] | None = None, **kw: Any) -> Verdict:
    return WRITE_GUARD.decide(payload, WRITE_GUARD.bind(opts or {}), ctx(**kw))


def read(payload: Mapping[str, Any], opts: Mapping[str, Any] | None = None, **kw: Any) -> Verdict:
    return READ_GUARD.decide(payload, READ_GUARD.bind(opts or {}), ctx(**kw))


# (label, payload, options, decision, rule)
WRITE_CASES: list[tuple[str, dict[str, Any], dict[str, Any], str | None, str | None]] = [
    ("no lists: anything in the workspace", call("Write", "src/x.py"), {}, None, None),
    ("absolute inside", call("Write", WS + "/src/x.py"), {}, None, None),
    ("absolute outside", call("Write", "/etc/passwd"), {}, "deny", "write.outside-workspace"),
    ("dotdot out", call("Edit", "../../etc/hosts"), {}, "deny", "write.outside-workspace"),
    (
        "outside even with allow **",
        call("Write", "/tmp/x"),
        {"allow": ["**"]},
        "deny",
        "write.outside-workspace",
    ),
    (
        "sibling dir sharing prefix",
        call("Write", WS + "2/x"),
        {},
        "deny",
        "write.outside-workspace",
    ),
    ("~ with HOME outside", call("Write", "~/.bashrc"), {}, "deny", "write.outside-workspace"),
    ("allow matches", call("Write", "src/a/b.py"), {"allow": ["src/**"]}, None, None),
    (
        "allow misses",
        call("Write", "docs/a.md"),
        {"allow": ["src/**"]},
        "deny",
        "write.not-allowed",
    ),
    (
        "*.md is root only",
        call("Write", "docs/a.md"),
        {"allow": ["*.md"]},
        "deny",
        "write.not-allowed",
    ),
    ("*.md root file", call("Write", "README.md"), {"allow": ["*.md"]}, None, None),
    ("**/*.md any depth", call("Write", "docs/a/b.md"), {"allow": ["**/*.md"]}, None, None),
    (
        "deny wins over allow",
        call("Write", "src/gen/x.py"),
        {"allow": ["src/**"], "deny": ["src/gen/**"]},
        "deny",
        "write.deny",
    ),
    ("deny alone", call("Write", ".git/config"), {"deny": [".git/**"]}, "deny", "write.deny"),
    ("deny dotted file via *", call("Write", ".env"), {"deny": ["*"]}, "deny", "write.deny"),
    (
        "dotdot that stays inside is judged by its target",
        call("Write", "src/../docs/a.md"),
        {"allow": ["docs/**"]},
        None,
        None,
    ),
    ("not a write tool", call("Bash", "/etc/passwd"), {}, None, None),
    ("read tool is not write-guard's", call("Read", "/etc/passwd"), {}, None, None),
    ("no path: fail open", call("Write", None), {"allow": ["src/**"]}, None, None),
    ("Crush write", call("write", "/etc/x"), {}, "deny", "write.outside-workspace"),
    (
        "Crush multiedit",
        call("multiedit", "lib/x"),
        {"allow": ["src/**"]},
        "deny",
        "write.not-allowed",
    ),
    (
        "Squad create with path",
        {"toolName": "create", "arguments": {"path": "lib/x"}},
        {"allow": ["src/**"]},
        "deny",
        "write.not-allowed",
    ),
    (
        "Squad write_file",
        {"toolName": "write_file", "arguments": {"path": "src/x"}},
        {"allow": ["src/**"]},
        None,
        None,
    ),
    (
        "NotebookEdit notebook_path",
        {"tool_name": "NotebookEdit", "tool_input": {"notebook_path": "nb/x.ipynb"}},
        {"allow": ["src/**"]},
        "deny",
        "write.not-allowed",
    ),
    ("tool names without case", call("WRITE", "/etc/x"), {}, "deny", "write.outside-workspace"),
    (
        "custom tools list",
        call("apply_patch", "/etc/x"),
        {"tools": ["apply_patch"]},
        "deny",
        "write.outside-workspace",
    ),
    (
        "custom tools list drops defaults",
        call("Write", "/etc/x"),
        {"tools": ["apply_patch"]},
        None,
        None,
    ),
    (
        "agent fence",
        call("Write", "src/x.py", agent_name="fenster"),
        {"agents": {"fenster": {"allow": ["tests/**"]}}},
        "deny",
        "write.not-allowed",
    ),
    (
        "agent fence passes",
        call("Write", "tests/x.py", agent_name="Fenster"),
        {"agents": {"fenster": {"allow": ["tests/**"]}}},
        None,
        None,
    ),
    (
        "other agent unaffected",
        call("Write", "src/x.py", agent_name="edie"),
        {"agents": {"fenster": {"allow": ["tests/**"]}}},
        None,
        None,
    ),
    (
        "fences intersect: agent cannot widen global",
        call("Write", "lib/x", agent_name="a"),
        {"allow": ["src/**"], "agents": {"a": {"allow": ["lib/**"]}}},
        "deny",
        "write.not-allowed",
    ),
    (
        "also_allow widens global for that agent",
        call("Write", "lib/x", agent_name="a"),
        {"allow": ["src/**"], "agents": {"a": {"also_allow": ["lib/**"]}}},
        None,
        None,
    ),
    (
        "also_allow is only for that agent",
        call("Write", "lib/x", agent_name="b"),
        {"allow": ["src/**"], "agents": {"a": {"also_allow": ["lib/**"]}}},
        "deny",
        "write.not-allowed",
    ),
    (
        "agent deny",
        call("Write", "src/x.py", agent_name="a"),
        {"agents": {"a": {"deny": ["src/**"]}}},
        "deny",
        "write.deny",
    ),
    (
        "role deny",
        call("Write", "src/x.py", agent_role="tester"),
        {"roles": {"tester": {"deny": ["src/**"]}}},
        "deny",
        "write.deny",
    ),
    (
        "coordinator default: .squad ok",
        call("Write", ".squad/team.md", agent_role="coordinator"),
        {},
        None,
        None,
    ),
    (
        "coordinator default: src denied",
        call("Write", "src/x.py", agent_role="Coordinator"),
        {},
        "deny",
        "write.not-allowed",
    ),
    (
        "Squad sessionRole spelling",
        call("Edit", "src/x.py", session_role="coordinator"),
        {},
        "deny",
        "write.not-allowed",
    ),
    (
        "role option when payload has none",
        call("Write", "src/x.py"),
        {"role": "coordinator"},
        "deny",
        "write.not-allowed",
    ),
    (
        "payload role wins over option",
        call("Write", "src/x.py", agent_role="agent"),
        {"role": "coordinator"},
        None,
        None,
    ),
    (
        "setting roles replaces the coordinator default",
        call("Write", "src/x", agent_role="coordinator"),
        {"roles": {}},
        None,
        None,
    ),
    (
        "own charter",
        call("Edit", ".squad/agents/fenster/charter.md", agent_name="Fenster"),
        {},
        "deny",
        "write.own-charter",
    ),
    (
        "another agent's charter is not self",
        call("Edit", ".squad/agents/edie/charter.md", agent_name="fenster"),
        {},
        None,
        None,
    ),
    (
        "own history is fine",
        call("Edit", ".squad/agents/fenster/history.md", agent_name="fenster"),
        {},
        None,
        None,
    ),
    (
        "charter without agent name",
        call("Edit", ".squad/agents/fenster/charter.md"),
        {},
        None,
        None,
    ),
    (
        "agent option fills {agent}",
        call("Edit", ".ai-team/agents/kobayashi/charter.md"),
        {"agent": "kobayashi"},
        "deny",
        "write.own-charter",
    ),
    (
        "{agent} placeholder in allow",
        call("Write", "work/edie/x.md", agent_name="edie"),
        {"allow": ["work/{agent}/**"]},
        None,
        None,
    ),
    (
        "{agent} placeholder misses other dir",
        call("Write", "work/bob/x.md", agent_name="edie"),
        {"allow": ["work/{agent}/**"]},
        "deny",
        "write.not-allowed",
    ),
    (
        "{agent} unknown: pattern left out",
        call("Write", "work/bob/x.md"),
        {"allow": ["work/{agent}/**"]},
        "deny",
        "write.not-allowed",
    ),
    (
        "{session_id} (seed 003 #7)",
        call("Write", ".ralph-sessions/260215-173319/progress.md", session_id="260215-173319"),
        {
            "allow": [
                ".ralph-sessions/{session_id}/**",
                ".ralph-sessions/{session_id}.instructions.md",
                "agents/ralph-v2/**",
            ]
        },
        None,
        None,
    ),
    (
        "{session_id} sibling file",
        call(
            "create_file",
            ".ralph-sessions/260215-173319.instructions.md",
            session_id="260215-173319",
        ),
        {
            "allow": [
                ".ralph-sessions/{session_id}/**",
                ".ralph-sessions/{session_id}.instructions.md",
            ]
        },
        None,
        None,
    ),
    (
        "{session_id} other session",
        call("create_file", ".ralph-sessions/999999-000000/x.md", session_id="260215-173319"),
        {"allow": [".ralph-sessions/{session_id}/**"]},
        "deny",
        "write.not-allowed",
    ),
    (
        "workspace option narrows the root",
        call("Write", WS + "/src/x"),
        {"workspace": "docs"},
        "deny",
        "write.outside-workspace",
    ),
    (
        "payload project_dir is the root",
        call("Write", "/other/x", project_dir="/other"),
        {},
        None,
        None,
    ),
    ("empty payload", {}, {}, None, None),
]


@pytest.mark.parametrize(
    ("payload", "opts", "decision", "rule"),
    [c[1:] for c in WRITE_CASES],
    ids=[c[0] for c in WRITE_CASES],
)
def test_write_guard_decides(
    payload: dict[str, Any], opts: dict[str, Any], decision: str | None, rule: str | None
) -> None:
    got = write(payload, opts)
    assert (got.decision, got.rule) == (decision, rule)
    assert got.decision is None or got.reason  # a denial always says why


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ({"tool_name": "Write", "tool_input": "not a dict"}, "tool_input"),
        ({"tool_name": "Write", "tool_input": {"file_path": 3}}, "tool_input.file_path"),
        ({"tool_name": "Edit", "tool_input": {"file_path": "a", "path": []}}, "tool_input.path"),
        ({"tool_name": ["Write"], "tool_input": {"file_path": "/etc/passwd"}}, "tool_name"),
    ],
    ids=["garbage tool_input", "path not a string", "second spelling", "name not a string"],
)
def test_what_write_guard_cannot_read_is_unreadable_not_absent(
    payload: dict[str, Any], field: str
) -> None:
    """Not "nothing to check": the runner makes it the hook's error and write-guard's fail
    mode (closed) denies (tests/cli/wrong_typed_fields_test.py, end to end)."""
    with pytest.raises(fields.Unreadable, match=f'"{field}"'):
        write(payload, {})


REASONS = [
    (
        call("Write", "src/x.py"),
        {"allow": ["docs/**", "*.md"]},
        "write-guard: src/x.py is not an allowed path; allowed: docs/**, *.md",
    ),
    (
        call("Write", "src/gen/x.py"),
        {"allow": ["src/**"], "deny": ["src/gen/**"]},
        'write-guard: src/gen/x.py matches deny rule "src/gen/**"; allowed: src/**',
    ),
    (
        call("Write", ".env"),
        {"deny": [".env*"]},
        'write-guard: .env matches deny rule ".env*"; allowed: anything else in the workspace',
    ),
    (
        call("Write", "/etc/passwd"),
        {},
        f"write-guard: /etc/passwd resolves outside the workspace {WS}; writes must stay inside it"
        " — use a path under the workspace root",
    ),
    (
        call("Write", "../x"),
        {},
        f"write-guard: ../x (/nonexistent-ws/x) resolves outside the workspace {WS}; writes must "
        "stay inside it — use a path under the workspace root",
    ),
    (
        call("Write", "src/x.py", agent_role="coordinator"),
        {},
        'write-guard: src/x.py is not a path role "coordinator" may write; allowed: .squad/**, '
        ".ai-team/** — the coordinator does not write domain artifacts: route the work to an agent "
        "via the task tool",
    ),
    (
        call("Write", "x", agent_name="bob"),
        {"agents": {"Bob": {"deny": ["x"], "hint": "ask Al"}}},
        'write-guard: x matches deny rule "x" for agent "Bob"; allowed: anything else in the '
        "workspace — ask Al",
    ),
    (
        call("Edit", ".squad/agents/bob/charter.md", agent_name="bob"),
        {},
        'write-guard: .squad/agents/bob/charter.md is the charter of agent "bob" itself (rule '
        '"**/agents/{agent}/charter.md") — agents cannot modify their own charter; ask the '
        "coordinator for the change",
    ),
]


@pytest.mark.parametrize(("payload", "opts", "reason"), REASONS)
def test_write_guard_reason_names_path_rule_and_what_is_allowed(
    payload: dict[str, Any], opts: dict[str, Any], reason: str
) -> None:
    assert write(payload, opts).reason == reason


# --- seed 001 compatibility: FILE_RESTRICTIONS, the container-side hook's payload shape.


def seed001(tool: str, path: str) -> dict[str, Any]:
    return {"tool": tool, "arguments": {"file_path": path, "content": "..."}, "sessionId": "s-1"}


SEED001_TABLE = [
    # the seed's pattern table, verbatim
    ("src/workers/**", "src/workers/pool.ts", True),
    ("src/workers/**", "src/workers/sub/deep.ts", True),
    ("src/workers/**", "src/core/utils.ts", False),
    ("src/**/*.ts", "src/workers/pool.ts", True),
    ("src/**/*.ts", "src/core/utils.ts", True),
    ("src/**/*.ts", "docs/README.md", False),
    ("*.md", "README.md", True),
    ("*.md", "src/README.md", False),
    ("docker/**", "docker/Dockerfile", True),
    ("docker/**", "docker/compose.yml", True),
    ("docker/**", "src/docker.ts", False),
]


@pytest.mark.parametrize(("pattern", "rel", "allowed"), SEED001_TABLE)
@pytest.mark.parametrize("absolute", [True, False])
def test_file_restrictions_follow_seed_001_pattern_table(
    pattern: str, rel: str, allowed: bool, absolute: bool
) -> None:
    path = "/workspace/" + rel if absolute else rel
    env = {"FILE_RESTRICTIONS": json.dumps([pattern])}
    got = WRITE_GUARD.decide(seed001("Write", path), WRITE_GUARD.bind({}), ctx(env, "/workspace"))
    assert got.decision == (None if allowed else "deny")
    if not allowed:
        assert got.rule == "write.not-allowed"
        assert got.reason == f"write-guard: {rel} is outside FILE_RESTRICTIONS; allowed: {pattern}"


@pytest.mark.parametrize(
    "value",
    [None, "", "   ", "[]", "not json", '{"src/**": 1}', '"src/**"', "[1, 2]", '[""]'],
)
def test_file_restrictions_fail_open_when_missing_empty_or_invalid(value: str | None) -> None:
    env = {} if value is None else {"FILE_RESTRICTIONS": value}
    got = WRITE_GUARD.decide(seed001("Write", "docs/x.md"), WRITE_GUARD.bind({}), ctx(env))
    assert got.decision is None
    assert file_restrictions(env) == ()


@pytest.mark.parametrize(
    ("path", "decision", "rule"),
    [
        ("src/../src/x.ts", "deny", "write.traversal"),  # seed 001: rejected even if inside
        ("src\\..\\src\\x.ts", "deny", "write.traversal"),
        ("src/v1..v2.ts", None, None),  # '..' inside a name is not traversal
        ("/workspace/../etc/passwd", "deny", "write.outside-workspace"),
    ],
)
def test_file_restrictions_reject_traversal(
    path: str, decision: str | None, rule: str | None
) -> None:
    env = {"FILE_RESTRICTIONS": '["src/**"]'}
    got = WRITE_GUARD.decide(seed001("Edit", path), WRITE_GUARD.bind({}), ctx(env, "/workspace"))
    assert (got.decision, got.rule) == (decision, rule)


def test_file_restrictions_ignore_non_write_tools_and_missing_path() -> None:
    env = {"FILE_RESTRICTIONS": '["src/**"]'}
    assert write(seed001("Read", "docs/x.md"), env=env).decision is None
    assert write({"tool": "Write", "arguments": {}}, env=env).decision is None


def test_file_restrictions_intersect_with_config_allow() -> None:
    env = {"FILE_RESTRICTIONS": '["src/**"]'}
    opts = {"allow": ["src/**", "docs/**"]}
    assert write(call("Write", "docs/a.md"), opts, env=env).decision == "deny"
    assert write(call("Write", "src/a.ts"), opts, env=env).decision is None


def test_file_restrictions_can_be_switched_off() -> None:
    env = {"FILE_RESTRICTIONS": '["src/**"]'}
    assert write(call("Write", "docs/a.md"), {"file_restrictions": False}, env=env).decision is None


def test_alias_file_restriction_is_write_guard() -> None:
    assert registry.get("file-restriction") is WRITE_GUARD is registry.get("write-guard")


# --- platforms: the same rules on Windows and macOS paths.

PLATFORM_CASES = [
    ("win32", "C:\\Repo", "C:\\Repo\\src\\x.py", {"allow": ["src/**"]}, None),
    ("win32", "C:\\Repo", "c:\\repo\\SRC\\x.py", {"allow": ["src/**"]}, None),
    ("win32", "C:\\Repo", "src\\x.py", {"deny": ["src/**"]}, "deny"),
    ("win32", "C:\\Repo", "SRC\\X.PY", {"deny": ["src/*.py"]}, "deny"),
    ("win32", "C:\\Repo", "src\\secret.env.", {"deny": ["**/*.env"]}, "deny"),
    ("win32", "C:\\Repo", "D:\\Repo\\x.py", {}, "deny"),
    ("win32", "C:\\Repo", "..\\x.py", {}, "deny"),
    ("win32", "C:\\Repo", "\\\\evil\\share\\x.py", {}, "deny"),
    ("darwin", "/Users/me/repo", "/users/ME/repo/src/x.py", {"allow": ["src/**"]}, None),
    ("darwin", "/Users/me/repo", "/Users/me/repo/.GIT/config", {"deny": [".git/**"]}, "deny"),
    ("linux", "/nonexistent/repo", "/nonexistent/repo/.GIT/config", {"deny": [".git/**"]}, None),
]


@pytest.mark.parametrize(("platform", "root", "path", "opts", "decision"), PLATFORM_CASES)
def test_write_guard_normalises_per_platform(
    platform: str, root: str, path: str, opts: dict[str, Any], decision: str | None
) -> None:
    got = judge(
        call("Write", path, cwd=root),
        WRITE_GUARD.bind(opts),
        ctx(root=root),
        kind="write",
        platform=platform,
    )
    assert got.decision == decision


def test_symlink_out_of_the_workspace_is_denied(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "innocent").symlink_to(tmp_path)
    got = WRITE_GUARD.decide(
        call("Write", "innocent/stolen.txt"), WRITE_GUARD.bind({}), ctx(root=str(ws))
    )
    assert got.rule == "write.outside-workspace"


def test_symlink_into_a_denied_dir_is_judged_by_its_target(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    (ws / ".git").mkdir(parents=True)
    (ws / "docs").symlink_to(ws / ".git")
    got = WRITE_GUARD.decide(
        call("Write", "docs/config"), WRITE_GUARD.bind({"deny": [".git/**"]}), ctx(root=str(ws))
    )
    assert got.rule == "write.deny"


@pytest.mark.parametrize("bad", [{"alow": ["x"]}, {"agents": {"a": {"allwo": []}}}, {"allow": 3}])
def test_unknown_or_mistyped_options_are_rejected(bad: dict[str, Any]) -> None:
    with pytest.raises(pydantic.ValidationError):
        WRITE_GUARD.bind(bad)


def test_guard_never_answers_allow() -> None:
    # In Claude Code an explicit allow skips the permission prompt; the guard only denies.
    assert write(call("Write", "src/x.py"), {"allow": ["src/**"]}) == Verdict()


# --- read-guard

READ_CASES: list[tuple[str, dict[str, Any], dict[str, Any], str | None, str | None]] = [
    ("default: inside is fine", call("Read", "src/x.py"), {}, None, None),
    (
        "default: outside denied",
        call("Read", "/home/u/.ssh/id_rsa"),
        {},
        "deny",
        "read.outside-workspace",
    ),
    (
        "outside_allow",
        call("Read", "/usr/lib/python3/x.py"),
        {"outside_allow": ["/usr/**"]},
        None,
        None,
    ),
    (
        "outside_allow other dir",
        call("Read", "/etc/shadow"),
        {"outside_allow": ["/usr/**"]},
        "deny",
        "read.outside-workspace",
    ),
    ("Crush view", call("view", "../../etc/passwd"), {}, "deny", "read.outside-workspace"),
    (
        "Grep with path",
        {"tool_name": "Grep", "tool_input": {"pattern": "x", "path": "/etc"}},
        {},
        "deny",
        "read.outside-workspace",
    ),
    ("Grep without path", {"tool_name": "Grep", "tool_input": {"pattern": "x"}}, {}, None, None),
    (
        "Squad read_file",
        {"toolName": "read_file", "arguments": {"path": "/etc/x"}},
        {},
        "deny",
        "read.outside-workspace",
    ),
    ("write tool is not read-guard's", call("Write", "/etc/x"), {}, None, None),
    (
        "P6: another agent's charter",
        call("view", ".squad/agents/edie/charter.md", agent_name="fenster"),
        {},
        "deny",
        "read.private",
    ),
    (
        "P6: another agent's history",
        call("view", ".ai-team/agents/edie/history.md", agent_name="fenster"),
        {},
        "deny",
        "read.private",
    ),
    (
        "P6: own charter",
        call("view", ".squad/agents/Fenster/charter.md", agent_name="fenster"),
        {},
        None,
        None,
    ),
    ("P6: decisions.md", call("view", ".squad/decisions.md", agent_name="fenster"), {}, None, None),
    (
        "P6: coordinator reads all",
        call("view", ".squad/agents/edie/charter.md", agent_name="squad", agent_role="coordinator"),
        {},
        None,
        None,
    ),
    (
        "P6: unknown agent: no opinion",
        call("view", ".squad/agents/edie/charter.md"),
        {},
        None,
        None,
    ),
    (
        "P6: switched off",
        call("view", ".squad/agents/edie/charter.md", agent_name="f"),
        {"private": []},
        None,
        None,
    ),
    (
        "allow list per agent",
        call("Read", "secrets/x", agent_name="a"),
        {"agents": {"a": {"allow": ["src/**"]}}},
        "deny",
        "read.not-allowed",
    ),
    ("deny list", call("Read", ".env"), {"deny": [".env", "**/.env"]}, "deny", "read.deny"),
]


@pytest.mark.parametrize(
    ("payload", "opts", "decision", "rule"),
    [c[1:] for c in READ_CASES],
    ids=[c[0] for c in READ_CASES],
)
def test_read_guard_decides(
    payload: dict[str, Any], opts: dict[str, Any], decision: str | None, rule: str | None
) -> None:
    got = read(payload, opts)
    assert (got.decision, got.rule) == (decision, rule)


GLOB_CASES = [
    ({"pattern": "/home/me/.ssh/*"}, "read.outside-workspace"),
    ({"pattern": "../../**/*.pem"}, "read.outside-workspace"),
    ({"pattern": "*.conf", "path": "/etc"}, "read.outside-workspace"),
    ({"pattern": "src/**/*.py"}, None),
    ({"pattern": "**/*.md"}, None),
    ({"pattern": "*.py", "path": "src"}, None),
]


@pytest.mark.parametrize(("tool_input", "rule"), GLOB_CASES)
def test_read_guard_judges_where_a_glob_searches(
    tool_input: dict[str, Any], rule: str | None
) -> None:
    assert read({"tool_name": "Glob", "tool_input": tool_input}).rule == rule


def test_read_guard_private_reason_says_what_to_do() -> None:
    got = read(call("view", ".squad/agents/edie/charter.md", agent_name="fenster"))
    assert got.reason == (
        "read-guard: .squad/agents/edie/charter.md is another agent's private file (rule "
        '".squad/agents/{owner}/**") — agent "fenster" reads its own files, decisions.md and the '
        "artifacts it was given; ask the coordinator for what you need"
    )


def test_read_guard_platform_switch() -> None:
    got = judge(
        call("Read", "C:\\Users\\me\\.ssh\\id_rsa"),
        ReadGuardOptions(),
        ctx(root="C:\\Repo"),
        kind="read",
        platform="win32",
    )
    assert got.rule == "read.outside-workspace"


# --- a policy never raises, whatever the host sends


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=8,
)
_paths = st.one_of(
    st.text(max_size=40),
    st.sampled_from(["src/x.py", "../x", "C:\\x", "\\\\s\\h", "~/x", "/", ".", "", "a\x00b"]),
)
_payloads = st.fixed_dictionaries(
    {"tool_name": st.sampled_from(["Write", "Edit", "Read", "view", "create", "Bash"])},
    optional={
        "tool_input": st.one_of(_json, st.fixed_dictionaries({"file_path": _paths})),
        "agent_name": st.one_of(st.none(), st.text(max_size=10)),
        "agent_role": st.one_of(st.none(), st.text(max_size=10)),
        "cwd": st.one_of(st.none(), _paths),
        "project_dir": st.one_of(st.none(), st.integers(), _paths),
    },
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(payload=_payloads, platform=st.sampled_from(["linux", "win32", "darwin"]))
def test_guards_raise_nothing_but_unreadable_for_any_payload(
    payload: dict[str, Any], platform: str
) -> None:
    opts = {"agents": {"a": {"allow": ["src/**"]}}, "deny": ["[z-a]", "{agent}/**"]}
    for kind, options in (
        ("write", WRITE_GUARD.bind(opts)),
        ("read", READ_GUARD.bind(opts)),
    ):
        try:
            got = judge(payload, options, ctx(), kind=kind, platform=platform)  # type: ignore[arg-type]
        except fields.Unreadable:  # a wrong-typed field it judges by: the hook's error
            continue
        assert got.decision in (None, "deny")
