"""The typed shell syntax tree (declarations; see nodes.py for the conventions).

What type checkers read for :mod:`hookrun.shellsyntax.nodes`: at run time each class
is made on its first use from ``nodes._FIELDS`` (``tests/shellsyntax/nodes_test.py``
holds the two to the same fields and defaults).
"""

from typing import NamedTuple, TypeAlias

class Lit(NamedTuple):
    pos: int
    end: int
    text: str

class SglQuoted(NamedTuple):
    pos: int
    end: int
    value: str
    dollar: bool  # $'…'

class DblQuoted(NamedTuple):
    pos: int
    end: int
    parts: tuple[WordPart, ...]
    dollar: bool  # $"…"

class ParamExp(NamedTuple):
    """``$x``, ``${x}``, ``${#x}``, ``${!x}``, ``${x[i]}``, ``${x<op><args>}``.

    ``op`` is one of ``:- - := = :? ? :+ + # ## % %% / // /# /% ^ ^^ , ,, : @`` or
    ``""``; ``args`` are the operator's words (pattern and replacement, offset and
    length, or the default word; for ``@`` the transformation letter as a Lit).
    ``prefix`` is ``${!p*}``/``${!p@}`` (names starting with ``name``).
    """

    pos: int
    end: int
    name: str
    short: bool  # $x, not ${x}
    key: Word | None
    length: bool  # ${#x}
    indirect: bool  # ${!x}
    prefix: str  # "*" or "@" for ${!p*} / ${!p@}, else ""
    op: str
    args: tuple[Word, ...]

class CmdSubst(NamedTuple):
    pos: int
    end: int
    stmts: tuple[Stmt, ...]
    backquote: bool

class ArithExp(NamedTuple):
    """``$(( … ))`` / ``$[ … ]``: ``expr`` is expanded, then evaluated as arithmetic."""

    pos: int
    end: int
    expr: Word

class ProcSubst(NamedTuple):
    pos: int
    end: int
    op: str  # "<(" or ">("
    stmts: tuple[Stmt, ...]

class Word(NamedTuple):
    pos: int
    end: int
    parts: tuple[WordPart, ...]

class Assign(NamedTuple):
    """``name=value``, ``name+=value``, ``name[i]=value``, ``name=(a b)``."""

    pos: int
    end: int
    name: str
    key: Word | None
    append: bool
    value: Word | None  # None with array=None: ``declare x`` (a bare name)
    array: tuple[ArrayElem, ...] | None

class ArrayElem(NamedTuple):
    key: Word | None  # [k]=v
    value: Word

class HereDoc(NamedTuple):
    """A here-document body. ``quoted``: the delimiter was quoted, the body is literal.
    ``closed``: its end line was found (else bash read it to the end of the text)."""

    pos: int
    end: int
    body: Word
    quoted: bool
    strip_tabs: bool
    closed: bool = True

class Redirect(NamedTuple):
    """``[n]op target``. ``op``: ``< > >> >| <> <& >& &> &>> <<< << <<-``.

    ``fd`` is the explicit descriptor (None = the operator's default); ``fd_var`` is the
    name in ``{name}>file``. For ``<<``/``<<-`` ``heredoc`` holds the body and ``target``
    the delimiter word.
    """

    pos: int
    end: int
    fd: int | None
    fd_var: str
    op: str
    target: Word
    heredoc: HereDoc | None

class CallExpr(NamedTuple):
    """A simple command: assignments, then words (a declaration builtin's ``a=b``
    arguments stay :class:`Assign`, so they are not split)."""

    pos: int
    end: int
    assigns: tuple[Assign, ...]
    args: tuple[Word | Assign, ...]

class Block(NamedTuple):
    pos: int
    end: int
    stmts: tuple[Stmt, ...]

class Subshell(NamedTuple):
    pos: int
    end: int
    stmts: tuple[Stmt, ...]

class IfClause(NamedTuple):
    """``if c1; then b1; elif c2; then b2; else b3; fi``:
    ``branches`` = ((c1, b1), (c2, b2))."""

    pos: int
    end: int
    branches: tuple[tuple[tuple[Stmt, ...], tuple[Stmt, ...]], ...]
    else_: tuple[Stmt, ...] | None

class WhileClause(NamedTuple):
    pos: int
    end: int
    until: bool
    cond: tuple[Stmt, ...]
    body: tuple[Stmt, ...]

class ForClause(NamedTuple):
    """``for name [in words]; do body; done``; ``words`` None = ``"$@"``."""

    pos: int
    end: int
    name: str
    words: tuple[Word, ...] | None
    body: tuple[Stmt, ...]

class CForClause(NamedTuple):
    """``for ((init; cond; post))``; an empty part is None."""

    pos: int
    end: int
    init: Word | None
    cond: Word | None
    post: Word | None
    body: tuple[Stmt, ...]

class CaseItem(NamedTuple):
    pos: int
    end: int
    patterns: tuple[Word, ...]
    body: tuple[Stmt, ...]
    term: str  # ";;", ";&" or ";;&"

class CaseClause(NamedTuple):
    pos: int
    end: int
    word: Word
    items: tuple[CaseItem, ...]

class FuncDecl(NamedTuple):
    pos: int
    end: int
    name: str
    body: Stmt

class ArithCmd(NamedTuple):
    """``(( expr ))``."""

    pos: int
    end: int
    expr: Word

class TestUnary(NamedTuple):
    pos: int
    end: int
    op: str  # "-f", "-n", "!", …
    operand: TestExpr

class TestBinary(NamedTuple):
    pos: int
    end: int
    op: str  # "==", "=~", "-eq", "&&", "||", …
    left: TestExpr
    right: TestExpr

class TestParen(NamedTuple):
    pos: int
    end: int
    expr: TestExpr

class TestClause(NamedTuple):
    """``[[ expr ]]``."""

    pos: int
    end: int
    expr: TestExpr

class BinaryCmd(NamedTuple):
    """``left && right`` / ``left || right``."""

    pos: int
    end: int
    op: str
    left: Stmt
    right: Stmt

class Pipeline(NamedTuple):
    """``a | b |& c``: ``stderr[i]`` is true when stage i is joined to the next by ``|&``."""

    pos: int
    end: int
    stages: tuple[Stmt, ...]
    stderr: tuple[bool, ...]

class Stmt(NamedTuple):
    """One command with its redirections, ``!`` and ``&``. ``cmd`` None: redirections only."""

    pos: int
    end: int
    cmd: Command | None
    redirects: tuple[Redirect, ...]
    negated: bool
    background: bool

class Script(NamedTuple):
    """A parsed program: its statements and the text their offsets point into."""

    stmts: tuple[Stmt, ...]
    source: bytes

WordPart: TypeAlias = "Lit | SglQuoted | DblQuoted | ParamExp | CmdSubst | ArithExp | ProcSubst"

TestExpr: TypeAlias = "Word | TestUnary | TestBinary | TestParen"

Command: TypeAlias = (
    "CallExpr | Block | Subshell | IfClause | WhileClause | ForClause | CForClause"
    " | CaseClause | FuncDecl | ArithCmd | TestClause | BinaryCmd | Pipeline"
)
