"""`hookrun policy NAME --with KEY=VALUE --with-json JSON`: how options are read."""

from __future__ import annotations

from typing import Any

import pytest

from hookrun.cli import CliError
from hookrun.cli.commands.policy import parse_with


@pytest.mark.parametrize(
    ("pairs", "with_json", "expected"),
    [
        ([], None, {}),
        (["max_per_session=3"], None, {"max_per_session": 3}),
        (["phase=review"], None, {"phase": "review"}),
        (['allow=["src/**", "docs/**"]'], None, {"allow": ["src/**", "docs/**"]}),
        (["flag=true", "off=false", "none=null"], None, {"flag": True, "off": False, "none": None}),
        (['x="123"'], None, {"x": "123"}),
        (["expr=a=b"], None, {"expr": "a=b"}),
        (["empty="], None, {"empty": ""}),
        ([], '{"a": 1, "b": [2]}', {"a": 1, "b": [2]}),
        (["a=5"], '{"a": 1, "b": 2}', {"a": 5, "b": 2}),
    ],
)
def test_with_values_are_json_when_they_parse_else_strings(
    pairs: list[str], with_json: str | None, expected: dict[str, Any]
) -> None:
    assert parse_with(pairs, with_json) == expected


@pytest.mark.parametrize(
    ("pairs", "with_json", "message"),
    [
        (["novalue"], None, "--with 'novalue': expected KEY=VALUE, e.g. --with max_per_session=3"),
        (["=3"], None, "--with '=3': expected KEY=VALUE, e.g. --with max_per_session=3"),
        ([], "[1]", "--with-json must be a JSON object, got an array"),
        (
            [],
            "{",
            "--with-json is not valid JSON: Expecting property name enclosed in double "
            "quotes at line 1 column 2",
        ),
    ],
)
def test_malformed_options_are_clear_errors(
    pairs: list[str], with_json: str | None, message: str
) -> None:
    with pytest.raises(CliError) as info:
        parse_with(pairs, with_json)
    assert info.value.message == message
