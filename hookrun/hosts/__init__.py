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
table :mod:`hookrun.hosts.owners`; a test derives both from the modules.
"""

from __future__ import annotations

from hookrun.config.events import is_known_event, normalize_event
from hookrun.records import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

    from hookrun.hosts.base import Answer, Host

    HOSTS: dict[str, Host]  # every host, by name: loads all seven modules (__getattr__)

__all__ = ["HOSTS", "MODULES", "NAMES", "Answer", "Host", "canonical_event", "get"]

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
