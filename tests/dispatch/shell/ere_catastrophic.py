"""Ten classic catastrophic regexes and the hostile values that stall a backtracking search.

Python's ``re`` takes exponential time on each (``(a+)+b`` over 30 ``a``'s ran for
minutes). One list for the two readers that need the same cases:
``tests/dispatch/shell/ere_test.py`` (no stall: RE2 finds the span) and
``bench/ere_bench.py`` (the instruction counts of those searches).

Each row: (regex, the unit a hostile value repeats, what ends it with no match, what
ends it with a match). An empty "no match" end means the repeated unit alone matches.
"""

from __future__ import annotations

CATASTROPHIC: tuple[tuple[str, str, str, str], ...] = (
    ("(a+)+b", "a", "!", "ab"),
    ("(a*)*b", "a", "!", "ab"),
    ("(a|aa)+b", "a", "!", "ab"),
    ("(a|a)*b", "a", "!", "ab"),
    ("^(a+)+$", "a", "!", ""),
    ("(x+x+)+y", "x", "!", "xy"),
    ("(.*a){12}", "a", "", ""),
    ("([a-z]+[[:space:]]?)+$", "ab ", "!", ""),
    ("^(([a-z])+.)+[A-Z]([a-z])+$", "aa", "!", "Ab"),
    ("([[:alnum:]_]+[.-]?)+@x", "a.", "!", "a@x"),
)


def hostile_value(unit: str, size: int, end: str) -> str:
    """``size`` characters of ``unit`` repeated, then ``end``."""
    return (unit * (size // max(len(unit), 1) + 1))[:size] + end
