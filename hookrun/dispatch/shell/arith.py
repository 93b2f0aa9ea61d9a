"""Shell arithmetic (``$(( ))``, ``(( ))``, ``${x:off:len}``): a small, safe evaluator.

Integers only, C precedence, the assignment operators and ``++``/``--`` as bash has
them. Variables are read and written through callbacks so the evaluator owns no state.
A variable's value that is not a number is itself evaluated as an expression (bash does
the same), with a depth bound so ``a=a`` cannot loop.
"""

from __future__ import annotations

from collections.abc import Callable

from hookrun.lazyre import compile as lazy_compile

Getter = Callable[[str], "str | None"]
Setter = Callable[[str, str], None]
# Array elements: get(name, index text), set(name, index text or None, value).
ElemGetter = Callable[[str, str], "str | None"]
ElemSetter = Callable[[str, "str | None", str], None]
Elements = tuple[ElemGetter, ElemSetter]


class ArithError(Exception):
    """A malformed expression or a runtime error (division by zero)."""


# A plain decimal: no leading 0 (bash reads 010 as octal, 08 as an error), ASCII digits.
_INTEGER = lazy_compile(r"-?(?:0|[1-9][0-9]*)")
_IDENT = lazy_compile(r"(?a)[A-Za-z_]\w*")

