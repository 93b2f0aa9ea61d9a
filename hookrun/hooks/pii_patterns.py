"""What counts as PII or a secret in text, and how to find it in one pass.

The credential families live in :mod:`hookrun.hooks.secret_rules` (one RE2
pattern per shape). A scanner reads the rows it was asked for as one RE2
alternation, leftmost-first, and walks the text once: one RE2 program of every
row's opening (``\\b(?:gh[pousr]_|github_pat_)``, ``AKIA``…) finds where a hit may
start, and the rows whose openings agree run there, anchored (see :class:`_Table`).
RE2's automaton is linear in the text whatever the number of rows, so a 50 KB tool
output costs one pass, not fifty. (CPython's ``re`` cannot do that: an
alternation of groups pays every row at every position, ~50 ns a character.)
Each hit is then judged in Python — which row matched, the character before it,
the row's own check, the placeholder / low-entropy test — and hits are rare.
Emails are found apart, from each ``@`` in one C-level sweep of Python's ``re``
(a git log holds hundreds; an RE2 hit costs a call from Python each); user
patterns (Python syntax) run after, one ``finditer`` each.

Precision choices (seed 000 R2 — a false positive is a bug too):

- email: the top-level domain must be letters and not a file extension, so
  ``icon@2x.png``, ``lodash@4.17.21``, ``@types/node``, ``@decorator`` and
  ``HEAD@{1}`` survive; ``user@host:path`` (scp/ssh remotes such as
  ``git@github.com:org/repo.git``) and ``scheme://user@host`` name an account on
  a host, not a mailbox, and survive too.
- placeholders survive: ``ghp_xxxx…``, ``xoxb-your-token-here``,
  ``AKIAIOSFODNN7EXAMPLE``, ``sntryu_aaaa…`` (``secret_rules.looks_real``).
- a PEM block is a *private* key with a body (public keys, certificates and a
  bare ``-----BEGIN RSA PRIVATE KEY-----`` line survive); one cut off before its
  END line is redacted to the end of the text, or of the JSON string it sits in.
- a password in a URL (``postgres://u:pw@db``) is redacted, the user name kept;
  ``$VAR``, ``${VAR}``, ``<password>``, ``***`` survive. A known token in that
  place (``https://x:ghp_…@github.com``, ``Bearer ghp_…``) is reported as what it is.
"""

from __future__ import annotations

import fnmatch
import operator
import re
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import compress, repeat
from operator import add, itemgetter, lt, sub
from typing import Any, NamedTuple, cast

import re2

try:
    from re._constants import MAXREPEAT  # type: ignore[import-not-found, unused-ignore]
    from re._parser import parse as _sre_parse  # type: ignore[import-not-found, unused-ignore]
except ImportError:  # pragma: no cover - Python 3.10
    from sre_constants import MAXREPEAT  # type: ignore[no-redef, unused-ignore]
    from sre_parse import parse as _sre_parse  # type: ignore[no-redef, unused-ignore]

from hookrun.hooks.secret_rules import DERIVED, RULES, Derived, Rule, looks_real

_EXTENSIONS = """
png jpg jpeg gif svg webp ico bmp tif tiff avif js mjs cjs ts tsx jsx json md txt css scss
html htm xml yml yaml toml lock py rb go rs java kt c h cpp hpp cs php sh ps1 bat zip gz tgz
tar whl jar pdf csv log ini cfg conf map wasm woff woff2 ttf otf mp3 mp4 mov webm
"""
FILE_EXTENSIONS = frozenset(_EXTENSIONS.split())


def _email_ok(text: str, start: int, end: int) -> bool:
    value = text[start:end]
    tld = value.rsplit(".", 1)[-1].lower()
    if tld in FILE_EXTENSIONS:
        return False
    if text[max(0, start - 3) : start] == "://":
        return False  # ssh://git@host/…, https://user@host: a login, not a mailbox
    nxt = text[end : end + 2]
    return not (len(nxt) == 2 and nxt[0] == ":" and (nxt[1] in "/~" or nxt[1].isalnum()))


# Letters and digits of any script, not [A-Za-z0-9]: internationalised
# addresses (zoë@…, 用户@…) are PII too. RE2 syntax: \p{L} letters, \p{N} digits.
_LD = r"[\p{L}\p{N}]"
_LABEL = rf"{_LD}(?:[\p{{L}}\p{{N}}_-]*{_LD})?"
EMAIL_DOMAIN = rf"{_LABEL}(?:\.{_LABEL})*\.\p{{L}}{{2,24}}"
EMAIL = Rule(
    "email",
    # Not a row of the RE2 table: addresses are common (a git log holds hundreds)
    # and each RE2 hit is a call from Python (~1 µs). Python's re finds them from
    # each "@" in one C-level sweep (_ADDRESS_ASCII); the local part is found by
    # matching from the "@" in the reversed text (LOCAL_RUN). The shape:
    rf"[\p{{L}}\p{{N}}_][\p{{L}}\p{{N}}_.%+-]*@{EMAIL_DOMAIN}",
    "an email address",
    "EMAIL",
    check=_email_ok,
    min_entropy=0,
    placeholder=False,
)
# The same domain in Python's syntax: \w and [^\W_] are Unicode there.
# A domain label: letters or digits, with "-" / "_" inside. Python 3.11's possessive
# runs never give characters back (a label only ends before a ".", so that never
# helps) and halve the time; 3.10 has no possessive forms: the same matches, slower.
_LABEL_POSSESSIVE = r"[^\W_]++(?:[-_]++[^\W_]++)*+"
_LABEL_BACKTRACKING = r"[^\W_](?:[\w-]*[^\W_])?"


def atomic(body: str, *, native: bool = sys.version_info >= (3, 11)) -> str:
    """``body`` as an atomic group: once it matched, the engine never retries it.

    ``(?>…)`` from Python 3.11; before, the look-ahead-and-back-reference form, which
    means the same (``body`` must hold no capturing group of its own).
    """
    return f"(?>{body})" if native else rf"(?=({body}))\1"


def email_at_pattern(
    *, native: bool = sys.version_info >= (3, 11), ascii_only: bool = False
) -> str:
    """What follows the "@" of an address, as :data:`_EMAIL_AT` searches it.

    ``ascii_only``: spelt for ASCII text with explicit ranges — the same matches
    there as the Unicode spelling compiled with ``re.ASCII``, but each class is a
    byte map sre tests in one step, where a category class calls out per character
    (the domain costs about half as much).
    """
    label = _LABEL_POSSESSIVE if native else _LABEL_BACKTRACKING
    domain = (
        rf"{label}(?:\.{label})*\.[^\W\d_]{{2,24}}(?![\w-])"
        r"(?!:(?:[/~]|[^\W_]))"  # user@host:path is an scp/ssh remote, not a mailbox
    )
    if ascii_only:
        domain = _to_ascii_ranges(domain)
    return "@" + atomic(domain, native=native) + _not_an_extension()


# The Unicode classes of the email patterns and their ASCII ranges (re.ASCII meaning).
_ASCII_RANGES = (
    (r"[^\W\d_]", "[A-Za-z]"),
    (r"[^\W_]", "[A-Za-z0-9]"),
    (r"[\w.%+-]", "[A-Za-z0-9_.%+-]"),
    (r"[\w.-]", "[A-Za-z0-9_.-]"),
    (r"[\w-]", "[A-Za-z0-9_-]"),
    (r"\w", "[A-Za-z0-9_]"),
)


def _to_ascii_ranges(pattern: str) -> str:
    for unicode_class, ascii_class in _ASCII_RANGES:
        pattern = pattern.replace(unicode_class, ascii_class)
    return pattern


def _not_an_extension() -> str:
    """Look-behinds refusing a TLD that is a file extension, in any letter case.

    They follow an atomic group holding the whole domain: the address the search
    settled on is refused whole (``a@b.com.png`` is not ``a@b.com``), as a check
    after the match would, but inside the regex engine.
    """
    by_length: dict[int, list[str]] = {}
    for ext in sorted(FILE_EXTENSIONS):
        if ext.isalpha() and len(ext) >= 2:  # (a TLD is two letters or more)
            cased = "".join(f"[{c}{c.upper()}]" for c in ext)
            by_length.setdefault(len(ext), []).append(cased)
    return "".join(rf"(?<!\.(?:{'|'.join(alts)}))" for _, alts in sorted(by_length.items()))


_EMAIL_AT = re.compile(email_at_pattern())
# The same for ASCII text (what nearly every tool output is): the same matches there,
# without the Unicode category lookups.
_EMAIL_AT_ASCII = re.compile(email_at_pattern(ascii_only=True))


