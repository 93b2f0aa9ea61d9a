"""The scanner finds exactly what the plain reading of the rule table finds.

The scanner takes shortcuts on every hit of its joined pass (the row read off the
hit's first byte and openings, its shape deciding whether the row's own regex runs,
placeholder and exclusion tests cached or skipped in bulk, addresses found by maps).
The plain reading here takes none: at each hit of the joined alternation it runs
every row's own regex in table order (leftmost-first: the first row that matches
there is the one the alternation chose), and judges each value one by one with
every test written out. Texts are assembled from the families' own samples, their
look-alikes and gitleaks' samples, cut and joined at random, so that hits crowd,
overlap and sit at the edges.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import re2
from hypothesis import given, settings
from hypothesis import strategies as st

from hookrun.hooks.pii_patterns import (
    _OPTIONS,
    _REOPEN,
    _TAIL,
    DEFAULT_EXCLUDE,
    Finding,
    _last_char_width,
    _pem_span,
    _rename,
    _uncaptured,
    _value_span,
    counts_words_only,
    exclusion_regex,
    head_pattern,
    scanner,
)
from hookrun.hooks.secret_rules import RULES, Rule, looks_real
from tests.hooks.pii_patterns_test import TEXTS, _plain_emails
from tests.hooks.secret_families_test import FAMILIES

_GENERIC = {"bearer_token", "url_password"}
_JOINED = re2.compile("|".join(f"(?:{_uncaptured(r.pattern)})" for r in RULES), _OPTIONS)
_ROWS = [re2.compile(_rename(r.pattern), _OPTIONS) for r in RULES]
_EXCLUDED = exclusion_regex(DEFAULT_EXCLUDE)


def _row_hits(data: bytes) -> list[tuple[int, int, int]]:
    """(row, start, end) in bytes: the joined walk, each hit's row found by trying all.

    The walk goes on right after where each match starts (a secret may be glued to the
    match before), as far back as _REOPEN bytes before the furthest value's end.
    """
    out = []
    pos = last = 0
    while pos < len(data):
        m = _JOINED.search(data, pos)
        if m is None:
            break
        start = m.start()
        pos = start + 1
        for i, row in enumerate(_ROWS):
            own = row.match(data, start)
            if own is not None:
                index = row.groupindex
                groups = row._regexp.NumberOfCapturingGroups()
                spans = [own.span(g) for g in range(groups + 1)]
                values = [n for name, n in index.items() if name.startswith("v")]
                ends = [n for name, n in index.items() if name.startswith("e")]
                value = _value_span(spans, values, ends)
                out.append((i, *value))
                if value[1] > last:
                    last = value[1]
                    pos = max(pos, last - _REOPEN)
                break
    return out


def _real(rule: Rule, text: str, start: int, end: int) -> bool:
    if rule.check is not None and not rule.check(text, start, end):
        return False
    value = text[start:end]
    plain_looks_real = looks_real.__wrapped__  # (the cache is a shortcut too)
    if not plain_looks_real(value, rule.min_entropy, rule.placeholder, rule.prefix):
        return False
    return _EXCLUDED is None or _EXCLUDED.fullmatch(value) is None


def _plain_table(text: str) -> list[Finding]:
    data = text.encode("utf-8", "surrogatepass") + b"\n"

    char = {}  # byte offset → character offset
    offset = 0
    for k, c in enumerate(text + "\n"):
        char[offset] = k
        offset += len(c.encode("utf-8", "surrogatepass"))
    char[offset] = len(text) + 1
    found = []
    for i, bstart, bend in _row_hits(data):
        rule = RULES[i]
        start, end = char[bstart], char[bend]
        if rule.back is not None:
            cls, n = rule.back
            if not re.search(f"[{cls}]{{{n}}}$", text[max(0, start - n) : start]):
                continue
            start -= n
        if rule.left and start and re.match(f"[{rule.left}]", text[start - 1]):
            continue
        if rule.kind == "private_key":
            pem = _pem_span(text, start, end)
            if pem is None:
                continue
            start, end = pem
        elif rule.kind in _GENERIC:
            inner = [f for f in _plain_table(text[start:end]) if f.kind not in _GENERIC]
            if inner:
                found.append(Finding(inner[0].kind, inner[0].start + start, inner[0].end + start))
                continue
        if _real(rule, text, start, end):
            found.append(Finding(rule.kind, start, end))
    return found


def _plain_disjoint(found: list[Finding]) -> list[Finding]:
    """Sorted by start; of those starting together the longest (the first of equals); one
    inside what is kept dropped, one reaching beyond it kept for the part beyond."""
    kept: list[Finding] = []
    for f in sorted(found, key=lambda f: f.start):
        if kept and f.start == kept[-1].start:
            if f.end > kept[-1].end:
                kept[-1] = f
            continue
        covered = max((k.end for k in kept), default=0)
        if f.end <= covered:
            continue
        kept.append(Finding(f.kind, max(f.start, covered), f.end))
    return kept


def plain_find(text: str) -> list[Finding]:
    found = _plain_disjoint(_plain_table(text)) if text else []
    emails = [
        Finding("email", s, e)
        for s, e in _plain_emails(text)
        if not any(f.start < e and s < f.end for f in found)
    ]
    return sorted(found + emails, key=lambda f: f.start)


def _samples() -> list[str]:
    out = list(TEXTS)
    for secrets, lookalikes in FAMILIES.values():
        out += secrets + lookalikes
    data = Path(__file__).parent / "data" / "gitleaks" / "samples.json"
    for rule in json.loads(data.read_text())["rules"].values():
        out += rule["tps"][:3] + rule["fps"][:3]
    return out


SAMPLES = _samples()
_SEPARATORS = ["", " ", "\n", "=", ":", "@", "/", "x", "_", "-", ".", '"', "é", "\\n"]
# Openings with nothing (or too little) after them: the pass stops at each, and a
# hit may start inside, right after or one byte past one that leads nowhere.
_OPENINGS = ["sk-", "s.", "://", "xoxb-", "-us1", "Bearer ", "ey", "SK", "discord=", "AKIA", "gh"]


@st.composite
def _texts(draw: st.DrawFn) -> str:
    parts = []
    for _ in range(draw(st.integers(1, 6))):
        sample = draw(st.sampled_from(SAMPLES))
        if draw(st.booleans()):  # a piece of it: tokens cut short, prefixes alone
            a = draw(st.integers(0, len(sample)))
            sample = sample[a : draw(st.integers(a, len(sample)))]
        parts.append(sample)
        parts.append(draw(st.sampled_from(_SEPARATORS + _OPENINGS)))
    return "".join(parts)


@pytest.mark.timeout(600)  # (~30 s on a loaded machine: the plain reading runs every row)
@settings(max_examples=500, deadline=None)
@given(_texts())
def test_the_scanner_finds_what_the_plain_reading_finds(text: str) -> None:
    assert [tuple(f) for f in scanner().find(text)] == [tuple(f) for f in plain_find(text)]


@pytest.mark.timeout(600)
def test_every_sample_alone_and_all_together() -> None:
    for text in [*SAMPLES, " ".join(SAMPLES)]:
        assert [tuple(f) for f in scanner().find(text)] == [tuple(f) for f in plain_find(text)]


def _starts(regex: re2._Regexp, data: bytes) -> list[int]:
    """Every byte offset at which ``regex`` matches, anchored there."""
    out, pos = [], 0
    while pos <= len(data):
        m = regex.search(data, pos)
        if m is None:
            break
        out.append(m.start())
        pos = m.start() + 1
    return out


@pytest.mark.timeout(600)
def test_each_rows_opening_matches_wherever_the_row_does() -> None:
    # The pass stops only where an opening matches: a row matching where its
    # opening does not would be a hit the scanner never sees.
    # (every gitleaks sample, not the first three of each rule: 600 KB)
    rules = json.loads((Path(__file__).parent / "data" / "gitleaks" / "samples.json").read_text())
    every = [t for r in rules["rules"].values() for t in r["tps"] + r["fps"]]
    texts = [t.encode("utf-8", "surrogatepass") + b"\n" for t in [*SAMPLES, *every]]
    checked = 0
    for rule, row in zip(RULES, _ROWS, strict=True):
        opening = head_pattern(rule.pattern)
        assert opening is not None, rule.kind  # (every row has one: the pass needs it)
        head = re2.compile(opening, _OPTIONS)
        for data in texts:
            for start in _starts(row, data):
                assert head.match(data, start) is not None, (rule.kind, data[start : start + 40])
                checked += 1
    assert checked > 3500  # (3925 at b58d3f10)


def test_no_row_and_no_opening_matches_empty() -> None:
    # A hit always moves the pass on; an opening that matched the empty string
    # would stop the pass at every byte.
    for rule, row in zip(RULES, _ROWS, strict=True):
        head = head_pattern(rule.pattern)
        assert head is not None
        for data in (b"", b"\n", b" x", b"x "):
            for start in range(len(data) + 1):
                for regex in (row, re2.compile(head, _OPTIONS)):
                    m = regex.match(data, start)
                    assert m is None or m.end() > start, (rule.kind, data, start)


def _value_end(data: bytes, shape: int, end: int) -> int:
    """Where the value ends in a match of a row of this shape (its end mark left out)."""
    if shape != _TAIL:
        return end
    return end - _last_char_width(data, end)


@pytest.mark.timeout(600)
def test_rows_matched_by_python_end_where_re2_ends_them() -> None:
    # Rows that count only word characters after a word boundary are matched with
    # Python's engine at a hit (a quarter of an RE2 call): at every place their
    # opening matches in every sample, both engines must agree on a match and on
    # where its value ends.
    table = scanner().table
    assert table is not None
    quick_rows = [i for i, r in enumerate(table.rules) if counts_words_only(r.pattern)]
    assert {table.rules[i].kind for i in quick_rows} >= {"github_token", "aws_access_key"}
    rules = json.loads((Path(__file__).parent / "data" / "gitleaks" / "samples.json").read_text())
    every = [t for r in rules["rules"].values() for t in r["tps"] + r["fps"]]
    texts = [t.encode("utf-8", "surrogatepass") + b"\n" for t in [*SAMPLES, *every]]
    texts += [t.replace(b" ", "é".encode()) for t in texts[:300]]  # end marks of two bytes
    compared = 0
    for i in quick_rows:
        _, _, _, quick = table.rows[i] or table._row(i)
        assert quick is not None
        head = re2.compile(head_pattern(table.rules[i].pattern) or "", _OPTIONS)
        row = _ROWS[i]
        for data in texts:
            for start in _starts(head, data):
                ours, theirs = quick(data, start), row.match(data, start)
                assert (ours is None) == (theirs is None), (table.rules[i].kind, data[start:])
                if ours is not None and theirs is not None:
                    shape = table.shape[i]
                    assert _value_end(data, shape, ours.end()) == _value_end(
                        data, shape, theirs.end()
                    )
                    compared += 1
    assert compared > 1000
