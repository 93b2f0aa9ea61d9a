"""Codex CLI, driven offline: ``codex exec … --json PROMPT``.

Its model is a custom provider in ``$CODEX_HOME/config.toml`` whose ``base_url`` is the
fake Responses API server (``wire_api = "responses"``); hooks go in
``$CODEX_HOME/hooks.json`` in Codex's Claude-like nested shape, and only run once trusted
— ``--dangerously-bypass-hook-trust`` trusts them for the run. Codex's shell tool is
``exec_command`` (``{"cmd": …}``) on the wire; hooks see it as ``tool_name: "Bash"`` with
``tool_input.command``. Sub-agents: ``spawn_agent`` / ``wait_agent`` of the
``multi_agent_v1`` tool namespace; a sub-agent's calls carry ``agent_id`` and
``agent_type`` in their hook payloads.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from tests.e2e.driver import Run, command_groups, run_process
from tests.e2e.fakemodel import JSON, Dialect, Step, ToolCall
from tests.e2e.responses_api import OpenAIResponses

if TYPE_CHECKING:
    from tests.e2e.conftest import World

_TOOL_EVENTS = {"PreToolUse", "PostToolUse", "PermissionRequest"}


class Codex:
    name: str = "codex"
    dialect: Dialect = OpenAIResponses()

    def shell(self, command: str) -> ToolCall:
        return ToolCall("exec_command", {"cmd": command})

    def delegate(self, prompt: str) -> list[Step]:
        """``spawn_agent`` answers at once with the new agent's id; ``wait_agent`` on that
        id holds the main thread until the sub-agent is done (else ``codex exec`` may end
        first)."""

        def wait(results: list[str]) -> JSON:
            return {"targets": [json.loads(results[-1])["agent_id"]], "timeout_ms": 60000}

        return [
            ToolCall("multi_agent_v1.spawn_agent", {"message": prompt}),
            ToolCall("multi_agent_v1.wait_agent", wait),
        ]

    def event(self, canonical: str) -> str:
        return canonical

    def destroy(self, world: World) -> str:
        # Codex rejects `rm -rf` by itself ("rm -f style commands are not permitted"),
        # which would make a surviving victim prove nothing.
        return world.reset_hard()

    def home(self, world: World) -> Path:
        return world.home / ".codex"

    def wire(self, world: World, hooks: Mapping[str, Sequence[str]], timeout: int = 30) -> None:
        entries = command_groups(hooks, timeout, _TOOL_EVENTS)
        world.write_json(self.home(world) / "hooks.json", {"hooks": entries})

    def run(
        self,
        exe: Path,
        world: World,
        model_url: str,
        prompt: str,
        timeout: float,
        args: Sequence[str] = (),
    ) -> Run:
        home = self.home(world)
        home.mkdir(parents=True, exist_ok=True)
        (home / "config.toml").write_text(
            'model = "e2e-fake-model"\n'
            'model_provider = "e2e"\n'
            "\n[model_providers.e2e]\n"
            'name = "e2e fake model"\n'
            f"base_url = {json.dumps(model_url + '/v1')}\n"
            'wire_api = "responses"\n',
            encoding="utf-8",
        )
        env = world.host_env(CODEX_HOME=str(home))
        argv = [
            str(exe),
            "exec",
            "--dangerously-bypass-approvals-and-sandbox",
            "--dangerously-bypass-hook-trust",
            "--skip-git-repo-check",
            "--json",
            *args,
            prompt,
        ]
        return run_process(argv, world.project, env, timeout)