class _DomainEnds(dict[str, int]):
    """Where an address ends, counted from its "@" (0: none), by what follows the "@".

    The key is the text from the "@" through the run of ``[\\w.-]`` after it (every
    character a domain is made of) and one character more, two after a ":"
    (:func:`_after_at`): a domain is a prefix of the run, and its checks read at
    most the two characters after it (``host:path`` is a remote), so the domain
    regex finds in the key what it finds in the text. A git log names the same few
    domains hundreds of times: each key is searched once (bounded: cleared when full).
    """

    def __init__(self, domain: re.Pattern[str]) -> None:
        super().__init__()
        self.domain = domain.match

    def __missing__(self, key: str) -> int:
        found = self.domain(key)
        end = found.end() if found is not None else 0
        if len(self) >= _MEMO_SIZE:
            self.clear()
        self[key] = end
        return end


def _after_at(*, ascii_only: bool) -> str:
    """Each "@" a domain may follow, and its :class:`_DomainEnds` key.

    A domain's run holds a "." and a letter (its TLD's): an "@" with none after it
    (``lodash@4.17.21``, ``@decorator``) is passed over inside the search. The key
    holds no "@": no "@" is passed over by an earlier key.
    """
    # (single-character repeats only: sre runs them without a repeat context; the
    # first gives back to the run's last "." + letter, the second takes the rest)
    pattern = r"@[\w.-]*\.[^\W\d_][\w.-]*:?[^@]?"
    return _to_ascii_ranges(pattern) if ascii_only else pattern


# The local part before an "@", read right to left in the reversed text: the run of
# its characters, when that run opens with no punctuation and has no "/" right
# before it. It fails where either holds (rare): the local part is then the run
# less the punctuation it opens with, unless "://" is right before that (a login).
LOCAL_RUN = (
    r"[\w.%+-]*+" if sys.version_info >= (3, 11) else atomic(r"[\w.%+-]*", native=False)
) + r"(?<![.%+-])(?!/)"
_LOCAL_PUNCTUATION = ".%+-"  # (the run's characters that are not \w)
# (ASCII text, the usual, is searched with byte-map classes; any other with Unicode ones)
_ADDRESS_ASCII = (
    re.compile(_after_at(ascii_only=True)).finditer,
    _DomainEnds(_EMAIL_AT_ASCII),
    re.compile(_to_ascii_ranges(LOCAL_RUN)).match,
)
_ADDRESS_UNICODE = (
    re.compile(_after_at(ascii_only=False)).finditer,
    _DomainEnds(_EMAIL_AT),
    re.compile(LOCAL_RUN).match,
)
BY_KIND: dict[str, Rule] = {}
for _rule in (*RULES, EMAIL):
    BY_KIND.setdefault(_rule.kind, _rule)
KINDS: tuple[str, ...] = tuple(BY_KIND)

# Not personal: documentation domains, GitHub's no-reply and bot addresses.
DEFAULT_EXCLUDE: tuple[str, ...] = (
    "*@example.com",
    "*@example.org",
    "*@example.net",
    "*@*.example.com",
    "noreply@github.com",
    "*@users.noreply.github.com",
    "noreply@*",
    "no-reply@*",
    "*[bot]@*",
)


_OPTIONS = re2.Options()
# (RE2's 8 MiB default made the DFA cache of the whole table joined thrash, falling
# back to the NFA; a row alone or the openings need far less, 64 MiB is a ceiling.)
_OPTIONS.max_mem = 64 << 20
_OPTIONS.log_errors = False


_NO_CAPTURE = re2.Options()
_NO_CAPTURE.max_mem = _OPTIONS.max_mem
_NO_CAPTURE.log_errors = False
_NO_CAPTURE.never_capture = True
_UNANCHORED = re2._Anchor.UNANCHORED
_AT_START = re2._Anchor.ANCHOR_START
_NO_MATCH = (-1, -1)


# A row's own regex (RE2), its value groups, its end-mark groups; or Python's match.
_Row = tuple[Any, list[int], list[int], Callable[[bytes, int], "re.Match[bytes] | None"] | None]


