"""hookrun.frozen: the dataclass(frozen=True) behaviours the hot-path value types keep."""

from __future__ import annotations

import copy
import pickle
from typing import Any

import pytest

from hookrun.frozen import Frozen, replace, set_fields


class Point(Frozen):
    x: int
    y: Any

    def __init__(self, x: int, y: Any = 0) -> None:
        set_fields(self, x=x, y=y)


class OtherPoint(Frozen):
    x: int
    y: Any

    def __init__(self, x: int, y: Any = 0) -> None:
        set_fields(self, x=x, y=y)


@pytest.mark.parametrize(
    ("a", "b", "equal"),
    [
        (Point(1, 2), Point(1, 2), True),
        (Point(1, 2), Point(x=1, y=2), True),
        (Point(1), Point(1, 0), True),
        (Point(1, 2), Point(2, 1), False),
        (Point(1, 2), OtherPoint(1, 2), False),  # another class never equals, as dataclasses
        (Point(1, 2), (1, 2), False),  # nor does a tuple of the same values
    ],
)
def test_equality_is_by_class_and_fields_in_order(a: object, b: object, equal: bool) -> None:
    assert (a == b) is equal
    assert (a != b) is not equal


def test_equal_values_hash_equal_and_unhashable_fields_make_it_unhashable() -> None:
    assert hash(Point(1, "a")) == hash(Point(1, "a"))
    assert len({Point(1, "a"), Point(1, "a"), Point(2, "a")}) == 2
    with pytest.raises(TypeError):
        hash(Point(1, {}))


def test_repr_names_the_class_and_every_field() -> None:
    assert repr(Point(1, "a")) == "Point(x=1, y='a')"


def test_fields_cannot_be_assigned_added_or_deleted() -> None:
    point = Point(1, 2)
    with pytest.raises(AttributeError, match="cannot assign to field 'x': Point is frozen"):
        point.x = 3  # type: ignore[misc]
    with pytest.raises(AttributeError):
        point.z = 3  # type: ignore[attr-defined]
    with pytest.raises(AttributeError, match="cannot delete field 'y'"):
        del point.y
    assert (point.x, point.y) == (1, 2)


def test_replace_copies_with_changes_and_leaves_the_original() -> None:
    point = Point(1, 2)
    assert replace(point, y=5) == Point(1, 5)
    assert point == Point(1, 2)
    with pytest.raises(TypeError):
        replace(point, z=1)


def test_vars_copy_and_pickle_work_as_for_a_plain_object() -> None:
    point = Point(1, [2])
    assert vars(point) == {"x": 1, "y": [2]}
    assert Point(**{**point.__dict__, "x": 7}) == Point(7, [2])
    deep = copy.deepcopy(point)
    assert deep == point and deep.y is not point.y
    assert copy.copy(point) == point
    assert pickle.loads(pickle.dumps(point)) == point
