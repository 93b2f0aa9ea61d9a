from __future__ import annotations

from typing import Any

import pytest

from hookrun.fields import type_name


@pytest.mark.parametrize(
    ("value", "name"),
    [
        (None, "null"),
        (True, "a boolean"),
        (1, "a number"),
        (1.5, "a number"),
        ("s", "a string"),
        ([1], "an array"),
        ((1,), "an array"),
        ({"a": 1}, "an object"),
        (b"x", "a bytes"),
    ],
)
def test_values_are_named_by_their_json_type(value: Any, name: str) -> None:
    assert type_name(value) == name