class _Table:
    """Rows read as one RE2 alternation, leftmost-first: the first hit, by its first row.

    A pass finds where a hit may start with one RE2 program of every row's opening
    (:func:`head_pattern`: ``\\b(?:gh[pousr]_|github_pat_)``, ``(?i:discord)``…),
    then runs at that place, anchored, the rows whose openings agree with it, in
    order: the first that matches is the hit, as the joined alternation would
    choose it. An unanchored pass of the whole joined table would find the same,
    but its automaton follows every start at once and counts along every counted
    run of every row (``ghp_`` + 36, a 64-hex key…): RE2 builds those states as the
    text needs them, and in a fresh process the first scan of a token-dense output
    paid hundreds of milliseconds for them. The openings' automaton has a few
    hundred states; an anchored row follows one start.

    Which rows may match at a place is read off its first byte (``by_byte``: the
    rows that can start with it — usually one: ``g`` a GitHub or GitLab token…),
    then its first four bytes, then the rows' whole openings (memoised).
    """

    def __init__(self, rules: tuple[Rule, ...]) -> None:
        self.rules = rules
        # (what each pattern's openings are, read off it by Python's parser: RULES' rows
        # from secret_rules.DERIVED, written by scripts/pii_derived.py, a test rebuilds it)
        derived = [DERIVED.get(r.pattern) or derive(r.pattern) for r in rules]
        self.words_only = [d[4] for d in derived]
        heads = [d[0] or _uncaptured(r.pattern) for r, d in zip(rules, derived, strict=True)]
        self.heads = re2.compile("|".join(f"(?:{h})" for h in heads), _NO_CAPTURE)
        # Each row's own regex, compiled the first time a hit needs it (a fresh
        # process pays for the rows it uses, not for fifty): without submatches
        # when its whole match or all but its end mark is the value.
        self.rows: list[_Row | None] = [None] * len(rules)
        self.shape = [_shape(r.pattern) for r in rules]
        # Literal openings ("AKIA", "ABSK", "AIza"…): a row whose openings all miss
        # the hit is skipped without running it.
        self.openings = [d[1] for d in derived]
        # ... and, for a row with none, the openings of its case-insensitive parts.
        self.folded = [d[2] for d in derived]
        # (by row, each row's first bytes: a few each, not 256 tests a row in a fresh process)
        self.by_byte: list[list[int]] = [[] for _ in range(256)]
        for i, d in enumerate(derived):
            firsts = d[3]
            for b in range(256) if firsts is None else firsts:
                self.by_byte[b].append(i)
        # For a first byte several rows share: one regex of all their openings, longest
        # first, reads the longest opening at a hit; the rows it leaves are memoised
        # by that opening (a hit then costs one match, not one test per row).
        # (built the first time a hit opens with that byte)
        self.openers: dict[int, re.Pattern[bytes] | None] = {}
        self.bare = [
            [i for i in rows if self.openings[i] is None and self.folded[i] is None]
            for rows in self.by_byte
        ]
        self.by_opening: dict[bytes, list[int]] = {}
        self.by_head: dict[bytes, list[int]] = {}  # see _head_rows
        self.quick_heads: dict[bytes, _Quick | None] = {}  # see _quick_head
        # What each row's hit is judged by, in one tuple (a hit unpacks it at once):
        # kind, back regex, back length, left regex, special, check, entropy floor,
        # placeholder test, prefix.
        self.judges = [
            (
                r.kind,
                re.compile(f"[{r.back[0]}]{{{r.back[1]}}}$") if r.back else None,
                r.back[1] if r.back else 0,
                re.compile(f"[{r.left}]") if r.left else None,
                _PEM if r.kind == "private_key" else _INNER if r.kind in _GENERIC else 0,
                r.check,
                r.min_entropy,
                r.placeholder,
                r.prefix,
            )
            for r in rules
        ]
        # What a row judged by its value alone reads (see Scanner._plain_values):
        # rows with no context, no span of their own and no check of their own.
        self.plain = frozenset(
            i
            for i, (_, back, _, left, special, check, *_) in enumerate(self.judges)
            if back is None and left is None and not special and check is None
        )
        self.kinds = [r.kind for r in rules]
        # Where a row failed, the end of its run: it is not tried again before (Rule.run).
        self.runs = [re.compile(r.run.encode("ascii")).match if r.run else None for r in rules]
        # Each row's looks_real verdict on a value, memoised (rows alike share one).
        memos: dict[tuple[float, bool, int], _Verdicts] = {}
        self.verdicts = [
            memos.setdefault(
                (r.min_entropy, r.placeholder, r.prefix),
                _Verdicts(r.min_entropy, r.placeholder, r.prefix),
            ).__getitem__
            for r in rules
        ]

    def hits(self, data: bytes) -> tuple[list[int], list[int], list[int], bool]:
        """The row, start and end of each value in the UTF-8 ``data``, byte offsets, in order;
        and whether the values are disjoint.

        Three lists filled in one loop (no generator: an env dump's hundred hits each
        paid a resume and a tuple). ``data`` must end with a newline (no row's token
        holds one), so that every end mark consumes a character and a match never
        ends in ``$``. The hits come left to right by where their matches start.

        After a hit the pass resumes right after where its match started, not after its
        match: a secret glued to a value must be found whatever it is glued to — a key
        whose ``-----BEGIN`` opens with the end mark a token consumed, a ``herokuToken=…``
        whose keyword a token's own alphabet ran over (``glpat-…-herokuToken="…"``), a
        token inside a value that its judging then refuses (``ZXlK…-ghp_…``: no JWT).
        A hit whose value starts inside an earlier one (rare: an opening inside a
        token) makes ``disjoint`` False; the finds are then sorted and made disjoint
        after judging (``_disjoint``). The pass resumes at most :data:`_REOPEN` bytes
        before the end of the furthest value, so that a text of values inside values
        stays linear.
        """
        found_rows: list[int] = []
        starts: list[int] = []
        stops: list[int] = []
        pos, size = 0, len(data)
        last = 0  # where the furthest value ends
        disjoint = True
        heads = self.heads._regexp.Match
        by_byte, by_head, table_rows, shapes = self.by_byte, self.by_head, self.rows, self.shape
        quick_heads, unseen, head_size, reopen = self.quick_heads, _UNSEEN, _HEAD, _REOPEN
        add_row, add_start, add_stop = found_rows.append, starts.append, stops.append
        failed: dict[int, int] = {}  # row -> the end of the run it failed in (Rule.run)
        while pos < size:
            start = heads(_UNANCHORED, data, pos, size)[0][0]
            if start < 0:
                break
            head = data[start : start + head_size]
            fast = quick_heads.get(head, unseen)
            if fast is unseen:
                fast = self._quick_head(data, start, head)
            if fast is not None:  # (the usual hit: one row, matched by Python's engine)
                i, quick, cut = fast
                found = quick(data, start)
                pos = start + 1
                if found is None:
                    continue
                stop = found.end() - cut
                add_row(i)
                add_start(start)
                add_stop(stop)
                if start < last:
                    disjoint = False
                    if stop <= last:
                        continue
                last = stop
                if stop - reopen > pos:
                    pos = stop - reopen
                continue
            first = data[start]
            rows = by_byte[first]
            if len(rows) > 1:  # rows that share the first byte rarely share the opening
                agreeing = by_head.get(head)
                if agreeing is None:
                    agreeing = self._head_rows(first, head)
                if len(agreeing) != 1:  # (the rows' whole openings tell them apart)
                    agreeing = self._opening_rows(first, data, start)
                rows = agreeing
            pos = start + 1  # (when no row matches here)
            for i in rows:
                if failed and start < failed.get(i, 0):
                    continue  # (inside the run the row failed in)
                row, values, ends, quick = table_rows[i] or self._row(i)
                if quick is not None:
                    found = quick(data, start)
                    if found is None:
                        continue
                    end = found.end()
                else:
                    spans = row.Match(_AT_START, data, start, size)
                    end = spans[0][1]
                    if end < 0:
                        run = self.runs[i]
                        if run is not None:
                            in_run = run(data, start)
                            if in_run is not None:
                                failed[i] = in_run.end()
                        continue
                shape = shapes[i]
                if shape == _PLAIN:
                    value_start, value_end = start, end
                elif shape == _COMPLEX:
                    value_start, value_end = _value_span(spans, values, ends)
                else:  # _TAIL: less its end mark (an ASCII one is one byte)
                    value_start = start
                    value_end = (
                        end - 1 if data[end - 1] < 0x80 else end - _last_char_width(data, end)
                    )
                found_rows.append(i)
                starts.append(value_start)
                stops.append(value_end)
                if value_start < last:
                    disjoint = False
                if value_end > last:
                    last = value_end
                    pos = max(pos, value_end - reopen)
                break
        return found_rows, starts, stops, disjoint

    def _row(self, i: int) -> _Row:
        """Row ``i``'s own regex, its value groups, its end-mark groups, its quick match."""
        pattern = self.rules[i].pattern
        if self.words_only[i]:
            # Python's engine reads such a row as RE2 does (a word boundary, literals,
            # counted runs of word characters, an end mark; the same leftmost-first
            # choices), and a match from Python costs a quarter of an RE2 call.
            quick = re.compile(_uncaptured(pattern).encode("ascii")).match
            row: _Row = (None, [], [], quick)
            self.rows[i] = row
            return row
        if self.shape[i] != _COMPLEX:
            regex = re2.compile(_uncaptured(pattern), _NO_CAPTURE)
            row = self.rows[i] = (regex._regexp, [], [], None)
            return row
        regex = re2.compile(_rename(pattern), _OPTIONS)
        index = regex.groupindex
        values = [n for name, n in index.items() if name.startswith("v")]
        ends = [n for name, n in index.items() if name.startswith("e")]
        row = self.rows[i] = (regex._regexp, values, ends, None)
        return row

    def _quick_head(self, data: bytes, start: int, head: bytes) -> _Quick | None:
        """The one row a hit opening with ``head`` can be, when Python's engine matches it.

        Memoised by the head: :meth:`hits` then matches that row at once, with no
        other look-up. None (a hit read the long way) unless the first byte's rows
        or the head's agreeing rows (:meth:`_head_rows`) are that row alone: the rows
        a hit's whole openings leave are not the head's to say.
        """
        first = data[start]
        rows = self.by_byte[first]
        if len(rows) > 1:
            rows = self.by_head.get(head) or self._head_rows(first, head)
        fast: _Quick | None = None
        if len(rows) == 1:
            i = rows[0]
            quick = (self.rows[i] or self._row(i))[3]
            if quick is not None and self.runs[i] is None:  # (a run row: the long way)
                # (Python's engine reads bytes: a _TAIL row's end mark, a class, is one)
                fast = (i, quick, 0 if self.shape[i] == _PLAIN else 1)
        if len(self.quick_heads) < _MEMO_SIZE:
            self.quick_heads[head] = fast
        return fast

    def _head_rows(self, first: int, head: bytes) -> list[int]:
        """The rows of ``by_byte[first]`` whose openings agree with a hit's first bytes.

        A superset of the rows whose openings match (an opening longer than the head
        need only begin with it): when it holds one row, that row is the hit's, with
        no regex run (``ghp_``, ``AKIA``: one dictionary look-up a hit).
        """
        rows = [i for i in self.by_byte[first] if _agrees(self.openings[i], self.folded[i], head)]
        if len(self.by_head) < _MEMO_SIZE:
            self.by_head[head] = rows
        return rows

    def _opening_rows(self, first: int, data: bytes, start: int) -> list[int]:
        """The rows of ``by_byte[first]`` whose openings allow a match at ``start``."""
        if first in self.openers:
            opener = self.openers[first]
        else:
            opener = self.openers[first] = _opener(self.openings, self.folded, self.by_byte[first])
        found = opener.match(data, start) if opener is not None else None
        if found is None:
            return self.bare[first]
        opening = found.group()
        rows = self.by_opening.get(opening)
        if rows is None:
            # Any opening that matches at start is a prefix of the longest one that
            # does (the opener's pick): testing the rows on it alone is exact.
            rows = [
                i
                for i in self.by_byte[first]
                if _opens(self.openings[i], self.folded[i], opening, 0)
            ]
            if len(self.by_opening) < _MEMO_SIZE:
                self.by_opening[opening] = rows
        return rows


_PLAIN, _TAIL, _COMPLEX = range(3)


class _Verdicts(dict[str, bool]):
    """:func:`looks_real` of each value for one row's floor, placeholder test and prefix.

    One dictionary look-up a value where ``looks_real``'s cache builds and hashes a
    key of four (bounded: cleared when full).
    """

    def __init__(self, min_entropy: float, placeholder: bool, prefix: int) -> None:
        super().__init__()
        self.judged = (min_entropy, placeholder, prefix)

    def __missing__(self, value: str) -> bool:
        real = looks_real(value, *self.judged)
        if len(self) >= _MEMO_SIZE:
            self.clear()
        self[value] = real
        return real


