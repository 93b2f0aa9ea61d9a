"""What the Ralph v2 guards (seed 003) share: session ids, the sessions folder, verdicts.

Ralph's verdicts map onto hookrun's: PASS → no opinion, BLOCK → deny (reason),
WARN → context (the action proceeds; the agent reads the warning and may
self-correct).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from hookrun import fields as pl
from hookrun.hooks.base import ALLOW, Verdict

SESSIONS_DIR = ".ralph-sessions"
SESSION_ID_PATTERN = r"^\d{6}-\d{6}$"  # <YYMMDD>-<hhmmss>, seed 003 hook #1

# Claude Code's Task, VS Code Copilot's agent / runSubagent, generic spellings.
SUBAGENT_TOOLS: tuple[str, ...] = (
    "Task",
    "agent",
    "runSubagent",
    "subagent",
    "dispatch_agent",
    "spawn_agent",
)


def verdict(
    name: str, blocks: Iterable[str], warns: Iterable[str], rule: str, *, file: str | None = None
) -> Verdict:
    """BLOCK → deny with every block reason (each after ``file: `` when the blocks are
    about one file); WARN → context lines; neither → PASS."""
    blocks = [f"{file}: {b}" for b in blocks] if file is not None else list(blocks)
    warns = list(warns)
    context = tuple(f"{name}: WARN: {w}" for w in warns)
    if blocks:
        return Verdict(
            decision="deny", reason=f"{name}: " + " ".join(blocks), context=context, rule=rule
        )
    if context:
        return Verdict(context=context, rule=rule)
    return ALLOW


def ralph_session_id(payload: Mapping[str, Any], env: Mapping[str, str]) -> str | None:
    """Ralph's session id: payload ``ralph_session_id``, env ``RALPH_SESSION_ID``, payload
    ``session_id`` — in that order (a host's own session id, e.g. a UUID, comes last)."""
    return (
        pl.field_str(payload, "ralph_session_id", "ralphSessionId")
        or env.get("RALPH_SESSION_ID")
        or pl.session_id(payload)
        or None
    )


def valid_session_id(session_id: str, pattern: str) -> bool:
    if "/" in session_id or "\\" in session_id or session_id in (".", ".."):
        return False
    return re.search(pattern, session_id) is not None


def invocation_text(payload: Mapping[str, Any]) -> str:
    """Every string a sub-agent call carries (prompt, description, task…), one per line."""
    return "\n".join(v for v in pl.tool_input(payload).values() if isinstance(v, str))
