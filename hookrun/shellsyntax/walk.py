"""Walking the typed tree: every statement, every simple command, a word's static value.

For readers of the tree that judge rather than run it (shell-guard, ``hookrun check``).
"""

from __future__ import annotations

from collections.abc import Iterator

from hookrun.shellsyntax.nodes import (
    ArithCmd,
    ArithExp,
    Assign,
    BinaryCmd,
    Block,
    CallExpr,
    CaseClause,
    CForClause,
    CmdSubst,
    DblQuoted,
    ForClause,
    FuncDecl,
    IfClause,
    Lit,
    ParamExp,
    Pipeline,
    ProcSubst,
    SglQuoted,
    Stmt,
    Subshell,
    TestBinary,
    TestClause,
    TestExpr,
    TestParen,
    TestUnary,
    WhileClause,
    Word,
)


def unescape(raw: str) -> str:
    """Quote removal for unquoted literal text: ``\\c`` → ``c``, backslash-newline → ''."""
    if "\\" not in raw:
        return raw
    out: list[str] = []
    i, n = 0, len(raw)
    while i < n:
        c = raw[i]
        if c == "\\" and i + 1 < n:
            if raw[i + 1] != "\n":
                out.append(raw[i + 1])
            i += 2
            continue
        out.append(c)
        i += 1
    return "".join(out)


def literal(word: Word) -> str | None:
    """The word's value if it has no expansion in it (quotes removed), else None."""
    out: list[str] = []
    for p in word.parts:
        if isinstance(p, Lit):
            out.append(unescape(p.text))
        elif isinstance(p, SglQuoted):
            out.append(p.value)
        elif isinstance(p, DblQuoted) and all(isinstance(q, Lit) for q in p.parts):
            out.extend(q.text for q in p.parts if isinstance(q, Lit))
        else:
            return None
    return "".join(out)


def statements(stmts: tuple[Stmt, ...]) -> Iterator[Stmt]:
    """Every statement, depth first, including those inside substitutions and bodies."""
    for s in stmts:
        yield s
        for r in s.redirects:
            yield from _in_word(r.target)
            if r.heredoc is not None:
                yield from _in_word(r.heredoc.body)
        yield from _in_command(s)


def calls(stmts: tuple[Stmt, ...]) -> Iterator[CallExpr]:
    """Every simple command anywhere in ``stmts``."""
    for s in statements(stmts):
        if isinstance(s.cmd, CallExpr):
            yield s.cmd


def _in_command(s: Stmt) -> Iterator[Stmt]:
    c = s.cmd
    if c is None:
        return
    if isinstance(c, CallExpr):
        for a in c.assigns:
            yield from _in_assign(a)
        for w in c.args:
            yield from _in_assign(w) if isinstance(w, Assign) else _in_word(w)
    elif isinstance(c, (Block, Subshell)):
        yield from statements(c.stmts)
    elif isinstance(c, IfClause):
        for cond, body in c.branches:
            yield from statements(cond)
            yield from statements(body)
        if c.else_:
            yield from statements(c.else_)
    elif isinstance(c, WhileClause):
        yield from statements(c.cond)
        yield from statements(c.body)
    elif isinstance(c, ForClause):
        for w in c.words or ():
            yield from _in_word(w)
        yield from statements(c.body)
    elif isinstance(c, CForClause):
        for e in (c.init, c.cond, c.post):
            if e is not None:
                yield from _in_word(e)
        yield from statements(c.body)
    elif isinstance(c, CaseClause):
        yield from _in_word(c.word)
        for item in c.items:
            for pat in item.patterns:
                yield from _in_word(pat)
            yield from statements(item.body)
    elif isinstance(c, FuncDecl):
        yield from statements((c.body,))
    elif isinstance(c, ArithCmd):
        yield from _in_word(c.expr)
    elif isinstance(c, TestClause):
        yield from _in_test(c.expr)
    elif isinstance(c, BinaryCmd):
        yield from statements((c.left, c.right))
    elif isinstance(c, Pipeline):
        yield from statements(c.stages)


def _in_assign(a: Assign) -> Iterator[Stmt]:
    if a.key is not None:
        yield from _in_word(a.key)
    if a.value is not None:
        yield from _in_word(a.value)
    for e in a.array or ():
        if e.key is not None:
            yield from _in_word(e.key)
        yield from _in_word(e.value)


def _in_test(e: TestExpr) -> Iterator[Stmt]:
    if isinstance(e, Word):
        yield from _in_word(e)
    elif isinstance(e, TestUnary):
        yield from _in_test(e.operand)
    elif isinstance(e, TestBinary):
        yield from _in_test(e.left)
        yield from _in_test(e.right)
    elif isinstance(e, TestParen):
        yield from _in_test(e.expr)


def _in_word(w: Word) -> Iterator[Stmt]:
    for p in w.parts:
        if isinstance(p, (CmdSubst, ProcSubst)):
            yield from statements(p.stmts)
        elif isinstance(p, DblQuoted):
            yield from _in_word(Word(p.pos, p.end, p.parts))
        elif isinstance(p, ParamExp):
            for a in p.args:
                yield from _in_word(a)
            if p.key is not None:
                yield from _in_word(p.key)
        elif isinstance(p, ArithExp):
            yield from _in_word(p.expr)