# f(x) for each f and x of two maps, in C (operator.call is Python 3.11's)
_call: Callable[[Callable[[str], bool], str], bool] = getattr(operator, "call", lambda f, x: f(x))
# A row matched by Python's engine at a hit: its index, its match, the bytes of its
# end mark (0: _PLAIN, 1: _TAIL).
_Quick = tuple[int, Callable[[bytes, int], "re.Match[bytes] | None"], int]
_UNSEEN: Any = object()  # (a head not yet memoised)
_PEM, _INNER = 1, 2  # a hit's special judging: a key's body, a known token inside
_GENERIC = frozenset({"bearer_token", "url_password"})
_MEMO_SIZE = 4096  # openings seen (case variants of a few dozen words: far fewer)


def _opener(
    openings: list[tuple[bytes, ...] | None],
    folded: list[tuple[bytes, ...] | None],
    rows: list[int],
) -> re.Pattern[bytes] | None:
    """One regex of every opening of ``rows`` (folded ones case-insensitive), longest first."""
    if len(rows) < 2:
        return None
    alternatives: list[tuple[int, bytes]] = []
    for i in rows:
        alternatives += [(len(o), re.escape(o)) for o in openings[i] or ()]
        alternatives += [(len(o), b"(?i:" + re.escape(o) + b")") for o in folded[i] or ()]
    if not alternatives:
        return None
    alternatives.sort(key=lambda a: -a[0])  # (stable: ties keep the rows' order)
    return re.compile(b"|".join(a for _, a in alternatives))


_FOLDED_SPAN = 64  # longer than any row's opening (a test pins it)
_HEAD = 4  # bytes of a hit that pick its row when they agree with one row's openings
# How far back from the end of the furthest value a hit is still looked for (_Table.hits):
# longer than any real token, so that one inside a value its judging refuses is found;
# bounded, so that a text of values inside values stays linear.
_REOPEN = 4096


def _agrees(
    openings: tuple[bytes, ...] | None, folded: tuple[bytes, ...] | None, head: bytes
) -> bool:
    """One of the openings and ``head`` are equal as far as both go (lower-cased: folded)."""
    if openings is None:
        if folded is None:
            return True
        openings, head = folded, head.lower()
    return any(o[: len(head)] == head[: len(o)] for o in openings)


def _opens(
    openings: tuple[bytes, ...] | None, folded: tuple[bytes, ...] | None, data: bytes, start: int
) -> bool:
    """A row with these literal (or lower-cased) openings can match at ``start``."""
    if openings is not None:
        return data.startswith(openings, start)
    if folded is not None:
        return data[start : start + _FOLDED_SPAN].lower().startswith(folded)
    return True


def _shape(pattern: str) -> int:
    """PLAIN: the match is the value; TAIL: less one end mark; COMPLEX: run the row to know."""
    if "(?P<v>" in pattern or _top_level_bar(pattern):
        return _COMPLEX if "(?P<e>" in pattern or "(?P<v>" in pattern else _PLAIN
    if "(?P<e>" not in pattern:
        return _PLAIN
    return _TAIL if pattern.count("(?P<e>") == 1 and pattern.endswith("|$)") else _COMPLEX


def _top_level_bar(pattern: str) -> bool:
    depth, i, in_class = 0, 0, False
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            i += 2
            continue
        if in_class:
            in_class = c != "]"
        elif c == "[":
            in_class = True
            if pattern[i + 1 : i + 2] == "]" or pattern[i + 1 : i + 3] == "^]":
                i += 2 if pattern[i + 1] == "]" else 3
                continue
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c == "|" and depth == 0:
            return True
        i += 1
    return False


def _last_char_width(data: bytes, end: int) -> int:
    """Bytes of the UTF-8 character that ends at ``end``."""
    width = 1
    while width < 4 and end - width > 0 and data[end - width] & 0xC0 == 0x80:
        width += 1
    return width


@lru_cache(maxsize=256)
def _parsed(pattern: str) -> Any:
    """``pattern`` parsed by Python's parser (read, never changed); None if it cannot.

    Python's parser reads RE2's syntax but for \\p{…} classes (any non-ASCII
    stand-in will do: it makes "any") and repeated group names (renamed). Parsed
    once for all the readings of a row (a fresh process builds the table). The readings
    walk each SubPattern's own list (``.data``): iterating a SubPattern calls its
    Python ``__getitem__`` once an element (a third of a fresh process's table build).
    """
    try:
        return _sre_parse(re.sub(r"\\p\{\w+\}", "\u0100", _rename(pattern)))
    except (re.error, ValueError):
        return None


def derive(pattern: str) -> Derived:
    """What the table reads off a row's pattern: its head (:func:`head_pattern`), literal
    openings, lower-cased openings when it has none, first bytes, and whether it counts
    word runs only (:func:`counts_words_only`)."""
    openings = literal_prefixes(pattern)
    return (
        head_pattern(pattern),
        openings,
        literal_prefixes(pattern, fold=True) if openings is None else None,
        first_bytes(pattern),
        counts_words_only(pattern),
    )


def first_bytes(pattern: str) -> frozenset[int] | None:
    """The bytes a match of ``pattern`` can start with; None when it cannot tell (any)."""
    parsed = _parsed(pattern)
    if parsed is None:  # RE2-only syntax: assume any byte
        return None
    found: set[int] = set()
    ignore_case = bool(parsed.state.flags & re.IGNORECASE)
    nullable = _first(parsed.data, found, ignore_case)
    if nullable is None or nullable:
        return None
    return frozenset(found)


def literal_prefixes(pattern: str, *, fold: bool = False) -> tuple[bytes, ...] | None:
    """The literal texts every match of ``pattern`` opens with; None when it has none.

    ``fold``: also through case-insensitive parts, all lower-cased — then a match
    opens with one of them *once lower-cased* (``aws`` for ``(?i:aws_?secret…)``).
    """
    parsed = _parsed(pattern)
    if parsed is None:
        return None
    if parsed.state.flags & re.IGNORECASE and not fold:
        return None
    found = _openings(parsed.data, fold)
    if not found or any(not p for p in found):
        return None
    return tuple((p.lower() if fold else p).encode() for p in found)


def _openings(seq: list[Any], fold: bool = False) -> list[str]:
    """Literal prefixes of ``seq``'s alternatives (["AKIA", "ASIA"…]); [""] when none."""
    out = [""]
    for op, av in seq:
        name = str(op)
        if name == "AT":
            continue
        if name == "LITERAL" and av <= 0x7F:
            out = [p + chr(av) for p in out]
            continue
        if name == "SUBPATTERN" and (fold or not (av[1] & re.IGNORECASE)):
            inner = _openings(av[3].data, fold)
        elif name == "BRANCH":
            inner = [p for alt in av[1] for p in _openings(alt.data, fold)]
        else:
            return out
        out = [p + q for p in out for q in inner]
        if len(out) > 32 or any(len(q) == 0 for q in inner):
            return out if len(out) <= 32 else [""]
        return out  # stop after a group: what follows may depend on which branch
    return out


def _first(seq: list[Any], out: set[int], fold: bool) -> bool | None:
    """Add the first bytes of ``seq`` to ``out``; True if it can match empty, None for any."""
    for op, av in seq:
        name = str(op)
        if name == "AT":
            continue
        if name == "LITERAL":
            return _add(out, av, fold)
        if name == "IN":
            for iop, iav in av:
                iname = str(iop)
                if iname == "LITERAL":
                    if _add(out, iav, fold) is None:
                        return None
                elif iname == "RANGE":
                    for c in range(iav[0], iav[1] + 1):
                        if _add(out, c, fold) is None:
                            return None
                else:
                    return None  # a category, a negation
            return False
        if name == "SUBPATTERN":
            add_flags, del_flags, sub = av[1], av[2], av[3]
            inner = (fold or bool(add_flags & re.IGNORECASE)) and not del_flags & re.IGNORECASE
            result = _first(sub.data, out, inner)
            if result is None:
                return None
            if not result:
                return False
            continue
        if name == "BRANCH":
            empty = False
            for alt in av[1]:
                result = _first(alt.data, out, fold)
                if result is None:
                    return None
                empty = empty or result
            if not empty:
                return False
            continue
        if name in ("MAX_REPEAT", "MIN_REPEAT"):
            result = _first(av[2].data, out, fold)
            if result is None:
                return None
            if av[0] > 0 and not result:
                return False
            continue
        return None
    return True


def _add(out: set[int], code: int, fold: bool) -> bool | None:
    if code > 0x7F:
        return None  # a multi-byte character: leave it to "any"
    out.add(code)
    if fold:
        out.update(ord(c) for c in (chr(code).lower(), chr(code).upper()) if ord(c) <= 0x7F)
    return False


_REPEAT_BOUND = 4  # a counted repeat up to this many is written into a head


