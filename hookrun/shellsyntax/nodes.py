"""The typed shell syntax tree: what the interpreter runs and shell-guard judges.

Modelled on mvdan/sh's ``syntax`` package: words are made of parts (literal text,
quotes, expansions), commands are statements holding one command node each. Every node
carries ``pos`` and ``end``, byte offsets into the UTF-8 text the user wrote (no text is
rewritten before parsing, so an offset always points at the user's own characters; see
:func:`hookrun.shellsyntax.line_col`).

Literal text conventions (the one place they are stated):

- :class:`Lit` outside double quotes holds the raw text, backslashes included: quote
  removal happens in expansion, because a backslash also means "this glob character is
  literal" there.
- :class:`Lit` inside :class:`DblQuoted` (and in an unquoted here-document body) is
  already cooked: ``\\$``, ``\\"``, ``\\\\``, ``\\``` and backslash-newline are resolved.
- :class:`SglQuoted` holds its final value (``$'…'`` escapes decoded).

NamedTuples, not dataclasses: cheap to build (a tree per parse) and cheap to import.
The classes, their fields and what each means are declared in ``nodes.pyi`` (what type
checkers read). At run time each class is made on its first use from ``_FIELDS`` below
(:func:`hookrun.records.lazy_records`): ``type()`` costs ~70k instructions a class, a
plain line needs about half of the 31, and declarations compiled into this module would
cost their unmarshalling (~0.2M instructions) on every start.
``tests/shellsyntax/nodes_test.py`` holds the two files to the same fields and defaults.
"""

from __future__ import annotations

from hookrun.records import TYPE_CHECKING, lazy_records

# The unions, by name for annotations elsewhere (`from …nodes import WordPart`); nodes.pyi
# has them as types.
WordPart = "Lit | SglQuoted | DblQuoted | ParamExp | CmdSubst | ArithExp | ProcSubst"


TestExpr = "Word | TestUnary | TestBinary | TestParen"


Command = (
    "CallExpr | Block | Subshell | IfClause | WhileClause | ForClause | CForClause"
    " | CaseClause | FuncDecl | ArithCmd | TestClause | BinaryCmd | Pipeline"
)


# The fields of each class of nodes.pyi, in order.
_FIELDS = {
    "Lit": "pos end text",
    "SglQuoted": "pos end value dollar",
    "DblQuoted": "pos end parts dollar",
    "ParamExp": "pos end name short key length indirect prefix op args",
    "CmdSubst": "pos end stmts backquote",
    "ArithExp": "pos end expr",
    "ProcSubst": "pos end op stmts",
    "Word": "pos end parts",
    "Assign": "pos end name key append value array",
    "ArrayElem": "key value",
    "HereDoc": "pos end body quoted strip_tabs closed",
    "Redirect": "pos end fd fd_var op target heredoc",
    "CallExpr": "pos end assigns args",
    "Block": "pos end stmts",
    "Subshell": "pos end stmts",
    "IfClause": "pos end branches else_",
    "WhileClause": "pos end until cond body",
    "ForClause": "pos end name words body",
    "CForClause": "pos end init cond post body",
    "CaseItem": "pos end patterns body term",
    "CaseClause": "pos end word items",
    "FuncDecl": "pos end name body",
    "ArithCmd": "pos end expr",
    "TestUnary": "pos end op operand",
    "TestBinary": "pos end op left right",
    "TestParen": "pos end expr",
    "TestClause": "pos end expr",
    "BinaryCmd": "pos end op left right",
    "Pipeline": "pos end stages stderr",
    "Stmt": "pos end cmd redirects negated background",
    "Script": "stmts source",
}
_DEFAULTS = {"HereDoc": (True,)}

if not TYPE_CHECKING:  # (type checkers read nodes.pyi)
    __getattr__ = lazy_records(globals(), _FIELDS, _DEFAULTS)
