"""Secrets in the escaped shapes hosts send: JSON inside a JSON string, ``\\u``-escaped
characters, percent-encoded URLs (``hookrun/hooks/pii_escaped.py``).

Every labelled secret of ``secret_families_test`` is put in each shape and must come out
redacted with its family's marker; every look-alike must survive in the same shapes. Before
the decoded view the scrubber missed 100 of 102 secrets with ``\\u``-escaped punctuation,
83 percent-encoded and 4 in a JSON string.
"""

from __future__ import annotations

import json
import urllib.parse
from collections import Counter
from collections.abc import Callable

import pytest

from hookrun.hooks import pii
from hookrun.hooks.base import PolicyContext
from hookrun.hooks.pii_patterns import scanner

from .secret_families_test import CASES_FP, CASES_TP


def _u_escaped(text: str) -> str:
    return '{"v": "' + "".join(c if c.isalnum() else f"\\u{ord(c):04x}" for c in text) + '"}'


SHAPES: dict[str, Callable[[str], str]] = {
    "json-in-string": lambda t: json.dumps({"stdout": t}),
    "u-escaped": _u_escaped,
    "percent-encoded": lambda t: "GET /cb?x=" + urllib.parse.quote(t, safe="") + " 200",
}
_SCAN = scanner()


def _scrubbed(text: str) -> str:
    out = pii.scrub(text, _SCAN, Counter())
    assert isinstance(out, str)
    return out


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize(
    ("kind", "text"), CASES_TP, ids=[f"{k}-{i}" for i, (k, _) in enumerate(CASES_TP)]
)
def test_an_escaped_secret_is_redacted(kind: str, text: str, shape: str) -> None:
    if shape == "percent-encoded" and not text.isascii():
        pytest.skip("percent-encoded UTF-8 is decoded a byte at a time (not read as UTF-8)")
    shaped = SHAPES[shape](text)
    assert f"[REDACTED:{kind}]" in _scrubbed(shaped), shaped


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize(
    ("kind", "text"), CASES_FP, ids=[f"{k}-{i}" for i, (k, _) in enumerate(CASES_FP)]
)
def test_an_escaped_look_alike_survives(kind: str, text: str, shape: str) -> None:
    shaped = SHAPES[shape](text)
    assert _scrubbed(shaped) == shaped


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
