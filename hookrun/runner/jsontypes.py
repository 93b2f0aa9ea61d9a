"""How to name a JSON value's type in a message a person reads."""

from __future__ import annotations

from collections.abc import Mapping

from hookrun.records import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any


def type_name(value: Any) -> str:
    """``"a string"``, ``"an array"``, … — the JSON name, not Python's."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, (list, tuple)):
        return "an array"
    if isinstance(value, Mapping):
        return "an object"
    return f"a {type(value).__name__}"
