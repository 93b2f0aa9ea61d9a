"""A row that failed at a start is not tried again inside the same run (``Rule.run``).

50 KB of ``ey-ey-ey-…`` ran the JWT row from each ``ey`` to the end of the text looking
for its ``.``: quadratic (a second of CPU at 50 KB, a hang at 5 MB). The pass now
remembers where the run it failed in ends. These tests check, with no timing:

- the claim each ``run`` makes of its row, with the row's own regex at every start;
- that the pass finds exactly what it finds with the memo switched off;
- that the row is run once a run, not once a start (the count of its RE2 calls).
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
import re2

from hookrun.hooks import pii_escaped
from hookrun.hooks.pii_patterns import _AT_START, _Table, scanner
from hookrun.hooks.secret_rules import RULES

_RUN_ROWS = [i for i, r in enumerate(RULES) if r.run]
_SAMPLES = json.loads((Path(__file__).parent / "data/gitleaks/samples.json").read_text())["rules"]
_JWTS = [t for name in ("jwt", "jwt-base64") for t in _SAMPLES[name]["tps"]]
# Pieces of texts where a run's first start fails and later ones may not: JWTs, their
# headers and dots, the run's alphabet, end marks.
_PIECES = [
    "ey",
    "eyJ",
    "-",
    "_",
    "a",
    "Z9",
    ".",
    "..",
    "=",
    "\n",
    " ",
    '"',
    "\\",
    "/",
    "é",
    "eyJhbGciOiJIUzI1NiJ9",
    ".eyJzdWIiOiIxMjM0NTY3ODkwIn0.",
    "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
    *_JWTS[:20],
]


def _texts(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    return ["".join(rng.choices(_PIECES, k=rng.randint(1, 40))) for _ in range(count)]


def test_some_row_declares_a_run() -> None:
    assert _RUN_ROWS, "the JWT row's run is what keeps ey-ey-ey-… linear"


@pytest.mark.parametrize("i", _RUN_ROWS)
@pytest.mark.parametrize("seed", range(3))
def test_a_row_that_fails_at_a_start_fails_at_every_later_start_in_its_run(
    i: int, seed: int
) -> None:
    """The claim of Rule.run, checked with the row's own regex at every start."""
    row = re2.compile(RULES[i].pattern)
    run = re.compile(RULES[i].run.encode("ascii"))
    checked = 0
    for text in _texts(seed, 400):
        data = text.encode("utf-8") + b"\n"
        for start in range(len(data)):
            in_run = run.match(data, start)
            if in_run is None or row.match(data, start) is not None:
                continue
            for later in range(start + 1, in_run.end()):
                assert row.match(data, later) is None, (text, start, later)
                checked += 1
    assert checked > 500  # (the texts do hold failed starts with later ones in their run)


def _hits(table: _Table, text: str) -> object:
    return table.hits(text.encode("utf-8") + b"\n")


@pytest.mark.parametrize("seed", range(3))
def test_the_pass_finds_what_it_finds_trying_the_row_at_every_start(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = scanner().table
    assert table is not None
    texts = _texts(100 + seed, 600)
    texts += ["ey-" * 50 + t for t in _JWTS] + ["ey-" * 50 + "." + t for t in _JWTS]
    remembered = [_hits(table, t) for t in texts]
    with monkeypatch.context() as m:
        m.setattr(table, "runs", [None] * len(table.runs))
        assert [_hits(table, t) for t in texts] == remembered
        # ... and so does the whole scrub (escapes decoded, hits judged).
        general = [pii_escaped.spans(scanner(), t) for t in texts]
    assert [pii_escaped.spans(scanner(), t) for t in texts] == general


class _Counted:
    """A row's RE2 program that counts its anchored runs."""

    def __init__(self, regexp: Any) -> None:
        self.regexp, self.calls = regexp, 0

    def Match(self, anchor: Any, data: bytes, start: int, size: int) -> Any:  # noqa: N802
        self.calls += anchor == _AT_START
        return self.regexp.Match(anchor, data, start, size)


def _row_calls(text: str, monkeypatch: pytest.MonkeyPatch) -> int:
    table = scanner().table
    assert table is not None
    (i,) = (i for i in _RUN_ROWS if RULES[i].pattern.startswith(r"\bey"))
    regexp, values, ends, quick = table.rows[i] or table._row(i)
    counted = _Counted(regexp)
    with monkeypatch.context() as m:
        m.setattr(table, "rows", [*table.rows])
        table.rows[i] = (counted, values, ends, quick)
        assert pii_escaped.spans(scanner(), text) == ([], [], [])
    return counted.calls


@pytest.mark.parametrize("unit", ["ey-", "eyJ-", "eyJrIjoi-", "ey_Ab-", "ey-ey."])
def test_hostile_runs_cost_one_row_call_a_run(unit: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each call ran to the end of the run: calls a run, not a start, keep the pass linear."""
    small = _row_calls(unit * (12_000 // len(unit)), monkeypatch)
    large = _row_calls(unit * (48_000 // len(unit)), monkeypatch)
    if "." in unit:  # (a run ends at each dot: one call a run of two starts)
        assert large <= 48_000 // len(unit) + 1
    else:  # one run the whole text long
        assert small <= 2
        assert large <= 2
