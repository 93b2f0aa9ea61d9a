"""Options of shapes no built-in uses yet: both binding paths give one meaning, same types.

The built-ins' options are strings, booleans, ints, string tuples and string maps, so
the shapes below are exercised only by a policy a user or plugin writes (an options
class in a file run by path — see options_test's last test): floats, lists, a real
union, a fixed-length tuple, ``Any``, nested options inside a list or an ``Optional``.
For each, the plain path either takes the input as is or declines it, and the
pydantic model — the reference — decides; what the plain path takes must be what the
model makes of it, *with the same types* (``1`` for a float field is ``1.0``: the two
compare equal, so equality alone would not see a path that kept the int).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple, Optional, Union

import pydantic
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hookrun.hooks import option_types as options


class Inner(NamedTuple):
    name: str = ""
    weight: float = 1.0


class Shapes(NamedTuple):
    ratio: float = 0.5
    counts: list[int] = []  # noqa: RUF012 - a default the options class never mutates
    pair: tuple[int, int] = (0, 0)
    either: Union[int, str] = 0  # noqa: UP007 - the typing spelling is what is under test
    maybe_inner: Optional[Inner] = None  # noqa: UP045
    inners: list[Inner] = []  # noqa: RUF012
    table: Mapping[str, list[float]] = {}  # noqa: RUF012
    anything: Any = None


def _typed(value: Any) -> Any:
    """``value`` with the type of every part spelled out, so that 1 and 1.0 differ."""
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        return (type(value).__name__, tuple(_typed(v) for v in value))
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, tuple(_typed(v) for v in value))
    if isinstance(value, dict):
        return ("dict", tuple(sorted((k, _typed(v)) for k, v in value.items())))
    return (type(value).__name__, value)


def _by_model(raw: Mapping[str, Any]) -> Shapes:
    got: Shapes = options._from_model(Shapes, options.model_for(Shapes).model_validate(raw))
    return got


# (input, what it binds to): the expected values are the model's (the reference path);
# "plain" says whether the plain path takes the input as is.
CASES: list[tuple[dict[str, Any], Shapes, bool]] = [
    ({}, Shapes(), True),
    ({"ratio": 1}, Shapes(ratio=1.0), True),  # an int for a float: the float
    ({"ratio": 0.25}, Shapes(ratio=0.25), True),
    ({"counts": [1, 2, 3]}, Shapes(counts=[1, 2, 3]), True),
    ({"counts": []}, Shapes(counts=[]), True),
    ({"counts": ["4"]}, Shapes(counts=[4]), False),  # coerced by the model
    ({"table": {"a": [1, 2.5]}}, Shapes(table={"a": [1.0, 2.5]}), True),
    ({"maybe_inner": None}, Shapes(maybe_inner=None), True),
    ({"maybe_inner": {"name": "a", "weight": 2}}, Shapes(maybe_inner=Inner("a", 2.0)), True),
    # a nested value the model coerces: the options come back as the options class
    ({"maybe_inner": {"name": "a", "weight": "2"}}, Shapes(maybe_inner=Inner("a", 2.0)), False),
    ({"inners": [{"name": "b"}]}, Shapes(inners=[Inner("b", 1.0)]), True),
    ({"inners": [{"name": "b", "weight": "3"}]}, Shapes(inners=[Inner("b", 3.0)]), False),
    # shapes the plain path always leaves to the model
    ({"pair": [1, 2]}, Shapes(pair=(1, 2)), False),
    ({"either": 3}, Shapes(either=3), False),
    ({"either": "3"}, Shapes(either="3"), False),  # pydantic's smart union keeps the str
    ({"anything": {"x": [1, None]}}, Shapes(anything={"x": [1, None]}), False),
]


@pytest.mark.parametrize(("raw", "expected", "plain"), CASES, ids=lambda v: str(v)[:50])
def test_each_shape_binds_to_the_models_value_with_its_types(
    raw: dict[str, Any], expected: Shapes, plain: bool
) -> None:
    assert _typed(_by_model(raw)) == _typed(expected)
    assert _typed(options.bind_checked(Shapes, raw)) == _typed(expected)
    if plain:
        assert _typed(options._plain_options(Shapes, raw)) == _typed(expected)
    else:
        with pytest.raises(options._Decline):
            options._plain_options(Shapes, raw)


REJECTED: list[tuple[dict[str, Any], str]] = [
    ({"ratio": "fast"}, "ratio"),
    ({"counts": 3}, "counts"),
    ({"counts": ["x"]}, "counts.0"),
    ({"pair": [1, 2, 3]}, "pair"),
    ({"either": [1]}, "either"),
    ({"table": {"a": 1}}, "table.a"),
    ({"table": {1: [1.0]}}, "table"),  # a key that is not a string (a Python embedder's dict)
    ({"inners": [{"nme": "b"}]}, "inners.0.nme"),
    ({"maybe_inner": {"weight": "heavy"}}, "maybe_inner"),
]


@pytest.mark.parametrize(("raw", "where"), REJECTED, ids=lambda v: str(v)[:50])
def test_a_wrong_value_of_each_shape_is_a_pydantic_error_naming_the_field(
    raw: dict[str, Any], where: str
) -> None:
    with pytest.raises(options._Decline):
        options._plain_options(Shapes, raw)
    with pytest.raises(pydantic.ValidationError) as err:
        options.bind_checked(Shapes, raw)
    assert where in str(err.value)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 9) | st.floats(-2, 2) | st.text(max_size=3),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner),
    max_leaves=5,
)
INNER = st.fixed_dictionaries({}, optional={"name": JSON, "weight": JSON})
FIELD_VALUES: dict[str, Any] = {
    "ratio": JSON,
    "counts": st.lists(JSON, max_size=3) | JSON,
    "pair": st.lists(st.integers(-2, 2), max_size=3) | JSON,
    "either": JSON,
    "maybe_inner": INNER | JSON,
    "inners": st.lists(INNER, max_size=2) | JSON,
    "table": st.dictionaries(st.text(max_size=3), st.lists(JSON, max_size=2) | JSON, max_size=2),
    "anything": JSON,
}


@settings(max_examples=300, deadline=None)
@given(raw=st.fixed_dictionaries({}, optional=FIELD_VALUES))
def test_on_any_json_what_the_plain_path_takes_the_model_takes_with_the_same_types(
    raw: dict[str, Any],
) -> None:
    try:
        fast = options._plain_options(Shapes, raw)
    except options._Decline:
        return
    assert _typed(fast) == _typed(_by_model(raw))