def head_pattern(pattern: str) -> str | None:
    """What every match of ``pattern`` opens with, in RE2 syntax; None when it cannot tell.

    The pattern's leading part up to its first counted run: ``\\b(?:gh[pousr]_|github_pat_)``
    for a GitHub token, ``(?i:discord)`` for a Discord one. It matches at every
    position the whole pattern matches at (a prefix of a match's parts matches
    there too), and no counted run of a token makes its automaton count along.
    """
    parsed = _parsed(pattern)
    if parsed is None or parsed.state.flags & ~(re.UNICODE | re.IGNORECASE):
        return None
    out, _ = _head(parsed.data)
    if not out:
        return None
    return f"(?i:{out})" if parsed.state.flags & re.IGNORECASE else out


def counts_words_only(pattern: str) -> bool:
    """``pattern`` opens with ``\\b``, marks no value inside, counts only word characters.

    Every run of more than a few characters is of letters, digits and ``_`` (``ghp_`` +
    36, ``AKIA`` + 16…), and there is no case folding: Python's engine reads such a
    row exactly as RE2 does.
    """
    parsed = _parsed(pattern)
    if parsed is None or parsed.state.flags & re.IGNORECASE or _shape(pattern) == _COMPLEX:
        return False
    seq = parsed.data
    return (
        bool(seq) and str(seq[0][0]) == "AT" and str(seq[0][1]) == "AT_BOUNDARY" and _word_runs(seq)
    )


def _word_runs(seq: list[Any]) -> bool:
    for op, av in seq:
        name = str(op)
        if name in ("MAX_REPEAT", "MIN_REPEAT"):
            low, high, inner = av
            if high > _REPEAT_BOUND and not _word_class(inner.data):
                return False
            if not _word_runs(inner.data):
                return False
        elif name == "SUBPATTERN":
            if av[1] & re.IGNORECASE or not _word_runs(av[3].data):
                return False
        elif name == "BRANCH" and not all(_word_runs(alt.data) for alt in av[1]):
            return False
    return True


_WORD_BYTES = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")


def _word_class(seq: list[Any]) -> bool:
    """``seq`` is one character of a class of word characters only."""
    if len(seq) != 1:
        return False
    op, av = seq[0]
    if str(op) == "LITERAL":
        return bool(av in _WORD_BYTES)
    if str(op) != "IN":
        return False
    for iop, iav in av:
        if str(iop) == "LITERAL" and iav in _WORD_BYTES:
            continue
        if str(iop) == "RANGE" and all(c in _WORD_BYTES for c in range(iav[0], iav[1] + 1)):
            continue
        return False
    return True


def _head(seq: list[Any]) -> tuple[str, bool]:
    """The RE2 text of ``seq``'s leading part, and whether that is all of ``seq``."""
    out = ""
    for op, av in seq:
        name = str(op)
        piece = _single(name, av)
        if piece is None and name == "AT":
            piece = _AT.get(str(av))
        if piece is not None:
            out += piece
            continue
        if name == "SUBPATTERN":
            add, remove, inner = av[1], av[2], av[3]
            if (add | remove) & ~re.IGNORECASE:
                return out, False
            body, whole = _head(inner.data)
            flags = "i" if add & re.IGNORECASE else "-i" if remove & re.IGNORECASE else ""
            out += f"(?{flags}:{body})" if body else ""
            if not whole:
                return out, False
            continue
        if name == "BRANCH":
            alternatives = [_head(alt.data) for alt in av[1]]
            if any(not body for body, _ in alternatives):
                return out, False  # (one alternative opens with a run: no opening)
            out += "(?:" + "|".join(body for body, _ in alternatives) + ")"
            if not all(whole for _, whole in alternatives):
                return out, False
            continue
        if name in ("MAX_REPEAT", "MIN_REPEAT"):
            low, high, inner = av
            body, whole = _head(inner.data)
            unbounded_one = high == MAXREPEAT and low <= 1 and len(inner) == 1
            if not body or not whole or not (high <= _REPEAT_BOUND or unbounded_one):
                return out, False
            top = "" if high == MAXREPEAT else str(high)
            out += f"(?:{body}){{{low},{top}}}"
            continue
        return out, False
    return out, True


_AT = {"AT_BOUNDARY": r"\b", "AT_NON_BOUNDARY": r"\B", "AT_BEGINNING": "^", "AT_END": "$"}
_CATEGORIES = {
    "CATEGORY_DIGIT": r"\d",
    "CATEGORY_NOT_DIGIT": r"\D",
    "CATEGORY_SPACE": r"\s",
    "CATEGORY_NOT_SPACE": r"\S",
    "CATEGORY_WORD": r"\w",
    "CATEGORY_NOT_WORD": r"\W",
}


def _single(name: str, av: Any) -> str | None:
    """One character's element in RE2 syntax (a literal, a class, ``.``); None otherwise."""
    if name == "LITERAL":
        return _char(av)
    if name == "NOT_LITERAL":
        char = _char(av)
        return None if char is None else f"[^{char}]"
    if name == "ANY":
        return "."
    if name != "IN":
        return None
    out = ""
    for iop, iav in av:
        iname = str(iop)
        if iname == "NEGATE":
            out += "^"
        elif iname == "LITERAL":
            char = _char(iav)
            if char is None:
                return None
            out += char
        elif iname == "RANGE":
            low, high = _char(iav[0]), _char(iav[1])
            if low is None or high is None:
                return None
            out += f"{low}-{high}"
        elif iname == "CATEGORY" and str(iav) in _CATEGORIES:
            out += _CATEGORIES[str(iav)]
        else:
            return None
    return f"[{out}]"


def _char(code: int) -> str | None:
    """An ASCII character as RE2 reads it literally anywhere; None beyond ASCII."""
    if code > 0x7F:
        return None
    char = chr(code)
    if char.isalnum() or char == "_":
        return char
    return "\\" + char if 0x20 < code < 0x7F else f"\\x{code:02x}"


_NAMED_GROUP = re.compile(r"\(\?P<\w+>")


def _uncaptured(pattern: str) -> str:
    """``pattern`` with its named groups made plain groups (same matches, no submatches)."""
    return _NAMED_GROUP.sub("(?:", pattern)


def _rename(pattern: str) -> str:
    """A row may mark several ``v``/``e`` groups (one per alternative): number them."""
    count = iter(range(1000))
    pattern = re.sub(r"\(\?P<v>", lambda _: f"(?P<v{next(count)}>", pattern)
    return re.sub(r"\(\?P<e>", lambda _: f"(?P<e{next(count)}>", pattern)


def _value_span(
    spans: list[tuple[int, int]], values: list[int], ends: list[int]
) -> tuple[int, int]:
    """The redacted part of a row's match: its ``v`` group, else the match less its end mark."""
    for v in values:
        if spans[v] != _NO_MATCH:
            return spans[v]
    for e in ends:
        if spans[e] != _NO_MATCH:
            return spans[0][0], spans[e][0]
    return spans[0]


class Finding(NamedTuple):
    kind: str
    start: int
    end: int  # the redacted span (the value), not its context


_PEM_BODY = re.compile(r"[A-Za-z0-9+/=]")


