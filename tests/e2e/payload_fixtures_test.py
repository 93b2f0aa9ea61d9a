"""The payloads Gemini CLI and Copilot CLI really send, per event, kept as fixtures.

One run per host wires every event the host has to a recording hook (no hookrun) and
makes one shell call. The recorded payloads are committed under tests/hosts/fixtures/
(paths normalised to /tmp/e2e), where the host modules' unit tests read them; this test
pins that the pinned host versions still send the same fields, so a host upgrade that
changes its payload fails here first. ``HOOKRUN_E2E_WRITE_FIXTURES=1`` rewrites the
fixtures from the run instead.

Copilot's fixtures live in ``camel/`` and ``pascal/`` (its two wiring modes): the file
names differ only in case, which case-insensitive file systems cannot hold side by side.
"""

from __future__ import annotations

import json
import os
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.e2e import copilot_host, gemini_host
from tests.e2e.fakemodel import FakeModel, Text, ToolCall
from tests.e2e.scenarios import Host, make_world

pytestmark = [pytest.mark.nocov, pytest.mark.timeout(960)]

FIXTURES = Path(__file__).resolve().parents[1] / "hosts" / "fixtures"
NORMAL_ROOT = "/tmp/e2e"


def _recorder(log_dir: Path, event: str) -> str:
    code = (
        "import sys; d = sys.stdin.read(); "
        f"open({str(log_dir / (event + '.jsonl'))!r}, 'a', encoding='utf-8')"
        ".write(d.replace(chr(10), ' ') + chr(10))"
    )
    return f"{shlex.quote(sys.executable)} -c {shlex.quote(code)}"


def _capture(host: Host, events: list[str], root: Path) -> dict[str, dict[str, Any]]:
    """The first payload of every event that fired, paths under ``root`` normalised."""
    world = make_world(root)
    logs = root / "payloads"
    logs.mkdir()
    hooks = {event: [_recorder(logs, event)] for event in events}
    command = f"touch {shlex.quote(str(world.project / 'ran'))}"
    steps = {"": [ToolCall(host.shell_tool, host.tool_input(command)), Text("All done.")]}
    with FakeModel(host.dialect(), steps) as model:
        run = host.play(world, model, hooks, "fixture capture: run the command.")
    assert run.returncode == 0, run.describe()
    captured = {}
    for event in events:
        log = logs / f"{event}.jsonl"
        if log.exists():
            text = log.read_text(encoding="utf-8").splitlines()[0]
            captured[event] = json.loads(text.replace(str(root), NORMAL_ROOT))
    return captured


def _shape(value: Any) -> Any:
    """The field names (recursively) and JSON types of a payload: what must not drift."""
    if isinstance(value, dict):
        return {k: _shape(v) for k, v in sorted(value.items())}
    if isinstance(value, list):
        return [_shape(value[0])] if value else []
    return type(value).__name__


def _check_or_write(captured: dict[str, dict[str, Any]], directory: Path) -> None:
    if os.environ.get("HOOKRUN_E2E_WRITE_FIXTURES") == "1":
        directory.mkdir(parents=True, exist_ok=True)
        for event, payload in captured.items():
            text = json.dumps(payload, indent=2, ensure_ascii=False) + "\n"
            (directory / f"{event}.json").write_text(text, encoding="utf-8")
    committed = {
        p.stem: json.loads(p.read_text(encoding="utf-8")) for p in directory.glob("*.json")
    }
    assert sorted(captured) == sorted(committed), "the set of events that fired changed"
    for event, payload in captured.items():
        assert _shape(payload) == _shape(committed[event]), f"{event}: payload fields changed"


def test_gemini_payloads_match_the_committed_fixtures(
    host_programs: dict[str, Path], tmp_path: Path
) -> None:
    host = gemini_host.host(host_programs["gemini"])
    captured = _capture(host, list(gemini_host.EVENTS), tmp_path / "w")
    # BeforeModel/AfterModel/BeforeToolSelection carry the whole model request: the shape
    # is what matters, the text is the host's system prompt, not worth a fixture's bytes.
    for event in ("BeforeModel", "AfterModel", "BeforeToolSelection"):
        if event in captured:
            for message in captured[event].get("llm_request", {}).get("messages", []):
                message["content"] = message.get("content", "")[:200]
    _check_or_write(captured, FIXTURES / "gemini")
    assert captured["BeforeTool"]["tool_name"] == gemini_host.SHELL_TOOL


def test_copilot_payloads_match_the_committed_fixtures(
    host_programs: dict[str, Path], tmp_path_factory: pytest.TempPathFactory, tmp_path: Path
) -> None:
    cache = copilot_host.shared_cache(tmp_path_factory)
    host = copilot_host.host(host_programs["copilot"], "camel", cache)
    events = list(copilot_host.CAMEL_EVENTS) + list(copilot_host.PASCAL_EVENTS)
    captured = _capture(host, events, tmp_path / "w")
    camel = {e: p for e, p in captured.items() if e in copilot_host.CAMEL_EVENTS}
    pascal = {e: p for e, p in captured.items() if e in copilot_host.PASCAL_EVENTS}
    _check_or_write(camel, FIXTURES / "copilot" / "camel")
    _check_or_write(pascal, FIXTURES / "copilot" / "pascal")
    assert camel["preToolUse"]["toolName"] == copilot_host.SHELL_TOOL
    assert pascal["PreToolUse"]["tool_name"] == "Bash"
