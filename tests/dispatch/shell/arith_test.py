"""Shell arithmetic: C precedence, integer semantics, assignments, errors."""

from __future__ import annotations

import re

import pytest

from hookrun.dispatch.shell.arith import ArithError, evaluate


@pytest.mark.parametrize(
    ("expr", "value"),
    [
        ("1 + 2 * 3", 7),
        ("(1 + 2) * 3", 9),
        ("2 ** 3 ** 2", 512),  # right-associative
        ("-7 / 2", -3),  # truncates toward zero, as C
        ("-7 % 3", -1),
        ("1 << 4 | 1", 17),
        ("5 > 3 && 2 > 1", 1),
        ("0 || 0", 0),
        ("!5", 0),
        ("~0", -1),
        ("3 == 3 ? 10 : 20", 10),
        ("0x1f + 010 + 2#101", 31 + 8 + 5),
        ("1, 2, 3", 3),
        ("", 0),
        ("x + 1", 42),
        ("unset_var + 1", 1),
        ("ref * 2", 84),  # a variable holding a name is evaluated in turn
        ("1 << 64", 1),  # 64-bit semantics, as bash
        ("9223372036854775807 + 1", -9223372036854775808),
        ("2 ** 100000", 0),
        ("-2 ** 63", -9223372036854775808),
    ],
)
def test_expression_value(expr: str, value: int) -> None:
    env = {"x": "41", "ref": "x + 1"}
    assert evaluate(expr, env.get, env.__setitem__) == value


@pytest.mark.parametrize(
    ("expr", "value", "after"),
    [
        ("i = 5", 5, "5"),
        ("i += 2", 3, "3"),
        ("i *= 4", 4, "4"),
        ("i++", 1, "2"),
        ("++i", 2, "2"),
        ("i--", 1, "0"),
        ("i <<= 3", 8, "8"),
    ],
)
def test_assignment_operators_write_the_variable(expr: str, value: int, after: str) -> None:
    env = {"i": "1"}
    assert evaluate(expr, env.get, env.__setitem__) == value
    assert env["i"] == after


@pytest.mark.parametrize(
    ("expr", "message"),
    [
        ("1 / 0", "division by 0"),
        ("5 % 0", "division by 0"),
        ("1 +", "operand expected"),
        ("(1 + 2", "missing ')'"),
        ("1 2", "syntax error"),
        ("2 ** -1", "exponent less than 0"),
        ("3#9", "value too great for base"),
        # bash's words: a base is decimal without a leading zero
        ("02#0110", 'invalid number (error token is "02#0110")'),
        ("0#1", 'invalid number (error token is "0#1")'),
        ("a ? 1", "':' expected"),
        ("1 $ 2", "syntax error"),
    ],
)
def test_bad_expression_raises_arith_error(expr: str, message: str) -> None:
    empty: dict[str, str] = {}
    with pytest.raises(ArithError, match=re.escape(message)):
        evaluate(expr, empty.get, empty.__setitem__)


def test_self_referencing_variable_is_an_error_not_a_hang() -> None:
    env = {"a": "a"}
    with pytest.raises(ArithError, match="recursion"):
        evaluate("a", env.get, env.__setitem__)


def test_a_kept_expression_reads_its_variables_afresh_and_fails_again() -> None:
    # The tokens of "i+1" are kept between evaluations; the values never are.
    env = {"i": "1"}

    def get(name: str) -> str | None:
        return env.get(name)

    def set_(name: str, value: str) -> None:
        env[name] = value

    assert evaluate("i+1", get, set_) == 2
    env["i"] = "41"
    assert evaluate("i+1", get, set_) == 42
    assert evaluate("i+=1", get, set_) == 42 and env["i"] == "42"
    for _ in range(2):
        with pytest.raises(ArithError):
            evaluate("1 +", get, set_)


def _by_parser(text: str, env: dict[str, str]) -> tuple[str, int | str, dict[str, str]]:
    """``text`` evaluated by the parser alone (no three-token shortcut)."""
    from hookrun.dispatch.shell import arith

    parser = arith._Parser(arith._tokens(text), env.get, env.__setitem__, 0, None)
    try:
        value = parser.expr()
    except ArithError as exc:
        return "error", str(exc), env
    if parser.peek() is not None:  # (evaluate's own check after the parse)
        return "error", f'syntax error in expression (error token is "{parser.peek()}")', env
    return "value", value, env


def _by_evaluate(text: str, env: dict[str, str]) -> tuple[str, int | str, dict[str, str]]:
    try:
        return "value", evaluate(text, env.get, env.__setitem__), env
    except ArithError as exc:
        return "error", str(exc), env


# Names whose values are numbers, blanks, nothing, expressions (with side effects and
# errors of their own), a self reference; literals in every base, and bad ones.
_VARS = {
    "n": "7",
    "neg": "-3",
    "big": "9223372036854775807",
    "blank": "  ",
    "expr": "n*2",
    "side": "k=5",
    "bad": "1/0",
    "loop": "loop",
    "hexv": "0x10",
    "zero": "0",
}
_OPERANDS = [*_VARS, "unset_x", "_u", "0", "1", "5", "010", "09", "0x1f", "16#ff", "2#102", "64"]


@pytest.mark.parametrize(
    "op",
    sorted(
        [
            "|",
            "^",
            "&",
            "==",
            "!=",
            "<",
            "<=",
            ">",
            ">=",
            "<<",
            ">>",
            "+",
            "-",
            "*",
            "/",
            "%",
            "**",
            ",",
            "&&",
            "||",
            "=",
            "+=",
        ]
    ),
)
def test_three_tokens_agree_with_the_parser(op: str) -> None:
    """`a OP b` by evaluate() (which shortcuts the plain binary operators) is what the
    parser computes: value or error message, and every variable written."""
    for left in _OPERANDS:
        for right in _OPERANDS:
            for spaced in (f"{left} {op} {right}", f"{left}{op}{right}"):
                assert _by_evaluate(spaced, dict(_VARS)) == _by_parser(spaced, dict(_VARS)), spaced
