"""secret-guard's advice names the variable to use, from the key the secret sat under.

A key that reads as a variable already (``GITHUB_TOKEN``) is used as it stands; a
camelCase or dashed key that names a secret (``apiKey``, ``clientSecret``,
``auth-token``) becomes its SNAKE_CASE form; any other key (``x``, ``githubPat``,
``Authorization``) gets the name of the kind of secret found. A deny the model can act
on says exactly what to write instead.
"""

from __future__ import annotations

import pytest

from tests.hooks.secret_guard_test import GH, OPENAI, decide, vscode, write


@pytest.mark.parametrize(
    ("key", "value", "advice"),
    [
        ("GITHUB_TOKEN", GH, '"${GITHUB_TOKEN}"'),
        ("apiKey", OPENAI, '"${API_KEY}"'),
        ("clientSecret", GH, '"${CLIENT_SECRET}"'),
        ("auth-token", GH, '"${AUTH_TOKEN}"'),
        ("token", GH, '"${TOKEN}"'),
        ("x", GH, '"${GITHUB_TOKEN}"'),  # says nothing: the kind's name
        ("githubPat", GH, '"${GITHUB_TOKEN}"'),
        ("Authorization", "Bearer " + GH, '"Bearer ${GITHUB_TOKEN}"'),
        ("authorization", OPENAI, '"${OPENAI_API_KEY}"'),  # (a header's name, no variable)
    ],
)
def test_the_advice_names_a_variable_from_the_key(key: str, value: str, advice: str) -> None:
    verdict = decide(write(".vscode/mcp.json", vscode({key: value})))
    assert verdict.decision == "deny"
    assert f"use {advice} instead" in (verdict.reason or ""), verdict.reason


def test_a_write_naming_no_file_has_no_opinion() -> None:
    payload = {"tool_name": "Write", "tool_input": {"content": vscode({"GITHUB_TOKEN": GH})}}
    assert decide(payload).decision is None