@dataclass(frozen=True)
class Scanner:
    """A joined table, the email finder, user patterns and exclusions; build once per options.

    Overlaps resolve to the earlier, then longer, find; a generic find (a bearer
    token, a URL password) whose value is a known token reports the token's kind.
    """

    table: _Table | None
    email: bool
    user: tuple[tuple[Rule, re.Pattern[str]], ...]
    exclude: re.Pattern[str] | None
    exclude_hint: re.Pattern[str] | None = None  # see exclusion_hint
    exclude_signal: re.Pattern[str] | None = None  # see exclusion_signal
    exclude_pieces: tuple[str, ...] | None = None  # see exclusion_pieces

    def find(self, text: str) -> list[Finding]:
        """Every sensitive value in ``text``, left to right, never overlapping."""
        kinds, starts, ends = self.spans(text)
        return list(map(_new_finding, repeat(Finding), zip(kinds, starts, ends, strict=True)))

    def spans(self, text: str) -> tuple[list[str], list[int], list[int]]:
        """:meth:`find`'s kinds, starts and ends, as three lists.

        What a scrub needs: an output's hundreds of addresses are redacted and
        counted from these lists, with no :class:`Finding` made for each.
        """
        return self._with_emails(text, *self._table_spans(text))

    def redacted(self, text: str) -> tuple[str | None, list[str], list[int], list[int]]:
        """``text`` with every find redacted and the kinds found, or None and :meth:`spans`.

        The first when ``text`` is ASCII, the table finds nothing in it and no user
        pattern is set: its addresses are then redacted straight from the pieces of
        one split (:func:`_redact_addresses`), with no offsets worked out (a git log's
        hundreds of addresses). None where that does not hold, or where an address
        needs the careful reading (:meth:`_emails`); the table's pass is not repeated.
        """
        kinds, starts, ends = self._table_spans(text)
        if not kinds and self.email and not self.user and "@" in text and text.isascii():
            done = _redact_addresses(self, text)
            if done is not None:
                return done
        kinds, starts, ends = self._with_emails(text, kinds, starts, ends)
        return None, kinds, starts, ends

    def _table_spans(self, text: str) -> tuple[list[str], list[int], list[int]]:
        """The table's and the user patterns' finds in ``text``: sorted, disjoint."""
        table = self.table
        if table is None or not text:
            found: list[Finding] = []
        else:
            data = text.encode("utf-8", "surrogatepass") + b"\n"
            rows, bstarts, bstops, disjoint = table.hits(data)
            if (
                disjoint
                and not self.user
                and len(data) == len(text) + 1
                and table.plain.issuperset(rows)
            ):
                # (the usual: ASCII text, only rows judged by their value, none inside
                # another's; no Finding made)
                return self._plain_values(table, text, rows, bstarts, bstops)
            found = self._judged(table, text, data, rows, bstarts, bstops)
        for rule, regex in self.user:
            for m in regex.finditer(text):
                span = m.span("v") if "v" in regex.groupindex and m.group("v") else m.span()
                if span[0] < span[1]:
                    self._keep(found, rule, text, span)
        if len(found) > 1:
            # Stable sort by start (the table's finds come in order already: a C-level
            # key costs one pass); _disjoint keeps the longest of finds that start
            # together, and on the very same span the earlier (more specific) row, and
            # cuts a find that starts inside an earlier one to what lies beyond it.
            found.sort(key=_START)
            found = _disjoint(found)
        return list(map(_KIND, found)), list(map(_START, found)), list(map(_STOP, found))

    def _with_emails(
        self, text: str, kinds: list[str], starts: list[int], ends: list[int]
    ) -> tuple[list[str], list[int], list[int]]:
        """The finds (sorted, disjoint) and the addresses that overlap none of them, in order."""
        if not self.email or "@" not in text:
            return kinds, starts, ends
        at_starts, at_ends = self._emails(text, starts, ends)
        if not kinds:
            return ["email"] * len(at_starts), at_starts, at_ends
        if not at_starts:
            return kinds, starts, ends
        found = [*zip(kinds, starts, ends, strict=True), *zip(repeat("email"), at_starts, at_ends)]
        found.sort(key=_START)  # (stable: none starts where another does, they are disjoint)
        return list(map(_KIND, found)), list(map(_START, found)), list(map(_STOP, found))

    def _emails(
        self, text: str, taken_starts: list[int], taken_ends: list[int]
    ) -> tuple[list[int], list[int]]:
        """The starts and ends of the addresses in ``text`` that overlap none of the
        finds taken (``taken_starts``/``taken_ends``: sorted, disjoint).

        A more specific find wins over an address around it: the token in
        https://x:ghp_…@github.com is a URL password, not an "email". A git log holds
        hundreds of addresses: every step maps a C function over all of them at once
        (map, compress); a Python loop over hundreds of addresses cost more than
        finding them.
        """
        ascii_only = text.isascii()
        after_at, domain_ends, local_run = _ADDRESS_ASCII if ascii_only else _ADDRESS_UNICODE
        # Each "@", and where a domain after it ends, read off its key (the same few
        # keys recur: each is searched once).
        found = list(after_at(text))
        keys = list(map(_GROUP, found))
        after = list(map(domain_ends.__getitem__, keys))  # (0: no domain there)
        if not any(after):
            return [], []
        ats = list(map(_MATCH_START, compress(found, after)))
        ends = list(map(add, ats, compress(after, after)))
        size = len(text)
        # The local part before each "@", read right to left from it in the reversed
        # text (exactly, address by address, where that fails: see LOCAL_RUN).
        runs = list(map(local_run, repeat(text[::-1]), map(sub, repeat(size), ats)))
        if None in runs:
            starts = [
                size - run.end() if run is not None else _local_start(text, ats[k])
                for k, run in enumerate(runs)
            ]
        else:
            matched = cast("list[re.Match[str]]", runs)
            starts = list(map(sub, repeat(size), map(_MATCH_END, matched)))
        keep = list(map(lt, starts, ats))  # an empty local part: @decorator, a login
        exclude = self.exclude
        if exclude is not None:
            hint = self.exclude_hint if ascii_only else None
            if hint is None:
                tests = list(map(exclude.fullmatch, repeat(text), starts, ends))
            elif not self._may_exclude(set(compress(keys, after)), runs):
                tests = []
            else:  # (ASCII: the same offsets in the lower-cased text)
                tests = list(map(hint.search, repeat(text.lower()), starts, ends))
            if tests.count(None) < len(tests):  # (rare: a piece of a glob is in an address)
                for k, test in enumerate(tests):
                    if test is not None and exclude.fullmatch(text, starts[k], ends[k]):
                        keep[k] = False
        if taken_starts:
            # Both run left to right and the finds are disjoint: skip those that end
            # before an address; the next one overlaps it or lies after it.
            next_taken, taken_count = 0, len(taken_starts)
            for k, start in enumerate(starts):
                while next_taken < taken_count and taken_ends[next_taken] <= start:
                    next_taken += 1
                if next_taken < taken_count and taken_starts[next_taken] < ends[k]:
                    keep[k] = False
        if False in keep:
            return list(compress(starts, keep)), list(compress(ends, keep))
        return starts, ends

    def _may_exclude(self, keys: set[str], runs: list[re.Match[str] | None]) -> bool:
        """A glob's literal piece may be in one of the addresses (ASCII text).

        A piece an address holds is in its local part, in its domain, or (holding
        its "@") ends the one and starts the other: the part from the "@" on is in
        one of the distinct ``keys`` (each the "@", a domain and more), the part
        before it ends a local part (``runs``: each read from the reversed text).
        Each is searched with ``in`` (a C-level pass) in the keys or the reversed
        local parts joined by newlines (no piece holds one). False: no glob matches.
        """
        pieces = self.exclude_pieces
        if pieces is None or None in runs:
            return True
        domains = "\n".join(keys).lower()
        reversed_locals = None
        for piece in pieces:
            before, at, after = piece.partition("@")
            if "@" in after:
                return True  # (no address holds two)
            if at:
                if at + after not in domains:
                    continue
                if not before:
                    return True
            elif piece in domains:
                return True
            if reversed_locals is None:
                reversed_locals = "\n" + "\n".join(map(_GROUP, runs)).lower()  # type: ignore[arg-type]
            if ("\n" if at else "") + before[::-1] in reversed_locals:
                return True
        return False

    def _excluded(self, value: str) -> bool:
        """``value`` matches an exclusion glob (the hint rules most values out cheaply)."""
        if self.exclude is None:
            return False
        hint = self.exclude_hint
        if hint is not None and value.isascii():
            signal = self.exclude_signal
            if signal is not None and signal.search(value) is None:
                return False  # (a token: no "@" or "." of an address glob, one C call)
            if hint.search(value.lower()) is None:
                return False
        return self.exclude.fullmatch(value) is not None

    def _plain_values(
        self, table: _Table, text: str, rows: list[int], starts: list[int], ends: list[int]
    ) -> tuple[list[str], list[int], list[int]]:
        """:meth:`_judged`'s finds when every hit's row is judged by its value alone.

        Rows of ``_Table.plain`` in ASCII text (byte offsets are character offsets):
        no context to read, no span to move, so each step is a C-level ``map`` over
        all the hits at once. The hits come sorted and disjoint, so do the finds.
        """
        values = [text[start:end] for start, end in zip(starts, ends, strict=True)]
        real = list(map(_call, map(table.verdicts.__getitem__, rows), values))
        if self.exclude is not None and values and self._may_exclude_values(values):
            real = [r and not self._excluded(v) for r, v in zip(real, values, strict=True)]
        kinds = list(map(table.kinds.__getitem__, rows))
        if False in real:
            return (
                list(compress(kinds, real)),
                list(compress(starts, real)),
                list(compress(ends, real)),
            )
        return kinds, starts, ends

    def _table_finds(self, table: _Table, text: str) -> list[Finding]:
        """The table's finds in ``text``, in the order of the pass."""
        data = text.encode("utf-8", "surrogatepass") + b"\n"
        return self._judged(table, text, data, *table.hits(data)[:3])

    def _judged(
        self,
        table: _Table,
        text: str,
        data: bytes,
        rows: list[int],
        bstarts: list[int],
        bends: list[int],
    ) -> list[Finding]:
        """The finds of the table's hits in ``data`` (``text`` encoded), each judged."""
        chars = None if len(data) == len(text) + 1 else _Offsets(text, data)  # None: ASCII
        found: list[Finding] = []
        values: list[str | None] = []  # each find's value, None once judged whole
        judges = table.judges
        pem_memo: list[int] | None = None  # (see _pem_span)
        pem_end = -1  # where the last key found ends
        for i, bstart, bend in zip(rows, bstarts, bends, strict=True):
            kind, back, back_n, left, special, check, min_entropy, placeholder, prefix = judges[i]
            start, end = (bstart, bend) if chars is None else (chars(bstart), chars(bend))
            if back is not None:
                if not back.search(text, max(0, start - back_n), start):
                    continue
                start -= back_n
            if left is not None and start and left.match(text, start - 1):
                continue
            if special:
                if special == _PEM:
                    if pem_memo is None:
                        pem_memo = [len(text) + 1, -1]
                    pem = _pem_span(text, start, end, pem_memo)
                    if pem is None or pem[1] == pem_end:
                        continue  # (none; or a later header inside the key found last)
                    start, end = pem
                    pem_end = end
                else:
                    inner = self._specific_inside(table, text, start, end)
                    if inner is not None:
                        found.append(inner)
                        values.append(None)
                        continue
            if check is not None and not check(text, start, end):
                continue
            value = text[start:end]
            if not looks_real(value, min_entropy, placeholder, prefix):
                continue
            found.append(_new_finding(Finding, (kind, start, end)))
            values.append(value)
        if self.exclude is None or not found or not self._may_exclude_values(values):
            return found
        return [f for f, v in zip(found, values, strict=True) if v is None or not self._excluded(v)]

    def _may_exclude_values(self, values: Sequence[str | None]) -> bool:
        """One of ``values`` may match an exclusion glob (False: none can, one C-level test).

        :meth:`_excluded`'s first test over all values at once: none holds a character
        of the globs' signal (a token: no "@" or "." of an address glob).
        """
        signal = self.exclude_signal
        if signal is None or self.exclude_hint is None:
            return True
        joined = "\n".join(filter(None, values))
        if not joined.isascii():
            return True
        # (a character at a time: "in" is a memchr, a class search tests each character)
        return any(c in joined for c in _ascii_members(signal))

    def _specific_inside(self, table: _Table, text: str, start: int, end: int) -> Finding | None:
        """A known token that is the whole value of a generic find (``Bearer ghp_…``)."""
        for f in self._table_finds(table, text[start:end]):
            if f.kind not in _GENERIC:
                return Finding(f.kind, f.start + start, f.end + start)
        return None

    def _keep(self, found: list[Finding], rule: Rule, text: str, span: tuple[int, int]) -> None:
        value = text[span[0] : span[1]]
        if rule.check is not None and not rule.check(text, *span):
            return
        if not looks_real(value, rule.min_entropy, rule.placeholder, rule.prefix):
            return
        if self._excluded(value):
            return
        found.append(_new_finding(Finding, (rule.kind, *span)))


