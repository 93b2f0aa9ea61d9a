"""Which of an event's hooks run: matcher, sub-agent opt-in, dedupe — in config order.

Pure: the same hooks and the same event input always select the same hooks in the
same order, so ``hookrun list`` shows exactly what ``hookrun run`` runs.
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Hashable, Mapping, Sequence

from hookrun import cjson
from hookrun.config.events import (
    TOOL_EVENTS,
    has_matcher_subject,
    matcher_subject,
    subject_fields,
)
from hookrun.config.spec import HookSpec
from hookrun.records import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any


def dedupe_key(spec: HookSpec) -> Hashable:
    """Hooks with equal keys run once (first in config order kept).

    Commands compare by their exact string, as in Crush; builtins by name and options,
    because the same policy with different options is a different rule.
    """
    if spec.command is not None:
        return ("command", spec.command)
    options = cjson.dumps(spec.options, sort_keys=True, default=repr)
    return ("builtin", spec.builtin, options)


# The canonical tool kinds (hookrun.hosts.kinds), as whole lowercase words of a matcher.
_KINDS = ("shell", "write", "edit", "read", "search", "fetch", "mcp", "agent", "todo", "ask")
_WORD_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")


@functools.lru_cache(maxsize=1024)
def names_a_kind(matcher: str | None) -> bool:
    """Whether a matcher mentions a canonical tool kind (``^shell$``, ``write|edit``).

    Only such a matcher is also searched in the tool's kind: a matcher written against
    tool names keeps its exact meaning — ``^(?!Bash$)`` must not start matching Claude
    Code's ``Bash`` because its kind, ``shell``, is not ``Bash``.

    A kind counts as a whole word: no ASCII letter, digit or ``_`` on either side.
    Found by hand, not by a regex, whose compiling cost ~2.5% of a bare Python start on
    every run with such a matcher (tests/runner/matching_test.py checks the two agree).
    """
    if matcher is None:
        return False
    for kind in _KINDS:
        at = matcher.find(kind)
        while at >= 0:
            end = at + len(kind)
            if (at == 0 or matcher[at - 1] not in _WORD_CHARS) and (
                end == len(matcher) or matcher[end] not in _WORD_CHARS
            ):
                return True
            at = matcher.find(kind, at + 1)
    return False


def _matches(spec: HookSpec, subject: str | None, kind: str | None) -> bool:
    if spec.matches(subject):
        return True
    return kind is not None and names_a_kind(spec.matcher) and spec.matches(kind)


def select_indices(
    hooks: Sequence[HookSpec],
    *,
    event: str,
    payload: Mapping[str, Any],
    tool_name: str | None,
    is_sub_agent: bool,
    keys: Sequence[Hashable] | None = None,
    unreadable: Collection[str] = (),
) -> list[int]:
    """Positions (in ``hooks``) of the hooks to run for one event, in config order.

    The matcher is searched in the tool name for tool events (and, when it names a
    kind and the payload has a ``tool_kind``, in that kind too: either match runs the
    hook), in ``source`` for SessionStart, ``trigger`` for PreCompact and the notification type for
    Notification; every other event ignores matchers (all its hooks run). A sub-agent's
    call (``is_sub_agent``) runs only hooks with ``include_sub_agents``. ``keys`` are
    precomputed :func:`dedupe_key` values, parallel to ``hooks``.

    ``unreadable`` names the payload fields the host sent with the wrong type. When
    the subject is missing because its field was one of them, a matcher cannot be
    tested: a fail-closed hook (``on_error: deny``) then runs whatever its matcher —
    a guard is never skipped because the host's payload was malformed — and every
    other hook sees the subject as absent.
    """
    key_list = list(keys) if keys is not None else [dedupe_key(h) for h in hooks]
    use_matcher = has_matcher_subject(event)
    subject = matcher_subject(event, payload, tool_name) if use_matcher else None
    untestable = (
        use_matcher
        and subject is None
        and any(field in unreadable for field in subject_fields(event))
    )
    # A tool's canonical kind (``shell``, set by the host mapping) is a second name the
    # matcher may use: one config protects every host.
    kind = payload.get("tool_kind") if use_matcher and event in TOOL_EVENTS else None
    if not isinstance(kind, str) or kind == subject:
        kind = None
    seen: set[Hashable] = set()
    chosen: list[int] = []
    for index, (spec, key) in enumerate(zip(hooks, key_list, strict=True)):
        runs_anyway = untestable and spec.on_error == "deny"
        if use_matcher and not runs_anyway and not _matches(spec, subject, kind):
            continue
        if is_sub_agent and not spec.include_sub_agents:
            continue
        if key in seen:
            continue
        seen.add(key)
        chosen.append(index)
    return chosen


def select(
    hooks: Sequence[HookSpec],
    *,
    event: str,
    payload: Mapping[str, Any],
    tool_name: str | None,
    is_sub_agent: bool,
) -> list[HookSpec]:
    """The hooks themselves rather than their positions (see :func:`select_indices`)."""
    chosen = select_indices(
        hooks, event=event, payload=payload, tool_name=tool_name, is_sub_agent=is_sub_agent
    )
    return [hooks[i] for i in chosen]
