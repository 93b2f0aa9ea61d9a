"""Copilot CLI, driven offline: one ``copilot -p PROMPT`` against a fake Chat Completions API.

How it runs without GitHub: ``COPILOT_OFFLINE=true`` with ``COPILOT_PROVIDER_BASE_URL``
(the fake's ``/v1``) and ``COPILOT_MODEL``; ``COPILOT_ALLOW_ALL=true`` (exactly ``true``)
approves every tool *and* trusts the folder, which is what loads the project's
``.github/hooks/*.json``. It does not approve paths: a command touching a directory
outside the project and ``$TMPDIR`` is denied in ``-p`` mode ("no one to approve"), so
runs pass ``--allow-all-paths`` (the victim lives next to the project). The npm
package unpacks its runtime (about 235 MB) into ``$XDG_CACHE_HOME/copilot`` on first
use, so the suite shares one cache directory between runs instead of unpacking it into
every throwaway HOME.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest

from tests.e2e.chat_api import ChatCompletions
from tests.e2e.conftest import World
from tests.e2e.fakemodel import FakeModel
from tests.e2e.hostrun import HostRun, run_host
from tests.e2e.scenarios import Host

# camelCase events: Copilot's own payload (sessionId, toolName, toolArgs, toolResult…).
CAMEL_EVENTS = (
    "sessionStart",
    "sessionEnd",
    "userPromptSubmitted",
    "preToolUse",
    "postToolUse",
    "postToolUseFailure",
    "errorOccurred",
    "agentStop",
    "subagentStart",
    "subagentStop",
    "permissionRequest",
    "notification",
    "preCompact",
)
# PascalCase events: a Claude-like snake_case payload (hook_event_name, tool_name, …).
PASCAL_EVENTS = (
    "SessionStart",
    "SessionEnd",
    "UserPromptSubmit",
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "Stop",
    "SubagentStart",
    "SubagentStop",
    "PermissionRequest",
    "Notification",
    "PreCompact",
    "ErrorOccurred",
)
SHELL_TOOL = "bash"
# The two wiring modes: hookrun's canonical events → the event names in Copilot's config.
MODES = {
    "camel": {
        "PreToolUse": "preToolUse",
        "PostToolUse": "postToolUse",
        "UserPromptSubmit": "userPromptSubmitted",
    },
    "pascal": {
        "PreToolUse": "PreToolUse",
        "PostToolUse": "PostToolUse",
        "UserPromptSubmit": "UserPromptSubmit",
    },
}
HOST_HOOK_TIMEOUT_SEC = 30


def write_hooks(world: World, hooks: Mapping[str, Sequence[str]]) -> None:
    """The project's ``.github/hooks/hookrun.json`` in Copilot's flat shape."""
    entries = {
        event: [
            {"type": "command", "bash": cmd, "timeoutSec": HOST_HOOK_TIMEOUT_SEC}
            for cmd in commands
        ]
        for event, commands in hooks.items()
    }
    world.write_json(
        world.project / ".github" / "hooks" / "hookrun.json", {"version": 1, "hooks": entries}
    )


def run(
    copilot: Path,
    world: World,
    model: FakeModel,
    hooks: Mapping[str, Sequence[str]],
    *,
    prompt: str,
    cache: Path,
    deadline: float = 120,
) -> HostRun:
    write_hooks(world, hooks)
    env = world.host_env(
        XDG_CACHE_HOME=str(cache),
        COPILOT_OFFLINE="true",
        COPILOT_PROVIDER_BASE_URL=model.url + "/v1",
        COPILOT_MODEL="fake-model",
        COPILOT_ALLOW_ALL="true",
    )
    argv = [str(copilot), "--allow-all-paths", "-p", prompt]
    return run_host(argv, cwd=world.project, env=env, deadline=deadline)


def shared_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The one XDG cache of the test session: Copilot unpacks its runtime there once."""
    cache = tmp_path_factory.getbasetemp() / "copilot-xdg-cache"
    cache.mkdir(exist_ok=True)
    return cache


def host(copilot: Path, mode: str, cache: Path) -> Host:
    """Copilot CLI as the scenarios drive it, wired with camelCase or PascalCase events."""
    return Host(
        name="copilot",
        shell_tool=SHELL_TOOL,
        events=MODES[mode],
        tool_input=lambda command: {"command": command, "description": "run the command"},
        dialect=ChatCompletions,
        play=lambda world, model, hooks, prompt: run(
            copilot, world, model, hooks, prompt=prompt, cache=cache
        ),
    )
