"""``read``'s field end (``read._extract``): its shortcut for text with nothing marked
(one C scan per separator) against the character-by-character scan it stands for."""

from __future__ import annotations

import random

from hookrun.dispatch.shell.read import CTLESC, CTLNUL, _extract, _extract_scan


def test_the_field_end_is_what_the_scan_finds() -> None:
    rng = random.Random(5)
    alphabet = ["a", "b", " ", "\t", "\n", ",", ":", CTLESC, CTLNUL, "x"]
    separators = [" ", "\t", "\n", ",", ":", CTLESC, "a"]
    unmarked = 0
    for _ in range(50000):
        text = "".join(rng.choices(alphabet, k=rng.randint(0, 10)))
        seps = "".join(rng.sample(separators, k=rng.randint(0, 4)))
        start = rng.randint(0, 12)
        assert _extract(text, start, seps) == _extract_scan(text, start, seps), (
            text,
            start,
            seps,
        )
        unmarked += CTLESC not in text
    assert unmarked > 20000
