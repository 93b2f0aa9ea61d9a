"""``NamedTuple`` for the classes of a start-up path, built without compiling code.

``typing.NamedTuple`` makes each class through ``collections.namedtuple``, which
compiles the class's ``__new__`` from source text, and (under ``from __future__ import
annotations``) compiles every field's annotation string into a ``ForwardRef`` as well:
measured 0.31 ms a class on CPython 3.11, so the 31 node classes of
:mod:`hookrun.shellsyntax.nodes` cost ~9 ms of the shell path's import, its largest
share. :func:`NamedTuple` here builds the same class — a tuple subclass with the same
fields, the same ``__new__`` signature (keywords and defaults included), the same
C-level field getters, ``_make``/``_replace``/``_asdict``/``_fields``/
``_field_defaults``, ``__match_args__``, repr and pickling — in ~0.02 ms: ``__new__``
is the code of one template per arity (compiled once) with the field names put in.

Use it exactly as ``typing.NamedTuple``::

    from hookrun.records import NamedTuple

    class Lit(NamedTuple):
        pos: int
        text: str = ""

Type checkers see ``typing.NamedTuple`` itself (below), so every construction is still
checked by mypy. What ``typing.NamedTuple`` supports beyond that (generic named
tuples, other bases) is refused with a TypeError at class creation.
"""

from __future__ import annotations

import collections
import operator
import types

# mypy reads any name spelled TYPE_CHECKING as the constant True; at run time this one
# spares the start-up path `import typing` (~16M instructions, 0.4x a bare Python start).
# Start-up modules import it from here: `from hookrun.records import TYPE_CHECKING`.
TYPE_CHECKING = False

if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any


def _property_getter(index: int, doc: str) -> Any:
    return property(operator.itemgetter(index), doc=doc)


# The C descriptor collections.namedtuple itself uses for field access (CPython), else
# the property it falls back to.
_tuplegetter: Any = getattr(collections, "_tuplegetter", _property_getter)

_tuple_new = tuple.__new__
_NEW_GLOBALS = {"_tuple_new": _tuple_new, "__builtins__": {}}
# The __new__ of a record of 0..12 fields, compiled with this module: building one from
# text at run time (exec of a template) compiles it, ~0.4M instructions for each arity a
# process needs — six for `hookrun run` itself, three more for the shell's syntax tree.
_COMPILED_NEW = (
    lambda _cls: _tuple_new(_cls, ()),
    lambda _cls, _0: _tuple_new(_cls, (_0,)),
    lambda _cls, _0, _1: _tuple_new(_cls, (_0, _1)),
    lambda _cls, _0, _1, _2: _tuple_new(_cls, (_0, _1, _2)),
    lambda _cls, _0, _1, _2, _3: _tuple_new(_cls, (_0, _1, _2, _3)),
    lambda _cls, _0, _1, _2, _3, _4: _tuple_new(_cls, (_0, _1, _2, _3, _4)),
    lambda _cls, _0, _1, _2, _3, _4, _5: _tuple_new(_cls, (_0, _1, _2, _3, _4, _5)),
    lambda _cls, _0, _1, _2, _3, _4, _5, _6: _tuple_new(_cls, (_0, _1, _2, _3, _4, _5, _6)),
    lambda _cls, _0, _1, _2, _3, _4, _5, _6, _7: _tuple_new(_cls, (_0, _1, _2, _3, _4, _5, _6, _7)),
    lambda _cls, _0, _1, _2, _3, _4, _5, _6, _7, _8: _tuple_new(
        _cls, (_0, _1, _2, _3, _4, _5, _6, _7, _8)
    ),
    lambda _cls, _0, _1, _2, _3, _4, _5, _6, _7, _8, _9: _tuple_new(
        _cls, (_0, _1, _2, _3, _4, _5, _6, _7, _8, _9)
    ),
    lambda _cls, _0, _1, _2, _3, _4, _5, _6, _7, _8, _9, _10: _tuple_new(
        _cls, (_0, _1, _2, _3, _4, _5, _6, _7, _8, _9, _10)
    ),
    lambda _cls, _0, _1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11: _tuple_new(
        _cls, (_0, _1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11)
    ),
)
_TEMPLATES: dict[int, Any] = {}  # arity -> the code of a __new__ taking that many fields


def _new_code(arity: int) -> Any:
    code = _TEMPLATES.get(arity)
    if code is None:
        if arity < len(_COMPILED_NEW):
            code = _COMPILED_NEW[arity].__code__.replace(co_name="__new__")
            if hasattr(code, "co_qualname"):  # 3.11+: what a traceback shows
                code = code.replace(co_qualname="__new__")  # type: ignore[call-arg,unused-ignore]
        else:
            args = ", ".join(f"_{i}" for i in range(arity))
            source = f"def __new__(_cls, {args}): return _tuple_new(_cls, ({args}))"
            namespace: dict[str, Any] = {}
            # exec of the text, not compile(): the builtin compile() sets up the ast
            # module's types on its first call (~10M instructions, 1.5-3 ms), exec does not.
            exec(source, dict(_NEW_GLOBALS), namespace)
            code = namespace["__new__"].__code__
        _TEMPLATES[arity] = code
    return code


