"""hookrun.records.NamedTuple behaves as typing.NamedTuple, and builds without compile()."""

from __future__ import annotations

import builtins
import copy
import pickle
import typing
from typing import Any

import pytest

from hookrun.records import NamedTuple


class Lit(NamedTuple):
    """A piece of literal text."""

    pos: int
    end: int
    text: str = ""

    def size(self) -> int:
        return self.end - self.pos

    @property
    def empty(self) -> bool:
        return not self.text


class TypingLit(typing.NamedTuple):
    pos: int
    end: int
    text: str = ""


class One(NamedTuple):
    only: int


class Many(NamedTuple):
    a: int
    b: int
    c: int
    d: int
    e: int
    f: int
    g: int
    h: int
    i: int
    j: int
    k: int


def test_a_record_equals_hashes_and_unpacks_as_the_typing_namedtuple_of_the_same_values() -> None:
    ours, theirs = Lit(1, 3, "ab"), TypingLit(1, 3, "ab")
    assert tuple(ours) == tuple(theirs) and ours == tuple(theirs) and hash(ours) == hash(theirs)
    assert tuple(ours) == (1, 3, "ab") and isinstance(ours, tuple)
    pos, end, text = ours
    assert (pos, end, text) == (1, 3, "ab")
    assert (ours.pos, ours.end, ours.text) == (1, 3, "ab")


@pytest.mark.parametrize(
    ("make", "expected"),
    [
        (lambda: Lit(1, 2), Lit(1, 2, "")),  # a default
        (lambda: Lit(pos=1, end=2, text="x"), Lit(1, 2, "x")),  # keywords
        (lambda: Lit(1, end=2), Lit(1, 2, "")),
        (lambda: One(5), (5,)),  # one field: still a tuple, not the bare value
        (lambda: Many(*range(11)), tuple(range(11))),
        (lambda: Lit._make([4, 5, "y"]), Lit(4, 5, "y")),
        (lambda: Lit(1, 2, "x")._replace(text="z"), Lit(1, 2, "z")),
    ],
)
def test_a_record_is_built_as_namedtuple_builds_it(make: Any, expected: tuple[Any, ...]) -> None:
    assert make() == expected


@pytest.mark.parametrize(
    ("make", "error"),
    [
        (lambda: Lit(1), TypeError),  # type: ignore[call-arg]  # a required field missing
        (lambda: Lit(1, 2, "x", 4), TypeError),  # type: ignore[call-arg]  # one too many
        (lambda: Lit(1, 2, nope=3), TypeError),  # type: ignore[call-arg]
        (lambda: Lit._make([1]), TypeError),
        (lambda: Lit(1, 2)._replace(nope=3), ValueError),  # type: ignore[call-arg]
    ],
)
def test_a_wrong_construction_fails_as_it_does_with_typing(make: Any, error: type) -> None:
    with pytest.raises(error):
        make()


def test_the_class_attributes_are_those_of_a_namedtuple() -> None:
    assert Lit._fields == TypingLit._fields == ("pos", "end", "text")
    assert Lit._field_defaults == TypingLit._field_defaults == {"text": ""}
    assert Lit.__match_args__ == ("pos", "end", "text")
    assert Lit.__doc__ == "A piece of literal text."
    assert repr(Lit(1, 2, "x")) == "Lit(pos=1, end=2, text='x')"
    assert Lit(1, 2, "x")._asdict() == {"pos": 1, "end": 2, "text": "x"}
    assert Lit(1, 2, "x").size() == 1 and Lit(1, 2).empty
    assert not hasattr(Lit(1, 2), "__dict__")  # slots: no per-instance dict


def test_a_record_class_derives_from_tuple_directly_as_a_namedtuple_does() -> None:
    # No base of hookrun's own in between: building a class looks up every slot name
    # along the MRO, so a longer one costs each record class at import.
    assert Lit.__mro__[1:] == TypingLit.__mro__[1:] == (tuple, object)
    assert Lit.pos is not None and Lit.pos.__doc__ == TypingLit.pos.__doc__


def test_a_record_round_trips_through_pickle_and_copy() -> None:
    value = Lit(1, 2, "x")
    for back in (pickle.loads(pickle.dumps(value)), copy.copy(value), copy.deepcopy(value)):
        assert back == value and type(back) is Lit


def test_a_record_matches_a_class_pattern_positionally() -> None:
    match Lit(1, 2, "x"):
        case Lit(p, e, t):
            assert (p, e, t) == (1, 2, "x")
        case _:  # pragma: no cover - the case above matches
            raise AssertionError("no match")


def test_a_record_class_is_built_without_the_builtin_compile(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # compile() sets up the ast module's types on its first call in a process (~2 ms);
    # typing.NamedTuple calls it for every string annotation.
    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("compile() called")

    monkeypatch.setattr(builtins, "compile", refuse)

    class Fresh(NamedTuple):
        x: int
        y: tuple[str, ...]
        z: float
        w: bytes
        v: bool
        u: int
        t: int
        s: int
        r: int
        q: int
        p: int
        o: int
        n: int

    assert Fresh(*range(13)).n == 12


@pytest.mark.parametrize(
    ("body", "error"),
    [
        ("class Bad(NamedTuple):\n    a: int = 1\n    b: int\n", TypeError),
        ("class Bad(NamedTuple):\n    a: int\n    def _replace(self): pass\n", AttributeError),
        ("class Bad(NamedTuple, int):\n    a: int\n", TypeError),
    ],
)
def test_a_class_typing_refuses_is_refused(body: str, error: type) -> None:
    with pytest.raises(error):
        exec(body, {"NamedTuple": NamedTuple})


def test_the_name_is_only_a_base_class() -> None:
    with pytest.raises(TypeError):
        NamedTuple("Point", [("x", int)])


def test_records_of_up_to_twelve_fields_compile_no_text(monkeypatch: pytest.MonkeyPatch) -> None:
    # Their __new__ comes from code compiled with hookrun.records (exec of a template
    # compiles it at run time: ~0.4M instructions for each arity); wider ones still work.
    from hookrun import records

    execs: list[str] = []

    def counting_exec(source: str, *args: Any) -> None:
        execs.append(source)
        builtins.exec(source, *args)

    monkeypatch.setattr(records, "_TEMPLATES", {})
    monkeypatch.setattr(records, "exec", counting_exec, raising=False)
    for arity in range(14):
        fields = [f"f{i}" for i in range(arity)]
        cls = records._RecordMeta(
            f"R{arity}",
            (records._RecordBase,),
            {"__annotations__": dict.fromkeys(fields, "int"), "__qualname__": f"R{arity}"},
        )
        made = cls(*range(arity))
        assert tuple(made) == tuple(range(arity))
        assert made == cls._make(range(arity))
        assert [getattr(made, f) for f in fields] == list(range(arity))
        with pytest.raises(TypeError):
            cls(*range(arity + 1))
    assert len(execs) == 1 and "_12" in execs[0]  # the 13-field record only
