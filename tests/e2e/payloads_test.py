"""The payloads the real hosts send on a hook's stdin, captured and pinned as fixtures.

Each host runs a few sessions with a recording hook on every event it has; every payload
is filed as ``tests/hosts/fixtures/<host>/<Event>[.<Tool>][.<variant>].json`` (temporary
paths replaced by ``/tmp/e2e``). The host adapters are tested against these files
without the host programs; this test checks that the pinned host versions still send
exactly those fields, and pins the facts the adapters derive from them (which fields
tell a sub-agent call from the main thread).

To refresh the fixtures after a host upgrade: ``HOOKRUN_E2E_WRITE_FIXTURES=1
.venv/bin/python -m pytest tests/e2e/payloads_test.py``, then review the diff.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from tests.e2e.claude_driver import ClaudeCode
from tests.e2e.codex_driver import Codex
from tests.e2e.concurrent import workers
from tests.e2e.conftest import World, make_recorder, make_world
from tests.e2e.driver import Driver
from tests.e2e.fakemodel import FakeModel, Script, Text

pytestmark = [pytest.mark.nocov, pytest.mark.timeout(960)]

FIXTURES = Path(__file__).resolve().parents[1] / "hosts" / "fixtures"
WRITE = os.environ.get("HOOKRUN_E2E_WRITE_FIXTURES") == "1"
MARK, SUB = "E2E-CAPTURE-4H1", "E2E-CAPTURE-SUB-9D6"

CLAUDE_EVENTS = (
    "SessionStart",
    "UserPromptSubmit",
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "Stop",
    "SubagentStart",
    "SubagentStop",
    "SessionEnd",
    "Notification",
    "PreCompact",
)
CODEX_EVENTS = (
    "SessionStart",
    "UserPromptSubmit",
    "PreToolUse",
    "PermissionRequest",
    "PostToolUse",
    "Stop",
    "SubagentStart",
    "SubagentStop",
    "SessionEnd",
    "PreCompact",
)


def fixture_name(payload: dict[str, Any], variant: str) -> str:
    event = str(payload.get("hook_event_name"))
    tool = payload.get("tool_name")
    if "agent_id" in payload:
        variant = "subagent"
    parts = [event, *([tool] if isinstance(tool, str) else []), *([variant] if variant else [])]
    return ".".join(parts) + ".json"


def normalised(value: Any, root: str) -> Any:
    """``value`` with the temporary root (also in Claude's dash-encoded project dir
    names) replaced by ``/tmp/e2e``, so fixtures do not change from run to run."""
    if isinstance(value, str):
        encoded = re.sub(r"[^A-Za-z0-9]", "-", root)  # Claude's projects/<dir> naming
        return value.replace(root, "/tmp/e2e").replace(encoded, "-tmp-e2e")
    if isinstance(value, list):
        return [normalised(v, root) for v in value]
    if isinstance(value, dict):
        return {k: normalised(v, root) for k, v in value.items()}
    return value


def shape(value: Any) -> Any:
    """What a payload's fields are, not their values: keys and JSON types, recursively."""
    if isinstance(value, dict):
        return {k: shape(v) for k, v in sorted(value.items())}
    if isinstance(value, list):
        return [shape(value[0])] if value else []
    return type(value).__name__


class Session(NamedTuple):
    """One host run whose payloads are captured: ``variant`` names them when the
    payload itself does not tell (``claude --agent``'s main thread)."""

    name: str
    script: Script
    variant: str = ""
    args: tuple[str, ...] = ()
    setup: Callable[[World], None] | None = None


def capture_all(
    driver: Driver,
    exe: Path,
    events: tuple[str, ...],
    sessions: list[Session],
    root: Path,
) -> dict[str, dict[str, Any]]:
    """Run the sessions side by side, each in its own world with a recording hook on
    every event; the first payload per fixture name, in session order."""

    def one(session: Session) -> tuple[list[dict[str, Any]], str, str]:
        world = make_world(root / session.name)
        recorder = make_recorder(world)
        if session.setup is not None:
            session.setup(world)
        driver.wire(world, {event: [recorder.command] for event in events})
        with FakeModel(driver.dialect, session.script) as model:
            run = driver.run(exe, world, model.url, f"{MARK} go", 120, session.args)
        assert run.code == 0, run.describe()
        return recorder.payloads(), session.variant, str(world.root)

    with ThreadPoolExecutor(max_workers=workers()) as pool:
        return collect(pool.map(one, sessions))