# bash skips only blanks and newlines between tokens: \r, \v, \f are errors.
_BLANKS = " \t\n"
_TOKEN = lazy_compile(
    # ASCII digits and names only, as bash (Python's \d is any Unicode digit: ٣ read as 3)
    r"(?a)[ \t\n]*(?:(?P<num>0[xX][0-9a-fA-F]+|\d+#[0-9a-zA-Z@_]+|\d+)"
    r"|(?P<name>[A-Za-z_]\w*)"
    r"|(?P<op><<=|>>=|\*\*|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^]=|[-+*/%<>=!~&|^?:,()\[\]@]))"
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
# The binary operators of the three-token shortcut in evaluate(): all but the ones
# that short-circuit (`&&`, `||`, `?:`) or take the right side alone (`,`).
_PLAIN_BINARY = frozenset(_BINARY) - {",", "?", "||", "&&"}
_ASSIGN = {"=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "|=", "^="}
_MAX_DEPTH = 32


# The tokens of an expression text, kept: a loop evaluates the same text every round
# (`i=$((i+1))` is "i+1" each time), and tokenizing is most of a small expression's cost.
# The parser only reads the list. An error is raised again each time (not kept).
_TOKEN_CACHE_SIZE = 512
_token_cache: dict[str, list[str]] = {}


def _tokens(text: str) -> list[str]:
    out: list[str] = []
    pos = 0
    text = text.rstrip(_BLANKS)
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
        # bash reads the base as a plain decimal: `02#1`, `0#1`, `0x2#1` are no number.
        if not base_text.isdigit() or base_text[0] == "0":
            raise ArithError(f'invalid number (error token is "{text}")')
        base = int(base_text)
        if not 2 <= base <= 64:
            raise ArithError(f'invalid arithmetic base (error token is "{text}")')
        if not digits:
            raise ArithError(f'invalid integer constant (error token is "{text}")')
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
    def __init__(
        self, tokens: list[str], get: Getter, set_: Setter, depth: int, elem: Elements | None
    ) -> None:
        self.toks = tokens
        self.pos = 0
        self.get = get
        self._set = set_
        self.depth = depth
        self.elem = elem
        # >0 while parsing the operand `&&`, `||` or `?:` does not take: parsed for
        # syntax, but without side effects or errors (bash short-circuits).
        self.skip = 0

    def set(self, name: str, value: str, index: str | None = None) -> None:
        if self.skip:
            return
        if index is not None and self.elem is not None:
            self.elem[1](name, index, value)
        else:
            self._set(name, value)

    def index(self) -> str | None:
        """After a name: ``[expr]`` as text (for an array element), else None."""
        if self.peek() != "[":
            return None
        depth = 0
        start = self.pos
        while self.pos < len(self.toks):
            tok = self.toks[self.pos]
            self.pos += 1
            if tok == "[":
                depth += 1
            elif tok == "]":
                depth -= 1
                if depth == 0:
                    return " ".join(self.toks[start + 1 : self.pos - 1])
        raise ArithError("syntax error: missing ']'")

    def read(self, name: str, index: str | None) -> int:
        if index is None:
            return self.value_of(name)
        if self.elem is None:
            raise ArithError(f"{name}[{index}]: arrays are not supported here")
        raw = self.elem[0](name, index)
        return self.number(name, raw)

    def peek(self) -> str | None:
        return self.toks[self.pos] if self.pos < len(self.toks) else None

    def take(self) -> str:
        tok = self.peek()
        if tok is None:
            raise ArithError("syntax error: operand expected")
        self.pos += 1
        return tok

    def value_of(self, name: str) -> int:
        return self.number(name, self.get(name))

    def number(self, name: str, raw: str | None) -> int:
        return _number(name, raw, self.get, self._set, self.depth, self.elem)

    def expr(self, min_prec: int = 0) -> int:
        left = self.unary()
        while True:
            op = self.peek()
            if op is None or op not in _BINARY or _BINARY[op] < min_prec:
                return left
            prec = _BINARY[op]
            self.pos += 1
            if op == "?":
                self.skip += not left
                then = self.expr(1)
                self.skip -= not left
                if self.peek() != ":":
                    raise ArithError("syntax error: ':' expected for conditional expression")
                self.pos += 1
                self.skip += bool(left)
                other = self.expr(3)
                self.skip -= bool(left)
                left = then if left else other
                continue
            short = (op == "&&" and not left) or (op == "||" and bool(left))
            self.skip += short
            try:
                right = self.expr(prec if op == "**" else prec + 1)
            finally:
                self.skip -= short
            if self.skip and op in ("/", "%") and right == 0:
                left = 0
                continue
            left = _apply(op, left, right)

    def unary(self) -> int:
        tok = self.take()
        if tok in ("+", "-", "!", "~"):
            v = self.unary()
            return _wrap({"+": v, "-": -v, "!": int(not v), "~": ~v}[tok])
        if tok in ("++", "--"):
            name = self.take()
            if not _IDENT.fullmatch(name):
                raise ArithError(f"syntax error: variable expected after '{tok}'")
            idx = self.index()
            v = self.read(name, idx) + (1 if tok == "++" else -1)
            self.set(name, str(v), idx)
            return v
        if tok == "(":
            v = self.expr()
            if self.peek() != ")":
                raise ArithError("syntax error: missing ')'")
            self.pos += 1
            return v
        if tok[0].isdigit():
            return _wrap(parse_int(tok))
        if _IDENT.fullmatch(tok):
            idx = self.index()
            nxt = self.peek()
            if nxt in _ASSIGN:
                self.pos += 1
                rhs = self.expr(2)
                if nxt == "=":
                    v = rhs
                elif self.skip and nxt in ("/=", "%=") and rhs == 0:
                    v = 0
                else:
                    v = _apply(nxt[:-1], self.read(tok, idx), rhs)
                self.set(tok, str(v), idx)
                return v
            if nxt in ("++", "--"):
                self.pos += 1
                v = self.read(tok, idx)
                self.set(tok, str(v + (1 if nxt == "++" else -1)), idx)
                return v
            return self.read(tok, idx)
        raise ArithError(f'syntax error: operand expected (error token is "{tok}")')


def _number(
    name: str, raw: str | None, get: Getter, set_: Setter, depth: int, elem: Elements | None
) -> int:
    """The value of variable ``name`` whose text is ``raw``: a number, or an expression
    evaluated in turn (bash does the same)."""
    if raw is not None and raw.isdecimal() and raw.isascii() and (raw[0] != "0" or raw == "0"):
        return int(raw)  # (what _INTEGER matches, no blanks)
    if raw is None or raw.strip(_BLANKS) == "":
        return 0
    raw = raw.strip(_BLANKS)
    if _INTEGER.fullmatch(raw):
        return int(raw)
    if depth >= _MAX_DEPTH:
        raise ArithError(f"{name}: expression recursion level exceeded")
    return evaluate(raw, get, set_, depth + 1, elem)


def _wrap(value: int) -> int:
    """Signed 64-bit wrap-around, as bash's intmax_t arithmetic (and no 10⁶-digit ints)."""
    return ((value + (1 << 63)) & ((1 << 64) - 1)) - (1 << 63)


def _apply(op: str, a: int, b: int) -> int:
    return _wrap(_apply_exact(op, a, b))


# The binary operators _apply_exact does not special-case (built once: it was made anew,
# fifteen functions, on every operation).
_TABLE: dict[str, Callable[[int, int], int]] = {
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
    return _TABLE[op](a, b)


# The plans of three-token texts (`i+1`, `n < 5`): (left name or None, left constant,
# the operation, right name or None, right constant), made with the text's tokens for an
# operator of _TABLE (the ones _apply_exact does not special-case). A name is read
# through the getter on each evaluation, left before right, as the parser reads them.
_Plan = tuple["str | None", int, Callable[[int, int], int], "str | None", int]
_plans: dict[str, _Plan] = {}
_INT_MIN = -(1 << 63)
_INT_MAX = (1 << 63) - 1


def _plan(text: str, tokens: list[str]) -> None:
    left, op, right = tokens
    fn = _TABLE.get(op)
    if fn is None or op not in _PLAIN_BINARY:
        return
    if not ((left[0].isalnum() or left[0] == "_") and (right[0].isalnum() or right[0] == "_")):
        return
    try:  # (a constant that is no number stays an error of each evaluation)
        a = _wrap(parse_int(left)) if left[0].isdigit() else 0
        b = _wrap(parse_int(right)) if right[0].isdigit() else 0
    except (ArithError, ValueError):
        return
    _plans[text] = (
        None if left[0].isdigit() else left,
        a,
        fn,
        None if right[0].isdigit() else right,
        b,
    )


def evaluate(
    text: str, get: Getter, set_: Setter, depth: int = 0, elem: Elements | None = None
) -> int:
    """Evaluate ``text`` (already parameter-expanded). Empty text is 0.

    ``&&``, ``||`` and ``?:`` short-circuit as in bash: the operand not taken is parsed
    but assigns nothing and divides by zero without error.
    """
    plan = _plans.get(text)
    if plan is not None:
        # `i+1`, `n < 5` seen before: the constants read, the operation found, once.
        left, a, fn, right, b = plan
        if left is not None:
            a = _number(left, get(left), get, set_, depth, elem)
        if right is not None:
            b = _number(right, get(right), get, set_, depth, elem)
        v = fn(a, b)
        return v if _INT_MIN <= v <= _INT_MAX else _wrap(v)
    tokens = _token_cache.get(text)
    if tokens is None:
        tokens = _tokens(text)
        if len(_token_cache) >= _TOKEN_CACHE_SIZE:
            _token_cache.clear()
            _plans.clear()
        _token_cache[text] = tokens
        if len(tokens) == 3:
            _plan(text, tokens)
    if not tokens:
        return 0
    if len(tokens) == 3:
        # `n + 1`, `i < 5`: operand, binary operator, operand — what the parser would
        # compute (left read first, then right, then the operation), without building
        # it. An operand token is a number (\d…) or a name ([A-Za-z_]…): no operator
        # starts with a letter, a digit or `_`.
        left, op, right = tokens
        if (
            op in _PLAIN_BINARY
            and (left[0].isalnum() or left[0] == "_")
            and (right[0].isalnum() or right[0] == "_")
        ):
            a = (
                _wrap(parse_int(left))
                if left[0].isdigit()
                else _number(left, get(left), get, set_, depth, elem)
            )
            b = (
                _wrap(parse_int(right))
                if right[0].isdigit()
                else _number(right, get(right), get, set_, depth, elem)
            )
            return _apply(op, a, b)
    parser = _Parser(tokens, get, set_, depth, elem)
    value = parser.expr()
    if parser.peek() is not None:
        raise ArithError(f'syntax error in expression (error token is "{parser.peek()}")')
    return value
