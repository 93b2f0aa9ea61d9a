"""Checking a policy's ``with`` object against its options class's annotations.

:func:`bind_checked` checks the exact JSON types a valid config has, at the cost of a
few dict lookups — loading a policy must not import pydantic (about 130 ms, ten bare
Python start-ups) on every tool call. When anything is not exactly as expected (a
wrong type, a value a pydantic model would coerce, an unknown key, a failed check),
the same annotations are turned into a pydantic model (:func:`model_for`) which
validates the input: it either accepts it with the same meaning as before (``"3"``
for an ``int``) or raises :class:`pydantic.ValidationError` saying what is wrong,
where. A test pins that whatever the plain path accepts, the model accepts with the
same value. The options vocabulary (the marks, :func:`~hookrun.hooks.options.bind`)
is :mod:`hookrun.hooks.options`, which loads this module only for options given.
"""

from __future__ import annotations

import sys
import types
from collections.abc import Callable, Mapping
from typing import (
    TYPE_CHECKING,
    Annotated,
    Any,
    Literal,
    Optional,
    TypeVar,
    Union,
    get_args,
    get_origin,
    get_type_hints,
)

from hookrun.hooks.options import AtLeast, Check, Doc

if TYPE_CHECKING:
    from pydantic import BaseModel

T = TypeVar("T")


class _Decline(Exception):
    """The plain path does not accept this input as is: let the model decide."""


_HINTS: dict[type, dict[str, Any]] = {}


# The names an options module may use in its annotations while importing them under
# TYPE_CHECKING only (so that loading it loads no typing): they are evaluated here.
_VOCABULARY: dict[str, Any] = {
    "Annotated": Annotated,
    "Any": Any,
    "Literal": Literal,
    "Mapping": Mapping,
    "Optional": Optional,
    "Union": Union,
}


def hints(cls: type) -> dict[str, Any]:
    """The evaluated annotations of an options class's fields (evaluated once per process)."""
    found = _HINTS.get(cls)
    if found is None:
        # A class from a module loaded without sys.modules (a bench or plugin file run
        # by path) has only the vocabulary to resolve its annotations against.
        module = getattr(sys.modules.get(cls.__module__), "__dict__", {})
        local = {k: v for k, v in _VOCABULARY.items() if k not in module}
        every = get_type_hints(cls, localns={**module, **local}, include_extras=True)
        found = _HINTS[cls] = {name: every[name] for name in cls._fields}  # type: ignore[attr-defined]
    return found


def is_options(tp: object) -> bool:
    return isinstance(tp, type) and issubclass(tp, tuple) and hasattr(tp, "_field_defaults")


def bind_checked(cls: type[T], raw: Mapping[str, Any]) -> T:
    """``raw`` (a config's ``with`` object) as an instance of the options class ``cls``.

    Raises :class:`pydantic.ValidationError` when ``raw`` is not valid.
    """
    try:
        return _plain_options(cls, raw)
    except _Decline:
        pass
    model = model_for(cls)
    validated = model.model_validate(dict(raw))
    return _from_model(cls, validated)


# -- the plain path -----------------------------------------------------------------------


def _plain_options(cls: type[T], raw: object) -> T:
    if not isinstance(raw, Mapping):
        raise _Decline
    fields: tuple[str, ...] = cls._fields  # type: ignore[attr-defined]
    defaults: dict[str, Any] = cls._field_defaults  # type: ignore[attr-defined]
    if any(key not in fields for key in raw):
        raise _Decline
    if any(name not in raw and name not in defaults for name in fields):
        raise _Decline
    found = hints(cls)
    values = {name: _plain(found[name], raw[name]) for name in fields if name in raw}
    return cls(**values)


