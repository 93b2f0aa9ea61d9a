"""Shell arithmetic (``$(( ))``, ``(( ))``, ``${x:off:len}``): a small, safe evaluator.

Integers only, C precedence, the assignment operators and ``++``/``--`` as bash has
them. Variables are read and written through callbacks so the evaluator owns no state.
A variable's value that is not a number is itself evaluated as an expression (bash does
the same), with a depth bound so ``a=a`` cannot loop.
"""

from __future__ import annotations

import re
from collections.abc import Callable

Getter = Callable[[str], "str | None"]
Setter = Callable[[str, str], None]


class ArithError(Exception):
    """A malformed expression or a runtime error (division by zero)."""


_TOKEN = re.compile(
    r"\s*(?:(?P<num>0[xX][0-9a-fA-F]+|\d+#[0-9a-zA-Z@_]+|\d+)"
    r"|(?P<name>[A-Za-z_]\w*)"
    r"|(?P<op><<=|>>=|\*\*|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^]=|[-+*/%<>=!~&|^?:,()]))"
)

_BINARY: dict[str, int] = {
    ",": 1,
    "?": 3,
    "||": 4,
    "&&": 5,
    "|": 6,
    "^": 7,
    "&": 8,
    "==": 9,
    "!=": 9,
    "<": 10,
    "<=": 10,
    ">": 10,
    ">=": 10,
    "<<": 11,
    ">>": 11,
    "+": 12,
    "-": 12,
    "*": 13,
    "/": 13,
    "%": 13,
    "**": 14,
}
_ASSIGN = {"=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "|=", "^="}
_MAX_DEPTH = 32


def _tokens(text: str) -> list[str]:
    out: list[str] = []
    pos = 0
    text = text.rstrip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            raise ArithError(f'syntax error in expression (error token is "{text[pos:].strip()}")')
        out.append(m.group(m.lastgroup or "op"))
        pos = m.end()
    return out


def parse_int(text: str) -> int:
    """A shell integer literal: decimal, 0x hex, 0 octal, BASE#digits."""
    if "#" in text:
        base_text, digits = text.split("#", 1)
        base = int(base_text)
        if not 2 <= base <= 64:
            raise ArithError(f"invalid arithmetic base: {text}")
        value = 0
        alphabet = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ@_"
        for ch in digits:
            d = alphabet.index(ch) if base > 36 else alphabet.index(ch.lower())
            if d >= base:
                raise ArithError(f'value too great for base (error token is "{text}")')
            value = value * base + d
        return value
    if text[:2] in ("0x", "0X"):
        return int(text, 16)
    if len(text) > 1 and text[0] == "0":
        try:
            return int(text, 8)
        except ValueError:
            raise ArithError(f'value too great for base (error token is "{text}")') from None
    return int(text)


class _Parser:
    def __init__(self, tokens: list[str], get: Getter, set_: Setter, depth: int) -> None:
        self.toks = tokens
        self.pos = 0
        self.get = get
        self.set = set_
        self.depth = depth

    def peek(self) -> str | None:
        return self.toks[self.pos] if self.pos < len(self.toks) else None

    def take(self) -> str:
        tok = self.peek()
        if tok is None:
            raise ArithError("syntax error: operand expected")
        self.pos += 1
        return tok

    def value_of(self, name: str) -> int:
        raw = self.get(name)
        if raw is None or raw.strip() == "":
            return 0
        raw = raw.strip()
        if re.fullmatch(r"-?\d+", raw):
            return int(raw)
        if self.depth >= _MAX_DEPTH:
            raise ArithError(f"{name}: expression recursion level exceeded")
        return evaluate(raw, self.get, self.set, self.depth + 1)

    def expr(self, min_prec: int = 0) -> int:
        left = self.unary()
        while True:
            op = self.peek()
            if op is None or op not in _BINARY or _BINARY[op] < min_prec:
                return left
            prec = _BINARY[op]
            self.pos += 1
            if op == "?":
                then = self.expr(1)
                if self.peek() != ":":
                    raise ArithError("syntax error: ':' expected for conditional expression")
                self.pos += 1
                other = self.expr(3)
                left = then if left else other
                continue
            right = self.expr(prec if op == "**" else prec + 1)
            left = _apply(op, left, right)

    def unary(self) -> int:
        tok = self.take()
        if tok in ("+", "-", "!", "~"):
            v = self.unary()
            return _wrap({"+": v, "-": -v, "!": int(not v), "~": ~v}[tok])
        if tok in ("++", "--"):
            name = self.take()
            if not re.fullmatch(r"[A-Za-z_]\w*", name):
                raise ArithError(f"syntax error: variable expected after '{tok}'")
            v = self.value_of(name) + (1 if tok == "++" else -1)
            self.set(name, str(v))
            return v
        if tok == "(":
            v = self.expr()
            if self.peek() != ")":
                raise ArithError("syntax error: missing ')'")
            self.pos += 1
            return v
        if tok[0].isdigit():
            return _wrap(parse_int(tok))
        if re.fullmatch(r"[A-Za-z_]\w*", tok):
            nxt = self.peek()
            if nxt in _ASSIGN:
                self.pos += 1
                rhs = self.expr(2)
                v = rhs if nxt == "=" else _apply(nxt[:-1], self.value_of(tok), rhs)
                self.set(tok, str(v))
                return v
            if nxt in ("++", "--"):
                self.pos += 1
                v = self.value_of(tok)
                self.set(tok, str(v + (1 if nxt == "++" else -1)))
                return v
            return self.value_of(tok)
        raise ArithError(f'syntax error: operand expected (error token is "{tok}")')


def _wrap(value: int) -> int:
    """Signed 64-bit wrap-around, as bash's intmax_t arithmetic (and no 10⁶-digit ints)."""
    return ((value + (1 << 63)) & ((1 << 64) - 1)) - (1 << 63)


def _apply(op: str, a: int, b: int) -> int:
    return _wrap(_apply_exact(op, a, b))


def _apply_exact(op: str, a: int, b: int) -> int:
    if op in ("/", "%"):
        if b == 0:
            raise ArithError("division by 0")
        q = abs(a) // abs(b) * (1 if (a >= 0) == (b >= 0) else -1)  # C truncation
        return q if op == "/" else a - q * b
    if op == "**":
        if b < 0:
            raise ArithError("exponent less than 0")
        return pow(a, b, 1 << 64)
    if op in ("<<", ">>"):
        b &= 63  # the shift count is taken modulo the word size, as on x86
        return a << b if op == "<<" else a >> b
    table: dict[str, Callable[[int, int], int]] = {
        ",": lambda x, y: y,
        "||": lambda x, y: int(bool(x) or bool(y)),
        "&&": lambda x, y: int(bool(x) and bool(y)),
        "|": lambda x, y: x | y,
        "^": lambda x, y: x ^ y,
        "&": lambda x, y: x & y,
        "==": lambda x, y: int(x == y),
        "!=": lambda x, y: int(x != y),
        "<": lambda x, y: int(x < y),
        "<=": lambda x, y: int(x <= y),
        ">": lambda x, y: int(x > y),
        ">=": lambda x, y: int(x >= y),
        "+": lambda x, y: x + y,
        "-": lambda x, y: x - y,
        "*": lambda x, y: x * y,
    }
    return table[op](a, b)


def evaluate(text: str, get: Getter, set_: Setter, depth: int = 0) -> int:
    """Evaluate ``text`` (already parameter-expanded). Empty text is 0.

    Both operands of ``&&``/``||``/``?:`` are evaluated (bash short-circuits side
    effects; hooks rarely rely on that inside arithmetic).
    """
    tokens = _tokens(text)
    if not tokens:
        return 0
    parser = _Parser(tokens, get, set_, depth)
    value = parser.expr()
    if parser.peek() is not None:
        raise ArithError(f'syntax error in expression (error token is "{parser.peek()}")')
    return value
