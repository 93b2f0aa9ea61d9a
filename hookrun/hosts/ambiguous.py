"""The answer when ``--host auto`` cannot tell Claude Code, Codex CLI and Copilot CLI's
PascalCase mode apart (their payloads differ only in a few optional fields, and
Copilot and Cursor also run the hooks of ``.claude/settings.json``).

It is written so that every candidate reads it the way it was meant:

- A deny (and a halt on PreToolUse) exits 2 with the reason on stderr — Claude Code
  and Codex block on it, Codex ignoring stdout — and carries the top-level
  ``permissionDecision``/``permissionDecisionReason`` that Copilot reads (even on exit
  2), next to Claude's ``hookSpecificOutput`` (which Copilot ignores).
- Otherwise Claude Code's shape, restricted to what Codex accepts: an ``ask`` denies
  (Codex cannot ask), a rewritten input goes with ``permissionDecision: "allow"``
  (Codex drops ``updatedInput`` without it).
"""

from __future__ import annotations

from collections.abc import Mapping

from hookrun import exitcodes
from hookrun.hosts import base, claude
from hookrun.records import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

    from hookrun.runner.result import RunResult

CANDIDATES = ("claude", "codex", "copilot")


def answer(result: RunResult, host_event: str, payload: Mapping[str, Any]) -> base.Answer:
    event = result.event
    if event == "PreToolUse" and result.decision == "ask":
        result = result._replace(
            decision="deny",
            reason=f"{result.reason or 'a hook asked for approval'} "
            "(the host could not be told apart, and not every candidate can ask: denied)",
        )
    if event == "PreToolUse" and (result.decision == "deny" or result.halt):
        reason = base.stop_reason(result)
        out: dict[str, Any] = {
            "permissionDecision": "deny",
            "permissionDecisionReason": reason,
            "hookSpecificOutput": {
                "hookEventName": host_event or event,
                "permissionDecision": "deny",
                "permissionDecisionReason": reason,
            },
        }
        if result.halt:
            out["continue"] = False
            out["stopReason"] = reason
        return base.Answer(out, exitcodes.DENY, reason)
    given = claude.answer(result, host_event, payload)
    out = dict(given.stdout or {})
    specific = out.get("hookSpecificOutput")
    if (
        event == "PreToolUse"
        and isinstance(specific, dict)
        and "updatedInput" in specific
        and "permissionDecision" not in specific
    ):
        out["hookSpecificOutput"] = {**specific, "permissionDecision": "allow"}
    return base.Answer(out or None, given.exit_code, given.stderr)