def check_or_write(host: str, captured: dict[str, dict[str, Any]]) -> None:
    folder = FIXTURES / host
    if WRITE:
        folder.mkdir(parents=True, exist_ok=True)
        for name, payload in captured.items():
            path = folder / name
            old = json.loads(path.read_text(encoding="utf-8")) if path.exists() else None
            if old is None or shape(old) != shape(payload):  # no churn of ids and times
                text = json.dumps(payload, indent=2, ensure_ascii=False) + "\n"
                path.write_text(text, encoding="utf-8")
    pinned = {p.name for p in folder.glob("*.json")}
    assert set(captured) == pinned, (
        f"{host} now sends {sorted(set(captured) - pinned)} and no longer "
        f"{sorted(pinned - set(captured))}; refresh with HOOKRUN_E2E_WRITE_FIXTURES=1"
    )
    for name, payload in captured.items():
        fixture = json.loads((folder / name).read_text(encoding="utf-8"))
        assert shape(payload) == shape(fixture), f"{host} {name}: the payload's fields changed"


def collect(payloads: Iterable[tuple[list[dict[str, Any]], str, str]]) -> dict[str, dict[str, Any]]:
    """First payload per fixture name, with temporary paths normalised."""
    captured: dict[str, dict[str, Any]] = {}
    for batch, variant, root in payloads:
        for payload in batch:
            captured.setdefault(fixture_name(payload, variant), normalised(payload, root))
    return captured


def test_claude_code_sends_the_payloads_pinned_in_the_fixtures(
    host_programs: dict[str, Path], tmp_path: Path
) -> None:
    claude = ClaudeCode()
    sessions = [
        Session("main", {MARK: [claude.shell("echo hello"), Text("done")]}),
        Session("failure", {MARK: [claude.shell("echo failing; exit 3"), Text("done")]}),
        Session(
            "subagent",
            {
                MARK: [claude.agent(f"{SUB} say hello"), Text("done")],
                SUB: [claude.shell("echo from the sub-agent"), Text("sub-agent done")],
            },
        ),
        Session(
            "agent-main",
            {MARK: [claude.shell("echo hello"), Text("done")]},
            variant="agent-main",
            args=("--agent", "helper"),
            setup=lambda world: claude.define_agent(world, "helper"),
        ),
    ]
    captured = capture_all(claude, host_programs["claude"], CLAUDE_EVENTS, sessions, tmp_path)
    # What tells a sub-agent's call from the main thread: `agent_id`. The main thread of
    # `claude --agent helper` carries `agent_type` alone.
    assert "agent_id" in captured["PreToolUse.Bash.subagent.json"]
    assert captured["PreToolUse.Bash.subagent.json"]["agent_type"] == "general-purpose"
    main_as_agent = captured["PreToolUse.Bash.agent-main.json"]
    assert main_as_agent["agent_type"] == "helper" and "agent_id" not in main_as_agent
    assert not {"agent_id", "agent_type"} & set(captured["PreToolUse.Bash.json"])
    assert isinstance(captured["PostToolUse.Bash.json"]["tool_response"], dict)
    check_or_write("claude", captured)


def test_codex_sends_the_payloads_pinned_in_the_fixtures(
    host_programs: dict[str, Path], tmp_path: Path
) -> None:
    codex = Codex()
    sessions = [
        Session("main", {MARK: [codex.shell("echo hello"), Text("done")]}),
        Session(
            "subagent",
            {
                MARK: [*codex.delegate(f"{SUB} say hello"), Text("done")],
                SUB: [codex.shell("echo from the sub-agent"), Text("sub-agent done")],
            },
        ),
    ]
    captured = capture_all(codex, host_programs["codex"], CODEX_EVENTS, sessions, tmp_path)
    # A sub-agent's calls carry agent_id and agent_type, as in Claude Code.
    assert {"agent_id", "agent_type"} <= set(captured["PreToolUse.Bash.subagent.json"])
    assert not {"agent_id", "agent_type"} & set(captured["PreToolUse.Bash.json"])
    # Codex's shell tool (exec_command on the wire) reaches hooks as Claude's `Bash`,
    # its output as a plain string.
    assert captured["PreToolUse.Bash.json"]["tool_input"] == {"command": "echo hello"}
    assert isinstance(captured["PostToolUse.Bash.json"]["tool_response"], str)
    check_or_write("codex", captured)
