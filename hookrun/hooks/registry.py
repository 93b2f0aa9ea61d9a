"""Name → policy, imported lazily (a config naming one policy loads one module).

Each entry is ``"module:attribute"`` of a :class:`hookrun.hooks.base.Policy`.
Aliases map to canonical names.
"""

from __future__ import annotations

import importlib
from typing import Any

from hookrun.hooks.base import Policy

# canonical name → "module:attr" of its Policy object.
POLICIES: dict[str, str] = {
    "shell-guard": "hookrun.hooks.shell_guard:POLICY",
    "write-guard": "hookrun.hooks.write_guard:WRITE_GUARD",
    "read-guard": "hookrun.hooks.write_guard:READ_GUARD",
    "pii-scrubber": "hookrun.hooks.pii:SCRUBBER",
    "pii-write-guard": "hookrun.hooks.pii:WRITE_GUARD",
    "secret-guard": "hookrun.hooks.secret_guard:POLICY",
    "append-only": "hookrun.hooks.append_only:POLICY",
    "reviewer-lockout": "hookrun.hooks.lockout:POLICY",
    "ask-user-limit": "hookrun.hooks.ask_user:POLICY",
    "phase-gate": "hookrun.hooks.phase_gate:POLICY",
    "decision-inbox": "hookrun.hooks.decision_inbox:POLICY",
    "session-dir-guard": "hookrun.hooks.ralph:SESSION_DIR_GUARD",
    "ssot-guard": "hookrun.hooks.ralph:SSOT_GUARD",
    "signal-schema": "hookrun.hooks.ralph:SIGNAL_SCHEMA",
    "single-mode-guard": "hookrun.hooks.ralph:SINGLE_MODE_GUARD",
    "task-file-check": "hookrun.hooks.ralph:TASK_FILE_CHECK",
    "audit-ledger": "hookrun.hooks.audit_ledger:POLICY",
}
ALIASES: dict[str, str] = {
    "file-restriction": "write-guard",
}


def canonical(name: str) -> str | None:
    """The canonical policy name for ``name`` (an alias or a name), or None."""
    if name in POLICIES:
        return name
    return ALIASES.get(name)


def get(name: str) -> Policy[Any]:
    """The policy called ``name`` (or an alias). Raises KeyError if unknown."""
    key = canonical(name)
    if key is None:
        raise KeyError(name)
    module, attr = POLICIES[key].split(":")
    policy: Policy[Any] = getattr(importlib.import_module(module), attr)
    return policy


def names() -> list[str]:
    return sorted(POLICIES)
