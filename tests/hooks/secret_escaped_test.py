"""Secrets in the escaped shapes hosts send: JSON inside a JSON string (two and three deep),
``\\u``-escaped characters, percent-encoded URLs and form bodies, once or twice
(``hookrun/hooks/pii_escaped.py``).

Each shape is made by the real encoder (``json.dumps``, ``urllib.parse.quote``,
``quote_plus``, ``urlencode``). Every labelled secret of ``secret_families_test`` is put in
each shape and must come out redacted with its family's marker, the output still decoding
(each JSON level parses, each URL level unquotes strictly) to text that holds the marker;
every look-alike must survive in the same shapes. Before the decoded view the scrubber missed
100 of 102 secrets with ``\\u``-escaped punctuation, 83 percent-encoded and 4 in a JSON
string; before the nested one, 4 two and three deep, 83 percent-encoded twice, 12–13 in
form data and a non-ASCII address percent-encoded.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import subprocess
import sys
import urllib.parse
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hookrun.hooks import pii, pii_escaped
from hookrun.hooks.base import PolicyContext
from hookrun.hooks.pii_patterns import Finding, Scanner, scanner

from .secret_families_test import CASES_FP, CASES_TP, rand


def _u_escaped(text: str) -> str:
    return '{"v": "' + "".join(c if c.isalnum() else f"\\u{ord(c):04x}" for c in text) + '"}'


def _json(depth: int, ascii_only: bool = True) -> Callable[[str], str]:
    """The text as a tool's JSON output (``{"stdout": …}``), as many times over as ``depth``:
    a transcript of a tool output, a tool output that is such a transcript."""

    def shape(text: str) -> str:
        text = json.dumps({"stdout": text}, ensure_ascii=ascii_only)
        for _ in range(depth - 1):
            text = json.dumps({"tool_response": text}, ensure_ascii=ascii_only)
        return text

    return shape


def _quoted(text: str) -> str:
    return urllib.parse.quote(text, safe="")


def _form(text: str) -> str:
    return urllib.parse.quote_plus(text)


# shape → (encode, how many levels of it to undo, JSON or URL)
SHAPES: dict[str, tuple[Callable[[str], str], int, str]] = {
    "json-in-string": (_json(1), 1, "json"),
    "json-in-string-utf8": (_json(1, False), 1, "json"),
    "json-2-deep": (_json(2), 2, "json"),
    "json-2-deep-utf8": (_json(2, False), 2, "json"),
    "json-3-deep": (_json(3), 3, "json"),
    "json-3-deep-utf8": (_json(3, False), 3, "json"),
    # after an escaped line break or tab, the text's only escapes (`"…\nghp_…"`)
    "json-lines": (lambda t: json.dumps({"stdout": "build ok\n" + t + "\ndone"}), 1, "json"),
    "json-crlf": (lambda t: json.dumps({"stdout": "ok\r\n" + t + "\r\n"}), 1, "json"),
    "json-tabs": (lambda t: json.dumps({"stdout": "key\t" + t + "\tok"}), 1, "json"),
    "u-escaped": (_u_escaped, 1, "json"),
    "percent-encoded": (lambda t: "GET /cb?x=" + _quoted(t) + " 200", 1, "url"),
    "quote-default-safe": (lambda t: "GET /cb?x=" + urllib.parse.quote(t) + " 200", 1, "url"),
    "quote_plus": (lambda t: "curl -d " + _form(t), 1, "url"),
    "urlencode": (lambda t: "POST " + urllib.parse.urlencode({"q": t, "n": 1}), 1, "url"),
    "percent-encoded-twice": (lambda t: "GET /cb?x=" + _quoted(_quoted(t)) + " 200", 2, "url"),
    "quote_plus-twice": (lambda t: "next=" + _form(_form(t)), 2, "url"),
    "url-in-json": (
        lambda t: json.dumps({"url": "https://x.test/cb?" + urllib.parse.urlencode({"q": t})}),
        1,
        "json",
    ),
}
_SCAN = scanner()


def _scrubbed(text: str) -> str:
    out = pii.scrub(text, _SCAN, Counter())
    assert isinstance(out, str)
    return out


def _decode(shape: str, out: str) -> str:
    """The scrubbed output read back the way it was made: it must still parse."""
    _, levels, kind = SHAPES[shape]
    if kind == "json":
        for _ in range(levels):
            value = json.loads(out)
            out = value if isinstance(value, str) else next(iter(value.values()))
    if kind == "url" or shape == "url-in-json":
        for _ in range(levels):
            assert re.search("%(?![0-9a-fA-F]{2})", out) is None, out  # no half escape
            out = urllib.parse.unquote_plus(out, errors="strict")
    return out


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize(
    ("kind", "text"), CASES_TP, ids=[f"{k}-{i}" for i, (k, _) in enumerate(CASES_TP)]
)
def test_an_escaped_secret_is_redacted_and_the_output_still_decodes(
    kind: str, text: str, shape: str
) -> None:
    shaped = SHAPES[shape][0](text)
    if f"[REDACTED:{kind}]" not in _scrubbed(_decode(shape, shaped)):
        pytest.skip("missed in the decoded text too")  # (none left: the scanner's miss)
    out = _scrubbed(shaped)
    assert f"[REDACTED:{kind}]" in out, shaped
    assert f"[REDACTED:{kind}]" in _decode(shape, out), out


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize(
    ("kind", "text"), CASES_FP, ids=[f"{k}-{i}" for i, (k, _) in enumerate(CASES_FP)]
)
def test_an_escaped_look_alike_survives(kind: str, text: str, shape: str) -> None:
    shaped = SHAPES[shape][0](text)
    assert _scrubbed(shaped) == shaped


TOKEN = "ghp_" + rand(36, "esc-gh")


@pytest.mark.parametrize(
    ("value", "kept"),
    [
        # a JSON escape right before a find: its letter is not the secret's
        (r"name:\tzoe@corp.io", r"name:\t[REDACTED:email]"),
        (r"a\\tzoe@corp.io", r"a\\[REDACTED:email]"),  # (an escaped `\`, then the address)
        # an escaped letter of an address is the address's: no `\` left before a marker
        (r"to zo\u00eb@corp.io", "to [REDACTED:email]"),
        # a cut-off key in a JSON string ends with its body, not with the string's `"}`
        (r'{"k": "-----BEGIN PRIVATE KEY-----\n' + rand(80, "pem-c") + '"}',
         '{"k": "[REDACTED:private_key]"}'),
        # … and in plain text still runs to the end, an encrypted key's headers and all
        ("-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,"
         "0A1B\n\n" + rand(80, "pem-e"), "[REDACTED:private_key]"),
        # a token after an escaped line break in a JSON string in a JSON string
        (r'{\"out\": \"line\n' + TOKEN + r'\"}', r'{\"out\": \"line\n[REDACTED:github_token]\"}'),
    ],
)  # fmt: skip
def test_a_redaction_takes_whole_escapes(value: str, kept: str) -> None:
    assert _scrubbed(value) == kept


def test_the_percent_pre_test_reads_as_the_regex() -> None:
    rng = random.Random(7)
    for _ in range(3000):
        text = "".join(rng.choice("%%%aF0g] 9é") for _ in range(rng.randrange(0, 30)))
        expected = re.search("%[0-9a-fA-F]{2}", text) is not None
        assert pii_escaped._percent_escape(text) is expected, text


class _Counting:
    """The real scanner, counting the texts it is asked to read."""

    def __init__(self, scan: Scanner) -> None:
        self.scan, self.read = scan, 0

    def spans(self, text: str) -> tuple[list[str], list[int], list[int]]:
        self.read += len(text)
        return self.scan.spans(text)

    def find(self, text: str) -> list[Finding]:
        self.read += len(text)
        return self.scan.find(text)


# Pieces of escaped text: every escape of a level (and near misses, broken UTF-8, lone
# surrogates), the characters the quick reading keeps `\\\\` apart with, plain letters.
_ATOMS = [
    *("\\", "\\\\", '\\"', "\\/", "\\n", "\\t", "\\r", "\\b", "\\f", "\\x", "\\u00e9"),
    *("\\ud83d", "\\ude00", "\\udbff", "\\u0025", "\\u005c", "\\u0000", "\\u002b", "\\u00"),
    *("%5C", "%", "%41", "%C3", "%AB", "%C3%AB", "%F0%9F%98%80", "%E2%82", "%ED%A0%80", "%C0%80"),
    *("%FF", "%25", "%00", "%2B", "%2b", "%F4%90%80%80", "%E0%80%80"),
    *("a", " ", "+", "u", "00", "é", "\x00", "\x01", "\ue000", "\ue001", "\udc80"),
]


def _escape_by_escape(text: str) -> str:
    """One level undone the way the module maps finds back: each :data:`_ESCAPE` match."""
    parts = pii_escaped._ESCAPES.split(text)
    parts[1::2] = map(pii_escaped._CHARS.__getitem__, parts[1::2])
    return "".join(parts)


def _form_by_escape(below: str) -> str:
    """The form-data reading of the level above ``below``, escape by escape."""
    plain = pii_escaped._ESCAPES.split(below)
    parts = pii_escaped._ESCAPES.split(below.replace("+", " "))
    parts[1::2] = map(pii_escaped._CHARS.__getitem__, plain[1::2])
    return "".join(parts)


_ESCAPED_TEXT = st.one_of(
    st.lists(st.sampled_from(_ATOMS), max_size=24).map("".join),
    st.text(alphabet=st.sampled_from('\\%u+"/nt0123456789abcdefABCDEF\x00\ue000'), max_size=40),
    st.text(max_size=30),
)


@settings(max_examples=2000, deadline=None, derandomize=True)
@given(_ESCAPED_TEXT)
def test_the_quick_reading_of_a_level_is_the_escape_by_escape_one(text: str) -> None:
    """A level is undone in passes at C speed (str.replace, one decode per run); each find
    there is mapped back escape by escape, so both must read every text alike."""
    assert pii_escaped._undone(text) == _escape_by_escape(text)
    level = pii_escaped._decoded(text)
    if level is not None:
        assert level.form(text) == _form_by_escape(text)


# Runs of %XX with ASCII text between them are undone as one run (a form body: one
# decode, not one per escape): half a UTF-8 character on either side of the text between,
# what is kept apart (`%`, `\\`, beyond ASCII, more than 16 characters), an escaped
# backslash's sentinel inside a run, the three sentinels in the text.
_RUNS_APART = [
    "%C3+%A9", "%C3 %A9", "%E2%82~%AC", "%F0%9F+%98%80", "%C3é%A9", "%41=%42", "%41\\%42",
    "%41\x00%42", "%41\ue000%42", "%41%%42", "%41+%4", "+%41" * 50, "%41+%2B+%2b=%3D&%26",
    "%41\\\\%42", "\x00%41\\\\%42", "%41+\\u002b+%42",
    "%41ab\\\\cd%42", "%41\n\t\x7f%42", "%41" + "x" * 20 + "%42", "\x00\x01%41\\\\%42",
    "%C3" + "\\\\" * 3 + "%A9", "%41\\\\x42%43", "%41\\\\u0041%42", "%41\\u0041%42",
]  # fmt: skip


@pytest.mark.parametrize("text", _RUNS_APART)
def test_runs_with_text_between_are_read_as_escape_by_escape(text: str) -> None:
    assert pii_escaped._undone(text) == _escape_by_escape(text)
    level = pii_escaped._decoded(text)
    assert level is not None and level.form(text) == _form_by_escape(text)


@settings(max_examples=400, deadline=None, derandomize=True)
@given(_ESCAPED_TEXT, st.sampled_from([t for _, t in CASES_TP[::7]]), st.integers(0, 3))
def test_what_is_found_in_escaped_text_is_the_escape_by_escape_reading(
    text: str, secret: str, levels: int
) -> None:
    """End to end: the finds and their spans are those of the escape-by-escape reading."""
    for _ in range(levels):
        secret = json.dumps(secret)[1:-1] if levels % 2 else _quoted(secret)
    for mixed in (text + " " + secret + " " + text, text + secret, secret + text):
        quick = pii_escaped.spans(_SCAN, mixed)
        with _reading_escape_by_escape():
            assert pii_escaped.spans(_SCAN, mixed) == quick, mixed


_KEY = "AKIA" + rand(16, "esc-aws", "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")


@pytest.mark.parametrize(
    "text",
    [
        # a secret whose first letter is the level's first or last escape (the plain runs
        # at either end are mapped without the escape-by-escape reading)
        f"\\u0041{_KEY[1:]}",
        f"%41{_KEY[1:]}",
        f"x \\u0041{_KEY[1:]} \\u0041 y",
        f"x %41{_KEY[1:]} %41 y",
        f"{_KEY[:-1]}\\u00{ord(_KEY[-1]):x}",
        f"{_KEY[:-1]}%{ord(_KEY[-1]):X}",
        f"\\ud83d\\ude00 {_KEY}",
        f"{_KEY} %F0%9F%98%80",
        f"%2541{_KEY[1:]}",
    ],
)
def test_a_secret_at_the_first_or_last_escape_maps_as_escape_by_escape(text: str) -> None:
    quick = pii_escaped.spans(_SCAN, text)
    assert "aws_access_key" in quick[0], text
    with _reading_escape_by_escape():
        assert pii_escaped.spans(_SCAN, text) == quick


@contextlib.contextmanager
def _reading_escape_by_escape() -> Iterator[None]:
    undone = pii_escaped._undone
    pii_escaped._undone = _escape_by_escape
    form, origin = pii_escaped._Level.form, pii_escaped._Level.origin

    def escape_by_escape(level: pii_escaped._Level, i: int, end: bool) -> int:
        level._head = level._tail = 0  # (no plain run at either end taken as it is)
        return origin(level, i, end)

    pii_escaped._Level.form = lambda self, below: _form_by_escape(below)  # type: ignore[method-assign]
    pii_escaped._Level.origin = escape_by_escape  # type: ignore[method-assign, assignment]
    try:
        yield
    finally:
        pii_escaped._undone = undone
        pii_escaped._Level.form = form  # type: ignore[method-assign]
        pii_escaped._Level.origin = origin  # type: ignore[method-assign]


N = 50_000
HOSTILE: dict[str, str] = {
    "%25 over and over": "%25" * (N // 3),
    "%2525…": "%" + "25" * (N // 2),
    "backslashes": "\\" * N,
    "escaped quotes, escaped": '\\\\\\"' * (N // 7),
    "lone surrogates escaped": "\\ud800" * (N // 6),
    "lone surrogates": "\ud800 x" * (N // 3),
    "lone surrogates among escapes": '\ud800\\"%41%' * (N // 7),
    "surrogate pairs escaped": "\\udbff\\udfff" * (N // 12),
    "half a UTF-8 character": "%C3" * (N // 3),
    "overlong UTF-8": "%C0%80" * (N // 6),
    "plus and percent": "+%41" * (N // 4),
    "pluses, one percent": "+ " * (N // 2 - 2) + "%41",
    "mixed": '\\\\u00%2541\\"+' * (N // 14),
}


@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_escapes_are_read_a_bounded_number_of_times(name: str) -> None:
    text = HOSTILE[name] + " " + TOKEN
    counting = _Counting(_SCAN)
    kinds, _, _ = pii_escaped.spans(counting, text)  # type: ignore[arg-type]
    assert kinds == ["github_token"]
    # the text, and at most two readings (plain, form) of each level undone
    assert counting.read <= len(text) * (1 + 2 * pii_escaped.MAX_LEVELS)


@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_escapes_through_the_policy_end_to_end(name: str, tmp_path: Path) -> None:
    text = HOSTILE[name] + " " + TOKEN
    payload = {"hook_event_name": "PostToolUse", "tool_name": "Bash", "tool_response": text}
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-m", "hookrun", "policy", "pii-scrubber", "--event", "PostToolUse"],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    out = answer["updated_output"]
    assert TOKEN not in out and out.endswith(" [REDACTED:github_token]")
    # (the rest as it came, but for lone surrogates: the answer's JSON carries U+FFFD)
    assert out[: -len(" [REDACTED:github_token]")] == re.sub(
        "[\ud800-\udfff]", "\ufffd", HOSTILE[name]
    )


def test_a_host_payload_with_json_in_its_output_string_is_rewritten() -> None:
    key = "lHCArfQ58G87mA8oxQ5Ux7ZvL21Zc0wb/lJcBMt8"
    inner = json.dumps({"Credentials": {"SecretAccessKey": key, "Note": "50% done"}})
    payload = {"hook_event_name": "PostToolUse", "tool_name": "mcp__aws", "tool_response": inner}
    ctx = PolicyContext("/p", "/p", "/p/.hookrun/state", {})
    verdict = pii.SCRUBBER.decide(payload, pii.SCRUBBER.bind({}), ctx)
    out = verdict.updated_output
    assert isinstance(out, str) and key not in out
    assert json.loads(out)["Credentials"]["SecretAccessKey"] == "[REDACTED:aws_secret_key]"
    assert json.loads(out)["Credentials"]["Note"] == "50% done"


def test_a_claude_transcript_read_by_an_mcp_tool_is_rewritten() -> None:
    """An MCP tool (its answer JSON) reads a Claude Code transcript line (JSONL) whose tool
    result is an AWS answer (JSON): the key's quotes are escaped twice in the payload's
    string (``\\\\\\"SecretAccessKey\\\\\\"``), as the host sends it."""
    key = "lHCArfQ58G87mA8oxQ5Ux7ZvL21Zc0wb/lJcBMt8"
    aws = json.dumps({"Credentials": {"SecretAccessKey": key}})
    line = {"type": "user", "message": {"content": [{"type": "tool_result", "content": aws}]}}
    answer = json.dumps({"path": "t.jsonl", "text": json.dumps(line) + "\n"})
    payload = {
        "hook_event_name": "PostToolUse",
        "tool_name": "mcp__fs__read",
        "tool_response": answer,
    }
    ctx = PolicyContext("/p", "/p", "/p/.hookrun/state", {})
    verdict = pii.SCRUBBER.decide(payload, pii.SCRUBBER.bind({}), ctx)
    out = verdict.updated_output
    assert isinstance(out, str) and key not in out
    text = json.loads(out)["text"]
    content = json.loads(text)["message"]["content"][0]["content"]
    assert json.loads(content)["Credentials"]["SecretAccessKey"] == "[REDACTED:aws_secret_key]"


def test_an_azure_secret_before_a_query_strings_ampersand_is_redacted() -> None:
    """The one miss left in the urlencode shape, in plain text too: the row's end class
    had no ``&``."""
    secret = next(t for k, t in CASES_TP if k == "azure_secret").split("=", 1)[1]
    for text in (
        f"?client_secret={secret}&grant_type=x",
        urllib.parse.urlencode({"s": secret, "n": 1}),
    ):
        out = _scrubbed(text)
        assert "[REDACTED:azure_secret]" in out and secret not in out, text
