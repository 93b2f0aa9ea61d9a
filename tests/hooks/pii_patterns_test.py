"""The scanner's fast paths find exactly what the plain readings of the rules find.

The email finder runs its checks inside the regex engine (an atomic domain, file
extensions refused by look-behind, the local part read from the reversed text); the
plain reading here is the check-after-the-match loop it replaced. Exclusions are
tried only on values holding a literal piece of a glob; the property here is that
a value a glob matches always holds one.
"""

from __future__ import annotations

import dataclasses
import re
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hookrun.hooks import pii_patterns
from hookrun.hooks.pii_patterns import (
    _ADDRESS_ASCII,
    _ADDRESS_UNICODE,
    _COMPLEX,
    _EMAIL_AT,
    _EMAIL_AT_ASCII,
    DEFAULT_EXCLUDE,
    FILE_EXTENSIONS,
    LOCAL_RUN,
    _after_at,
    _DomainEnds,
    _local_start,
    _opens,
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


_ASCII_ALPHABET = string.ascii_letters[:6] + "XZ09._%+-@:/~[]_ \n" + "png"


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=_ASCII_ALPHABET, max_size=60))
def test_ascii_spelling_finds_what_the_unicode_one_finds_on_ascii_text(text: str) -> None:
    # ASCII text is searched with explicit ranges ([A-Za-z0-9]); they must mean
    # what the Unicode classes mean under re.ASCII, for the domain and the local part.
    fast = re.compile(email_at_pattern(ascii_only=True))
    plain = re.compile(email_at_pattern(), re.ASCII)
    assert [m.span() for m in fast.finditer(text)] == [m.span() for m in plain.finditer(text)]
    reverse = text[::-1]
    fast_local = _ADDRESS_ASCII[2]
    plain_local = re.compile(LOCAL_RUN, re.ASCII)
    for at in range(len(text) + 1):
        a, b = fast_local(reverse, at), plain_local.match(reverse, at)
        assert (a and a.span()) == (b and b.span())
    fast_keys = re.compile(_after_at(ascii_only=True))
    plain_keys = re.compile(_after_at(ascii_only=False), re.ASCII)
    assert [m.span() for m in fast_keys.finditer(text)] == [
        m.span() for m in plain_keys.finditer(text)
    ]


# Texts where a shortcut of the address finder could go wrong: what follows a domain
# (":" and a path, "/", a second "@"), what precedes a local part ("://", "/",
# punctuation), a run with no TLD, a run of "@".
_EDGES = [
    "a@b.cd:x a@b.cd:/ a@b.cd:~ a@b.cd:- a@b.cd:@e.fg a@b.cd: a@b.cd:",
    "a@b.cd/x a@b.cd~ a@b.cd.:x a@b.c-d.ef:_ a@b.cd::x",
    "://a@b.cd :/a@b.cd /a@b.cd ://.a@b.cd ://+a@b.cd %a@b.cd .-a@b.cd",
    "x@1.2.3 x@host x@@b.cd @b.cd a@b@c.de a@b.cd@e.fg",
    "zoë@exemple.fr://x 用户@例子.中国:x é://a@b.cd é.a@b.cd",
]
_EDGE_ALPHABET = "ab1Z._%+-@:/~ " + "é"


def _address_parts(text: str) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """Each "@"'s domain end and local start, as the finder's shortcuts read them and
    as the full regexes (and :func:`_local_start`'s walk) read them at that "@"."""
    ascii_only = text.isascii()
    after_at, _, local_run = _ADDRESS_ASCII if ascii_only else _ADDRESS_UNICODE
    domain = _EMAIL_AT_ASCII if ascii_only else _EMAIL_AT
    ends = _DomainEnds(domain)  # (a fresh memo)
    keys = {m.start(): m.group() for m in after_at(text)}
    shortcut, full = [], []
    reverse = text[::-1]
    for at in (k for k, c in enumerate(text) if c == "@"):
        found = domain.match(text, at)
        full.append((at, found.end() - at if found else 0))
        shortcut.append((at, ends[keys[at]] if at in keys else 0))
    locals_shortcut, locals_full = [], []
    for at in (k for k, c in enumerate(text) if c == "@"):
        run = local_run(reverse, len(text) - at)
        if run is not None:  # (None: the finder walks this one exactly)
            locals_shortcut.append((at, len(text) - run.end()))
            locals_full.append((at, _local_start(text, at)))
    return shortcut + locals_shortcut, full + locals_full


