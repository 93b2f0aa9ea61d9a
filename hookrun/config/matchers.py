"""Matchers: what the user wrote → one compiled regex (or None = match everything).

hookrun and Crush matchers are Python regexes searched unanchored. Claude Code's
matchers mean something else for the common case, and a config copied from
``.claude/settings.json`` must keep its meaning: ``Edit|Write`` there names two
tools exactly, where a plain regex would also match ``NotebookEdit``.
"""

from __future__ import annotations

import re

# Claude Code treats a matcher made only of these characters as exact tool names.
# A pattern string, compiled (and cached by re) on first use: module-level compiles
# run on every `hookrun run` start, whether or not the pattern is ever needed.
_CLAUDE_NAMES = r"[A-Za-z0-9_\- ,|]*"


def claude_to_regex(matcher: str | None) -> str | None:
    """The Python regex with Claude Code's meaning of ``matcher`` (None = all)."""
    if matcher is None or matcher.strip() in ("", "*"):
        return None
    if re.fullmatch(_CLAUDE_NAMES, matcher):
        names = [name.strip() for name in re.split(r"[|,]", matcher) if name.strip()]
        if not names:
            return None
        return "^(?:" + "|".join(re.escape(name) for name in names) + ")$"
    return matcher


def compile_matcher(pattern: str | None) -> re.Pattern[str] | None:
    """Compile ``pattern``; raises ValueError("invalid regex …") with Python's own reason."""
    if pattern is None:
        return None
    try:
        return re.compile(pattern)
    except re.error as exc:
        raise ValueError(f"invalid regex {_quote(pattern)} — {exc}") from None
    except (OverflowError, RecursionError):
        raise ValueError(
            f"invalid regex {_quote(pattern)} — too large or too deeply nested"
        ) from None


def _quote(text: str) -> str:
    from hookrun.config.quote import quote

    shown = quote(text)
    return shown if len(shown) <= 80 else shown[:76] + '…"'
