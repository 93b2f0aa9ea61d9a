"""What the runner needs to know about each event: what its matcher looks at, whether it
can block.

Event names reaching this module are already canonical (``PreToolUse``) or custom.
"""

from __future__ import annotations

from collections.abc import Mapping

from hookrun.records import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

# Events about one tool call: the matcher is searched in the tool name.
TOOL_EVENTS = frozenset({"PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest"})

# Events where exit 2 means "deny": the host can still refuse what is about to happen
# (run a tool, hand a tool's output to the model, send a prompt, stop the turn). On
# every other event the thing already happened, so exit 2 is only an error.
BLOCKING_EVENTS = frozenset(
    {"PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop", "SubagentStop"}
)

# Events where plain (non-JSON) stdout is context for the model, as in Claude Code.
TEXT_CONTEXT_EVENTS = frozenset({"UserPromptSubmit", "SessionStart"})

# Which payload fields a non-tool event's matcher is tested against, first present wins.
_SUBJECT_FIELDS: Mapping[str, tuple[str, ...]] = {
    "SessionStart": ("source",),
    "PreCompact": ("trigger",),
    "Notification": ("notification_type", "type"),
}


def has_matcher_subject(event: str) -> bool:
    """False for events whose matcher is ignored (every hook of the event runs)."""
    return event in TOOL_EVENTS or event in _SUBJECT_FIELDS


def subject_fields(event: str) -> tuple[str, ...]:
    """The payload fields a matcher of ``event`` is tested against (``tool_name``, …)."""
    return ("tool_name",) if event in TOOL_EVENTS else _SUBJECT_FIELDS.get(event, ())


def matcher_subject(event: str, payload: Mapping[str, Any], tool_name: str | None) -> str | None:
    """The string a hook's matcher is searched in, or None when the event has none.

    ``tool_name`` is passed in already read (hosts spell it differently).
    """
    if event in TOOL_EVENTS:
        return tool_name
    for key in _SUBJECT_FIELDS.get(event, ()):
        value = payload.get(key)
        if isinstance(value, str):
            return value
    return None
