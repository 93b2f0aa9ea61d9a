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
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.claude_driver import ClaudeCode
from tests.e2e.codex_driver import Codex
from tests.e2e.conftest import Recorder, World, make_recorder, make_world
from tests.e2e.driver import Driver
from tests.e2e.fakemodel import Dialect, FakeModel, Script, Text

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


def capture(
    driver: Driver,
    exe: Path,
    world: World,
    recorder: Recorder,
    start: Callable[[Dialect, Script], FakeModel],
    events: tuple[str, ...],
    script: Script,
    argv_extra: tuple[str, ...] = (),
) -> list[dict[str, Any]]:
    driver.wire(world, {event: [recorder.command] for event in events})
    model = start(driver.dialect, script)
    run = driver.run(exe, world, model.url, f"{MARK} go", 120, argv_extra)
    assert run.code == 0, run.describe()
    return recorder.payloads()


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


def collect(payloads: Iterator[tuple[list[dict[str, Any]], str, str]]) -> dict[str, dict[str, Any]]:
    """First payload per fixture name, with temporary paths normalised."""
    captured: dict[str, dict[str, Any]] = {}
    for batch, variant, root in payloads:
        for payload in batch:
            captured.setdefault(fixture_name(payload, variant), normalised(payload, root))
    return captured


@pytest.fixture
def worlds(tmp_path: Path) -> Callable[[str], tuple[World, Recorder]]:
    """Fresh worlds (each with its own recorder) for one test's several sessions."""

    def new(name: str) -> tuple[World, Recorder]:
        w = make_world(tmp_path / name)
        return w, make_recorder(w)

    return new


def test_claude_code_sends_the_payloads_pinned_in_the_fixtures(
    host_programs: dict[str, Path],
    worlds: Callable[[str], tuple[World, Recorder]],
    fake_model: Callable[[Dialect, Script], FakeModel],
) -> None:
    claude, exe = ClaudeCode(), host_programs["claude"]

    def sessions() -> Iterator[tuple[list[dict[str, Any]], str, str]]:
        w, rec = worlds("main")
        script: Script = {MARK: [claude.shell("echo hello"), Text("done")]}
        yield capture(claude, exe, w, rec, fake_model, CLAUDE_EVENTS, script), "", str(w.root)
        w, rec = worlds("failure")
        script = {MARK: [claude.shell("echo failing; exit 3"), Text("done")]}
        yield capture(claude, exe, w, rec, fake_model, CLAUDE_EVENTS, script), "", str(w.root)
        w, rec = worlds("subagent")
        script = {
            MARK: [claude.agent(f"{SUB} say hello"), Text("done")],
            SUB: [claude.shell("echo from the sub-agent"), Text("sub-agent done")],
        }
        yield capture(claude, exe, w, rec, fake_model, CLAUDE_EVENTS, script), "", str(w.root)
        w, rec = worlds("agent-main")
        claude.define_agent(w, "helper")
        script = {MARK: [claude.shell("echo hello"), Text("done")]}
        batch = capture(
            claude, exe, w, rec, fake_model, CLAUDE_EVENTS, script, ("--agent", "helper")
        )
        yield batch, "agent-main", str(w.root)

    captured = collect(sessions())
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
    host_programs: dict[str, Path],
    worlds: Callable[[str], tuple[World, Recorder]],
    fake_model: Callable[[Dialect, Script], FakeModel],
) -> None:
    codex, exe = Codex(), host_programs["codex"]

    def sessions() -> Iterator[tuple[list[dict[str, Any]], str, str]]:
        w, rec = worlds("main")
        script: Script = {MARK: [codex.shell("echo hello"), Text("done")]}
        yield capture(codex, exe, w, rec, fake_model, CODEX_EVENTS, script), "", str(w.root)
        w, rec = worlds("subagent")
        script = {
            MARK: [*codex.delegate(f"{SUB} say hello"), Text("done")],
            SUB: [codex.shell("echo from the sub-agent"), Text("sub-agent done")],
        }
        yield capture(codex, exe, w, rec, fake_model, CODEX_EVENTS, script), "", str(w.root)

    captured = collect(sessions())
    # A sub-agent's calls carry agent_id and agent_type, as in Claude Code.
    assert {"agent_id", "agent_type"} <= set(captured["PreToolUse.Bash.subagent.json"])
    assert not {"agent_id", "agent_type"} & set(captured["PreToolUse.Bash.json"])
    # Codex's shell tool (exec_command on the wire) reaches hooks as Claude's `Bash`,
    # its output as a plain string.
    assert captured["PreToolUse.Bash.json"]["tool_input"] == {"command": "echo hello"}
    assert isinstance(captured["PostToolUse.Bash.json"]["tool_response"], str)
    check_or_write("codex", captured)
