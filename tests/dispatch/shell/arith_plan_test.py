"""Arithmetic's per-text plan against its general path.

``evaluate`` keeps, for a three-token text seen before (``i+1``, ``n < 5``), the
operation and the constants read once (``arith._plans``); each evaluation then reads
the names through the getter. Here every such text is evaluated twice (the second time
from the plan) and compared with the parser itself on the same tokens, under variable
states where a value is unset, empty, negative, blank-padded, an expression, a name,
at the 64-bit edge, recursive, or unbound under ``set -u`` (a getter that raises): the
value or the error message, and the order of the getter's and setter's calls, must be
the parser's. The statement rows of ``statement_shortcuts_test`` run the same forms
against bash.
"""

from __future__ import annotations

import contextlib
import itertools

import pytest

from hookrun.dispatch.shell import arith

NAMES = ["i", "big", "neg", "e", "pad", "expr", "ref", "rec", "inc", "zz"]
CONSTANTS = [
    "1",
    "0",
    "07",
    "0x1f",
    "2#101",
    "9223372036854775807",
    "18446744073709551617",
    "09",
    "64#_",
]
OPERATORS = ["+", "-", "*", "<", "<=", ">", ">=", "==", "!=", "&", "|", "^"]
# No plan for these (special-cased in _apply_exact, short-circuiting, or the comma):
OTHERS = ["/", "%", "**", "<<", ">>", "&&", "||", ","]

STATES = [
    {"i": "4", "big": "9223372036854775807", "neg": "-3", "e": "", "pad": " 5 "},
    {"expr": "i*2", "i": "-9223372036854775808", "ref": "i", "rec": "rec", "inc": "i++"},
    {"i": "x y", "big": "1+", "neg": "-", "e": "0x", "pad": "08"},
]


class _Log:
    """A getter and setter over ``values`` that record every call; ``strict``: an unset
    name raises, as the expander's getter does under ``set -u``."""

    def __init__(self, values: dict[str, str], strict: bool) -> None:
        self.values = dict(values)
        self.strict = strict
        self.calls: list[tuple[str, ...]] = []

    def get(self, name: str) -> str | None:
        self.calls.append(("get", name))
        value = self.values.get(name)
        if value is None and self.strict:
            raise arith.ArithError(f"{name}: unbound variable")
        return value

    def set(self, name: str, value: str) -> None:
        self.calls.append(("set", name, value))
        self.values[name] = value


def _outcome(fn: object, log: _Log) -> tuple[object, ...]:
    try:
        value = fn(log.get, log.set)  # type: ignore[operator]
    except (arith.ArithError, ValueError, RecursionError) as exc:
        return ("error", type(exc).__name__, str(exc), tuple(log.calls), log.values)
    return ("value", value, tuple(log.calls), log.values)


def _general(text: str) -> object:
    def run(get: arith.Getter, set_: arith.Setter) -> int:
        parser = arith._Parser(arith._tokens(text), get, set_, 0, None)
        value = parser.expr()
        assert parser.peek() is None
        return value

    return run


def _texts() -> list[str]:
    operands = NAMES + CONSTANTS
    out = []
    for (left, right), op in itertools.product(
        itertools.product(operands, repeat=2), OPERATORS + OTHERS
    ):
        out.append(f"{left}{op}{right}")
        out.append(f" {left} {op} {right} ")
    return out


TEXTS = _texts()


@pytest.mark.parametrize("strict", [False, True])
@pytest.mark.parametrize("state", range(len(STATES)))
def test_the_plan_gives_what_the_parser_gives(state: int, strict: bool) -> None:
    arith._plans.clear()
    arith._token_cache.clear()
    wrong = []
    for text in TEXTS:
        expected = _outcome(_general(text), _Log(STATES[state], strict))
        for _ in range(2):  # made on the first evaluation, used on the second
            got = _outcome(
                lambda g, s, text=text: arith.evaluate(text, g, s), _Log(STATES[state], strict)
            )
            if got != expected:
                wrong.append((text, got, expected))
    assert not wrong, wrong[:5]


def test_the_common_forms_have_a_plan_and_the_others_none() -> None:
    arith._plans.clear()
    arith._token_cache.clear()
    values = {"i": "1"}
    for text in ["i+1", "n + 1", "i<5", "2*i", "x == y", "i+09", "i/2", "i**2", "i<<1", "i&&1"]:
        with contextlib.suppress(arith.ArithError):
            arith.evaluate(text, values.get, values.__setitem__)
    assert set(arith._plans) == {"i+1", "n + 1", "i<5", "2*i", "x == y"}


def test_a_plan_is_dropped_with_the_token_cache() -> None:
    arith._plans.clear()
    arith._token_cache.clear()
    values: dict[str, str] = {}
    for k in range(arith._TOKEN_CACHE_SIZE + 3):
        arith.evaluate(f"v{k}+1", values.get, values.__setitem__)
    assert len(arith._plans) <= arith._TOKEN_CACHE_SIZE
    assert set(arith._plans) <= set(arith._token_cache)
