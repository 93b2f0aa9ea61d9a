"""Event names: the canonical list, normalisation, and did-you-mean.

Hosts and users spell events many ways (``PreToolUse``, ``pre_tool_use``,
``pre-tool-use``, ``PRETOOLUSE``); they all mean the same event. Any other name
is a custom event: it is allowed (a host may invent its own), and it keeps the
spelling it was written with.
"""

from __future__ import annotations

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

# Events whose matcher is searched in the tool name (the others match other fields
# or nothing: see DESIGN.md "Config").
TOOL_EVENTS: frozenset[str] = frozenset(
    {"PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest"}
)


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
