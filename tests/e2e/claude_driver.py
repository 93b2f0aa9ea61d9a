"""Claude Code, driven offline: ``claude -p PROMPT --dangerously-skip-permissions``.

Its model is the fake Anthropic Messages server (``ANTHROPIC_BASE_URL``, a fake
``ANTHROPIC_API_KEY``); ``CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1`` keeps it from
calling anywhere else, and ``IS_SANDBOX=1`` lets it skip permissions as root. Hooks go in
the project's ``.claude/settings.json``, in Claude Code's nested shape; ``-p`` treats the
folder as trusted, so they load without a dialog.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from tests.e2e.anthropic_api import AnthropicMessages
from tests.e2e.driver import Run, command_groups, run_process
from tests.e2e.fakemodel import Dialect, Step, ToolCall

if TYPE_CHECKING:
    from tests.e2e.conftest import World

# Events whose entries take a tool-name matcher in Claude Code's settings.
_TOOL_EVENTS = {"PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest"}


class ClaudeCode:
    name: str = "claude"
    dialect: Dialect = AnthropicMessages()

    def shell(self, command: str) -> ToolCall:
        return ToolCall("Bash", {"command": command, "description": "run the command"})

    def agent(self, prompt: str) -> ToolCall:
        """The model's call of the Agent tool: a general-purpose sub-agent gets ``prompt``."""
        return ToolCall(
            "Agent",
            {"description": "delegate", "prompt": prompt, "subagent_type": "general-purpose"},
        )

    def delegate(self, prompt: str) -> list[Step]:
        return [self.agent(prompt)]  # the Agent tool returns when the sub-agent is done

    def event(self, canonical: str) -> str:
        return canonical

    def destroy(self, world: World) -> str:
        return world.rm_git()

    def define_agent(self, world: World, name: str) -> None:
        """A project sub-agent definition, for ``claude --agent NAME``."""
        path = world.project / ".claude" / "agents" / f"{name}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(
            f"---\nname: {name}\ndescription: an e2e agent\n---\nYou help.\n", encoding="utf-8"
        )

    def settings_path(self, world: World) -> Path:
        return world.project / ".claude" / "settings.json"

    def wire(self, world: World, hooks: Mapping[str, Sequence[str]], timeout: int = 30) -> None:
        entries = command_groups(hooks, timeout, _TOOL_EVENTS)
        world.write_json(self.settings_path(world), {"hooks": entries})

    def run(
        self,
        exe: Path,
        world: World,
        model_url: str,
        prompt: str,
        timeout: float,
        args: Sequence[str] = (),
    ) -> Run:
        # ("--agent", "helper") runs the main thread as that agent.
        env = world.host_env(
            ANTHROPIC_BASE_URL=model_url,
            ANTHROPIC_API_KEY="sk-ant-e2e-fake-key",
            CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
        )
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            env["IS_SANDBOX"] = (
                "1"  # else: "--dangerously-skip-permissions cannot be used with root"
            )
        argv = [str(exe), *args, "-p", prompt, "--dangerously-skip-permissions"]
        return run_process(argv, world.project, env, timeout)