def _local_start(text: str, at: int) -> int:
    """Where the local part before the "@" at ``at`` starts (``at``: there is none).

    The run of local-part characters before it, less the punctuation it opens with;
    none when "://" is right before that: ``ssh://git@host``, ``https://user@host``
    name a login, not a mailbox.
    """
    start = at
    while start and (text[start - 1].isalnum() or text[start - 1] in "_.%+-"):
        start -= 1
    while start < at and text[start] in _LOCAL_PUNCTUATION:
        start += 1
    if start >= 3 and text[start - 3 : start] == "://":
        return at
    return start


class _DomainTails(dict[bytes, bytes | None]):
    """What of a key (as ASCII bytes) follows its domain, read off :class:`_DomainEnds`
    (None: no domain there). Bounded: cleared when full."""

    def __init__(self, ends: _DomainEnds) -> None:
        super().__init__()
        self.ends = ends

    def __missing__(self, key: bytes) -> bytes | None:
        end = self.ends[key.decode("ascii")]
        tail = key[end:] if end else None
        if len(self) >= _MEMO_SIZE:
            self.clear()
        self[key] = tail
        return tail


# Each "@" a domain may follow, with its key (_after_at), as split pieces of ASCII bytes.


@lru_cache(maxsize=1)
def _keys_split() -> Callable[[bytes], list[bytes]]:
    """The split at each "@" a domain may follow, keeping its key (:func:`_after_at`),
    for ASCII text as bytes (compiled the first time: not a cost of start-up)."""
    return re.compile(f"({_after_at(ascii_only=True)})".encode("ascii")).split


_DOMAIN_TAILS = _DomainTails(_ADDRESS_ASCII[1])
_LOCAL_BYTES = bytes(range(65, 91)) + bytes(range(97, 123)) + b"0123456789_.%+-"
_LEADING_PUNCTUATION = (b"\n.", b"\n%", b"\n+", b"\n-")
_EMAIL_MARKER = b"[REDACTED:email]"


def _redact_addresses(
    scan: Scanner, text: str
) -> tuple[str, list[str], list[int], list[int]] | None:
    """``text`` (ASCII, where nothing but addresses is found) with each address redacted,
    the kinds found, and no offsets; None where an address needs :meth:`Scanner._emails`.

    One split at each "@" a domain may follow (:func:`_after_at`) gives the text before
    it and its key; the key's domain is read off the key (memoised), the local part is
    the run of its characters that ends the text before (``bytes.rstrip``: the run stops
    at the previous "@", no local character). The redacted text is those pieces joined
    with the marker in place of each address: no offset, no span, no slice made for
    each of a git log's hundreds of addresses (the general path's maps cost ~10K
    instructions an address; ``tests/hooks/scanner_addresses_test.py`` pins the two
    together). None (the general path) where a key holds no domain, or a local part
    is empty, opens with punctuation, may run on into the key before it, follows a
    "/" (``https://user@host``), or an exclusion glob's piece is in an address.
    """
    data = text.encode("ascii")
    parts = _keys_split()(data)
    if len(parts) == 1:
        return text, [], [], []
    gaps, keys = parts[0::2], parts[1::2]
    found = list(map(_DOMAIN_TAILS.__getitem__, keys))
    if None in found:
        return None
    tails = cast("list[bytes]", found)
    last = gaps.pop()
    stripped = list(map(bytes.rstrip, gaps, repeat(_LOCAL_BYTES)))
    runs = list(map(bytes.removeprefix, gaps, stripped))
    locals_ = b"\n" + b"\n".join(runs) + b"\n"
    if b"\n\n" in locals_ or any(map(locals_.__contains__, _LEADING_PUNCTUATION)):
        return None  # (an empty local part; one that opens with punctuation)
    if b"" in stripped[1:]:
        # (a run that fills the text since the last key may go on into that key)
        for k in range(1, len(stripped)):
            if not stripped[k] and keys[k - 1][-1:] in _LOCAL_BYTES + b"/":
                return None
    if b"/" in data and any(map(bytes.endswith, stripped, repeat(b"/"))):
        return None  # ("://" may be right before a local part: a login)
    excluded: list[int] = []
    if scan.exclude is not None:
        lowered = locals_.lower()
        if _may_exclude_bytes(scan.exclude_pieces, set(keys), lowered):
            excluded = _excluded_addresses(scan.exclude, runs, keys, tails)
    count = len(keys) - len(excluded)
    if not count:
        return text, [], [], []
    out = [b""] * (3 * len(keys) + 1)
    out[0:-1:3] = stripped
    out[1::3] = [_EMAIL_MARKER] * len(keys)
    out[2::3] = tails
    out[-1] = last
    for k in excluded:  # (left as they were)
        out[3 * k : 3 * k + 3] = gaps[k], b"", keys[k]
    return b"".join(out).decode("ascii"), ["email"] * count, [], []


def _may_exclude_bytes(pieces: tuple[str, ...] | None, keys: set[bytes], locals_: bytes) -> bool:
    """:meth:`Scanner._may_exclude` for :func:`_redact_addresses`: ``keys`` the distinct
    keys, ``locals_`` the local parts lower-cased, each between newlines."""
    if pieces is None:
        return True
    domains = b"\n".join(keys).lower()
    for piece in pieces:
        before, at, after = piece.encode("ascii").partition(b"@")
        if b"@" in after:
            return True
        if at:
            if at + after not in domains:
                continue
            if not before:
                return True
            if before + b"\n" in locals_:
                return True
        elif piece.encode("ascii") in domains or piece.encode("ascii") in locals_:
            return True
    return False


