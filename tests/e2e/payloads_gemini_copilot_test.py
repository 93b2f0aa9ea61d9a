"""The payloads Gemini CLI and Copilot CLI really send on a hook's stdin, kept as fixtures.

One session per host (Copilot: one per wiring mode, plus a sub-agent session) wires every
event the host has to a recording hook (no hookrun) and makes one shell call. The first
payload of each event is filed as ``tests/hosts/fixtures/<host>/<Event>[.<Tool>][.<variant>].json``
(temporary paths replaced by ``/tmp/e2e``, as tests/e2e/payloads_test.py does for Claude
Code and Codex). The host modules are tested against these files without the host
programs; this test checks that the pinned host versions still send exactly those
fields. Copilot's files live in ``copilot/camel/`` and ``copilot/pascal/``: its camelCase
payload names no event, and the two modes' file names differ only in case, which
case-insensitive file systems cannot hold side by side.

To refresh after a host upgrade: ``HOOKRUN_E2E_WRITE_FIXTURES=1 .venv/bin/python -m pytest
tests/e2e/payloads_gemini_copilot_test.py``, then review the diff.
"""

from __future__ import annotations

import json
import os
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import World, make_world
from tests.e2e.copilot_driver import CAMEL_EVENTS, PASCAL_EVENTS, CopilotCli
from tests.e2e.driver import Driver
from tests.e2e.fakemodel import FakeModel, Script, Text
from tests.e2e.gemini_driver import EVENTS as GEMINI_EVENTS
from tests.e2e.gemini_driver import SHELL_TOOL, GeminiCli
from tests.e2e.payloads_test import normalised, shape

pytestmark = [pytest.mark.nocov, pytest.mark.timeout(960)]

FIXTURES = Path(__file__).resolve().parents[1] / "hosts" / "fixtures"
WRITE = os.environ.get("HOOKRUN_E2E_WRITE_FIXTURES") == "1"
MARK, SUB = "E2E-CAPTURE-5J2", "E2E-CAPTURE-SUB-8W4"
# Events that carry the model's whole request: their text is the host's system prompt,
# not worth a fixture's bytes; the shape is kept.
_MODEL_EVENTS = ("BeforeModel", "AfterModel", "BeforeToolSelection")


def _recorder(logs: Path, event: str) -> str:
    """A hook that appends its stdin to ``logs/EVENT.jsonl``: the event is the one wired,
    since Copilot's camelCase payloads do not name it."""
    log = str(logs / f"{event}.jsonl")
    code = (
        "import sys; d = sys.stdin.read().strip(); "
        f"open({log!r}, 'a', encoding='utf-8').write(d.replace(chr(10), ' ') + chr(10))"
    )
    return f"{shlex.quote(sys.executable)} -c {shlex.quote(code)}"


def _capture(
    driver: Driver, exe: Path, world: World, events: tuple[str, ...], script: Script
) -> dict[str, list[dict[str, Any]]]:
    """Every payload per wired event, in order, with the world's paths normalised."""
    logs = world.root / "payloads"
    logs.mkdir()
    driver.wire(world, {event: [_recorder(logs, event)] for event in events})
    with FakeModel(driver.dialect, script) as model:
        run = driver.run(exe, world, model.url, f"{MARK} run the command.", 120)
    assert run.code == 0, run.describe()
    out: dict[str, list[dict[str, Any]]] = {}
    for event in events:
        log = logs / f"{event}.jsonl"
        if log.exists():
            lines = log.read_text(encoding="utf-8").splitlines()
            out[event] = [normalised(json.loads(line), str(world.root)) for line in lines if line]
    return out


def _file_name(event: str, payload: dict[str, Any], variant: str = "") -> str:
    tool = payload.get("tool_name") or payload.get("toolName")
    parts = [event, *([tool] if isinstance(tool, str) else []), *([variant] if variant else [])]
    return ".".join(parts) + ".json"


