"""Copilot CLI, driven offline: ``copilot --allow-all-paths -p PROMPT`` against a fake model.

How it runs without GitHub: ``COPILOT_OFFLINE=true`` with ``COPILOT_PROVIDER_BASE_URL``
(the fake's ``/v1``) and ``COPILOT_MODEL``; ``COPILOT_ALLOW_ALL=true`` (exactly ``true``)
approves every tool *and* trusts the folder, which is what loads the project's
``.github/hooks/*.json``. It does not approve paths: a command touching a directory
outside the project and ``$TMPDIR`` is refused in ``-p`` mode ("no one to approve"), and
the victim lives next to the project, hence ``--allow-all-paths``.

Copilot picks the payload by the spelling of the event in its config: camelCase
(``preToolUse``…) sends its own (``sessionId``, ``toolName``, ``toolArgs``,
``toolResult``), PascalCase (``PreToolUse``…) a Claude-like snake_case one — two drivers,
one per mode. Its npm package unpacks a runtime of about 235 MB into
``$XDG_CACHE_HOME/copilot`` on first use; every run shares one such cache under
node_modules instead of unpacking it into each throwaway HOME.
"""

from __future__ import annotations

import subprocess
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from tests.e2e import hostprograms
from tests.e2e.chat_api import ChatCompletions
from tests.e2e.driver import Run, run_process
from tests.e2e.fakemodel import Dialect, Step, ToolCall

if TYPE_CHECKING:
    from tests.e2e.conftest import World

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
# hookrun's canonical events → Copilot's camelCase names; PascalCase uses the canonical.
CAMEL = {
    "PreToolUse": "preToolUse",
    "PostToolUse": "postToolUse",
    "PostToolUseFailure": "postToolUseFailure",
    "UserPromptSubmit": "userPromptSubmitted",
    "Stop": "agentStop",
    "SessionStart": "sessionStart",
    "SessionEnd": "sessionEnd",
    "SubagentStart": "subagentStart",
    "SubagentStop": "subagentStop",
    "PermissionRequest": "permissionRequest",
    "Notification": "notification",
    "PreCompact": "preCompact",
    "ErrorOccurred": "errorOccurred",
}
SHELL_TOOL = "bash"
CACHE = hostprograms.NODE_MODULES / ".cache" / "e2e-xdg-cache"
# Scenario bodies run side by side: the first run unpacks the runtime, alone.
_UNPACK = threading.Lock()


def _unpacked() -> bool:
    return any(CACHE.glob("copilot/pkg/*/*/.extraction-complete"))


def unpack_runtime(exe: Path, env: Mapping[str, str]) -> None:
    """Have ``copilot --version`` unpack the runtime into the shared cache, once."""
    with _UNPACK:
        if not _unpacked():
            subprocess.run(
                [str(exe), "--version"],
                env=dict(env),
                stdin=subprocess.DEVNULL,
                capture_output=True,
                timeout=300,
                check=False,
            )


class CopilotCli:
    name: str = "copilot"
    dialect: Dialect = ChatCompletions()

    def __init__(self, mode: str = "camel") -> None:
        assert mode in ("camel", "pascal")
        self.mode = mode

    def shell(self, command: str) -> ToolCall:
        return ToolCall(SHELL_TOOL, {"command": command, "description": "run the command"})

    def agent(self, prompt: str) -> ToolCall:
        """The model's call of the ``task`` tool: a sub-agent (type ``task``) gets ``prompt``."""
        return ToolCall(
            "task",
            {"description": "delegate", "prompt": prompt, "agent_type": "task", "name": "e2e-sub"},
        )

    def delegate(self, prompt: str) -> list[Step]:
        return [self.agent(prompt)]  # the task tool returns when the sub-agent is done

    def event(self, canonical: str) -> str:
        return CAMEL[canonical] if self.mode == "camel" else canonical

    def destroy(self, world: World) -> str:
        return world.rm_git()

    def wire(self, world: World, hooks: Mapping[str, Sequence[str]], timeout: int = 30) -> None:
        """``.github/hooks/hookrun.json``; keys are canonical (mapped to this mode's
        spelling) or Copilot's own names, taken as they are.

        The project is made a git repository of its own: Copilot reads ``.github/hooks``
        from the repository root it finds by walking up from its working directory, and
        the world lives in a shared /tmp, so a ``.git`` left in any ancestor (another
        run's, another tool's) made it load no hook at all and run what a deny hook
        stops (found by putting one there: ran=True on every deny contract)."""
        if not (world.project / ".git").exists():
            subprocess.run(
                ["git", "init", "-q", str(world.project)],
                env=world.host_env(GIT_CONFIG_NOSYSTEM="1"),
                stdin=subprocess.DEVNULL,
                capture_output=True,
                timeout=60,
                check=True,
            )
        entries = {
            (self.event(e) if e in CAMEL else e): [
                {"type": "command", "bash": c, "timeoutSec": timeout} for c in commands
            ]
            for e, commands in hooks.items()
        }
        world.write_json(
            world.project / ".github" / "hooks" / "hookrun.json", {"version": 1, "hooks": entries}
        )

    def run(
        self,
        exe: Path,
        world: World,
        model_url: str,
        prompt: str,
        timeout: float,
        args: Sequence[str] = (),
    ) -> Run:
        CACHE.mkdir(parents=True, exist_ok=True)
        env = world.host_env(
            XDG_CACHE_HOME=str(CACHE),
            COPILOT_OFFLINE="true",
            COPILOT_PROVIDER_BASE_URL=model_url + "/v1",
            COPILOT_MODEL="fake-model",
            COPILOT_ALLOW_ALL="true",
        )
        unpack_runtime(exe, env)
        argv = [str(exe), *args, "--allow-all-paths", "-p", prompt]
        run = run_process(argv, world.project, env, timeout)
        if run.code == -1:  # what Copilot itself logged, for whoever reads the failure
            run = run._replace(err=run.err + _log_tail(world.home / ".copilot" / "logs"))
        return run


def _log_tail(logs: Path, limit: int = 4000) -> str:
    parts = []
    for log in sorted(logs.glob("*.log")):
        text = log.read_text(encoding="utf-8", errors="replace")
        parts.append(f"--- {log.name} (tail)\n{text[-limit:]}")
    return "\n" + ("\n".join(parts) or f"--- no log in {logs}")
