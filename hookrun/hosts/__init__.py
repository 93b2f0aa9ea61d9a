"""Agent hosts: one module per host, each a pure mapping between the host's contract
and hookrun's canonical one (events, tool kinds, payload, answer).

    from hookrun import hosts
    host = hosts.get("gemini")
    event = hosts.canonical_event(host, "BeforeTool")        # "PreToolUse"
    payload = host.payload_in("BeforeTool", event, raw)      # hookrun's payload
    answer = host.answer(result, "BeforeTool", payload)      # stdout, exit code, stderr

The runner never imports this package: ``hookrun run`` maps in, runs, maps out.

A static table (host name → module), like the built-ins' registry: ``hookrun run``
loads only the module of the host that called, not all seven, on every tool call
(issue 8). What detection needs to know of every host's event names is the static
table :data:`OWNERS` (with :data:`UNMAPPED`, below); a test derives them all from the
modules.
"""

from __future__ import annotations

from collections.abc import Mapping

from hookrun.config.events import is_known_event, normalize_event
from hookrun.records import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

    from hookrun.hosts.base import Answer, Host

    HOSTS: dict[str, Host]  # every host, by name: loads all seven modules (__getattr__)

__all__ = [
    "HOSTS", "MODULES", "NAMES", "OWNERS", "UNMAPPED", "Answer", "Host", "canonical_event", "get",
]  # fmt: skip

# The --host value → the module of hookrun.hosts defining its HOST, in --help's order.
MODULES: dict[str, str] = {
    "hookrun": "neutral",
    "claude": "claude",
    "gemini": "gemini",
    "codex": "codex",
    "copilot": "copilot",
    "cursor": "cursor",
    "crush": "crush",
}
NAMES: tuple[str, ...] = (*MODULES, "auto")

# -- which host uses which event name ----------------------------------------------------
#
# A static table, so that ``--host auto`` loads only the module of the host it picks.
# Detection (:mod:`hookrun.hosts.detect`) needs two facts about every host at once — the
# event names only one host uses, and whether a host knows a name — and the bridge needs
# the names a host has that mean no canonical event. They are written out here;
# ``tests/hosts/owners_test.py`` derives both tables from the host modules' ``EVENTS``
# and fails when a module changes and this table does not. (Here, not in a module of
# their own: every run loads this package, and a module costs ~0.35M instructions.)

# A host's own event name → the hosts (not the neutral one) whose EVENTS hold it.
OWNERS: Mapping[str, tuple[str, ...]] = {
    "AfterAgent": ("gemini",),
    "afterAgentResponse": ("cursor",),
    "afterAgentThought": ("cursor",),
    "afterFileEdit": ("cursor",),
    "afterMCPExecution": ("cursor",),
    "AfterModel": ("gemini",),
    "afterShellExecution": ("cursor",),
    "afterTabFileEdit": ("cursor",),
    "AfterTool": ("gemini",),
    "agentStop": ("copilot",),
    "BeforeAgent": ("gemini",),
    "beforeMCPExecution": ("cursor",),
    "BeforeModel": ("gemini",),
    "beforeReadFile": ("cursor",),
    "beforeShellExecution": ("cursor",),
    "beforeSubmitPrompt": ("cursor",),
    "beforeTabFileRead": ("cursor",),
    "BeforeTool": ("gemini",),
    "BeforeToolSelection": ("gemini",),
    "ErrorOccurred": ("copilot",),
    "errorOccurred": ("copilot",),
    "Interrupt": ("codex",),
    "Notification": ("claude", "gemini"),
    "notification": ("copilot",),
    "PermissionRequest": ("claude", "codex", "copilot"),
    "permissionRequest": ("copilot",),
    "PostCompact": ("claude", "codex"),
    "PostToolUse": ("claude", "codex", "copilot"),
    "postToolUse": ("copilot", "cursor"),
    "PostToolUseFailure": ("claude", "copilot"),
    "postToolUseFailure": ("copilot", "cursor"),
    "PreCompact": ("claude", "codex", "copilot"),
    "preCompact": ("copilot", "cursor"),
    "PreCompress": ("gemini",),
    "PreToolUse": ("claude", "codex", "copilot", "crush"),
    "preToolUse": ("copilot", "cursor"),
    "SessionEnd": ("claude", "gemini", "codex", "copilot"),
    "sessionEnd": ("copilot", "cursor"),
    "SessionStart": ("claude", "gemini", "codex", "copilot"),
    "sessionStart": ("copilot", "cursor"),
    "Stop": ("claude", "codex", "copilot"),
    "stop": ("cursor",),
    "StopFailure": ("codex",),
    "SubagentStart": ("claude", "codex"),
    "subagentStart": ("copilot", "cursor"),
    "SubagentStop": ("claude", "codex", "copilot"),
    "subagentStop": ("copilot", "cursor"),
    "UserPromptSubmit": ("claude", "codex", "copilot"),
    "userPromptSubmitted": ("copilot",),
    "userPromptTransformed": ("copilot",),
    "workspaceOpen": ("cursor",),
}

# Host event names with no canonical equivalent (their host maps them to "").
UNMAPPED: frozenset[str] = frozenset(
    {
        "AfterModel",
        "BeforeModel",
        "BeforeToolSelection",
        "Interrupt",
        "StopFailure",
        "afterAgentResponse",
        "afterAgentThought",
        "userPromptTransformed",
        "workspaceOpen",
    }
)


def get(name: str) -> Host:
    """The host named ``name`` (KeyError for an unknown one); loads only its module."""
    # __import__ with a fromlist returns the submodule itself; importlib.import_module
    # would do the same, but importing importlib (with warnings) costs ~4% of a bare
    # Python start on every run (callgrind).
    module = __import__(f"hookrun.hosts.{MODULES[name]}", fromlist=["HOST"])
    host: Host = module.HOST
    return host


def __getattr__(name: str) -> Any:
    if name == "HOSTS":
        return {host: get(host) for host in MODULES}
    if name in ("Answer", "Host"):
        from hookrun.hosts import base

        return getattr(base, name)
    raise AttributeError(f"module 'hookrun.hosts' has no attribute {name!r}")


def canonical_event(host: Host, name: str) -> str | None:
    """The canonical event ``name`` means for ``host``, None when it has none.

    A host's own spelling first (Gemini's ``BeforeTool``); then hookrun's forgiving
    spellings of canonical names (``pre_tool_use``), which every host accepts because
    a user may type them; Crush folds case and drops underscores.
    """
    mapped = host.events.get(name)
    if mapped is not None:
        return mapped or None
    if host.name == "crush":
        from hookrun.hosts import crush  # loaded already: `host` is its HOST

        found = crush.canonical(name)
        if found is not None:
            return found
    return normalize_event(name) if is_known_event(name) else None