def _check(files: dict[str, dict[str, Any]], directory: Path) -> None:
    """Write the fixtures (``HOOKRUN_E2E_WRITE_FIXTURES=1``) or compare shapes with them."""
    if WRITE:
        directory.mkdir(parents=True, exist_ok=True)
        for name, payload in files.items():
            text = json.dumps(payload, indent=2, ensure_ascii=False) + "\n"
            (directory / name).write_text(text, encoding="utf-8")
    committed = {
        p.name: json.loads(p.read_text(encoding="utf-8")) for p in directory.glob("*.json")
    }
    assert sorted(files) == sorted(committed), "the set of payloads the host sent changed"
    for name, payload in files.items():
        assert shape(payload) == shape(committed[name]), f"{name}: the payload's fields changed"


def _first_per_file(captured: dict[str, list[dict[str, Any]]]) -> dict[str, dict[str, Any]]:
    files: dict[str, dict[str, Any]] = {}
    for event, payloads in captured.items():
        for payload in payloads:
            files.setdefault(_file_name(event, payload), payload)
    return files


def test_gemini_cli_payloads_match_the_committed_fixtures(
    host_programs: dict[str, Path], tmp_path: Path
) -> None:
    driver = GeminiCli()
    world = make_world(tmp_path / "w")
    command = f"touch {shlex.quote(str(world.project / 'ran'))}"
    script: Script = {MARK: [driver.shell(command), Text("All done.")]}
    captured = _capture(driver, host_programs["gemini"], world, GEMINI_EVENTS, script)
    files = _first_per_file(captured)
    for name, payload in files.items():
        if name.split(".")[0] in _MODEL_EVENTS:
            for message in payload.get("llm_request", {}).get("messages", []):
                message["content"] = str(message.get("content", ""))[:160]
    # A sub-agent (invoke_agent → generalist) making the same shell call: in that session
    # the main thread only calls invoke_agent, so every shell call is the sub-agent's.
    sub = make_world(tmp_path / "sub")
    sub_script: Script = {
        MARK: [*driver.delegate(f"{SUB} run the command."), Text("All done.")],
        SUB: [driver.shell(f"touch {sub.project / 'ran'}"), Text("sub-agent done")],
    }
    sub_captured = _capture(
        driver, host_programs["gemini"], sub, ("BeforeTool", "AfterTool"), sub_script
    )
    for event, payloads in sub_captured.items():
        for payload in payloads:
            # Not ".subagent": that variant names calls a hook can tell apart (fixtures_test).
            variant = "from-sub-agent" if payload.get("tool_name") == SHELL_TOOL else ""
            files.setdefault(_file_name(event, payload, variant), payload)
    _check(files, FIXTURES / "gemini")
    before = files["BeforeTool.run_shell_command.json"]
    assert before["tool_input"] == {"command": command.replace(str(tmp_path / "w"), "/tmp/e2e")}
    # Gemini CLI 0.61 gives a hook no way to tell a sub-agent's call from the main thread's.
    in_sub = files["BeforeTool.run_shell_command.from-sub-agent.json"]
    assert sorted(in_sub) == sorted(before)


@pytest.mark.parametrize("mode", ["camel", "pascal"])
def test_copilot_cli_payloads_match_the_committed_fixtures(
    mode: str, host_programs: dict[str, Path], tmp_path: Path
) -> None:
    """The main thread's events, then a sub-agent (the ``task`` tool) making the same
    shell call: its payloads are filed with the ``subagent`` variant."""
    driver = CopilotCli(mode)
    events = CAMEL_EVENTS if mode == "camel" else PASCAL_EVENTS
    exe = host_programs["copilot"]
    main = make_world(tmp_path / "main")
    script: Script = {MARK: [driver.shell(f"touch {main.project / 'ran'}"), Text("All done.")]}
    files = _first_per_file(_capture(driver, exe, main, events, script))
    sub = make_world(tmp_path / "sub")
    sub_script: Script = {
        MARK: [driver.agent(f"{SUB} run the command."), Text("All done.")],
        SUB: [driver.shell(f"touch {sub.project / 'ran'}"), Text("sub-agent done")],
    }
    for event, payloads in _capture(driver, exe, sub, events, sub_script).items():
        for payload in payloads:
            tool = payload.get("tool_name") or payload.get("toolName")
            if "agentId" in payload or "agent_id" in payload:
                files.setdefault(_file_name(event, payload, "subagent"), payload)
            elif tool not in (None, "bash", "Bash"):  # the main thread's call of the agent tool
                files.setdefault(_file_name(event, payload), payload)
    _check(files, FIXTURES / "copilot" / mode)
