"""A scrub's fast path for addresses (``pii_patterns._redact_addresses``: ASCII text in
which the table finds nothing, addresses redacted from the pieces of one split, no
offsets) gives what the general path gives: ``redact_spans`` over ``pii_escaped.spans``
(the address finder of ``Scanner._emails``, itself pinned to the plain reading in
pii_patterns_test.py).

Texts: git-log-like outputs, the address finder's own edge cases, lists of addresses
glued by every separator, and random text over an alphabet of local-part characters,
"@", dots, slashes and colons; with the default exclusions and with globs that exclude
some of the very addresses in them.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hookrun.hooks import pii_escaped
from hookrun.hooks.pii_patterns import DEFAULT_EXCLUDE, Scanner, redact_spans, scanner
from tests.hooks.pii_patterns_test import _AROUND_TOKENS, _EDGES, TEXTS


def _general(scan: Scanner, text: str) -> tuple[str, list[str]]:
    kinds, starts, ends = pii_escaped.spans(scan, text)
    return redact_spans(text, kinds, starts, ends), kinds


def _fast_taken(scan: Scanner, text: str) -> bool:
    return scan.redacted(text)[0] is not None


_LOCALS = [
    "dev",
    "a.b",
    "x+tag",
    "first.last",
    "u_1",
    "n%40",
    "u%x",
    "%q",
    "Z9",
    "noreply",
    "bot",
    "q-r",
]
_DOMAINS = ["corp-mail.io", "b.cd", "example.com", "x.example.com", "sub.dom.co.uk", "h.png"]
_SEPARATORS = [" ", "\n", ", ", ",", ";", "<", ">", "(", ")", ":", "/", "://", "=", "'", '"', ""]
_NOISE = ["lodash@4.17.21", "@types/node", "icon@2x.png", "HEAD@{1}", "git@github.com:o/r"]


def _lists(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    texts = []
    for _ in range(count):
        parts = []
        for _ in range(rng.randint(1, 8)):
            if rng.random() < 0.15:
                parts.append(rng.choice(_NOISE))
            else:
                parts.append(f"{rng.choice(_LOCALS)}@{rng.choice(_DOMAINS)}")
            parts.append(rng.choice(_SEPARATORS))
        texts.append("".join(parts))
    return texts


def _git_logs(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    texts = []
    for _ in range(count):
        texts.append(
            "".join(
                f"commit {rng.getrandbits(160):040x}\nAuthor: Dev {i} <"
                f"{rng.choice(_LOCALS)}{i}@{rng.choice(_DOMAINS)}>\nDate:   Mon Nov 3\n\n"
                f"    fix: #{i} ({rng.choice(_NOISE)}) see https://x.io/{i}\n\n"
                for i in range(rng.randint(1, 30))
            )
        )
    return texts


_EXCLUDES = [
    DEFAULT_EXCLUDE,
    (),
    (*DEFAULT_EXCLUDE, "dev3@*", "*@b.cd", "first.last@*"),
    ("*",),  # (no literal piece: every address tested whole)
]


@pytest.mark.parametrize("exclude", _EXCLUDES)
def test_the_fast_path_redacts_what_the_general_path_redacts(exclude: tuple[str, ...]) -> None:
    scan = scanner(exclude=exclude)
    texts = [*TEXTS, *_EDGES, *_AROUND_TOKENS, *_lists(1, 400), *_git_logs(2, 40)]
    taken = 0
    for text in texts:
        assert pii_escaped.redacted(scan, text) == _general(scan, text), text
        taken += _fast_taken(scan, text)
    assert taken > 80  # (the fast path is what these texts exercise: 104 with defaults)


def test_a_git_log_of_addresses_is_redacted_on_the_fast_path() -> None:
    scan = scanner()
    for seed in range(5):
        rng = random.Random(seed)
        text = "".join(
            f"commit {rng.getrandbits(160):040x}\nAuthor: Dev {i} <dev{i}@corp-mail.io>\n"
            f"Date:   Mon Nov 3\n\n    fix: #{i} (lodash@4.17.21) a/b\n\n"
            for i in range(rng.randint(1, 300))
        )
        assert _fast_taken(scan, text)
        assert pii_escaped.redacted(scan, text) == _general(scan, text)


def test_no_address_leaves_the_same_text() -> None:
    scan = scanner()
    for text in ["lodash@4.17.21", "a@example.com", "x @b.cd", "@corp.io"]:
        redacted, kinds = pii_escaped.redacted(scan, text)
        assert (redacted, kinds) == _general(scan, text)
        assert kinds or redacted is text


_ALPHABET = "ab1Z_.%+-@:/ \n<>,xo" + "c.d"


@settings(max_examples=600, deadline=None)
@given(st.text(alphabet=_ALPHABET, max_size=60))
def test_the_fast_path_agrees_on_any_text(text: str) -> None:
    for exclude in (DEFAULT_EXCLUDE, ("a@*", "*@b.cd")):
        scan = scanner(exclude=exclude)
        assert pii_escaped.redacted(scan, text) == _general(scan, text)
