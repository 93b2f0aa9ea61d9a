"""The scanner's shortcut for ASCII text whose hits are all judged by their value alone
(``Scanner._plain_values``: no Finding, verdicts by C-level maps, exclusions in bulk)
finds exactly what the general judging (``Scanner._judged``) finds — with the default
exclusions and with user globs that exclude some of the very values in the text.

Texts are env dumps and logs made of the labelled families' true and look-alike
samples (tests/hooks/secret_families_test.py), ASCII only, joined at random. The
general path is forced by emptying the table's set of value-only rows for one call.
"""

from __future__ import annotations

import random
import re

import pytest

from hookrun.hooks.pii_patterns import DEFAULT_EXCLUDE, Scanner, _disjoint, _Table, scanner
from tests.hooks.secret_families_test import FAMILIES

_SAMPLES = sorted(
    {
        line
        for tps, fps in FAMILIES.values()
        for text in (*tps, *fps)
        for line in text.splitlines()
        if line.isascii() and line.strip()
    }
)


def _texts(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    texts = []
    for _ in range(count):
        lines = rng.sample(_SAMPLES, k=rng.randint(1, 12))
        texts.append("\n".join(f"VAR_{k}={line}" for k, line in enumerate(lines)))
    return texts


def _general(scan: Scanner, text: str, monkeypatch: pytest.MonkeyPatch) -> object:
    assert scan.table is not None
    with monkeypatch.context() as m:
        m.setattr(scan.table, "plain", frozenset())
        return scan.spans(text)


def _value_only_hits(scan: Scanner, text: str) -> bool:
    assert scan.table is not None
    rows, _, _, disjoint = scan.table.hits(text.encode() + b"\n")
    return bool(rows) and disjoint and scan.table.plain.issuperset(rows)


@pytest.mark.parametrize("seed", range(4))
def test_the_value_only_shortcut_finds_what_the_general_judging_finds(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(1000 + seed)
    texts = _texts(seed, 150)
    # Globs that exclude values the texts hold: a whole value, a value's first part.
    values = [s.split("=", 1)[-1].strip() for s in rng.sample(_SAMPLES, k=12)]
    globs = tuple(v for v in values[:6] if v) + tuple(f"{v[:6]}*" for v in values[6:] if v)
    shortcut_taken = 0
    for exclude in (DEFAULT_EXCLUDE, DEFAULT_EXCLUDE + globs):
        scan = scanner(exclude=exclude)
        for text in texts:
            shortcut_taken += _value_only_hits(scan, text)
            assert scan.spans(text) == _general(scan, text, monkeypatch), (exclude, text)
    assert shortcut_taken > 50  # the shortcut is what these texts exercise


def test_a_user_glob_excludes_a_value_on_the_shortcut(monkeypatch: pytest.MonkeyPatch) -> None:
    plain = scanner()
    texts = [t for t in _texts(7, 300) if _value_only_hits(plain, t)]
    text = next(t for t in texts if plain.spans(t)[0])
    kinds, starts, ends = plain.spans(text)
    value = text[starts[0] : ends[0]]
    excluding = scanner(exclude=(*DEFAULT_EXCLUDE, value))
    assert starts[0] not in excluding.spans(text)[1]
    assert excluding.spans(text) == _general(excluding, text, monkeypatch)


def _tokens() -> list[str]:
    """Each ASCII sample's tokens: its words between blanks, quotes and "=" (the values)."""
    words = {w for line in _SAMPLES for w in re.split(r"[\s\"'=]+", line) if len(w) >= 8}
    return sorted(words)


def _nested_texts(seed: int, count: int) -> list[str]:
    """Tokens with other tokens written into them, against them and around them: text
    where one row's opening lies inside another row's match."""
    rng = random.Random(seed)
    tokens = _tokens()
    texts = []
    for _ in range(count):
        outer, inner, after = rng.sample(tokens, k=3)
        cut = rng.randint(1, len(outer) - 1)
        glue = rng.choice(["", "", "-", "_", ".", "/", ":", "+"])
        texts.append(f"{outer[:cut]}{glue}{inner}{glue}{outer[cut:]}{rng.choice(['', ' '])}{after}")
    return texts


@pytest.mark.parametrize("seed", range(3))
def test_hits_come_sorted_and_disjoint_so_the_shortcut_needs_no_sort(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The value-only shortcut returns the table's hits as they come, with neither the
    # general path's sort nor its _disjoint: it is taken only where hits() says they are
    # disjoint (it resumes inside each match, so a value may start inside another).
    # Texts where openings sit inside other rows' matches.
    scan = scanner()
    assert scan.table is not None
    shortcut_taken = overlapping = 0
    for text in _nested_texts(seed, 500):
        _, starts, stops, disjoint = scan.table.hits(text.encode() + b"\n")
        assert all(a < b for a, b in zip(starts, stops, strict=True))
        furthest = [max(stops[: k + 1]) for k in range(len(stops))]
        apart = all(b <= a for a, b in zip(starts[1:], furthest, strict=False))
        assert disjoint == apart, text
        if disjoint:
            assert starts == sorted(starts)
        overlapping += not disjoint
        shortcut_taken += _value_only_hits(scan, text)
        assert scan.spans(text) == _general(scan, text, monkeypatch), text
    assert shortcut_taken > 100
    assert overlapping > 10  # (the general path's sort and _disjoint are what these need)


def _general_values(
    self: Scanner, table: _Table, text: str, rows: list[int], starts: list[int], ends: list[int]
) -> tuple[list[str], list[int], list[int]]:
    """The shortcut's place taken by the general path: every hit judged, sorted, disjoint."""
    data = text.encode("utf-8", "surrogatepass") + b"\n"
    found = self._judged(table, text, data, rows, starts, ends)
    found = _disjoint(sorted(found, key=lambda f: f.start))
    return [f.kind for f in found], [f.start for f in found], [f.end for f in found]


@pytest.mark.parametrize("seed", range(2))
def test_the_shortcut_is_taken_only_where_it_finds_what_the_general_path_finds(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Where the shortcut is taken is decided by three tests (no user pattern, ASCII text,
    # every hit's row judged by its value alone). Texts that fail each: user patterns
    # that match in them, a letter beyond ASCII before the secrets, rows with context
    # (every family's samples). The general path stands in for the shortcut here.
    texts = _texts(seed + 10, 120)
    texts += [f"zoë {t} 用户" for t in texts[:40]]
    texts += [t.replace("VAR_1=", "Authorization: Bearer ", 1) for t in texts[:40]]
    scans = [scanner(), scanner(user=(("var", r"VAR_[0-9]+"),)), scanner(user=(("x", "[a-z]{3}"),))]
    for scan in scans:
        fast = [scan.spans(t) for t in texts]
        with monkeypatch.context() as m:
            m.setattr(Scanner, "_plain_values", _general_values)
            general = [scan.spans(t) for t in texts]
        # (and the general path taken by the shortcut's own test: no row value-only)
        judged = [_general(scan, t, monkeypatch) for t in texts]
        for text, a, b, c in zip(texts, fast, general, judged, strict=True):
            assert a == b == c, (scan.user, text)