@pytest.mark.parametrize("text", _EDGES + TEXTS)
def test_each_domain_and_local_part_is_read_as_the_full_regex_reads_it(text: str) -> None:
    # A domain is read off the key its "@" starts (memoised by key), the local part
    # off the run before it; both must agree with the full regex / walk at every "@".
    shortcut, full = _address_parts(text)
    assert shortcut == full


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=_EDGE_ALPHABET, max_size=40))
def test_each_domain_and_local_part_is_read_as_the_full_regex_reads_it_anywhere(
    text: str,
) -> None:
    shortcut, full = _address_parts(text)
    assert shortcut == full


_TOKEN = "ghp_" + "aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6"
_AROUND_TOKENS = [
    f"https://x:{_TOKEN}@github.com/o/r a@corp.io b@corp.io",
    f"a@corp.io Bearer {_TOKEN} b@corp.io token={_TOKEN}@corp.io c@corp.io",
    f"postgres://u:Pa55w0rd-x9@db.corp.io/x d@corp.io https://y:{_TOKEN}@e.org e@corp.io",
    f"{_TOKEN}@corp.io f@corp.io noreply@corp.io g@example.com",
]


@pytest.mark.parametrize("text", _AROUND_TOKENS + TEXTS)
def test_an_address_overlapping_a_more_specific_find_is_left_to_that_find(text: str) -> None:
    found = scanner().find(text)
    if text in _AROUND_TOKENS:
        assert {f.kind for f in found} > {"email"}  # (tokens and addresses both found)
    others = [(f.start, f.end) for f in found if f.kind != "email"]
    expected = [
        (s, e) for s, e in _plain_emails(text) if not any(s < oe and os < e for os, oe in others)
    ]
    assert [(f.start, f.end) for f in found if f.kind == "email"] == expected


# Addresses that start where a find ends: next to it, not over it, so both stay. (A
# user pattern ending in ">", which no local part holds; a key's closing dashes would
# not do: the run before an "@" goes back through them to the "KEY" before.)
_AGAINST_FINDS = [
    "T<abc>dev@corp.io",
    "x T<abc>d@corp.io T<b> e@corp.io T<c>f@corp.io",
    "T<abc>T<d>dev@corp.io",
]


@pytest.mark.parametrize("text", _AGAINST_FINDS)
def test_an_address_that_starts_where_a_find_ends_is_kept(text: str) -> None:
    found = scanner(user=(("ticket", r"T<[a-z]+>"),)).find(text)
    tickets = [(f.start, f.end) for f in found if f.kind == "ticket"]
    addresses = [(f.start, f.end) for f in found if f.kind == "email"]
    assert tickets == [m.span() for m in re.finditer(r"T<[a-z]+>", text)]
    assert addresses == _plain_emails(text)  # (none overlaps a ticket)
    assert {s for s, _ in addresses} & {e for _, e in tickets}  # (the adjacent case)


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


def test_the_pass_and_the_plain_rows_ask_for_no_submatches() -> None:
    # RE2's never_capture leaves named groups capturing; one left in the openings'
    # pattern, or in a row whose match is its value, makes every hit pay for it.
    table = scanner().table
    assert table is not None
    assert table.heads._regexp.NumberOfCapturingGroups() == 0
    for i in range(len(table.rules)):
        row, values, ends, quick = table.rows[i] or table._row(i)
        if quick is not None:
            assert quick.__self__.groups == 0
        elif table.shape[i] != _COMPLEX:
            assert row.NumberOfCapturingGroups() == 0
        else:
            assert values or ends


def test_a_hit_is_checked_against_all_of_each_rows_folded_opening() -> None:
    from hookrun.hooks.pii_patterns import _FOLDED_SPAN

    table = scanner().table
    assert table is not None
    assert all(len(o) <= _FOLDED_SPAN for f in table.folded if f for o in f)
    # (a case-insensitive row keeps its lower-cased openings: aws_secret_key's)
    assert any(f is not None and b"aws" in f for f in table.folded)


