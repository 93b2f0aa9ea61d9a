"""A policy's options: a NamedTuple, validated in plain Python; pydantic only to explain.

A policy declares its options as a ``NamedTuple`` whose annotations are the JSON
shapes it takes (``str``, ``bool``, ``int``, ``float``, ``X | None``, ``Literal``,
``tuple[X, ...]``, ``list[X]``, ``Mapping[str, X]``, a nested options NamedTuple),
refined with ``Annotated[…, AtLeast(n), Check(fn), Doc("…")]``.

:func:`bind` is the one door. A hook without options (no ``with``: most configs) gets
the defaults without reading an annotation. Anything else is checked against the
annotations by :mod:`hookrun.hooks.option_types` — exact JSON types in plain Python,
and a pydantic model only to coerce or explain what is not exactly as expected.

This module and an options module written against it load no ``typing`` (~0.4x a bare
Python start, paid on every call that runs the policy — issue 8): the marks are
:mod:`hookrun.records` tuples, and an options module names ``Annotated`` and the like
under ``TYPE_CHECKING`` only (its annotations are strings until
:mod:`~hookrun.hooks.option_types` reads them). ``tests/cli/import_set_test.py`` pins it.
"""

from __future__ import annotations

from collections.abc import Mapping

from hookrun.records import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, TypeVar

    T = TypeVar("T")


class AtLeast(NamedTuple):
    """``Annotated[int, AtLeast(0)]``: the number is at least ``value`` (pydantic's ``ge``)."""

    value: float


class Check(NamedTuple):
    """``Annotated[str, Check(fn)]``: ``fn(value)`` raises ValueError with the message
    when the value is unusable (pydantic reports it as ``Value error, <message>``)."""

    fn: Callable[[Any], object]


class Doc(NamedTuple):
    """``Annotated[bool, Doc("…")]``: the option's one-line description."""

    text: str


class NoOptions(NamedTuple):
    """The options of a policy that takes none: any key is an error."""


def bind(cls: type[T], raw: Mapping[str, Any]) -> T:
    """``raw`` (a config's ``with`` object) as an instance of the options class ``cls``.

    Raises :class:`pydantic.ValidationError` when ``raw`` is not valid.
    """
    fields: tuple[str, ...] = cls._fields  # type: ignore[attr-defined]
    defaults: dict[str, Any] = cls._field_defaults  # type: ignore[attr-defined]
    if not raw and isinstance(raw, Mapping) and len(defaults) == len(fields):
        # What the checked path makes of an empty object, without evaluating annotations.
        return cls()
    # Lazy: typing and the annotations are needed only for options actually given
    # (tests/cli/import_set_test.py pins a run without options loading neither).
    from hookrun.hooks.option_types import bind_checked

    return bind_checked(cls, raw)
