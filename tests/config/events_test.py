from __future__ import annotations

import pytest

from hookrun.config.events import KNOWN_EVENTS, is_known_event, normalize_event, suggest_event


@pytest.mark.parametrize(
    ("written", "canonical"),
    [
        ("PreToolUse", "PreToolUse"),
        ("pretooluse", "PreToolUse"),
        ("PRETOOLUSE", "PreToolUse"),
        ("pre_tool_use", "PreToolUse"),
        ("PRE_TOOL_USE", "PreToolUse"),
        ("pre-tool-use", "PreToolUse"),
        ("Pre-Tool-Use", "PreToolUse"),
        ("post_tool_use_failure", "PostToolUseFailure"),
        ("user-prompt-submit", "UserPromptSubmit"),
        ("session_start", "SessionStart"),
        ("stop", "Stop"),
        ("subagent-stop", "SubagentStop"),
        ("SUB_AGENT_STOP", "SubagentStop"),
        ("notification", "Notification"),
        ("pre_compact", "PreCompact"),
        ("error-occurred", "ErrorOccurred"),
        ("permission_request", "PermissionRequest"),
        ("MyThing", "MyThing"),
        ("my_thing", "my_thing"),
        ("PreToolUse2", "PreToolUse2"),
    ],
)
def test_normalize_event_maps_any_spelling_to_canonical_and_keeps_custom_names(
    written: str, canonical: str
) -> None:
    assert normalize_event(written) == canonical


def test_every_known_event_is_its_own_canonical_name() -> None:
    assert len(KNOWN_EVENTS) == 14
    for name in KNOWN_EVENTS:
        assert normalize_event(name) == name
        assert is_known_event(name.lower())


@pytest.mark.parametrize(
    ("written", "suggestion"),
    [
        ("PreTooluse2", "PreToolUse"),
        ("PreToolUze", "PreToolUse"),
        ("pre_tool_uze", "PreToolUse"),
        ("PostToolUseFail", "PostToolUseFailure"),
        ("UserPromptSubmited", "UserPromptSubmit"),
        ("UserPromptSubmitted", None),  # Copilot's own name for it: an alias, not a typo
        ("SessionStrat", "SessionStart"),
        ("Stopp", "Stop"),
        ("PreToolUse", None),  # known: nothing to suggest
        ("pre-tool-use", None),
        ("MyThing", None),
        ("DeployFinished", None),
        ("", None),
    ],
)
def test_suggest_event_finds_the_known_event_a_typo_meant(
    written: str, suggestion: str | None
) -> None:
    assert suggest_event(written) == suggestion
