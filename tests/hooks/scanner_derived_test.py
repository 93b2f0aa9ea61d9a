"""secret_rules.DERIVED, what the table reads off each row's pattern, is what parsing
the patterns gives (a fresh process no longer parses them: scripts/pii_derived.py
writes the table; run it after changing a row)."""

from __future__ import annotations

import pytest

from hookrun.hooks import pii_patterns
from hookrun.hooks.pii_patterns import _Table, derive
from hookrun.hooks.secret_rules import DERIVED, RULES


def test_derived_is_what_parsing_each_row_gives() -> None:
    rebuilt = {r.pattern: derive(r.pattern) for r in RULES}
    assert rebuilt == DERIVED, "run scripts/pii_derived.py after changing a row"


def test_a_table_built_from_derived_is_the_table_built_by_parsing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def fields(table: _Table) -> object:
        return (
            table.heads.pattern,
            table.openings,
            table.folded,
            table.by_byte,
            table.bare,
            table.words_only,
        )

    known = fields(_Table(RULES))
    with monkeypatch.context() as m:
        m.setattr(pii_patterns, "DERIVED", {})
        assert fields(_Table(RULES)) == known
