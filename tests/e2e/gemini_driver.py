"""Gemini CLI, driven offline: ``gemini --yolo -p PROMPT`` against a fake Gemini API.

How it runs without Google: ``GOOGLE_GEMINI_BASE_URL`` points its SDK at the fake,
``GEMINI_API_KEY`` is any string, the user settings select ``gemini-api-key`` auth,
``GEMINI_CLI_TRUST_WORKSPACE=true`` trusts the project (so the hooks in its
``.gemini/settings.json`` load) and ``--yolo`` approves every tool call.
``GEMINI_CLI_NO_RELAUNCH=true`` skips the second Node process Gemini CLI starts for a
larger heap (about 3 s of every run); usage statistics and telemetry are off so that no
exit waits on an unreachable endpoint. Hook timeouts are in milliseconds there.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tests.e2e.driver import Run, run_process
from tests.e2e.fakemodel import Dialect, Step, ToolCall
from tests.e2e.gemini_api import GeminiGenerateContent

if TYPE_CHECKING:
    from tests.e2e.conftest import World

# Gemini CLI 0.61's hook events (HookEventName in its packages/core/src/hooks/types.ts).
EVENTS = (
    "BeforeTool",
    "AfterTool",
    "BeforeAgent",
    "AfterAgent",
    "SessionStart",
    "SessionEnd",
    "PreCompress",
    "Notification",
    "BeforeModel",
    "AfterModel",
    "BeforeToolSelection",
)
# hookrun's canonical events → Gemini's names (the ones with a counterpart).
CANONICAL = {
    "PreToolUse": "BeforeTool",
    "PostToolUse": "AfterTool",
    "UserPromptSubmit": "BeforeAgent",
    "Stop": "AfterAgent",
    "SessionStart": "SessionStart",
    "SessionEnd": "SessionEnd",
    "PreCompact": "PreCompress",
    "Notification": "Notification",
}
SHELL_TOOL = "run_shell_command"


class GeminiCli:
    name: str = "gemini"
    dialect: Dialect = GeminiGenerateContent()

    def shell(self, command: str) -> ToolCall:
        return ToolCall(SHELL_TOOL, {"command": command})

    def delegate(self, prompt: str) -> list[Step]:
        """``invoke_agent`` runs the built-in ``generalist`` sub-agent on ``prompt`` and
        returns when it is done. Its tool calls reach hooks exactly like the main thread's
        (same session_id, no agent field, same environment)."""
        return [ToolCall("invoke_agent", {"agent_name": "generalist", "prompt": prompt})]

    def event(self, canonical: str) -> str:
        return CANONICAL[canonical]

    def destroy(self, world: World) -> str:
        return world.rm_git()

    def wire(self, world: World, hooks: Mapping[str, Sequence[str]], timeout: int = 30) -> None:
        """The project's ``.gemini/settings.json``; keys are canonical or Gemini's own names."""
        entries: dict[str, Any] = {}
        for event, commands in hooks.items():
            hook = [{"type": "command", "command": c, "timeout": timeout * 1000} for c in commands]
            entries[CANONICAL.get(event, event)] = [{"matcher": "*", "hooks": hook}]
        world.write_json(world.project / ".gemini" / "settings.json", {"hooks": entries})

    def run(
        self,
        exe: Path,
        world: World,
        model_url: str,
        prompt: str,
        timeout: float,
        args: Sequence[str] = (),
    ) -> Run:
        world.write_json(
            world.home / ".gemini" / "settings.json",
            {
                "security": {"auth": {"selectedType": "gemini-api-key"}},
                "privacy": {"usageStatisticsEnabled": False},
                "telemetry": {"enabled": False},
                "general": {"disableAutoUpdate": True, "disableUpdateNag": True},
            },
        )
        env = world.host_env(
            GOOGLE_GEMINI_BASE_URL=model_url,
            GEMINI_API_KEY="e2e-fake-key",
            GEMINI_CLI_TRUST_WORKSPACE="true",
            GEMINI_CLI_NO_RELAUNCH="true",
        )
        argv = [str(exe), *args, "--yolo", "-p", prompt]
        return run_process(argv, world.project, env, timeout)
