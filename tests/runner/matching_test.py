from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hookrun.config.matchers import compile_matcher
from hookrun.config.spec import HookSpec
from hookrun.runner.matching import _KINDS, names_a_kind, select


def hook(
    name: str,
    matcher: str | None = None,
    *,
    command: str | None = None,
    builtin: str | None = None,
    options: dict[str, Any] | None = None,
    subs: bool = False,
) -> HookSpec:
    if builtin is None and command is None:
        command = f"./{name}.sh"
    return HookSpec(
        event="PreToolUse",
        source=f"hooks.json#X[{name}]",
        name=name,
        command=command,
        builtin=builtin,
        options=options or {},
        matcher=matcher,
        compiled_matcher=compile_matcher(matcher) if matcher is not None else None,
        include_sub_agents=subs,
    )


def names(hooks: list[HookSpec]) -> list[str]:
    return [h.name for h in hooks]


TOOL_HOOKS = [
    hook("all"),
    hook("bash", "^bash$"),
    hook("mcp", "^mcp_"),
    hook("edits", "edit|write"),
]


@pytest.mark.parametrize(
    ("event", "tool", "expected"),
    [
        ("PreToolUse", "bash", ["all", "bash"]),
        ("PreToolUse", "mcp_github_create", ["all", "mcp"]),
        ("PreToolUse", "multiedit", ["all", "edits"]),  # unanchored search
        ("PostToolUse", "write", ["all", "edits"]),
        ("PostToolUseFailure", "bash", ["all", "bash"]),
        ("PermissionRequest", "bash", ["all", "bash"]),
        ("PreToolUse", "Bash", ["all"]),  # case-sensitive, as regexes are
        ("PreToolUse", None, ["all"]),  # a matcher never matches a missing subject
    ],
)
def test_tool_events_search_the_matcher_in_the_tool_name(
    event: str, tool: str | None, expected: list[str]
) -> None:
    got = select(TOOL_HOOKS, event=event, payload={}, tool_name=tool, is_sub_agent=False)
    assert names(got) == expected


@pytest.mark.parametrize(
    ("event", "payload", "expected"),
    [
        ("SessionStart", {"source": "startup"}, ["any", "startup"]),
        ("SessionStart", {"source": "resume"}, ["any"]),
        ("PreCompact", {"trigger": "auto"}, ["any", "auto"]),
        ("PreCompact", {"trigger": "manual"}, ["any"]),
        ("Notification", {"notification_type": "idle_prompt"}, ["any", "idle"]),
        ("Notification", {"type": "idle_prompt"}, ["any", "idle"]),
        ("Notification", {}, ["any"]),
        # Events without a subject ignore matchers: every hook runs.
        ("UserPromptSubmit", {"source": "x"}, ["any", "startup", "auto", "idle"]),
        ("Stop", {}, ["any", "startup", "auto", "idle"]),
        ("MyCustomEvent", {"tool_name": "bash"}, ["any", "startup", "auto", "idle"]),
    ],
)
def test_other_events_match_their_own_subject_or_ignore_matchers(
    event: str, payload: dict[str, Any], expected: list[str]
) -> None:
    hooks = [
        hook("any"),
        hook("startup", "^startup$"),
        hook("auto", "^auto$"),
        hook("idle", "idle"),
    ]
    got = select(hooks, event=event, payload=payload, tool_name=None, is_sub_agent=False)
    assert names(got) == expected


@pytest.mark.parametrize(
    ("is_sub_agent", "expected"),
    [(False, ["plain", "audit", "bash-audit"]), (True, ["audit", "bash-audit"])],
)
def test_sub_agent_calls_run_only_hooks_that_opted_in(
    is_sub_agent: bool, expected: list[str]
) -> None:
    hooks = [hook("plain"), hook("audit", subs=True), hook("bash-audit", "^bash$", subs=True)]
    got = select(hooks, event="PreToolUse", payload={}, tool_name="bash", is_sub_agent=is_sub_agent)
    assert names(got) == expected


def test_identical_commands_run_once_at_the_first_position() -> None:
    hooks = [
        hook("first", command="./audit.sh"),
        hook("other", command="./other.sh"),
        hook("again", command="./audit.sh"),
        hook("spaced", command="./audit.sh "),  # a different string is a different command
    ]
    got = select(hooks, event="PreToolUse", payload={}, tool_name="bash", is_sub_agent=False)
    assert names(got) == ["first", "other", "spaced"]


def test_dedupe_happens_after_matching_so_a_later_matching_copy_still_runs() -> None:
    hooks = [
        hook("edit-only", "^edit$", command="./x.sh"),
        hook("bash-too", "^bash$", command="./x.sh"),
    ]
    got = select(hooks, event="PreToolUse", payload={}, tool_name="bash", is_sub_agent=False)
    assert names(got) == ["bash-too"]


def test_builtins_dedupe_by_name_and_options() -> None:
    hooks = [
        hook("g1", builtin="shell-guard", options={"a": 1, "b": [1]}),
        hook("g2", builtin="shell-guard", options={"b": [1], "a": 1}),
        hook("g3", builtin="shell-guard", options={"a": 2}),
        hook("w", builtin="write-guard", options={"a": 1, "b": [1]}),
    ]
    got = select(hooks, event="PreToolUse", payload={}, tool_name="bash", is_sub_agent=False)
    assert names(got) == ["g1", "g3", "w"]


def test_selection_keeps_config_order() -> None:
    hooks = [hook(f"h{i}") for i in range(10)]
    got = select(hooks, event="PreToolUse", payload={}, tool_name="x", is_sub_agent=False)
    assert names(got) == [f"h{i}" for i in range(10)]


# The kind words as a matcher may hold them; the oracle is the whole-word regex itself.
KIND_MATCHERS = [
    ("^shell$", True),
    ("write|edit", True),
    ("Bash", False),
    ("^(?!Bash$)", False),
    ("shellcheck", False),  # a kind inside a longer word is not the kind
    ("my_read", False),
    ("mcp__github", False),  # "_" is a word character
    ("mcp:github", True),
    ("(Read|read)", True),
    ("READ", False),  # kinds are lowercase words
    ("", False),
    (None, False),
]


@pytest.mark.parametrize(("matcher", "names"), KIND_MATCHERS)
def test_a_matcher_names_a_kind_only_as_a_whole_lowercase_word(
    matcher: str | None, names: bool
) -> None:
    names_a_kind.cache_clear()
    assert names_a_kind(matcher) is names
    assert names is (matcher is not None and re.search(_KIND_WORD, matcher) is not None)


# The rule as a regex: the oracle of the hand-written search.
_KIND_WORD = rf"(?<![A-Za-z0-9_])(?:{'|'.join(_KINDS)})(?![A-Za-z0-9_])"


@given(st.text(alphabet="shellwriteditrdsacmpgnoku_9Z|^$(é ", max_size=16))
def test_a_kind_is_found_exactly_where_the_whole_word_regex_finds_it(matcher: str) -> None:
    assert names_a_kind(matcher) is (re.search(_KIND_WORD, matcher) is not None)
