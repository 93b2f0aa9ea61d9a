"""hookrun.lazyre: a module-level pattern compiles on first use and then is re's own."""

from __future__ import annotations

import re

import pytest

from hookrun import lazyre


def test_nothing_is_compiled_until_the_pattern_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[object] = []
    real = re.compile
    monkeypatch.setattr(re, "compile", lambda *a: calls.append(a) or real(*a))
    rx = lazyre.compile(r"a+(b)")
    assert calls == []
    assert rx.match("aab") is not None
    assert rx.search("xab") is not None
    assert calls == [(r"a+(b)", 0)]  # once, whatever is used next


@pytest.mark.parametrize(
    ("use", "expected"),
    [
        (lambda rx: rx.match("aab").group(1), "b"),
        (lambda rx: rx.fullmatch("ab") is not None, True),
        (lambda rx: rx.fullmatch("abc") is None, True),
        (lambda rx: rx.sub("-", "xaabyab"), "x-y-"),
        (lambda rx: rx.split("1ab2ab3"), ["1", "b", "2", "b", "3"]),
        (lambda rx: rx.findall("ab aab"), ["b", "b"]),
        (lambda rx: [m.span() for m in rx.finditer("ab aab")], [(0, 2), (3, 6)]),
        (lambda rx: (rx.pattern, rx.groups), (r"a+(b)", 1)),
    ],
)
def test_the_stand_in_answers_as_the_compiled_pattern(use: object, expected: object) -> None:
    assert use(lazyre.compile(r"a+(b)")) == use(re.compile(r"a+(b)")) == expected  # type: ignore[operator]


def test_bytes_patterns_and_flags_are_kept() -> None:
    rx = lazyre.compile(rb"[a-z]+", re.IGNORECASE)
    m = rx.match(b"ABC1")
    assert m is not None and m.group() == b"ABC"


def test_a_bad_pattern_fails_where_it_is_used() -> None:
    rx = lazyre.compile(r"(unclosed")
    with pytest.raises(re.error):
        rx.match("x")
