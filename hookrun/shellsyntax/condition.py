"""``[[ … ]]``: its words (as the grammar found them) → a typed expression.

tree-sitter-bash's own expression tree for ``[[ ]]`` gets precedence wrong
(``[[ $a = x || -z $b ]]`` comes out as ``$a = (x || -z $b)``), so only its words are
used, and the expression is parsed here, at word level, by bash's rules: ``||`` below
``&&`` below ``!``; ``( … )``; a unary operator and its word; word, binary operator,
word; a lone word (true if not empty). Operators count only when written unquoted.
"""

from __future__ import annotations

from collections.abc import Sequence

from hookrun.records import NamedTuple
from hookrun.shellsyntax import ShellSyntaxError
from hookrun.shellsyntax.nodes import TestBinary, TestExpr, TestParen, TestUnary, Word

_UNARY_LETTERS = "abcdefghkprstuwxGLNOSznovR"
UNARY = frozenset("-" + c for c in _UNARY_LETTERS)
BINARY = frozenset(
    ["==", "=", "!=", "<", ">", "=~", "-eq", "-ne", "-lt", "-le", "-gt", "-ge"]
    + ["-nt", "-ot", "-ef"]
)


class Item(NamedTuple):
    word: Word
    op: str  # the unquoted literal text when it could be an operator, else ""


class _Parser:
    def __init__(self, items: Sequence[Item], where: tuple[int, int]) -> None:
        self.items = items
        self.i = 0
        self.where = where

    def error(self, message: str) -> ShellSyntaxError:
        return ShellSyntaxError(message, *self.where)

    def peek(self) -> str | None:
        return self.items[self.i].op if self.i < len(self.items) else None

    def take(self) -> Item:
        if self.i >= len(self.items):
            raise self.error("unexpected end of conditional expression")
        item = self.items[self.i]
        self.i += 1
        return item

    def or_(self) -> TestExpr:
        left = self.and_()
        while self.peek() == "||":
            self.i += 1
            right = self.and_()
            left = TestBinary(_pos(left), _end(right), "||", left, right)
        return left

    def and_(self) -> TestExpr:
        left = self.not_()
        while self.peek() == "&&":
            self.i += 1
            right = self.not_()
            left = TestBinary(_pos(left), _end(right), "&&", left, right)
        return left

    def not_(self) -> TestExpr:
        if self.peek() == "!":
            bang = self.take()
            operand = self.not_()
            return TestUnary(bang.word.pos, _end(operand), "!", operand)
        return self.primary()

    def primary(self) -> TestExpr:
        first = self.take()
        if first.op == "(":
            inner = self.or_()
            if self.peek() != ")":
                raise self.error("expected `)' in conditional expression")
            close = self.take()
            return TestParen(first.word.pos, close.word.end, inner)
        if first.op in ("&&", "||", ")"):
            raise self.error(f"syntax error in conditional expression near `{first.op}'")
        nxt = self.peek()
        if first.op in UNARY and nxt is not None and nxt not in ("&&", "||", ")"):
            operand = self.take()
            return TestUnary(first.word.pos, operand.word.end, first.op, operand.word)
        if nxt in BINARY:
            op = self.take()
            if self.i >= len(self.items) or self.peek() in ("&&", "||"):
                raise self.error(f"unexpected argument to conditional binary operator `{op.op}'")
            right = self.take()
            if right.op == "]]":  # the grammar took the closing ]] as the operand
                raise self.error("unexpected argument `]]' to conditional binary operator")
            return TestBinary(first.word.pos, right.word.end, op.op, first.word, right.word)
        if nxt is not None and nxt not in ("&&", "||", ")"):
            raise self.error(
                f"syntax error in conditional expression near `{self.items[self.i].op or 'word'}'"
            )
        return first.word


def parse_condition(items: Sequence[Item], where: tuple[int, int]) -> TestExpr:
    """Parse the words between ``[[`` and ``]]``; ``where`` = (line, column) for errors."""
    p = _Parser(items, where)
    if not items:
        raise p.error("syntax error: expression expected in `[[ ]]'")
    expr = p.or_()
    if p.i < len(items):
        raise p.error(f"syntax error in conditional expression near `{items[p.i].op or 'word'}'")
    return expr


def _pos(e: TestExpr) -> int:
    return e.pos


def _end(e: TestExpr) -> int:
    return e.end
