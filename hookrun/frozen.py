"""Immutable value classes without ``dataclasses``, for the modules ``hookrun run`` imports.

``hookrun run`` is started once per agent tool call, so its start-up time is hookrun's
latency. ``import dataclasses`` pulls in ``inspect`` (and with it ``ast``, ``dis``,
``tokenize``) and every ``@dataclass`` class generates and compiles its methods when
its module is imported: together about a bare Python start-up's worth of time for
the handful of value types on that path.

A :class:`Frozen` subclass declares its fields as annotations and writes its own
``__init__``, which fills ``self.__dict__`` in field order (:func:`set_fields`). It then
behaves as a ``@dataclass(frozen=True)`` does: ``==`` and ``hash`` over the fields
(in order, only against the same class), a ``Name(field=value, …)`` repr,
assignment and deletion refused with an ``AttributeError``, and ``vars()`` /
``__dict__``, ``copy`` and ``pickle`` as usual. :func:`replace` is
``dataclasses.replace`` for them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NoReturn

if TYPE_CHECKING:
    # Only for mypy: at run time a TypeVar bound to a string is a ForwardRef, whose
    # compile() would be the process's first and costs ~1 ms of one-time set-up.
    from typing import TypeVar

    F = TypeVar("F", bound="Frozen")


class Frozen:
    """Base of an immutable value class whose ``__init__`` calls :func:`set_fields`."""

    __slots__ = ()  # subclasses keep their __dict__: the fields live there

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError(f"cannot assign to field {name!r}: {type(self).__name__} is frozen")

    def __delattr__(self, name: str) -> NoReturn:
        raise AttributeError(f"cannot delete field {name!r}: {type(self).__name__} is frozen")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return tuple(self.__dict__.values()) == tuple(other.__dict__.values())

    def __hash__(self) -> int:
        return hash(tuple(self.__dict__.values()))

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={value!r}" for name, value in self.__dict__.items())
        return f"{type(self).__qualname__}({fields})"


def set_fields(obj: Frozen, **fields: Any) -> None:
    """Set ``obj``'s fields (from its ``__init__``; keyword order is field order)."""
    obj.__dict__.update(fields)


def replace(obj: F, **changes: Any) -> F:
    """A copy of ``obj`` with ``changes`` applied (``dataclasses.replace`` for Frozen)."""
    return type(obj)(**{**obj.__dict__, **changes})