class _Record(tuple):  # type: ignore[type-arg]
    """Holds the methods every record shares (those of a ``collections.namedtuple``).

    Not a base of the records: each record's class dict gets them (``_METHODS``), so a
    record's MRO is (record, tuple, object) as a namedtuple's is. A base in between made
    every slot lookup of a class build walk one more dict (``type()`` looks up each of
    ~90 slot names along the MRO). With the rest of the trims in ``_RecordMeta``, importing
    the shell's 31 node classes went from 5.72M to 4.52M instructions (callgrind).
    """

    __slots__ = ()
    _fields: tuple[str, ...] = ()
    _field_defaults: dict[str, Any] = {}

    @classmethod
    def _make(cls, iterable: Iterable[Any]) -> Any:
        result = _tuple_new(cls, iterable)
        if len(result) != len(cls._fields):
            raise TypeError(f"Expected {len(cls._fields)} arguments, got {len(result)}")
        return result

    def _replace(self, /, **kwds: Any) -> Any:
        result = self._make(map(kwds.pop, self._fields, self))
        if kwds:
            raise ValueError(f"Got unexpected field names: {list(kwds)!r}")
        return result

    def __repr__(self) -> str:
        pairs = zip(self._fields, self, strict=True)
        inner = ", ".join(f"{name}={value!r}" for name, value in pairs)
        return f"{type(self).__name__}({inner})"

    def _asdict(self) -> dict[str, Any]:
        return dict(zip(self._fields, self, strict=True))

    def __getnewargs__(self) -> tuple[Any, ...]:
        return tuple(self)


_METHODS = {
    name: vars(_Record)[name]
    for name in ("_make", "_replace", "__repr__", "_asdict", "__getnewargs__")
}

# What a class body may not define (it would break the tuple), as typing refuses them.
_PROHIBITED = frozenset(
    ("__new__", "__init__", "__slots__", "__getnewargs__", "_fields", "_field_defaults")
    + ("_make", "_replace", "_asdict", "_source")
)

# The field getters, one for each index, shared by every record: a getter reads item i
# of whatever tuple it is given (collections.namedtuple makes one per class and field).
_GETTERS: list[Any] = []


def _getters(count: int) -> list[Any]:
    while len(_GETTERS) < count:
        i = len(_GETTERS)
        _GETTERS.append(_tuplegetter(i, f"Alias for field number {i}"))
    return _GETTERS


class _RecordMeta(type):
    # Called for each record class a module defines (the 31 of the shell's syntax tree
    # among them), so kept lean: everything here is paid at import time.
    def __new__(mcls, name: str, bases: tuple[type, ...], ns: dict[str, Any]) -> Any:
        if bases != (_RecordBase,):
            raise TypeError(f"{name}: a record derives from NamedTuple alone")
        fields = tuple(ns.get("__annotations__", ()))
        defaults: list[Any] = []
        for field in fields:
            if field in ns:
                defaults.append(ns[field])
            elif defaults:
                raise TypeError(f"{name}: a field without a default follows one with a default")
        if not _PROHIBITED.isdisjoint(ns):
            key = min(_PROHIBITED.intersection(ns))
            raise AttributeError(f"{name}: cannot overwrite NamedTuple attribute {key}")
        # `ns` is this class's own namespace (type.__prepare__ made it): filled in place.
        return _build(name, fields, tuple(defaults), ns)


def _build(
    name: str, fields: tuple[str, ...], defaults: tuple[Any, ...], ns: dict[str, Any]
) -> Any:
    """The record class: ``ns`` (its namespace, filled in place) with the tuple machinery."""
    code = _new_code(len(fields)).replace(co_varnames=("_cls", *fields))
    new = types.FunctionType(code, _NEW_GLOBALS, "__new__", defaults or None)
    new.__qualname__ = f"{ns.get('__qualname__', name)}.__new__"
    if "__doc__" not in ns:
        ns["__doc__"] = f"{name}({', '.join(fields)})"
    ns.update(_METHODS)
    getters = _getters(len(fields))
    for i, field in enumerate(fields):
        ns[field] = getters[i]  # replaces a default
    ns["__slots__"] = ()
    ns["__new__"] = new
    ns["__match_args__"] = ns["_fields"] = fields
    ns["_field_defaults"] = (
        dict(zip(fields[len(fields) - len(defaults) :], defaults, strict=True)) if defaults else {}
    )
    return type(name, (tuple,), ns)


def lazy_records(
    namespace: dict[str, Any], fields: dict[str, str], defaults: dict[str, tuple[Any, ...]]
) -> Any:
    """A module ``__getattr__`` (PEP 562) that makes each record class on its first use.

    ``fields`` maps a class name to its field names (blank-separated), ``defaults`` a
    name to the values of its last fields. A class is made once and kept in the module's
    ``namespace`` (a later lookup, ``from module import Name`` included, finds it there
    without this function); two threads asking at once get the same class. The module
    declares the same classes for type checkers in a stub (``module.pyi``; a test holds
    the two to the same fields). Made eagerly, a record class costs ~100k
    instructions (``type()`` itself is ~70k of it): the shell's syntax tree has 31, and
    a plain hook line needs about half of them.
    """
    module = namespace["__name__"]

    def __getattr__(name: str) -> Any:
        spec = fields.get(name)
        if spec is None:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        ns = {"__module__": module, "__qualname__": name}
        made = _build(name, tuple(spec.split()), defaults.get(name, ()), ns)
        return namespace.setdefault(name, made)

    return __getattr__


_RecordBase = type.__new__(_RecordMeta, "_RecordBase", (), {})


def _named_tuple(*args: Any, **kwargs: Any) -> Any:
    raise TypeError("hookrun.records.NamedTuple is used only as a base class")


def _mro_entries(bases: tuple[Any, ...]) -> tuple[type, ...]:
    return (_RecordBase,)


_named_tuple.__mro_entries__ = _mro_entries  # type: ignore[attr-defined]

if TYPE_CHECKING:
    from typing import NamedTuple as NamedTuple
else:
    NamedTuple = _named_tuple

__all__ = ["TYPE_CHECKING", "NamedTuple", "lazy_records"]
