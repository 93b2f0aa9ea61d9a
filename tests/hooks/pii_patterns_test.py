"""The scanner's fast paths find exactly what the plain readings of the rules find.

The email finder runs its checks inside the regex engine (an atomic domain, file
extensions refused by look-behind, the local part read from the reversed text); the
plain reading here is the check-after-the-match loop it replaced. Exclusions are
tried only on values holding a literal piece of a glob; the property here is that
a value a glob matches always holds one.
"""

from __future__ import annotations

import re
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hookrun.hooks.pii_patterns import (
    DEFAULT_EXCLUDE,
    FILE_EXTENSIONS,
    email_at_pattern,
    exclusion_hint,
    exclusion_regex,
    scanner,
)

# The plain reading: the domain from each "@", then every check in Python.
_PLAIN_AT = re.compile(
    r"@[^\W_](?:[\w-]*[^\W_])?(?:\.[^\W_](?:[\w-]*[^\W_])?)*\.([^\W\d_]{2,24})(?![\w-])"
    r"(?!:(?:[/~]|[^\W_]))"
)


def _plain_emails(text: str, exclude: tuple[str, ...] = DEFAULT_EXCLUDE) -> list[tuple[int, int]]:
    excluded = exclusion_regex(exclude)
    out = []
    for m in _PLAIN_AT.finditer(text):
        if m.group(1).lower() in FILE_EXTENSIONS:
            continue
        at, end = m.span()
        start = at
        while start > 0 and (text[start - 1].isalnum() or text[start - 1] in "._%+-"):
            start -= 1
        while start < at and not (text[start].isalnum() or text[start] == "_"):
            start += 1
        if start == at or text[max(0, start - 3) : start] == "://":
            continue
        if excluded is None or not excluded.fullmatch(text, start, end):
            out.append((start, end))
    return out


def _emails(text: str, exclude: tuple[str, ...] = DEFAULT_EXCLUDE) -> list[tuple[int, int]]:
    return [(f.start, f.end) for f in scanner(("email",), exclude).find(text)]


TEXTS = [
    "Author: Dev 1 <dev1@corp-mail.io>",
    "mail dev@corp.io. Or not",
    "icon@2x.png pkg@1.0.tgz lodash@4.17.21 a@b.com.png a@b.PNG a@b.Png",
    "user@host.com.1 x@host.co.c y@a-b_c.d-e.org",
    "git@github.com:org/repo.git ssh://git@host/x https://user@host.org/p",
    "ftp://.x@host.org :/x@host.org //y@host.org",
    "noreply@github.com no-reply@corp.io bot[bot]@users.noreply.github.com a@example.com",
    "b@x.example.com NOREPLY@CORP.IO Dependabot[bot]@corp.io",
    "..+a.b@corp.io __x@corp.io -x-@corp.io %@corp.io ._@corp.io",
    "zoë@exemple.fr 用户@例子.中国 name@sub.domaine.québec",
    "a@b@corp.io a@@corp.io @corp.io x@-corp.io x@corp-.io x@corp.i",
    "mail:a@b.cd, a@b.cd: a@b.cd:x a@b.cd:/ a@b.cd:~ a@b.cd-x a@b.cd_x",
    "first.last+tag@very-long-sub.domain-name.co.uk\nx" * 3,
]


@pytest.mark.parametrize("text", TEXTS)
def test_email_finder_finds_what_the_plain_reading_finds(text: str) -> None:
    assert _emails(text) == _plain_emails(text)


@pytest.mark.parametrize("text", TEXTS)
def test_email_finder_without_exclusions_finds_what_the_plain_reading_finds(text: str) -> None:
    assert _emails(text, ()) == _plain_emails(text, ())


_ALPHABET = string.ascii_letters[:8] + "AZ09._%+-@:/~[]" + "é用 \n" + "png"


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=_ALPHABET, max_size=60))
def test_email_finder_agrees_with_the_plain_reading_on_any_text(text: str) -> None:
    assert _emails(text) == _plain_emails(text)


@pytest.mark.parametrize("text", TEXTS)
def test_python_310_pattern_finds_the_same_addresses(text: str) -> None:
    # 3.10 has no possessive runs or atomic groups: its spelling must mean the same.
    native = re.compile(email_at_pattern(native=True))
    emulated = re.compile(email_at_pattern(native=False))
    assert [m.span() for m in native.finditer(text)] == [m.span() for m in emulated.finditer(text)]


_GLOB_ALPHABET = "abc@.-[]*?" + "Xé"


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.text(alphabet=_GLOB_ALPHABET, min_size=1, max_size=8), min_size=1, max_size=3),
    st.text(alphabet="abcABC@.-[]é", max_size=12),
)
def test_a_value_a_glob_matches_always_holds_the_hint(globs: list[str], value: str) -> None:
    regex = exclusion_regex(globs)
    hint = exclusion_hint(globs)
    assert regex is not None
    if hint is not None and value.isascii() and regex.fullmatch(value):
        assert hint.search(value.lower()) is not None


def test_a_glob_with_no_literal_piece_or_beyond_ascii_has_no_hint() -> None:
    assert exclusion_hint(["*"]) is None
    assert exclusion_hint(["*@example.com", "?*"]) is None
    assert exclusion_hint(["*@exämple.com"]) is None
    assert exclusion_hint([]) is None


def test_the_joined_pass_asks_for_no_submatches() -> None:
    # RE2's never_capture leaves named groups capturing; one left in the joined
    # pattern makes every hit pay for all of them (about 4 µs of 5).
    table = scanner().table
    assert table is not None
    assert table.joined._regexp.NumberOfCapturingGroups() == 0


def test_a_hit_is_checked_against_all_of_each_rows_folded_opening() -> None:
    from hookrun.hooks.pii_patterns import _FOLDED_SPAN

    table = scanner().table
    assert table is not None
    assert all(len(o) <= _FOLDED_SPAN for f in table.folded if f for o in f)
    # (a case-insensitive row keeps its lower-cased openings: aws_secret_key's)
    assert any(f is not None and b"aws" in f for f in table.folded)
