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

import pytest

from hookrun.hooks.pii_patterns import DEFAULT_EXCLUDE, Scanner, scanner
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
    rows = scan.table.hits(text.encode() + b"\n")[0]
    return bool(rows) and scan.table.plain.issuperset(rows)


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
