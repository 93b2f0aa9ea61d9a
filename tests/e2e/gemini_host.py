"""Gemini CLI, driven offline: one ``gemini --yolo -p PROMPT`` against a fake Gemini API.

How it runs without Google: ``GOOGLE_GEMINI_BASE_URL`` points its SDK at the fake,
``GEMINI_API_KEY`` is any string, the user settings select ``gemini-api-key`` auth,
``GEMINI_CLI_TRUST_WORKSPACE=true`` trusts the project (so the hooks in its
``.gemini/settings.json`` load) and ``--yolo`` approves every tool call.
``GEMINI_CLI_NO_RELAUNCH=true`` skips the second Node process Gemini CLI starts for a
larger heap (about 3 s of every run); usage statistics and telemetry are off so that no
exit waits on an unreachable endpoint.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from tests.e2e.conftest import World
from tests.e2e.fakemodel import FakeModel
from tests.e2e.gemini_api import GeminiGenerateContent
from tests.e2e.hostrun import HostRun, run_host
from tests.e2e.scenarios import Host

# Gemini CLI's hook events (0.61: HookEventName in packages/core/src/hooks/types.ts).
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
SHELL_TOOL = "run_shell_command"
# hookrun's canonical events → Gemini's own names, for the events the scenarios wire.
WIRED_EVENTS = {
    "PreToolUse": "BeforeTool",
    "PostToolUse": "AfterTool",
    "UserPromptSubmit": "BeforeAgent",
}
# Gemini's own per-hook timeout, in milliseconds: long enough that hookrun's own
# timeout is the one a hung hook meets.
HOST_HOOK_TIMEOUT_MS = 30_000


def write_settings(world: World, hooks: Mapping[str, Sequence[str]]) -> None:
    """User settings (auth, no telemetry) in HOME; the hooks in the project's settings."""
    world.write_json(
        world.home / ".gemini" / "settings.json",
        {
            "security": {"auth": {"selectedType": "gemini-api-key"}},
            "privacy": {"usageStatisticsEnabled": False},
            "telemetry": {"enabled": False},
            "general": {"disableAutoUpdate": True, "disableUpdateNag": True},
        },
    )
    groups = {
        event: [
            {
                "matcher": "*",
                "hooks": [
                    {"type": "command", "command": cmd, "timeout": HOST_HOOK_TIMEOUT_MS}
                    for cmd in commands
                ],
            }
        ]
        for event, commands in hooks.items()
    }
    world.write_json(world.project / ".gemini" / "settings.json", {"hooks": groups})


def run(
    gemini: Path,
    world: World,
    model: FakeModel,
    hooks: Mapping[str, Sequence[str]],
    *,
    prompt: str,
    deadline: float = 120,
) -> HostRun:
    write_settings(world, hooks)
    env = world.host_env(
        GOOGLE_GEMINI_BASE_URL=model.url,
        GEMINI_API_KEY="e2e-fake-key",
        GEMINI_CLI_TRUST_WORKSPACE="true",
        GEMINI_CLI_NO_RELAUNCH="true",
    )
    return run_host(
        [str(gemini), "--yolo", "-p", prompt], cwd=world.project, env=env, deadline=deadline
    )


def host(gemini: Path) -> Host:
    """Gemini CLI as the scenarios drive it."""
    return Host(
        name="gemini",
        shell_tool=SHELL_TOOL,
        events=WIRED_EVENTS,
        tool_input=lambda command: {"command": command},
        dialect=GeminiGenerateContent,
        play=lambda world, model, hooks, prompt: run(gemini, world, model, hooks, prompt=prompt),
    )