def _plain(hint: Any, value: Any) -> Any:  # noqa: C901 - one branch per shape, flat
    origin = get_origin(hint)
    if origin is Annotated:
        base, *meta = get_args(hint)
        out = _plain(base, value)
        for mark in meta:
            if isinstance(mark, AtLeast) and out is not None and out < mark.value:
                raise _Decline
            if isinstance(mark, Check):
                try:
                    mark.fn(out)
                except ValueError:
                    raise _Decline from None
        return out
    if origin is Union or origin is types.UnionType:
        args = get_args(hint)
        if value is None and type(None) in args:
            return None
        rest = [arg for arg in args if arg is not type(None)]
        if len(rest) != 1:  # a real union: which member wins is pydantic's call
            raise _Decline
        return _plain(rest[0], value)
    if origin is Literal:
        if any(value == choice and type(value) is type(choice) for choice in get_args(hint)):
            return value
        raise _Decline
    if origin is tuple:
        args = get_args(hint)
        if len(args) != 2 or args[1] is not Ellipsis or not isinstance(value, (list, tuple)):
            raise _Decline
        return tuple(_plain(args[0], item) for item in value)
    if origin is list:
        if not isinstance(value, (list, tuple)):
            raise _Decline
        return [_plain(get_args(hint)[0], item) for item in value]
    if origin is dict or origin is Mapping:
        key_type, value_type = get_args(hint)
        if type(value) is not dict or key_type is not str:
            raise _Decline
        if any(type(k) is not str for k in value):
            raise _Decline
        return {k: _plain(value_type, v) for k, v in value.items()}
    if hint is str or hint is bool:
        if type(value) is hint:
            return value
        raise _Decline
    if hint is int:
        if type(value) is int:
            return value
        raise _Decline
    if hint is float:
        if type(value) is float or type(value) is int:
            return float(value)
        raise _Decline
    if is_options(hint):
        return _plain_options(hint, value)
    raise _Decline


# -- the explaining path ------------------------------------------------------------------

_MODELS: dict[type, type[BaseModel]] = {}


def model_for(cls: type) -> type[BaseModel]:
    """The pydantic model with ``cls``'s fields, defaults and checks (built once)."""
    known = _MODELS.get(cls)
    if known is not None:
        return known
    from pydantic import ConfigDict, Field, create_model

    fields: dict[str, Any] = {}
    found = hints(cls)
    defaults: dict[str, Any] = cls._field_defaults  # type: ignore[attr-defined]
    for name in cls._fields:  # type: ignore[attr-defined]
        hint = found[name]
        doc = _doc(hint)
        default = defaults.get(name, ...)
        fields[name] = (_to_pydantic(hint), Field(default, description=doc))
    model: type[BaseModel] = create_model(
        cls.__name__, __config__=ConfigDict(extra="forbid", frozen=True), **fields
    )
    _MODELS[cls] = model
    return model


def _doc(hint: Any) -> str | None:
    if get_origin(hint) is Annotated:
        for mark in get_args(hint)[1:]:
            if isinstance(mark, Doc):
                return mark.text
    return None


# Subscripted at run time with types found at run time: Any keeps mypy from reading
# these as type expressions.
_ANNOTATED: Any = Annotated
_UNION: Any = Union
_TUPLE: Any = tuple
_LIST: Any = list
_DICT: Any = dict


def _to_pydantic(hint: Any) -> Any:
    from pydantic import AfterValidator, Field

    origin = get_origin(hint)
    args = get_args(hint)
    if origin is Annotated:
        marks: list[Any] = []
        for mark in args[1:]:
            if isinstance(mark, AtLeast):
                marks.append(Field(ge=mark.value))
            elif isinstance(mark, Check):
                marks.append(AfterValidator(_checked(mark.fn)))
        base = _to_pydantic(args[0])
        return _ANNOTATED[tuple([base, *marks])] if marks else base
    if origin is Union or origin is types.UnionType:
        return _UNION[tuple(_to_pydantic(arg) for arg in args)]
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return _TUPLE[_to_pydantic(args[0]), ...]
        return hint
    if origin is list:
        return _LIST[_to_pydantic(args[0])]
    if origin is dict or origin is Mapping:
        return _DICT[args[0], _to_pydantic(args[1])]
    if is_options(hint):
        return model_for(hint)
    return hint


def _checked(fn: Callable[[Any], object]) -> Callable[[Any], Any]:
    def run(value: Any) -> Any:
        fn(value)
        return value

    return run


def _from_model(cls: type[T], model: Any) -> T:
    found = hints(cls)
    return cls(**{name: _back(found[name], getattr(model, name)) for name in cls._fields})  # type: ignore[attr-defined]


def _back(hint: Any, value: Any) -> Any:
    """A value the model validated, as the options class holds it (nested models → tuples)."""
    origin = get_origin(hint)
    args = get_args(hint)
    if origin is Annotated:
        return _back(args[0], value)
    if value is None:
        return None
    if origin is Union or origin is types.UnionType:
        for arg in args:
            if is_options(arg) or get_origin(arg) in (tuple, list, dict, Mapping, Annotated):
                return _back(arg, value)
        return value
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return tuple(_back(args[0], item) for item in value)
    if origin is list:
        return [_back(args[0], item) for item in value]
    if origin is dict or origin is Mapping:
        return {k: _back(args[1], v) for k, v in value.items()}
    if is_options(hint):
        return _from_model(hint, value)
    return value
