from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

from hookrun.config.models import HookModel, describe


class LaxOptions(BaseModel):
    """Like a policy's options model: lax, so strings are parsed."""

    limit: int = 1
    ratio: float = 0.5
    flag: bool = False
    paths: tuple[str, ...] = ()


@pytest.mark.parametrize(
    ("model", "raw", "message"),
    [
        (HookModel, {"command": 5}, "expected a string, got number 5"),
        (HookModel, {"include_sub_agents": "no"}, 'expected true or false, got string "no"'),
        (HookModel, {"timeout": None, "env": []}, "expected an object, got a list"),
        (HookModel, {"timeout": "1"}, 'expected a number, got string "1"'),
        (HookModel, {"timeout": -0.5}, "expected a positive number of seconds, got number -0.5"),
        (HookModel, {"on_error": None, "with": "x"}, 'expected an object, got string "x"'),
        (HookModel, {"on_error": "fail"}, 'expected "allow" or "deny", got string "fail"'),
        (LaxOptions, {"limit": "many"}, 'expected a whole number, got string "many"'),
        (LaxOptions, {"limit": 1.5}, "expected a whole number, got number 1.5"),
        (LaxOptions, {"ratio": "half"}, 'expected a number, got string "half"'),
        (LaxOptions, {"flag": "maybe"}, 'expected true or false, got string "maybe"'),
        (LaxOptions, {"paths": 3}, "expected a list, got number 3"),
        (LaxOptions, {"paths": [None]}, "expected a string, got null"),
    ],
)
def test_describe_turns_a_pydantic_error_into_one_plain_sentence(
    model: type[BaseModel], raw: dict[str, Any], message: str
) -> None:
    with pytest.raises(ValidationError) as info:
        model.model_validate(raw)
    (error,) = info.value.errors()
    assert describe(error) == message