def _excluded_addresses(
    exclude: re.Pattern[str], runs: list[bytes], keys: list[bytes], tails: list[bytes]
) -> list[int]:
    """The indexes of the addresses an exclusion glob matches (each tested whole)."""
    out = []
    for k, (run, key, tail) in enumerate(zip(runs, keys, tails, strict=True)):
        address = run + key[: len(key) - len(tail)]
        if exclude.fullmatch(address.decode("ascii")):
            out.append(k)
    return out


class _Offsets:
    """Byte offset in the UTF-8 text → character offset (the same number for ASCII).

    Asked in increasing order (hits come left to right), it decodes only the
    bytes between two asks.
    """

    def __init__(self, text: str, data: bytes) -> None:
        self.data = data
        self.ascii = len(data) == len(text) + 1
        self.byte = self.char = 0

    def __call__(self, offset: int) -> int:
        if self.ascii:
            return offset
        if offset < self.byte:
            self.byte = self.char = 0
        self.char += len(self.data[self.byte : offset].decode("utf-8", "surrogatepass"))
        self.byte = offset
        return self.char


def _pem_span(
    text: str, start: int, end: int, memo: list[int] | None = None
) -> tuple[int, int] | None:
    """A private key's header extended over its body; None for a header with no body.

    ``memo``: ``[from, found]`` of the last search for an END line in this text (a
    text of headers searched it to its end from each; the first END at or after
    ``end`` is the one found from an earlier place, when that is at or after ``end``).
    """
    if memo is not None and memo[0] <= end and (memo[1] < 0 or memo[1] >= end):
        stop = memo[1]
    else:
        stop = text.find("-----END", end)
        if memo is not None:
            memo[:] = end, stop
    body_end = len(text) if stop < 0 else stop
    if len(_PEM_BODY.findall(text, end, min(body_end, end + 400))) < 16:
        return None  # a mention of a key, or an empty block: nothing secret to hide
    if stop < 0:
        return start, len(text)
    close = text.find("-----", stop + 8)
    return start, len(text) if close < 0 else close + 5


def _disjoint(found: list[Finding]) -> list[Finding]:
    """Finds sorted by start, made disjoint: none is lost, none is redacted twice.

    Of finds that start together the longest is kept (the first of equal ones); a find
    within a kept one is dropped; one that starts inside a kept one and ends beyond it
    is kept for what lies beyond (a key whose header a token's alphabet ran into: both
    redacted, each with its marker; dropped, its rest would leak).
    """
    kept: list[Finding] = []
    last = None
    for f in found:
        if last is None or f.start >= last.end:
            kept.append(f)
            last = f
        elif f.start == last.start:
            if f.end > last.end:
                kept[-1] = last = f
        elif f.end > last.end:
            last = _new_finding(Finding, (f.kind, last.end, f.end))
            kept.append(last)
    return kept


def user_rule(name: str, regex: str) -> tuple[Rule, re.Pattern[str]]:
    """A user pattern (Python syntax): the whole match is redacted, or its ``v`` group."""
    if re.fullmatch(regex, ""):
        raise re.error(f"pattern {name!r} matches the empty string")
    rule = Rule(name, regex, f"a {name} value", "SECRET", min_entropy=0, placeholder=False)
    return rule, re.compile(f"(?:{regex})")


def exclusion_regex(patterns: Iterable[str]) -> re.Pattern[str] | None:
    """Globs over a found value (``*@corp.com``; ``@corp.com`` means the same), no case."""
    globs = ["*" + p if p.startswith("@") else p for p in patterns]
    if not globs:
        return None
    # fnmatch treats [bot] as a class; the brackets are meant literally in addresses.
    body = "|".join(fnmatch.translate(g.replace("[", "[[]")) for g in globs)
    return re.compile(body, re.IGNORECASE)


def exclusion_pieces(patterns: Iterable[str]) -> tuple[str, ...] | None:
    """The longest literal piece of each glob, lower-cased; None when one has none.

    A value a glob matches holds that glob's piece (in lower case once lower-cased).
    None too when a glob is not ASCII (case folding beyond ASCII is not lower()).
    """
    pieces = []
    for glob in ("*" + p if p.startswith("@") else p for p in patterns):
        piece = max(re.split(r"[*?]", glob), key=len)
        if not piece or not glob.isascii():
            return None
        pieces.append(piece.lower())
    return tuple(pieces)


def exclusion_hint(patterns: Iterable[str]) -> re.Pattern[str] | None:
    """Literal text one of the globs needs, to search in a lower-cased ASCII value.

    A value no hint occurs in matches no glob (see :func:`exclusion_pieces`), and the
    search is three times cheaper than the globs' own regex, whose leading ``*``
    backtracks. None when :func:`exclusion_pieces` has none.
    """
    pieces = exclusion_pieces(patterns)
    return re.compile("|".join(map(re.escape, pieces))) if pieces else None


@lru_cache(maxsize=64)
def _ascii_members(signal: re.Pattern[str]) -> tuple[str, ...]:
    """The ASCII characters the class ``signal`` matches."""
    return tuple(c for c in map(chr, range(128)) if signal.fullmatch(c))


def exclusion_signal(patterns: Iterable[str]) -> re.Pattern[str] | None:
    """A class of characters a value must hold one of to hold any glob's piece.

    One character of each piece, a punctuation mark where it has one (``@`` for
    address globs; a letter in both cases otherwise): a value with none of them holds
    no piece, and one search of a short class says so before any lowering. None when
    :func:`exclusion_pieces` has none.
    """
    pieces = exclusion_pieces(patterns)
    if not pieces:
        return None
    chars: set[str] = set()
    for piece in pieces:
        if chars.intersection(piece):
            continue
        marks = [c for c in piece if not c.isalnum()]
        chars.update(marks[:1] or {piece[0], piece[0].upper()})
    return re.compile("[" + "".join(sorted(map(re.escape, chars))) + "]")


# Finding's own __new__ is Python code; a git log's hundreds of addresses are made
# with the C constructor (the same tuple).
_new_finding = tuple.__new__


_KIND = itemgetter(0)  # Finding.kind, .start and .end, read in C
_GROUP = re.Match.group
_MATCH_START = re.Match.start
_MATCH_END = re.Match.end
_START = itemgetter(1)
_STOP = itemgetter(2)


@lru_cache(maxsize=64)
def _table(kinds: frozenset[str]) -> _Table | None:
    rules = tuple(r for r in RULES if r.kind in kinds)
    return _Table(rules) if rules else None


@lru_cache(maxsize=64)
def scanner(
    kinds: tuple[str, ...] = KINDS,
    exclude: tuple[str, ...] = DEFAULT_EXCLUDE,
    user: tuple[tuple[str, str], ...] = (),
) -> Scanner:
    return Scanner(
        _table(frozenset(kinds)),
        "email" in kinds,
        tuple(user_rule(n, r) for n, r in user),
        exclusion_regex(exclude),
        exclusion_hint(exclude),
        exclusion_signal(exclude),
        _newline_free(exclusion_pieces(exclude)),
    )


def _newline_free(pieces: tuple[str, ...] | None) -> tuple[str, ...] | None:
    return None if pieces is None or any("\n" in p for p in pieces) else pieces


def redact(text: str, findings: list[Finding]) -> str:
    """``text`` with each finding replaced by ``[REDACTED:<kind>]``."""
    return redact_spans(
        text,
        list(map(_KIND, findings)),
        list(map(_START, findings)),
        list(map(_STOP, findings)),
    )


def redact_spans(text: str, kinds: list[str], starts: list[int], ends: list[int]) -> str:
    """``text`` with each span (disjoint, in order) replaced by ``[REDACTED:<kind>]``."""
    if not kinds:
        return text
    # The text between the spans (a comprehension: a third cheaper than mapping
    # text.__getitem__ over slice objects, each made by a call to the type), joined
    # by the marker when all are of one kind (a git log's addresses), else with each
    # span's marker put between (an env dump).
    gaps = [text[start:end] for start, end in zip([0, *ends], [*starts, len(text)], strict=True)]
    if kinds.count(kinds[0]) == len(kinds):
        return _MARKERS[kinds[0]].join(gaps)
    out = [""] * (2 * len(kinds) + 1)
    out[::2] = gaps
    out[1::2] = map(_MARKERS.__getitem__, kinds)
    return "".join(out)


class _Markers(dict[str, str]):
    """``[REDACTED:<kind>]`` by kind: made once per kind, not per find."""

    def __missing__(self, kind: str) -> str:
        return f"[REDACTED:{kind}]"


_MARKERS = _Markers((kind, f"[REDACTED:{kind}]") for kind in KINDS)
