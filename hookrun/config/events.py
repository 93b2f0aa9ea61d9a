"""Event names: the canonical list, normalisation, and did-you-mean; what each event's
matcher is searched in, and what its hooks' answers may do (block, add plain-text context).

Hosts and users spell events many ways (``PreToolUse``, ``pre_tool_use``,
``pre-tool-use``, ``PRETOOLUSE``); they all mean the same event. Any other name
is a custom event: it is allowed (a host may invent its own), and it keeps the
spelling it was written with.

The facts the runner reads of an event (:func:`matcher_subject`, :data:`BLOCKING_EVENTS`,
:data:`TEXT_CONTEXT_EVENTS`) are here with the rest: they were a module of the runner's,
which repeated :data:`TOOL_EVENTS`, and every run loads both (a module costs ~0.35M
instructions of start-up, issue 8). Event names reaching them are already canonical
(``PreToolUse``) or custom.
"""

from __future__ import annotations

from hookrun.records import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

KNOWN_EVENTS: tuple[str, ...] = (
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "PermissionRequest",
    "UserPromptSubmit",
    "SessionStart",
    "SessionEnd",
    "Stop",
    "SubagentStart",
    "SubagentStop",
    "Notification",
    "PreCompact",
    "PostCompact",
    "ErrorOccurred",
)

# Events about one tool call, whose matcher is searched in the tool name (the others
# match other fields or nothing: see DESIGN.md "Config").
TOOL_EVENTS: frozenset[str] = frozenset(
    {"PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest"}
)

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


def _fold(name: str) -> str:
    """The spelling-insensitive key of an event name: case, ``_``, ``-`` and spaces dropped."""
    return "".join(ch for ch in name.lower() if ch not in "_- ")


_BY_FOLD: dict[str, str] = {_fold(name): name for name in KNOWN_EVENTS}

# Hosts' own names for a canonical event, one to one (the tables of hookrun/hosts,
# pinned equal by tests/hosts): hooks configured under them run for that event, so a
# config written with a host's spelling is never silently idle. Cursor's dedicated
# events (beforeShellExecution, …) stay custom: they cover one tool, not the event.
HOST_ALIASES: dict[str, tuple[str, str]] = {
    "BeforeTool": ("PreToolUse", "Gemini CLI"),
    "AfterTool": ("PostToolUse", "Gemini CLI"),
    "BeforeAgent": ("UserPromptSubmit", "Gemini CLI"),
    "AfterAgent": ("Stop", "Gemini CLI"),
    "PreCompress": ("PreCompact", "Gemini CLI"),
    "agentStop": ("Stop", "Copilot CLI"),
    "userPromptSubmitted": ("UserPromptSubmit", "Copilot CLI"),
    "beforeSubmitPrompt": ("UserPromptSubmit", "Cursor"),
}
_BY_FOLD.update({_fold(alias): canonical for alias, (canonical, _) in HOST_ALIASES.items()})


def host_alias(name: str) -> tuple[str, str] | None:
    """(canonical event, host) when ``name`` is a host's own name for a canonical event."""
    for alias, found in HOST_ALIASES.items():
        if _fold(alias) == _fold(name):
            return found
    return None


def normalize_event(name: str) -> str:
    """The canonical name of a known event in any spelling, else ``name`` unchanged (custom)."""
    return _BY_FOLD.get(_fold(name), name)


def is_known_event(name: str) -> bool:
    return _fold(name) in _BY_FOLD


def suggest_event(name: str) -> str | None:
    """The known event ``name`` is probably a typo of, or None.

    Compared in folded form so that a suggestion for ``pre_tool_uze`` is found as
    easily as one for ``PreToolUze``; a known name (any spelling) gets no suggestion.
    """
    folded = _fold(name)
    if not folded or folded in _BY_FOLD:
        return None
    import difflib  # only for messages: kept off the import path

    close = difflib.get_close_matches(folded, list(_BY_FOLD), n=1, cutoff=0.75)
    return _BY_FOLD[close[0]] if close else None
