"""Agent hosts: one module per host, each a pure mapping between the host's contract
and hookrun's canonical one (events, tool kinds, payload, answer).

    from hookrun import hosts
    host = hosts.get("gemini")
    event = hosts.canonical_event(host, "BeforeTool")        # "PreToolUse"
    payload = host.payload_in("BeforeTool", event, raw)      # hookrun's payload
    answer = host.answer(result, "BeforeTool", payload)      # stdout, exit code, stderr

The runner never imports this package: ``hookrun run`` maps in, runs, maps out.
"""

from __future__ import annotations

from hookrun.config.events import is_known_event, normalize_event
from hookrun.hosts import claude, codex, copilot, crush, cursor, gemini, neutral
from hookrun.hosts.base import Answer, Host

__all__ = ["HOSTS", "NAMES", "Answer", "Host", "canonical_event", "get"]

HOSTS: dict[str, Host] = {
    host.name: host
    for host in (
        neutral.HOST,
        claude.HOST,
        gemini.HOST,
        codex.HOST,
        copilot.HOST,
        cursor.HOST,
        crush.HOST,
    )
}
NAMES: tuple[str, ...] = (*HOSTS, "auto")


def get(name: str) -> Host:
    """The host module named ``name`` (KeyError for an unknown one)."""
    return HOSTS[name]


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
        found = crush.canonical(name)
        if found is not None:
            return found
    return normalize_event(name) if is_known_event(name) else None
