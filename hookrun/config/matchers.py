"""Matchers: what the user wrote → one compiled regex (or None = match everything).

hookrun and Crush matchers are Python regexes searched unanchored. Claude Code's
matchers mean something else for the common case, and a config copied from
``.claude/settings.json`` must keep its meaning: ``Edit|Write`` there names two
tools exactly, where a plain regex would also match ``NotebookEdit``.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from hookrun.records import TYPE_CHECKING
from hookrun.surrogates import replace_surrogates

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


# A matcher made of literal names joined by "|" (optionally anchored, optionally in one
# group) has no repetition: Python's re searches it in time proportional to the subject
# times the pattern, whatever the subject. Claude Code's exact-name matchers, "^Bash$",
# "Edit|Write" and "^mcp_" are of this kind; they keep the engine that is already
# imported, and a config made only of them never imports RE2 (start-up time).
_NAME = r"(?:[\w\- ,:/@.]|\\[^A-Za-z0-9_])+"
_NAMES = rf"{_NAME}(?:\|{_NAME})*"
_PLAIN = rf"\^?(?:{_NAMES}|\((?:\?:)?{_NAMES}\))\$?"

# How long a pattern RE2 cannot take (lookaround, backreference) may search one subject.
# A tool name is short: a legitimate match takes microseconds; a backtracking blow-up is
# cut here, and the hook runs (a guard is never skipped because its matcher was slow).
BOUNDED_SECONDS = 0.1

if TYPE_CHECKING:
    from typing import Literal

    Engine = Literal["re", "re2", "bounded"]


class Matcher:
    """A compiled matcher: :meth:`search` runs in linear time, or under a time bound.

    Three engines, chosen per pattern (:attr:`engine`): Python's ``re`` for plain name
    lists (no repetition, so no backtracking blow-up), RE2 for every other pattern
    it takes (linear time, the engine Crush's Go matchers use), and for the rest —
    lookaround and backreferences, legal in Claude Code's JavaScript matchers — the
    ``regex`` module with a timeout of :data:`BOUNDED_SECONDS`, after which the
    subject counts as matched. RE2 and ``regex`` are imported on first use only.
    """

    __slots__ = ("pattern", "_plain", "_engine", "_search")

    def __init__(self, pattern: str, plain: bool = False) -> None:
        self.pattern = pattern
        self._plain = bool(plain)
        self._engine: Engine | None = "re" if plain else None
        self._search: Callable[[str], bool] | None = None

    @classmethod
    def restored(cls, pattern: str, *, plain: bool) -> Matcher:
        """A matcher :func:`compile_matcher` made before (the config cache): the
        pattern is known to compile, and does so on the first search."""
        return cls(pattern, plain)

    @property
    def plain(self) -> bool:
        """Whether ``re`` searches it (a list of literal names, see :func:`is_plain`)."""
        return self._plain

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Matcher) and other.pattern == self.pattern

    def __hash__(self) -> int:
        return hash(("Matcher", self.pattern))

    def __repr__(self) -> str:
        return f"Matcher({self.pattern!r})"

    @property
    def engine(self) -> Engine:
        """Which engine searches this pattern (compiling it on first use)."""
        self._compiled()
        assert self._engine is not None
        return self._engine

    def _compiled(self) -> Callable[[str], bool]:
        search = self._search
        if search is None:
            # Two threads may both get here: each builds the same thing, one is kept.
            self._engine, search = _build(self.pattern, self._plain)
            self._search = search
        return search

    def search(self, subject: str) -> bool:
        """Whether the pattern occurs anywhere in ``subject`` (a timeout counts as yes)."""
        subject = replace_surrogates(subject)  # RE2 takes UTF-8 only
        return self._compiled()(subject)

    def ignoring_case(self) -> Matcher:
        """The same pattern, case-insensitive (``hookrun check``'s "did you mean")."""
        try:
            return compile_matcher("(?i:" + self.pattern + ")") or self
        except ValueError:  # a pattern with global flags of its own: (?x)…
            return self


def _build(pattern: str, plain: bool) -> tuple[Engine, Callable[[str], bool]]:
    if plain:
        names = _literal_names(pattern)
        if names is not None:  # what re would find, without compiling (see _literal_search)
            return "re", lambda subject: _literal_search(names, subject)
        # Compiled at the first search (re's cache has it when compile_matcher checked it).
        compiled = re.compile(pattern)
        return "re", lambda subject: compiled.search(subject) is not None
    import re2  # linear time; ~7 ms to import, paid only by configs that need it

    options = re2.Options()
    options.log_errors = False  # its parse errors would go to our stderr
    try:
        fast = re2.compile(pattern, options)
    except re2.error:
        return "bounded", _bounded(pattern)
    return "re2", lambda subject: fast.search(subject) is not None


def _bounded(pattern: str) -> Callable[[str], bool]:
    import regex  # backtracking with a timeout; ~20 ms to import, only for such patterns

    try:
        slow = regex.compile(pattern)
    except (regex.error, OverflowError, RecursionError):
        # re took it (compile_matcher checked), regex does not: a subject it can never
        # be searched in. Fail towards running the hook, as a timeout does.
        return lambda subject: True

    def search(subject: str) -> bool:
        try:
            return slow.search(subject, timeout=BOUNDED_SECONDS) is not None
        except TimeoutError:
            return True

    return search


def compile_matcher(pattern: str | None) -> Matcher | None:
    """Compile ``pattern``; raises ValueError("invalid regex …") with Python's own reason.

    Python's ``re`` judges the syntax (its messages are the ones users know; compiling
    never backtracks); the engine that searches is chosen by :class:`Matcher`.
    """
    if pattern is None:
        return None
    try:
        re.compile(pattern)  # kept in re's cache for the first search (Matcher._compiled)
    except re.error as exc:
        raise ValueError(f"invalid regex {_quote(pattern)} — {exc}") from None
    except (OverflowError, RecursionError):
        raise ValueError(
            f"invalid regex {_quote(pattern)} — too large or too deeply nested"
        ) from None
    return Matcher(pattern, is_plain(pattern))


# Name characters that are never special in a regex: a matcher of only these, "|" between
# non-empty names, and an optional ^ and $ is plain without compiling _PLAIN, which costs
# ~5% of a bare Python start (callgrind) — "Bash", "^Bash$", "Edit|Write" are common.
_LITERAL = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_- ,:/@")


def is_plain(pattern: str) -> bool:
    """Whether ``pattern`` is a list of literal names (:data:`_PLAIN`): no repetition."""
    return _literal_names(pattern) is not None or re.fullmatch(_PLAIN, pattern) is not None


# (the names, whether the first is anchored at the start, whether the last at the end)
_Literal = tuple[tuple[str, ...], bool, bool]


def _literal_names(pattern: str) -> _Literal | None:
    """``^?name|name|…$?`` with only :data:`_LITERAL` characters in each name, else None."""
    names = pattern.removeprefix("^")
    names = names[:-1] if names.endswith("$") else names
    parts = tuple(names.split("|"))
    if not names or not all(name and _LITERAL.issuperset(name) for name in parts):
        return None
    return parts, pattern.startswith("^"), pattern.endswith("$")


def _literal_search(literal: _Literal, subject: str) -> bool:
    """``re.search`` of a literal name list: ``^`` binds only the first name and ``$``
    only the last (alternation binds loosest), and ``$`` also matches before a final
    newline. By hand: compiling even "^Bash$" is paid by every run that searches it."""
    names, start, end = literal
    last = len(names) - 1
    for i, name in enumerate(names):
        at_start, at_end = start and i == 0, end and i == last
        if at_start and at_end:
            found = subject in (name, name + "\n")
        elif at_start:
            found = subject.startswith(name)
        elif at_end:
            found = subject.endswith(name) or subject.endswith(name + "\n")
        else:
            found = name in subject
        if found:
            return True
    return False


def _quote(text: str) -> str:
    from hookrun.config.quote import quote

    shown = quote(text)
    return shown if len(shown) <= 80 else shown[:76] + '…"'