def _each_rows_own_test(data: bytes, start: int) -> list[int]:
    """The rows a hit at ``start`` may belong to, each row's openings tested in turn."""
    table = scanner().table
    assert table is not None
    rows = table.by_byte[data[start]]
    return [i for i in rows if _opens(table.openings[i], table.folded[i], data, start)]


def _openings_and_lookalikes() -> list[bytes]:
    table = scanner().table
    assert table is not None
    out = []
    for exact, folded in zip(table.openings, table.folded, strict=True):
        for opening in (exact or ()) + (folded or ()):
            for variant in (opening, opening.upper(), opening.swapcase(), opening[:-1]):
                out += [variant + b"Zq9_x-", b"x " + variant + b".\n"]
    return out


@pytest.mark.parametrize("data", _openings_and_lookalikes())
def test_the_opener_leaves_the_rows_each_rows_own_test_leaves(data: bytes) -> None:
    # A hit's first byte picks the rows; one regex of their openings (longest first,
    # memoised) must narrow them as testing each row's openings would.
    table = scanner().table
    assert table is not None
    for start in range(len(data)):
        if len(table.by_byte[data[start]]) > 1:
            expected = _each_rows_own_test(data, start)
            assert table._opening_rows(data[start], data, start) == expected
            assert table._opening_rows(data[start], data, start) == expected  # (memoised)


_GLOB_SETS = [
    DEFAULT_EXCLUDE,
    ("*@corp.io",),
    ("ghp_ab*", "*9"),
    ("*db.corp*", "noreply@*"),
    ("?*",),
]


@pytest.mark.parametrize("globs", _GLOB_SETS)
@pytest.mark.parametrize("text", _AROUND_TOKENS + TEXTS)
def test_the_shortcut_past_the_exclusion_test_finds_what_testing_each_value_finds(
    text: str, globs: tuple[str, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A value with no character of the globs' pieces skips their test; addresses
    # none of which holds a piece skip it all at once (many: the repeated text).
    # The finds must be those of testing every value in turn.
    many = " ".join([text] * 30)
    fast = [[tuple(f) for f in scanner(exclude=globs).find(t)] for t in (text, many)]
    monkeypatch.setattr(pii_patterns, "exclusion_signal", lambda patterns: None)
    monkeypatch.setattr(pii_patterns, "_newline_free", lambda pieces: None)
    scanner.cache_clear()
    try:
        slow = [[tuple(f) for f in scanner(exclude=globs).find(t)] for t in (text, many)]
    finally:
        scanner.cache_clear()
    assert fast == slow


_ADDRESS_GLOB_ALPHABET = "ab.-@*?["
_ADDRESS_GLOBS = ["*ab@*", "ba@*", "*a@a.ab", "*@b-a*", "*b-a*", "x*", "*[bot]@*", "?*@ab.ba"]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.text(alphabet=_ADDRESS_GLOB_ALPHABET, min_size=1, max_size=8),
            st.sampled_from(_ADDRESS_GLOBS),
        ),
        max_size=3,
    ),
    st.lists(st.sampled_from(["a", "ab", "ba", "ab.", "-", "noreply", "[bot]", "x"]), max_size=4),
    st.lists(st.sampled_from(["a.ab", "b-a.ab", "ab.ba", "a.ab:x"]), min_size=1, max_size=3),
)
def test_addresses_skip_the_exclusion_test_only_when_no_glob_can_match_one(
    globs: list[str], local_parts: list[str], domains: list[str]
) -> None:
    # The finder skips the globs when no local part or distinct domain holds a
    # glob's piece: the finds must be those of testing every address.
    text = " ".join(f"{lp or 'z'}@{d}" for lp in local_parts or ["z"] for d in domains) * 3
    scan = scanner(("email",), tuple(globs))
    fast = [tuple(f) for f in scan.find(text)]
    slow = [tuple(f) for f in dataclasses.replace(scan, exclude_pieces=None).find(text)]
    assert fast == slow
