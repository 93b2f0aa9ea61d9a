"""tree-sitter-bash's concrete tree → the typed tree of :mod:`hookrun.shellsyntax.nodes`.

Words are built from byte ranges of the user's text: the grammar marks where quotes
and expansions are, and the literal text between them is taken from the source as
written (so however the grammar splits a word into leaves, the literal text is exact).

Where the grammar misreads valid bash, the fix is in :mod:`hookrun.shellsyntax.gaps`;
this module calls it at the few points where it applies.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping, Sequence

from hookrun.lazyre import compile as lazy_compile
from hookrun.records import TYPE_CHECKING, NamedTuple
from hookrun.shellsyntax import ANSI_C_ESCAPES, ShellSyntaxError, Unsupported, gaps, nodes
from hookrun.shellsyntax.nodes import (
    ArithExp,
    ArrayElem,
    Assign,
    BinaryCmd,
    Block,
    CallExpr,
    CmdSubst,
    Command,
    DblQuoted,
    ForClause,
    FuncDecl,
    IfClause,
    Lit,
    ParamExp,
    Pipeline,
    ProcSubst,
    Redirect,
    SglQuoted,
    Stmt,
    Subshell,
    WhileClause,
    Word,
    WordPart,
)

if TYPE_CHECKING:  # typing stays off the shell path at run time (hookrun.records says why).
    from typing import Any

    Node = Any  # tree_sitter.Node; kept untyped here so this module imports no native code
    from hookrun.shellsyntax.heredocs import HereDocSpan

    # Built as `nodes.X(…)` (with ArithCmd, HereDoc, TestClause): a node class is made on
    # its first use (nodes.py), so a text without (( )), a here-document, case, C-style
    # for or [[ ]] does not pay for these six (~90k instructions each).
    from hookrun.shellsyntax.nodes import CaseClause, CaseItem, CForClause

# Nodes that are word parts of their own; anything else inside a word is literal text.
_SPECIAL = frozenset(
    {
        "string",
        "raw_string",
        "ansi_c_string",
        "translated_string",
        "simple_expansion",
        "expansion",
        "command_substitution",
        "arithmetic_expansion",
        "process_substitution",
    }
)
# Building a node through its class (`Word(…)`: type.__call__, then the class's Python
# __new__) costs ~3.1k instructions, tuple.__new__ through a partial ~1.9k. A one-liner
# builds ~25 nodes, most of them with these (mypy checks the fields by their types).
_word: Callable[[tuple[int, int, tuple[WordPart, ...]]], Word] = functools.partial(
    tuple.__new__, Word
)
_lit: Callable[[tuple[int, int, str]], Lit] = functools.partial(tuple.__new__, Lit)
_stmt: Callable[[tuple[int, int, Command | None, tuple[Redirect, ...], bool, bool]], Stmt] = (
    functools.partial(tuple.__new__, Stmt)
)
_call: Callable[[tuple[int, int, tuple[Assign, ...], tuple[Word | Assign, ...]]], CallExpr] = (
    functools.partial(tuple.__new__, CallExpr)
)
_dquoted: Callable[[tuple[int, int, tuple[WordPart, ...], bool]], DblQuoted] = functools.partial(
    tuple.__new__, DblQuoted
)
_param: Callable[
    [tuple[int, int, str, bool, Word | None, bool, bool, str, str, tuple[Word, ...]]], ParamExp
] = functools.partial(tuple.__new__, ParamExp)
# The here-document reader (gap 5), loaded by the first text with a `<<` (then kept).
_heredocs: Any = None


def here_documents(
    src: bytes, parse: Callable[[bytes], Any]
) -> tuple[bytes, dict[int, HereDocSpan]]:
    """``heredocs.prepare(src, parse)``: the text to hand the grammar, and each
    here-document by its operator's offset."""
    if src.find(b"<<") < 0:  # prepare's own first screen, without loading its module
        return src, {}
    global _heredocs
    if _heredocs is None:
        from hookrun.shellsyntax import heredocs

        _heredocs = heredocs
    found: tuple[bytes, dict[int, HereDocSpan]] = _heredocs.prepare(src, parse)
    return found


# The backquote reader (gap 8), loaded by the first text with a backquote (then kept):
# a script without one does not pay for its import (~0.5M instructions).
_backquotes: Any = None


class Backquoted(NamedTuple):
    """One backquoted substitution found by :mod:`hookrun.shellsyntax.backquotes`:
    ``[pos, end)`` spans both backquotes. Here, not there: the converter tells it from a
    grammar node, so it must exist before that module is loaded."""

    pos: int
    end: int
    in_dquotes: bool  # inside "…": \" loses its backslash too


def _load_backquotes() -> Any:
    global _backquotes
    from hookrun.shellsyntax import backquotes

    _backquotes = backquotes
    return backquotes


def backquoted_substitutions(
    src: bytes, parse: Callable[[bytes], Any]
) -> tuple[bytes, dict[int, Backquoted]]:
    """``backquotes.prepare(src, parse)``: the text to hand the grammar, and each
    backquoted substitution by its opening offset."""
    if src.find(b"`") < 0:  # prepare's own first screen, without loading its module
        return src, {}
    found: tuple[bytes, dict[int, Backquoted]] = (_backquotes or _load_backquotes()).prepare(
        src, parse
    )
    return found


# The `[[ … ]]` expression parser, loaded by the first one a process reads (a script
# without one does not pay for its import), then kept.
_condition: Any = None


def _load_condition() -> Any:
    global _condition
    from hookrun.shellsyntax import condition

    _condition = condition
    return condition


_VAR_NAME = lazy_compile(rb"[A-Za-z_][A-Za-z0-9_]*|[0-9]|[@*#?$!-]")
_NAME_START = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")
_NAME_BYTES = _NAME_START | frozenset(b"0123456789")
_SPECIAL_NAMES = frozenset(b"0123456789@*#?$!-")
_BLANK_BYTES = (0x20, 0x09)  # a space, a tab


def _var_name_end(src: bytes, pos: int, end: int) -> int:
    """Where the name that ``_VAR_NAME`` matches at ``pos`` ends (before ``end``), -1 if
    none does. Read by hand: every ``$x`` of a script comes here, and the first regex
    a run compiles imports ``re`` (~1.8 ms of a hook's start-up)."""
    if pos >= end:
        return -1
    c = src[pos]
    if c in _NAME_START:
        rest = src[pos + 1 : end]
        if not rest or rest.replace(b"_", b"").isalnum():  # the usual `$name` node
            return end
        pos += 1
        while pos < end and src[pos] in _NAME_BYTES:
            pos += 1
        return pos
    return pos + 1 if c in _SPECIAL_NAMES else -1


# Reserved words that cannot start a simple command (bash: a syntax error there).
# What may follow `time` that the grammar then misreads: a compound command.
_TIMED_COMPOUND = frozenset(
    {"{", "(", "!", "[[", "((", "if", "while", "until", "for", "case", "select", "function"}
)
_MISPLACED_KEYWORDS = frozenset({"do", "done", "then", "fi", "elif", "else", "esac", "in"})
_REDIRECTS = frozenset({"file_redirect", "heredoc_redirect", "herestring_redirect"})
# A command's usual arguments: named nodes that are words (see Converter.command; a
# test checks them against the grammar).
_WORD_NODES = frozenset(
    {
        "word", "string", "raw_string", "simple_expansion", "expansion", "concatenation",
        "number", "command_substitution", "ansi_c_string", "translated_string",
        "arithmetic_expansion", "process_substitution", "brace_expression",
    }
)  # fmt: skip
# A first word that Converter.keyword_command looks at.
_CHECKED_KEYWORDS = _MISPLACED_KEYWORDS | {"coproc", "select", "time"}
# The operators of ${name<op>…}.
_PARAM_OPS = frozenset(
    [":-", "-", ":=", "=", ":?", "?", ":+", "+", "#", "##", "%", "%%"]
    + ["/", "//", "/#", "/%", "^", "^^", ",", ",,", ":", "@"]
)
# ``${v~}``, ``${v~~}`` (case toggle): read as ``^``/``^^`` in the parsed copy (gap 40).
_TOGGLES = {"^": "~", "^^": "~~"}


def _byte(value: int) -> str:
    """A numeric escape is one byte: past ASCII, the surrogate escape that encodes to it."""
    return chr(value) if value < 0x80 else chr(0xDC00 + value)


def ansi_c(text: str) -> str:
    """Decode the body of ``$'…'`` (bash's escapes, ``\\cX`` and numeric forms)."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c != "\\" or i + 1 >= n:
            out.append(c)
            i += 1
            continue
        e = text[i + 1]
        i += 2
        if e in ANSI_C_ESCAPES:
            out.append(ANSI_C_ESCAPES[e])
        elif e in "01234567":
            j = i - 1
            while i < n and i - j < 3 and text[i] in "01234567":
                i += 1
            out.append(_byte(int(text[j:i], 8) & 0xFF))
        elif e in "xuU":
            width = {"x": 2, "u": 4, "U": 8}[e]
            j = i
            while i < n and i - j < width and text[i] in "0123456789abcdefABCDEF":
                i += 1
            if i == j:
                out.append("\\" + e)
            else:
                code = int(text[j:i], 16)
                if e == "x":
                    out.append(_byte(code))
                elif code < 0x110000 and not 0xD800 <= code < 0xE000:
                    out.append(chr(code))
                else:
                    out.append("\ufffd")
        elif e == "c" and i < n:
            # bash masks the character to its low five bits (\\c? is DEL)
            out.append(chr(ord(text[i]) & 0x1F) if text[i] != "?" else "\x7f")
            i += 1
        else:
            out.append("\\" + e)
    decoded = "".join(out)
    # bash's strings end at a NUL byte: `$'a\x00b'` is `a` (and so is `${x@E}`)
    nul = decoded.find("\0")
    return decoded if nul < 0 else decoded[:nul]


def cook_dquoted(text: str, *, heredoc: bool = False) -> str:
    """Backslash rules inside double quotes (and in an unquoted here-document body)."""
    if "\\" not in text:
        return text
    special = "$`\\\n" if heredoc else '$`"\\\n'
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "\\" and i + 1 < n and text[i + 1] in special:
            if text[i + 1] != "\n":
                out.append(text[i + 1])
            i += 2
            continue
        out.append(c)
        i += 1
    return "".join(out)


class Converter:
    """One conversion of one parse tree over ``src`` (the bytes that were parsed)."""

    def __init__(
        self,
        src: bytes,
        reparse: Any,
        depth: int = 0,
        reparse_tree: Any = None,
        heredocs: Mapping[int, HereDocSpan] | None = None,
        backquoted: Mapping[int, Backquoted] | None = None,
        negated: set[int] | None = None,
        joined: set[int] | None = None,
        parens: set[int] | None = None,
    ) -> None:
        self.src = src
        self.heredocs = heredocs or {}  # here-documents by operator offset (gap 5)
        self.backquoted = backquoted or {}  # `…` substitutions by offset (gap 8)
        self.negated = negated or set()  # compound commands after a `!`, by offset (gap 24)
        self.joined = joined or set()  # redirections of the assignment before (gap 32)
        self.parens = parens or set()  # `[[ … ]]` parentheses read as blanks (gap 41)
        self.reparse = reparse  # (bytes, offset) -> tuple[Stmt, ...] for backquote bodies
        self.reparse_tree = reparse_tree  # (bytes) -> a tree_sitter.Tree
        self.depth = depth
        # Gap 15: commands (by start offset) whose first children were split off as a
        # statement of assignments, and how many.
        self.cuts: dict[int, int] = {}

    # -- helpers ---------------------------------------------------------------
    def text(self, start: int, end: int) -> str:
        return self.src[start:end].decode("utf-8", "surrogateescape")

    def ntext(self, node: Node) -> str:
        return self.text(node.start_byte, node.end_byte)

    def unsupported(self, what: str, node: Node) -> Unsupported:
        row, col = node.start_point
        return Unsupported(what, row + 1, col + 1)

    # -- statement lists -------------------------------------------------------
    def stmts(self, children: Iterable[Node]) -> tuple[Stmt, ...]:
        out: list[Stmt] = []
        src = self.src
        for c in children:
            t = c.type
            if not c.is_named:
                if t == "&" and out:
                    out[-1] = out[-1]._replace(background=True)
                continue
            if t == "comment" or t == "heredoc_body":
                continue
            start, end = c.start_byte, c.end_byte
            if t == "command" and start == end:  # gaps.empty_command
                continue
            if (
                t == "ERROR"
                and (_is_arith_error(c) or _is_param_error(c))
                and out
                and isinstance(out[-1].cmd, CallExpr)
            ):
                # Gap 9: `echo $((1 + ))` comes out as `echo` and a separate ERROR.
                prev = out[-1]
                assert isinstance(prev.cmd, CallExpr)
                word = Word(start, end, (self.special(c),))
                call = prev.cmd._replace(args=(*prev.cmd.args, word), end=end)
                out[-1] = prev._replace(cmd=call, end=max(prev.end, end))
                continue
            # Gap 15 needs a newline inside the statement: most have none.
            if src.find(b"\n", start, end) >= 0:
                lead = gaps.leftmost_command(c)
                cut = gaps.assignments_line(src, lead) if lead is not None else None
                if lead is not None and cut is not None:  # gap 15: `a=1 b=2⏎cmd`, one command
                    out.append(self.command(lead, kids=lead.children[:cut]))
                    self.cuts[lead.start_byte] = cut
            if self.joined and start in self.joined and out:
                # Gap 32: `x=1 2>f && y`, parsed as `x=1;2>f && y`: the redirections
                # (at the far left of what follows) are x=1's; `a && y=2 >g`, parsed as
                # `a && y=2;>g`: y=2's, the list goes on.
                prev = out[-1]
                if _assignment_only(prev):
                    joined = _join_leftmost(self.stmt(c), prev)
                else:
                    joined = _join_across(prev, self.stmt(c))
                if joined is not None:
                    out[-1] = joined
                    continue
            if t in _REDIRECTS:  # `$(<file)`, or a line of redirections only
                rs = tuple(self.redirects([c]))
                out.append(_stmt((start, end, None, rs, False, False)))
                continue
            out.append(self.command(c) if t == "command" and not self.negated else self.stmt(c))
        return tuple(out)

    def stmt(self, n: Node) -> Stmt:
        if self.negated and n.start_byte in self.negated:  # gap 24: `! { …; }`, `!` a blank
            self.negated.discard(n.start_byte)
            return _negate_leftmost(self.stmt(n))
        t = n.type
        if t == "command":
            return self.command(n)
        if t == "redirected_statement":
            return self.redirected(n)
        if t == "negated_command":
            inner = next(c for c in n.children if c.is_named)
            s = self.stmt(inner)
            return Stmt(n.start_byte, n.end_byte, s.cmd, s.redirects, not s.negated, False)
        if t == "pipeline":
            return self.pipeline(n)
        return _stmt((n.start_byte, n.end_byte, self.compound(n), (), False, False))

    def compound(self, n: Node) -> Command:
        t = n.type
        if t == "list":
            return self.and_or(n)
        if t == "subshell":
            return Subshell(n.start_byte, n.end_byte, self.stmts(n.children))
        if t == "compound_statement":
            first = n.children[0].type if n.children else ""
            if first == "((":
                return nodes.ArithCmd(n.start_byte, n.end_byte, self.arith_between(n, "((", "))"))
            return Block(n.start_byte, n.end_byte, self.stmts(n.children))
        if t == "if_statement":
            return self.if_clause(n)
        if t == "while_statement":
            return self.while_clause(n)
        if t == "for_statement":
            return self.for_clause(n)
        if t == "c_style_for_statement":
            return self.cfor_clause(n)
        if t == "case_statement":
            return self.case_clause(n)
        if t == "function_definition":
            return self.function(n)
        if t == "test_command":
            return self.test_command(n)
        if t in ("declaration_command", "unset_command"):
            return self.declaration(n)
        if t == "variable_assignment":
            return CallExpr(n.start_byte, n.end_byte, (self.assign(n),), ())
        if t == "variable_assignments":
            assigns = tuple(self.assign(c) for c in n.children if c.type == "variable_assignment")
            return CallExpr(n.start_byte, n.end_byte, assigns, ())
        if t == "command":
            cmd = self.command(n)
            if cmd.redirects:
                # A command with redirections nested where a bare command is expected.
                return Block(n.start_byte, n.end_byte, (cmd,))
            assert cmd.cmd is not None
            return cmd.cmd
        if t in ("redirected_statement", "negated_command"):
            return Block(n.start_byte, n.end_byte, (self.stmt(n),))
        raise self.unsupported(f"'{self.ntext(n).split()[0] if self.ntext(n).split() else t}'", n)

    def and_or(self, n: Node) -> Command:
        named: list[Node] = []
        ops: list[str] = []
        for c in n.children:  # (each child's type read once; no comprehension's frame)
            t = c.type
            if c.is_named:
                if t != "comment":
                    named.append(c)
            elif t == "&&" or t == "||":
                ops.append(t)
        if len(named) != 2 or len(ops) != 1:
            raise self.unsupported("this command list", n)
        left, right = self.stmt(named[0]), self.stmt(named[1])
        if _is_list(right):  # gap 33: `a | b | c || d | e | f && g`: from the left
            return _left_associated(left, ops[0], right, n.start_byte, n.end_byte)
        return BinaryCmd(n.start_byte, n.end_byte, ops[0], left, right)

    def pipeline(self, n: Node) -> Stmt:
        stages: list[Stmt] = []
        joins: list[bool] = []
        for c in n.children:
            if c.is_named:
                if c.type != "comment":
                    stages.append(self.stmt(c))
            elif c.type in ("|", "|&"):
                joins.append(c.type == "|&")
        if len(stages) != len(joins) + 1:
            raise self.unsupported("this pipeline", n)
        for st in stages[1:]:
            if st.negated:  # bash: `!` only starts a pipeline
                row, col = n.start_point
                raise ShellSyntaxError("syntax error near unexpected token `!'", row + 1, col + 1)
        first = stages[0]
        inner = first.cmd if isinstance(first.cmd, Pipeline) else None
        if len(stages) > 1 and inner and not first.redirects and not inner.stages[0].negated:
            # `a | b >f | c` comes out as (a | b >f) | c (gap 20 moved the redirection);
            # `! a | b >f | c` negates the whole pipeline.
            stages[:1] = (inner.stages[0]._replace(negated=first.negated), *inner.stages[1:])
            joins[:0] = inner.stderr
        if len(stages) > 1 and _is_list(stages[0]):
            # Gap 34: `a && b >f | c` comes out as (a && b >f) | c; rebuilt as a && (b >f | c).
            ops: list[str] = []
            parts: list[Stmt] = []
            _and_or_parts(stages[0], ops, parts)
            rest = _piped([parts[-1], *stages[1:]], joins, parts[-1].pos, n.end_byte)
            del parts[-1]
            _and_or_parts(rest, ops, parts)
            return _from_left(parts, ops)._replace(pos=n.start_byte, end=n.end_byte)
        return _piped(stages, joins, n.start_byte, n.end_byte)

    def redirected(self, n: Node) -> Stmt:
        body = n.child_by_field_name("body")
        redirects: list[Redirect] = []
        pending = [c for c in n.children if c is not body]
        if body is not None and body.type == "command":
            # One list of redirections, so `{fd}>f` after the words is seen (gap 3).
            s = self.command(body, pending)
            return Stmt(n.start_byte, max(n.end_byte, s.end), s.cmd, s.redirects, False, False)
        redirects.extend(self.redirects(pending))
        if body is None:
            s = Stmt(n.start_byte, n.end_byte, None, (), False, False)
        else:
            s = self.stmt(body)
        if isinstance(s.cmd, (Pipeline, BinaryCmd)) and not s.redirects and redirects:
            # `a | b <f`, `a && b >f`: the grammar puts b's redirections on the whole
            # pipeline or list (gap 20).
            s = _redirect_last(s, tuple(redirects))._replace(pos=n.start_byte, end=n.end_byte)
            redirects = []
        all_redirects = s.redirects + tuple(redirects)
        return Stmt(n.start_byte, n.end_byte, s.cmd, all_redirects, s.negated, False)

    # -- simple commands -------------------------------------------------------
    def command(
        self, n: Node, more_redirects: Sequence[Node] = (), kids: Sequence[Node] | None = None
    ) -> Stmt:
        """A simple command (of ``kids``, a part of ``n``'s children, when given: gap 15)."""
        assigns: list[Assign] = []
        words: list[Node] = []
        redirect_nodes: list[Node] = []
        if kids is None:
            start, stop = n.start_byte, n.end_byte
            if self.cuts and start in self.cuts:  # gap 15: the part after the cut
                kids = n.children[self.cuts[start] :]
                start, stop = kids[0].start_byte, kids[-1].end_byte
        else:
            start, stop = kids[0].start_byte, kids[-1].end_byte
        for c in n.children if kids is None else kids:
            t = c.type
            if t in _WORD_NODES:  # (the usual argument: the last branch below)
                words.append(c)
            elif t == "command_name":
                if not words and self.src.startswith((b"_=", b"_+="), c.start_byte):
                    assigns.append(self.underscore_assign(c))  # gap 39
                    continue
                words.append(c.children[0] if c.named_child_count == 1 else c)
            elif t == "variable_assignment" and not words:
                assigns.append(self.assign(c))
            elif t in _REDIRECTS or (
                t == "ERROR" and not (c.text or b"").startswith((b"${", b"$(("))
            ):
                redirect_nodes.append(c)
            elif t == "comment":
                continue
            elif t == "subshell" and words:  # `echo (42)`: bash refuses a `(` there
                if len(words) == 1 and self.ntext(words[0]) == "time":
                    raise self.unsupported("'time'", n)  # `time ( … )`
                row, col = c.start_point
                raise ShellSyntaxError("syntax error near unexpected token `('", row + 1, col + 1)
            elif c.is_named or t in ("$", "=", "\\"):  # a stray literal left unnamed
                words.append(c)
        if more_redirects:
            redirect_nodes.extend(c for c in more_redirects if c.type != "comment")
        redirects: list[Redirect] = []
        if redirect_nodes:  # (most commands have none: no need to look for gaps 3, 20)
            words = _with_redirect_args(self.src, words, redirect_nodes)
            words, fd_vars = gaps.fd_variables(self.src, words, redirect_nodes)
            redirects = self.redirects(redirect_nodes, fd_vars)
            if any(v.isdigit() for v in fd_vars.values()) and (words or assigns):
                # The command ends at its last word, not at the digits the grammar
                # counted in (`cat 0<f`: the command is `cat`, as for `cat 3<f`).
                last = max([w.end_byte for w in words] + [a.end for a in assigns])
                stop = min(stop, last)
        found: list[Word] = []
        for group in gaps.join_continued(self.src, words):  # (a loop: no comprehension's frame)
            found.append(self.word(group[0]) if len(group) == 1 else self.word_of(group))
        args = tuple(found)
        if args and len(args[0].parts) == 1:
            first = args[0].parts[0]
            keyword = first.text if isinstance(first, Lit) else ""
            if keyword in _CHECKED_KEYWORDS:
                self.keyword_command(n, keyword, args, bool(assigns))
        end = stop  # and past the redirections, if any
        for r in redirect_nodes:
            end = max(end, r.end_byte)
        for redirect in redirects:
            end = max(end, redirect.end)
        call = _call((start, stop, tuple(assigns), args))
        return _stmt((start, end, call, tuple(redirects), False, False))

    def keyword_command(self, n: Node, keyword: str, args: tuple[Word, ...], assigns: bool) -> None:
        """Refuse a command whose first word is a reserved word bash reads as one."""
        if keyword in ("coproc", "select") or (  # keywords the grammar reads as names
            keyword == "time"
            and len(args) > 1
            and self.text(args[1].pos, args[1].end) in _TIMED_COMPOUND
        ):  # `time cmd …` runs (hookrun.dispatch.shell.timed); `time { …; }` does not
            raise self.unsupported(f"'{keyword}'", n)
        if (
            keyword in _MISPLACED_KEYWORDS
            and not assigns
            and self.text(args[0].pos, args[0].end) == keyword
        ):  # `$(echo f)$(echo or) i in a; do …`: bash reads `do` as the keyword
            row, col = n.start_point
            raise ShellSyntaxError(
                f"syntax error near unexpected token `{keyword}'", row + 1, col + 1
            )

    def declaration(self, n: Node) -> Command:
        args: list[Word | Assign] = []
        prev = n.start_byte  # (where the child before ended)
        for c in n.children:
            dropped = self.src[prev : c.start_byte]
            prev = c.end_byte
            if dropped.strip(b" \t") == b"-":  # `local - x=1`: the grammar drops the `-`
                dash = c.start_byte - len(dropped) + dropped.index(b"-")
                args.append(Word(dash, dash + 1, (Lit(dash, dash + 1, "-"),)))
            if not c.is_named:
                if c.type in ("export", "local", "declare", "typeset", "readonly", "unset"):
                    args.append(
                        Word(c.start_byte, c.end_byte, (Lit(c.start_byte, c.end_byte, c.type),))
                    )
                continue
            if c.type == "variable_assignment":
                args.append(self.assign(c))
            elif c.type != "comment":
                args.append(self.word(c))
        return CallExpr(n.start_byte, n.end_byte, (), tuple(args))

    def assign(self, n: Node) -> Assign:
        name_node = n.child_by_field_name("name")
        value_node = n.child_by_field_name("value")
        index: Word | None = None
        if name_node is None:
            raise self.unsupported("this assignment", n)
        if name_node.type == "subscript":
            base = name_node.child_by_field_name("name")
            idx = name_node.child_by_field_name("index")
            name = self.ntext(base) if base is not None else ""
            if idx is not None:
                index = self.word(idx)
        else:
            name = self.ntext(name_node)
        op = "="
        eq: Node | None = None  # the `=` (or `+=`) child
        for c in n.children:
            t = c.type
            if t == "=" or t == "+=":
                op, eq = t, c
                break
        if value_node is not None and value_node.type == "array":
            elems = tuple(
                self.array_elem(group)
                for group in gaps.join_continued(  # gap 4: `a=(r\⏎m)` holds `rm`
                    self.src,
                    [c for c in value_node.children if c.is_named and c.type != "comment"],
                )
            )
            return Assign(n.start_byte, n.end_byte, name, index, op == "+=", None, elems)
        if eq is None:
            raise StopIteration  # (read as "a construct the parser could not read")
        # The value is the text after the `=`: anything after the value node up to the end
        # also belongs to it (the grammar sometimes ends `value` early, e.g. at `a=b=c`).
        start, end = eq.end_byte, n.end_byte
        value = _word((start, end, self.range_parts(n.children, start, end)))
        return Assign(n.start_byte, n.end_byte, name, index, op == "+=", value, None)

    def underscore_assign(self, n: Node) -> Assign:
        """Gap 39: ``_=1`` (``_+=x``), which the grammar reads as a command name."""
        start, end = n.start_byte, n.end_byte
        eq = self.src.find(b"=", start, end) + 1
        value = _word((eq, end, self.range_parts(n.children, eq, end)))
        return Assign(start, end, "_", None, eq - start == 3, value, None)

    def array_elem(self, group: Sequence[Node]) -> ArrayElem:
        """An element: one node, or the nodes of one word joined by line continuations."""
        n, end = group[0], group[-1].end_byte
        text = self.ntext(n)
        if n.type == "concatenation" and text.startswith("[") and "]=" in text:
            # [key]=value: the grammar gives a concatenation; split at the "]=" that
            # closes the key (past any `]=` inside a substitution or quotes in it, gap 39).
            cut = gaps.key_end(self.src, n.start_byte, end)
            if cut < 0:
                cut = n.start_byte + len(
                    text[: text.index("]=")].encode("utf-8", "surrogateescape")
                )
            key = Word(n.start_byte + 1, cut, self.range_parts(n.children, n.start_byte + 1, cut))
            value = Word(cut + 2, end, self.range_parts(group, cut + 2, end))
            return ArrayElem(key, value)
        return ArrayElem(None, self.word_of(group))

    # -- redirections ----------------------------------------------------------
    def redirects(
        self, nodes: Sequence[Node], fd_vars: dict[int, str] | None = None
    ) -> list[Redirect]:
        out: list[Redirect] = []
        for n in gaps.fix_redirects(nodes):
            if isinstance(n, gaps.Patched):
                out.append(self.patched_redirect(n))
                continue
            t = n.type
            if t == "file_redirect":
                r = self.file_redirect(n, (fd_vars or {}).get(n.start_byte, ""))
                out.append(_fd_from_word(r))
            elif t == "herestring_redirect":
                fd_word = (fd_vars or {}).get(n.start_byte, "")
                out.append(_fd_from_word(self.herestring(n)._replace(fd_var=fd_word)))
            elif t == "heredoc_redirect":  # one heredocs.py did not read (never seen)
                raise self.unsupported("this here-document", n)
            elif t == "ERROR":
                raise gaps.syntax_error(self.src, n)
        return out

    def descriptor(self, n: Node) -> int | None:
        fd = n.child_by_field_name("descriptor")
        if fd is None:
            return None
        try:
            return int(self.ntext(fd))
        except ValueError:
            raise self.unsupported("this file descriptor", fd) from None

    def file_redirect(self, n: Node, fd_var: str) -> Redirect:
        op = ""
        op_at = -1
        dests: list[Node] = []
        for c in n.children:
            if not c.is_named:
                if not op:
                    op, op_at = c.type, c.start_byte
            elif c.type != "file_descriptor":
                dests.append(c)
        doc = self.heredocs.get(op_at)
        if doc is not None:
            return self.heredoc_at(n, doc)._replace(fd_var=fd_var)
        if op in (">&-", "<&-"):
            # (no target: words the grammar put after it are the command's, even a
            # `{b}` that names the next redirection's descriptor: `exec {a}>&- {b}>&-`)
            end = op_at + len(op)
            target = Word(end - 1, end, (Lit(end - 1, end, "-"),))
            op = op[:-1]
        else:
            dests = _redirect_target(self.src, dests)
            if not dests:
                raise self.unsupported(f"redirection '{op}' without a target", n)
            target = self.word_of(dests)
            end = target.end  # (`cat 3<f 0<g`: the `0` is the next one's, not this one's)
        return Redirect(n.start_byte, end, self.descriptor(n), fd_var, op, target, None)

    def heredoc_at(self, n: Node, span: HereDocSpan) -> Redirect:
        """The here-document read at this ``<`` (see :mod:`hookrun.shellsyntax.heredocs`)."""
        raw_delim = self.text(span.delim_start, span.delim_end)
        quoted = any(q in raw_delim for q in "'\"\\")
        strip = span.op == "<<-"
        start, end = span.body_start, span.body_end
        if quoted:
            text = self.text(start, end)
            parts: tuple[WordPart, ...] = (Lit(start, end, _strip_tabs(text) if strip else text),)
        else:
            parts = self.heredoc_parts(start, end, strip)
        if not span.closed and end > start and self.src[end - 1 : end] != b"\n":
            parts = (*parts, Lit(end, end, "\n"))  # bash ends the last line it read
        doc = nodes.HereDoc(start, end, Word(start, end, parts), quoted, strip, span.closed)
        delim = Lit(span.delim_start, span.delim_end, _unquote_delimiter(raw_delim))
        target = Word(span.delim_start, span.delim_end, (delim,))
        fd = self.descriptor(n)
        return Redirect(n.start_byte, span.end, fd, "", span.op, target, doc)

    def patched_redirect(self, p: gaps.Patched) -> Redirect:
        target = self.word_of(_redirect_target(self.src, p.targets))
        fd = int(self.text(p.fd.start_byte, p.fd.end_byte)) if p.fd is not None else None
        return Redirect(p.pos, p.end, fd, "", p.op, target, None)

    def herestring(self, n: Node) -> Redirect:
        dests = [c for c in n.children if c.is_named and c.type != "file_descriptor"]
        target = self.word_of(dests)
        return Redirect(n.start_byte, n.end_byte, self.descriptor(n), "", "<<<", target, None)

    def heredoc_parts(
        self, start: int, end: int, strip: bool, mode: str = "heredoc"
    ) -> tuple[WordPart, ...]:
        """An unquoted here-document body's parts, or an arithmetic expression's (gaps 7
        and 9 in gaps.py).

        The grammar misses ``$1``, backquotes and ``$((…))`` in bodies and misreads
        nested arithmetic, so each place an expansion may start (an unescaped ``$`` or
        backquote) is parsed on its own, as the start of a double-quoted string at the
        same offset; its first node is the expansion, with the positions of the user's
        text. ``mode``: "heredoc" (cooked literal text) or "" (raw, for arithmetic).
        """
        parts: list[WordPart] = []
        at = i = start
        src = self.src
        # The next backslash, `$` and backquote at or after i (`end`: none), found by C
        # rather than by a Python step per byte (a body is mostly text); each is looked
        # for again once i has passed it.
        slash = dollar = quote = start - 1
        while True:
            if slash < i:
                slash = src.find(b"\\", i, end) % (end + 1)  # (-1 -> end)
            if dollar < i:
                dollar = src.find(b"$", i, end) % (end + 1)
            if quote < i:
                quote = src.find(b"`", i, end) % (end + 1)
            i = min(slash, dollar, quote)
            if i >= end:
                break
            if i == slash:
                i += 2
                continue
            node = self.reparse_expansion(i, end)
            if node is None:
                i += 1
                continue
            if i > at:
                parts.append(self.lit(at, i, mode, strip, at == start))
            parts.append(node)
            at = i = node.end
        if at < end:
            parts.append(self.lit(at, end, mode, strip, at == start))
        return _merge(parts)

    def reparse_expansion(self, i: int, end: int) -> WordPart | None:
        src = self.src
        if i + 1 < end and src[i] == 0x24 and src[i + 1] in _NAME_START:
            # `$name`, the usual expansion in a body: read here as the grammar reads it
            # (a simple expansion, the longest name), not by parsing the rest again.
            stop = i + 2
            while stop < end and src[stop] in _NAME_BYTES:
                stop += 1
            return ParamExp(i, stop, self.text(i + 1, stop), True, None, False, False, "", "", ())
        if src[i : i + 1] == b"`":  # found as bash finds it (gap 8)
            close = (_backquotes or _load_backquotes()).closing(self.src[:end], i)
            return None if close < 0 else self.backquoted_subst(Backquoted(i, close, False))
        if src.startswith(b"$[", i):
            # An empty `$[]` (blanks only), which the grammar reads in no string: 0, as
            # bash's (`$(( $[] + 1 ))`).
            close = i + 2
            while close < end and src[close] in b" \t\n":
                close += 1
            if src.startswith(b"]", close) and close < end:
                return ArithExp(i, close + 1, self.arith_word(i + 2, close))
        synthetic = b" " * (i - 1) + b'"' + self.src[i:end] + b'"'
        # The Tree is held in this frame while its nodes are used (a Node must not
        # outlive its Tree). A here-document in it (`$(cat <<X …)` in a body) is read too.
        text, docs = here_documents(synthetic, self.reparse_tree)
        if text.find(b"$((") >= 0:
            text = gaps.empty_arithmetic(text)  # `$(( $(()) + 1 ))` (gap 39, nested)
        tree = self.reparse_tree(text)
        root = tree.root_node
        string = root.descendant_for_byte_range(i - 1, i)
        while string is not None and string.type != "string":
            string = string.parent
        if string is None or string.start_byte != i - 1:
            return None
        first = next((c for c in string.children if c.start_byte == i and c.type in _SPECIAL), None)
        if first is None or first.has_error or first.end_byte > end:
            return None
        if first.type == "simple_expansion" and _var_name_end(synthetic, i + 1, len(synthetic)) < 0:
            return None
        conv = Converter(synthetic, self.reparse, self.depth, self.reparse_tree, docs)
        part = conv.special(first)
        del tree
        return part

    # -- compound commands -----------------------------------------------------
    def if_clause(self, n: Node) -> IfClause:
        branches: list[tuple[tuple[Stmt, ...], tuple[Stmt, ...]]] = []
        else_: tuple[Stmt, ...] | None = None
        cond: list[Node] = []
        body: list[Node] = []
        state = "cond"
        for c in n.children:
            t = c.type
            if t in ("if", "elif"):
                state = "cond"
            elif t == "then":
                state = "body"
            elif t in ("elif_clause", "else_clause", "fi"):
                if state == "body":
                    branches.append((self.stmts(cond), self.stmts(body)))
                    cond, body, state = [], [], "done"
                if t == "elif_clause":
                    sub = self.if_clause(c)
                    branches.extend(sub.branches)
                elif t == "else_clause":
                    else_ = self.stmts(c.children)
            elif t == "else":
                continue
            elif state == "cond":
                cond.append(c)
            elif state == "body":
                body.append(c)
        if state == "body":  # an elif_clause ends at its own end
            branches.append((self.stmts(cond), self.stmts(body)))
        return IfClause(n.start_byte, n.end_byte, tuple(branches), else_)

    def while_clause(self, n: Node) -> WhileClause:
        until = n.children[0].type == "until"
        cond = [c for c in n.children if c.type != "do_group"]
        body = next((c for c in n.children if c.type == "do_group"), None)
        if body is None:
            raise self.unsupported("this loop", n)
        return WhileClause(
            n.start_byte, n.end_byte, until, self.stmts(cond), self.stmts(body.children)
        )

    def loop_body(self, n: Node) -> tuple[Stmt, ...]:
        body = n.child_by_field_name("body")
        if body is None:
            raise self.unsupported("this loop", n)
        if body.type == "do_group":
            return self.stmts(body.children)
        return (self.stmt(body),)

    def for_clause(self, n: Node) -> ForClause:
        if n.children[0].type == "select":
            raise self.unsupported("'select'", n)
        var = n.child_by_field_name("variable")
        has_in = any(
            c.type == "in" or (c.type == "ERROR" and (c.text or b"") == b"in") for c in n.children
        )
        values = n.children_by_field_name("value")
        words = tuple(self.word(v) for v in values) if has_in else None
        name = self.ntext(var) if var is not None else ""
        return ForClause(n.start_byte, n.end_byte, name, words, self.loop_body(n))

    def cfor_clause(self, n: Node) -> CForClause:
        marks = [
            c for c in n.children if c.type in ("((", ";", "))", "do_group", "compound_statement")
        ]
        try:
            open_ = next(i for i, c in enumerate(marks) if c.type == "((")
            close = next(i for i, c in enumerate(marks) if c.type == "))")
        except StopIteration:
            raise self.unsupported("this arithmetic for loop", n) from None
        seps = [c for c in marks[open_ + 1 : close] if c.type == ";"]
        if len(seps) != 2:
            raise self.unsupported("this arithmetic for loop", n)
        bounds = [
            (marks[open_].end_byte, seps[0].start_byte),
            (seps[0].end_byte, seps[1].start_byte),
            (seps[1].end_byte, marks[close].start_byte),
        ]
        exprs: list[Word | None] = []
        for a, b in bounds:
            w = Word(a, b, self.range_parts(n.children, a, b))
            exprs.append(w if self.text(a, b).strip() else None)
        return nodes.CForClause(
            n.start_byte, n.end_byte, exprs[0], exprs[1], exprs[2], self.loop_body(n)
        )

    def case_clause(self, n: Node) -> CaseClause:
        value = n.child_by_field_name("value")
        if value is None:
            raise self.unsupported("this case statement", n)
        items = tuple(self.case_item(c) for c in n.children if c.type == "case_item")
        return nodes.CaseClause(n.start_byte, n.end_byte, self.word(value), items)

    def case_item(self, n: Node) -> CaseItem:
        patterns: list[Word] = []
        body: list[Node] = []
        term = ";;"
        seen_paren = False
        group: list[Node] = []  # the nodes of one pattern
        for c in n.children:
            t = c.type
            if not seen_paren:
                if c.is_named and t != "comment":
                    if group and group[-1].end_byte != c.start_byte:
                        patterns.append(self.word_of(group))
                        group = []
                    group.append(c)  # gap 39: `*"a b"*` comes out as three values
                    continue
                if group:
                    patterns.append(self.word_of(group))
                    group = []
                if t == ")":
                    seen_paren = True
                continue
            if t in (";;", ";&", ";;&"):
                term = t
            else:
                body.append(c)
        return nodes.CaseItem(n.start_byte, n.end_byte, tuple(patterns), self.stmts(body), term)

    def function(self, n: Node) -> FuncDecl:
        name = n.child_by_field_name("name")
        body = n.child_by_field_name("body")
        if name is None or body is None:
            raise self.unsupported("this function definition", n)
        redirects = self.redirects([c for c in n.children if c.type in _REDIRECTS])
        b = self.stmt(body)
        b = Stmt(b.pos, n.end_byte, b.cmd, b.redirects + tuple(redirects), b.negated, False)
        return FuncDecl(n.start_byte, n.end_byte, self.ntext(name), b)

    def test_command(self, n: Node) -> Command:
        first = n.children[0].type if n.children else ""
        atoms = list(_atoms(n, "[[" if first == "[[" else "["))
        if first == "[[":
            condition = _condition or _load_condition()
            items = [
                condition.Item(*self.condition_item(group))
                for group in _adjacent_groups(atoms, _COND_OPS)
            ]
            if self.parens:
                items = self.with_parens(items, n.start_byte, n.end_byte)
            row, col = n.start_point
            expr = condition.parse_condition(items, (row + 1, col + 1))
            return nodes.TestClause(n.start_byte, n.end_byte, expr)
        # `[ … ]` is an ordinary command: its words are what was written, in order.
        args = [self.word_of(group) for group in _adjacent_groups(atoms)]
        return CallExpr(n.start_byte, n.end_byte, (), tuple(args))

    def with_parens(self, items: list[Any], start: int, end: int) -> list[Any]:
        """Gap 41: ``items`` with the parentheses read as blanks in ``[start, end)``, in
        place (each the condition's own ``(`` or ``)``, its text the user's)."""
        condition = _condition or _load_condition()
        for at in sorted(p for p in self.parens if start <= p < end):
            text = self.text(at, at + 1)
            paren = condition.Item(Word(at, at + 1, (Lit(at, at + 1, text),)), text)
            k = 0
            while k < len(items) and items[k].word.pos < at:
                k += 1
            items.insert(k, paren)
        return items

    def condition_item(self, group: Sequence[Node]) -> tuple[Word, str]:
        """A ``[[ … ]]`` word, and its text when it may be an operator (else "")."""
        word = self.word_of(group)
        op = ""
        if len(word.parts) == 1 and isinstance(word.parts[0], Lit):
            op = word.parts[0].text
        return word, op

    # -- words -----------------------------------------------------------------
    def word(self, n: Node) -> Word:
        start, end = n.start_byte, n.end_byte
        t = n.type
        if t in _SPECIAL:
            if end > start and not self.backquoted and self.src[start] not in _BLANK_BYTES:
                # The other common case, one quote or expansion: what range_parts finds
                # (that one node, then the text after it, if any), without its search.
                part = self.special(n)
                if part.end == end:
                    return _word((start, end, (part,)))
                tail = self.lit(part.end, end, "", False, part.end == start)
                return _word((start, end, self.stray_params(_merge([part, tail]))))
        elif t == "regex":
            reread = self.regex_parts(n)
            if reread is not None:
                return _word((start, end, reread))
        elif t in ("word", "number") and n.child_count == 0:
            # The common case, a plain word: its text, as range_parts would find it.
            text = self.src[start:end].decode("utf-8", "surrogateescape")
            if "$" not in text and "`" not in text:
                return _word((start, end, (_lit((start, end, text)),) if end > start else ()))
        return _word((start, end, self.range_parts([n], start, end)))

    def word_of(self, nodes: Sequence[Node]) -> Word:
        """One word made of adjacent nodes (a leaf split the grammar made, or a join)."""
        if (
            len(nodes) >= 2
            and nodes[0].type == "ERROR"
            and (nodes[0].text or b"").startswith(b"${")
            and (nodes[1].text or b"").startswith(b"}")
        ):  # gap 11: `${x@}` comes out as an ERROR `${x@` and a word `}`
            bad = ParamExp(
                nodes[0].start_byte,
                nodes[1].start_byte + 1,
                self.text(nodes[0].start_byte, nodes[1].start_byte + 1),
                False,
                None,
                False,
                False,
                "",
                "!bad",
                (),
            )
            rest: list[WordPart] = [bad]
            if nodes[1].end_byte > nodes[1].start_byte + 1:
                rest.append(self.lit(nodes[1].start_byte + 1, nodes[1].end_byte, "", False, False))
            for node in nodes[2:]:
                rest.extend(self.range_parts([node], node.start_byte, node.end_byte))
            return Word(nodes[0].start_byte, nodes[-1].end_byte, _merge(rest))
        if len(nodes) == 1:
            return self.word(nodes[0])
        start, end = nodes[0].start_byte, nodes[-1].end_byte
        parts: list[WordPart] = []
        for node in nodes:
            parts.extend(self.range_parts([node], node.start_byte, node.end_byte))
        return _word((start, end, self.stray_params(_merge(parts))))

    def word_span(self, start: int, end: int, nodes: Sequence[Node]) -> Word:
        return Word(start, end, self.range_parts(nodes, start, end))

    def range_parts(
        self,
        nodes: Iterable[Node],
        start: int,
        end: int,
        *,
        quoted: str = "",
        strip_tabs: bool = False,
    ) -> tuple[WordPart, ...]:
        """The parts of the text ``[start, end)``: special nodes found among ``nodes``
        (descending through containers), literal source text between them."""
        specials: list[Node] = []
        _collect_specials(nodes, start, end, specials)
        src = self.src
        items: list[tuple[int, Node | Backquoted]] = []
        for s in specials:  # (a loop, not a comprehension: most words have one or two)
            s_start = s.start_byte
            items.append((self.real_start(s) if src[s_start] in _BLANK_BYTES else s_start, s))
        if self.backquoted:
            items = self.with_backquoted(items, start, end)
        parts: list[WordPart] = []
        at = start
        for s_start, s in items:
            if s_start > at:
                parts.append(self.lit(at, s_start, quoted, strip_tabs, at == start))
            part = self.backquoted_subst(s) if isinstance(s, Backquoted) else self.special(s)
            parts.append(part)
            at = part.end
        if at < end:
            parts.append(self.lit(at, end, quoted, strip_tabs, at == start))
        return self.stray_params(_merge(parts)) if not quoted else _merge(parts)

    def with_backquoted(
        self, items: list[tuple[int, Node | Backquoted]], start: int, end: int
    ) -> list[tuple[int, Node | Backquoted]]:
        """``items`` with the backquoted substitutions in ``[start, end)`` that no special
        node holds (one that does, a string, finds them itself), in order."""
        spans = [b for b in self.backquoted.values() if start <= b.pos and b.end <= end]
        if not spans:
            return items
        held = [(s.start_byte, s.end_byte) for _, s in items if not isinstance(s, Backquoted)]
        free = [b for b in spans if not any(a <= b.pos and b.end <= z for a, z in held)]
        kept = [
            (at, s)
            for at, s in items
            if isinstance(s, Backquoted)
            or not any(b.pos <= s.start_byte and s.end_byte <= b.end for b in free)
        ]
        return sorted([*kept, *((b.pos, b) for b in free)], key=lambda item: item[0])

    def backquoted_subst(self, b: Backquoted) -> CmdSubst:
        """A backquoted substitution found by :mod:`hookrun.shellsyntax.backquotes`."""
        bq = _backquotes or _load_backquotes()
        body = bq.unescape(self.src[b.pos + 1 : b.end - 1], b.in_dquotes)
        try:
            stmts = bq.placed(self.reparse(body, b.pos + 1), self.src, b.pos + 1, body)
            return CmdSubst(b.pos, b.end, stmts, True)
        except ShellSyntaxError:
            # bash parses a backquoted body only when the substitution runs: a syntax
            # error there is that substitution's (printed, status 2), not the script's.
            # Read as `eval BODY`, which reports it when it runs.
            text = body.decode("utf-8", "surrogateescape")
            words = (
                Word(b.pos, b.end, (Lit(b.pos, b.end, "eval"),)),
                Word(b.pos, b.end, (SglQuoted(b.pos, b.end, text, False),)),
            )
            call = CallExpr(b.pos, b.end, (), words)
            return CmdSubst(b.pos, b.end, (Stmt(b.pos, b.end, call, (), False, False),), True)

    def stray_params(self, parts: tuple[WordPart, ...]) -> tuple[WordPart, ...]:
        """An unquoted ``$name`` the grammar left in literal text is an expansion (gap 13),
        as is a special parameter (``a$v$?x``, ``$v$$``: gap 39).

        Unquoted :class:`Lit` text is the raw source, so it is re-read from there.
        """
        for p in parts:
            if isinstance(p, Lit) and "$" in p.text:
                break
        else:
            return parts
        out: list[WordPart] = []
        for p in parts:
            if not (isinstance(p, Lit) and "$" in p.text):
                out.append(p)
                continue
            at = i = p.pos
            while i < p.end:
                c = self.src[i : i + 1]
                if c == b"\\":
                    i += 2
                    continue
                name = _VAR_NAME.match(self.src, i + 1, p.end) if c == b"$" else None
                if name is None:
                    i += 1
                    continue
                if i > at:
                    out.append(Lit(at, i, self.text(at, i)))
                found = name.group().decode()
                out.append(ParamExp(i, name.end(), found, True, None, False, False, "", "", ()))
                at = i = name.end()
            if at < p.end:
                out.append(Lit(at, p.end, self.text(at, p.end)))
        return tuple(out)

    def lit(self, start: int, end: int, quoted: str, strip_tabs: bool, first: bool) -> Lit:
        text = self.src[start:end].decode("utf-8", "surrogateescape")
        if strip_tabs:
            text = _strip_tabs(text, line_start=first or self.src[start - 1 : start] == b"\n")
        if quoted == "dq":
            if "\\" in text:
                text = cook_dquoted(text)
        elif quoted == "heredoc":
            text = cook_dquoted(text, heredoc=True)
        elif quoted == "arith":
            text = text.replace('"', "")  # quotes are removed in arithmetic text
        return _lit((start, end, text))

    def real_start(self, n: Node) -> int:
        """Where the node's own text starts: the grammar sometimes lets a simple
        expansion start at the blank before its ``$`` (``"$a $b"``)."""
        i: int = n.start_byte
        end: int = n.end_byte
        src = self.src
        while i < end and src[i] in _BLANK_BYTES:
            i += 1
        return i

    def special(self, n: Node) -> WordPart:
        t = n.type
        if t in ("string", "translated_string"):
            kids = n.children
            if kids and kids[0].type == '"':  # the usual string: its opening quote first
                open_end = kids[0].end_byte
            else:
                open_end = next((c.end_byte for c in kids if c.type == '"'), n.start_byte + 1)
            # (the closing quote's node may start at blanks before it, `" "`: its byte is
            # the string's last)
            close = n.end_byte - 1 if kids and kids[-1].type == '"' else n.end_byte
            inner = self.range_parts(kids, open_end, close, quoted="dq")
            return _dquoted((n.start_byte, n.end_byte, inner, t == "translated_string"))
        if t == "raw_string":
            return SglQuoted(
                n.start_byte, n.end_byte, self.text(n.start_byte + 1, n.end_byte - 1), False
            )
        if t == "ansi_c_string":
            body = self.text(n.start_byte + 2, n.end_byte - 1)
            return SglQuoted(n.start_byte, n.end_byte, ansi_c(body), True)
        if t == "simple_expansion":
            src = self.src
            start, end = n.start_byte, n.end_byte
            if start < end and src[start] in _BLANK_BYTES:
                start = self.real_start(n)
            name_end = _var_name_end(src, start + 1, end)
            if name_end >= 0:
                end = name_end
            name = src[start + 1 : end].decode("utf-8", "surrogateescape")
            if "\\" in name:  # `$\<newline>?` is `$?`: a line continuation is gone
                name = name.replace("\\\n", "")
            return _param((start, end, name, True, None, False, False, "", "", ()))
        if t == "expansion":
            return self.param_exp(n)
        if t == "ERROR" and _is_param_error(n):
            return self.bad_param(n)
        if t == "command_substitution" or t == "ERROR":
            text = self.src[n.start_byte : n.end_byte]
            if text.startswith(b"$((") and text.endswith(b"))"):  # gap 9
                return ArithExp(
                    n.start_byte, n.end_byte, self.arith_word(n.start_byte + 3, n.end_byte - 2)
                )
            return self.cmd_subst(n)
        if t == "arithmetic_expansion":
            first = n.children[0].type if n.children else "$(("
            if first == "$[" and self.src.startswith(b"$((", n.start_byte):  # `$(())`, gap 39
                return ArithExp(
                    n.start_byte, n.end_byte, self.arith_word(n.end_byte - 2, n.end_byte - 2)
                )
            closer = "]" if first == "$[" else "))"
            return ArithExp(n.start_byte, n.end_byte, self.arith_between(n, first, closer))
        if t == "process_substitution":
            op = n.children[0].type if n.children else "<("
            return ProcSubst(n.start_byte, n.end_byte, op, self.stmts(n.children[1:-1]))
        raise self.unsupported(t, n)  # pragma: no cover - _SPECIAL lists what is handled

    def arith_between(self, n: Node, opener: str, closer: str) -> Word:
        kids = list(n.children)
        start = next((c.end_byte for c in kids if c.type == opener), n.start_byte + len(opener))
        end = next(
            (c.start_byte for c in reversed(kids) if c.type == closer), n.end_byte - len(closer)
        )
        return self.arith_word(start, end)

    def arith_word(self, start: int, end: int) -> Word:
        # The grammar's arithmetic tree is not used (it misreads nested $((…)) as a
        # command substitution): the text is evaluated by hookrun's arithmetic, after
        # the expansions in it are found (gap 9).
        return Word(start, end, self.heredoc_parts(start, end, False, mode="arith"))

    def cmd_subst(self, n: Node) -> CmdSubst:
        kids = list(n.children)
        backquote = bool(kids) and kids[0].type == "`"
        inner = kids[1:-1] if len(kids) >= 2 else []
        if backquote:
            # Only where backquotes.prepare did not see the text (an operand re-read):
            # the body is parsed as bash parses it, from the user's text.
            start = kids[0].end_byte
            end = kids[-1].start_byte if len(kids) >= 2 else n.end_byte
            bq = _backquotes or _load_backquotes()
            body = bq.unescape(self.src[start:end], False)
            stmts = bq.placed(self.reparse(body, start), self.src, start, body)
            return CmdSubst(n.start_byte, n.end_byte, stmts, True)
        return CmdSubst(n.start_byte, n.end_byte, self.stmts(inner), backquote)

    def operand_parts(self, kids: Sequence[Node], a: int, b: int) -> tuple[WordPart, ...]:
        """The parts of a ``${x<op>…}`` operand (gap 12): the grammar leaves quotes and
        backquotes in a pattern operand (``${x#*'"'}``) as one plain leaf, so such a
        region is parsed again on its own, as a word at the same offsets."""
        parts = self.range_parts(kids, a, b)
        if not _quoting_left(parts) or a < 1 or self.reparse_tree is None:
            return parts
        synthetic = b" " * (a - 1) + b"x" + self.src[a:b]
        tree = self.reparse_tree(synthetic)
        root = tree.root_node
        if root.has_error:
            return self.backquotes_in(parts)
        conv = Converter(synthetic, self.reparse, self.depth, self.reparse_tree)
        reread = conv.range_parts(root.children, a, b)
        del tree
        return reread

    def regex_parts(self, n: Node) -> tuple[WordPart, ...] | None:
        """Gap 36: the parts of a ``regex`` leaf that holds an expansion, parsed again on
        its own as a word at the same offsets; None to read the leaf as it is."""
        a, b = n.start_byte, n.end_byte
        masked = gaps.regex_as_word(self.src[a:b])  # (the user's text: gap 39 masks it)
        if masked is None or a < 1 or self.reparse_tree is None:
            return None
        tree = self.reparse_tree(b" " * (a - 1) + b"x" + masked)
        root = tree.root_node
        if root.has_error:
            return None
        parts = self.range_parts(root.children, a, b)
        del tree
        return parts

    def backquotes_in(self, parts: tuple[WordPart, ...]) -> tuple[WordPart, ...]:
        """Gap 12: inside ``${x:-…}`` the grammar leaves backquotes as literal text."""
        if not any(isinstance(p, Lit) and "`" in p.text for p in parts):
            return parts
        out: list[WordPart] = []
        for p in parts:
            if isinstance(p, Lit) and "`" in p.text and p.end - p.pos == len(p.text.encode()):
                out.extend(self.heredoc_parts(p.pos, p.end, False, mode=""))
            else:
                out.append(p)
        return _merge(out)

    def param_separators(self, op: str, start: int, close: int, kids: Sequence[Node]) -> list[int]:
        """Where ``${x/pat/rep}`` and ``${x:off:len}`` split: the first unescaped ``/``
        (``:``) outside quotes and nested expansions (the grammar's own split misses
        ``\\/``)."""
        if not (op.startswith("/") or op == ":"):
            return []
        sep = b"/" if op.startswith("/") else b":"
        nested: list[Node] = []
        _collect_specials(kids, start, close, nested)
        i = start
        if (op == "/" or op == "//") and self.src[i : i + 1] == b"/":
            # As bash: a pattern's first character is never the separator (`${x////_}`
            # replaces every "/", `${x///}` deletes them).
            i += 1
        while i < close:
            c = self.src[i : i + 1]
            if c == b"\\":
                i += 2
                continue
            if c == b"'" and sep == b"/":  # `${x//'/'/_}` (gap 46: no node holds it)
                close_quote = self.src.find(b"'", i + 1, close)
                if close_quote > 0:
                    i = close_quote + 1
                    continue
            inside = next((n for n in nested if n.start_byte <= i < n.end_byte), None)
            if inside is not None:
                i = inside.end_byte
                continue
            if c == sep:
                return [i]
            i += 1
        return []

    def bad_param(self, n: Node) -> ParamExp:
        """A ``${…}`` bash would refuse when it runs ("bad substitution"): ``op`` is
        "!bad" and ``name`` the text as written."""
        return ParamExp(
            n.start_byte, n.end_byte, self.ntext(n), False, None, False, False, "", "!bad", ()
        )

    def param_exp(self, n: Node) -> ParamExp:
        children = n.children
        kids: list[Node] = []
        types: list[str] = []  # each child's type read once (a call into the binding)
        t = ""
        for c in children:
            t = c.type
            if t != "${" and t != "}":
                kids.append(c)
                types.append(t)
        close = children[-1].start_byte if t == "}" else n.end_byte
        length = indirect = False
        name = ""
        index: Word | None = None
        i = 0
        if types and types[0] in ("#", "!") and len(kids) > 1:
            length, indirect = types[0] == "#", types[0] == "!"
            i = 1
        if i < len(kids) and types[i] in (
            "variable_name",
            "special_variable_name",
            "subscript",
            "number",
            "word",
        ):
            node = kids[i]
            if types[i] == "subscript":
                base = node.child_by_field_name("name")
                idx = node.child_by_field_name("index")
                name = self.ntext(base) if base is not None else ""
                if idx is not None:
                    index = Word(
                        idx.start_byte,
                        idx.end_byte,
                        self.range_parts([idx], idx.start_byte, idx.end_byte),
                    )
                else:
                    lb = next(c for c in node.children if c.type == "[")
                    rb = next(c for c in node.children if c.type == "]")
                    index = self.word_span(lb.end_byte, rb.start_byte, list(node.children))
            else:
                name = self.ntext(node)
            i += 1
        elif i == 0 and types and types[0] in ("#", "!", "@", "*", "?", "-", "$", "0"):
            name = types[0]
            i = 1
        elif indirect and types[1] == "#":  # `${!#}`: the last positional parameter
            name = "#"
            i = 2
        if not name or (indirect and not _VAR_NAME.fullmatch(name.encode())):
            return self.bad_param(n)
        rest = kids[i:]
        if indirect and len(rest) == 1 and types[i] in ("*", "@"):  # (anonymous tokens)
            return ParamExp(
                n.start_byte, n.end_byte, name, False, index, False, False, types[i], "", ()
            )
        if not rest:
            return _param(
                (n.start_byte, n.end_byte, name, False, index, length, indirect, "", "", ())
            )
        op_node = rest[0]
        op = types[i]
        if op not in _PARAM_OPS:  # (all anonymous tokens: no named node is an operator)
            return self.bad_param(n)
        if op in _TOGGLES and self.src[op_node.start_byte] == 0x7E:  # `~`: gap 40
            op = _TOGGLES[op]
        seps = self.param_separators(op, op_node.end_byte, close, rest[1:])
        bounds: list[tuple[int, int]] = []
        at = op_node.end_byte
        for sep in seps:
            bounds.append((at, sep))
            at = sep + 1
        bounds.append((at, close))
        operands = rest[1:]
        args = tuple([_word((a, b, self.operand_parts(operands, a, b))) for a, b in bounds])
        if op not in ("/", "//", "/#", "/%", ":", "@") and len(args) == 1 and not args[0].parts:
            args = (Word(close, close, ()),)
        return ParamExp(
            n.start_byte, n.end_byte, name, False, index, length, indirect, "", op, args
        )


def _quoting_left(parts: Sequence[WordPart]) -> bool:
    """Whether a literal part holds a quote, a backquote or a ``$`` (gap 12)."""
    for p in parts:
        if isinstance(p, Lit):
            text = p.text
            if "'" in text or '"' in text or "`" in text or "$" in text:
                return True
    return False


def _is_param_error(n: Node) -> bool:
    """An ERROR the grammar made of a ``${…}`` it could not read (gap 11)."""
    if n.type != "ERROR":
        return False
    text = n.text or b""
    return text.startswith(b"${") and text.endswith(b"}") and text.find(b"\n") < 0


def _is_arith_error(n: Node) -> bool:
    """An ERROR the grammar made of a ``$((…))`` it could not read (gap 9)."""
    return bool(
        n.type == "ERROR"
        and n.children
        and n.children[0].type == "$(("
        and (n.text or b"").endswith(b"))")
    )


def _assignment_only(s: Stmt) -> bool:
    return isinstance(s.cmd, CallExpr) and bool(s.cmd.assigns) and not s.cmd.args


def _is_list(s: Stmt) -> bool:
    return isinstance(s.cmd, BinaryCmd) and not s.negated and not s.redirects


def _join_leftmost(s: Stmt, assign: Stmt) -> Stmt | None:
    """``s`` with ``assign`` (an assignment-only command) taking the redirections-only
    command at its far left (gap 32), or None when there is none there."""
    cmd = s.cmd
    if cmd is None:
        return assign._replace(redirects=assign.redirects + s.redirects, end=s.end)
    if s.negated or s.redirects:
        return None
    if isinstance(cmd, BinaryCmd):
        left = _join_leftmost(cmd.left, assign)
        if left is None:
            return None
        return s._replace(pos=assign.pos, cmd=cmd._replace(pos=assign.pos, left=left))
    if isinstance(cmd, Pipeline):
        first = _join_leftmost(cmd.stages[0], assign)
        if first is None:
            return None
        stages = (first, *cmd.stages[1:])
        return s._replace(pos=assign.pos, cmd=cmd._replace(pos=assign.pos, stages=stages))
    return None


def _piped(stages: list[Stmt], joins: list[bool], pos: int, end: int) -> Stmt:
    """The pipeline of ``stages``, where a stage after the first may be an and-or list."""
    if all(isinstance(s.cmd, CallExpr) or not _is_list(s) for s in stages[1:]) and not (
        stages[0].negated and len(stages) > 1
    ):
        pipe = Pipeline(pos, end, tuple(stages), tuple(joins))
        return Stmt(pos, end, pipe, (), False, False)
    # Gap 6: `! a | b && c` comes out as (!a) | (b && c); rebuild ((! a|b) && c).
    first = stages[0]
    negated = first.negated
    acc = first._replace(negated=False)
    for join, stage in zip(joins, stages[1:], strict=True):
        acc = _splice_pipe(acc, stage, join, stage.end)
    return _negate_leftmost(acc) if negated else acc


def _from_left(stages: list[Stmt], ops: list[str]) -> Stmt:
    """The and-or list of pipelines ``stages`` joined by ``ops``, grouped from the left."""
    acc = stages[0]
    for op, stage in zip(ops, stages[1:], strict=True):
        acc = Stmt(
            acc.pos, stage.end, BinaryCmd(acc.pos, stage.end, op, acc, stage), (), False, False
        )
    return acc


def _join_across(prev: Stmt, s: Stmt) -> Stmt | None:
    """``prev`` (a list or pipeline whose last command is an assignment only) and ``s``
    (whose first command is redirections only) as the one list they are (gap 32), or
    None when they are not that."""
    if prev.background or prev.redirects or s.negated:
        return None
    ops: list[str] = []
    stages: list[Stmt] = []
    _and_or_parts(prev, ops, stages)
    more_ops: list[str] = []
    more: list[Stmt] = []
    _and_or_parts(s, more_ops, more)
    last, first = stages[-1], more[0]
    tail = _pipe_stages(last)
    head = _pipe_stages(first)
    if tail is None or head is None or first.negated:
        return None
    (before, before_err), (after, after_err) = tail, head
    assign, redirects = before[-1], after[0]
    negated = last.negated if len(before) == 1 else False
    if redirects.cmd is not None or not _assignment_only(assign._replace(negated=False)):
        return None
    assign = Stmt(assign.pos, redirects.end, assign.cmd, redirects.redirects, False, False)
    joined = (*before[:-1], assign, *after[1:])
    if len(joined) == 1:
        pipe = assign._replace(negated=negated)
    else:
        cmd = Pipeline(joined[0].pos, joined[-1].end, joined, before_err + after_err)
        pipe = Stmt(cmd.pos, cmd.end, cmd, (), last.negated, False)
    joined_list = _from_left([*stages[:-1], pipe, *more[1:]], ops + more_ops)
    return joined_list._replace(pos=prev.pos, end=s.end, background=s.background)


def _pipe_stages(s: Stmt) -> tuple[tuple[Stmt, ...], tuple[bool, ...]] | None:
    """The stages of pipeline ``s`` (one: a command alone), or None when it has redirections."""
    if isinstance(s.cmd, Pipeline):
        return None if s.redirects else (s.cmd.stages, s.cmd.stderr)
    return (s,), ()


def _left_associated(left: Stmt, op: str, right: Stmt, pos: int, end: int) -> BinaryCmd:
    """``left op right`` where ``right`` is itself an and-or list, rebuilt as bash reads
    it: ``&&`` and ``||`` are of equal precedence and group from the left (gap 33)."""
    ops = [op]
    stages: list[Stmt] = []
    _and_or_parts(right, ops, stages)
    acc = _from_left([left, *stages[:-1]], ops[:-1])
    return BinaryCmd(pos, end, ops[-1], acc, stages[-1])


def _and_or_parts(s: Stmt, ops: list[str], stages: list[Stmt]) -> None:
    """The pipelines of and-or list ``s`` (to ``stages``) and the operators between them."""
    if _is_list(s):
        assert isinstance(s.cmd, BinaryCmd)
        _and_or_parts(s.cmd.left, ops, stages)
        ops.append(s.cmd.op)
        _and_or_parts(s.cmd.right, ops, stages)
    else:
        stages.append(s)


def _negate_leftmost(s: Stmt) -> Stmt:
    """Negate the pipeline at the far left of an and-or list (where ``!`` was written)."""
    if _is_list(s):
        assert isinstance(s.cmd, BinaryCmd)
        left = _negate_leftmost(s.cmd.left)
        return s._replace(cmd=s.cmd._replace(left=left))
    return s._replace(negated=not s.negated)


def _collect_specials(nodes: Iterable[Node], start: int, end: int, out: list[Node]) -> None:
    for n in nodes:
        n_start, n_end = n.start_byte, n.end_byte
        if n_end <= start or n_start >= end:
            continue
        t = n.type
        if (
            (t in _SPECIAL or (t == "ERROR" and (_is_arith_error(n) or _is_param_error(n))))
            and n_start >= start
            and n_end <= end
        ):
            out.append(n)
        elif n.child_count:
            _collect_specials(n.children, start, end, out)


def _merge(parts: Sequence[WordPart]) -> tuple[WordPart, ...]:
    if len(parts) < 2:  # nothing to merge (most words)
        return tuple(parts)
    out: list[WordPart] = []
    for p in parts:
        last = out[-1] if out else None
        if (
            isinstance(p, DblQuoted)
            and isinstance(last, Lit)
            and last.end == p.pos
            and last.text.endswith("$")
            and not last.text.endswith("\\$")
        ):  # $"…" (a translated string) comes out as a lone `$` and a string
            prev = out.pop()
            assert isinstance(prev, Lit)
            if len(prev.text) > 1:
                out.append(Lit(prev.pos, prev.end - 1, prev.text[:-1]))
            p = DblQuoted(prev.end - 1, p.end, p.parts, True)
        if isinstance(p, Lit) and out and isinstance(out[-1], Lit) and out[-1].end == p.pos:
            prev = out[-1]
            out[-1] = Lit(prev.pos, p.end, prev.text + p.text)
        else:
            out.append(p)
    return tuple(out)


def _splice_pipe(s: Stmt, rest: Stmt, stderr: bool, end: int) -> Stmt:
    """``s | rest`` where ``rest`` may itself be an and-or list (``s | a && b``)."""
    cmd = rest.cmd
    if isinstance(cmd, BinaryCmd) and not rest.negated and not rest.redirects:
        left = _splice_pipe(s, cmd.left, stderr, cmd.left.end)
        return Stmt(s.pos, end, BinaryCmd(s.pos, end, cmd.op, left, cmd.right), (), False, False)
    if isinstance(cmd, Pipeline) and not rest.negated and not rest.redirects:
        pipe = Pipeline(s.pos, end, (s, *cmd.stages), (stderr, *cmd.stderr))
    else:
        pipe = Pipeline(s.pos, end, (s, rest), (stderr,))
    return Stmt(s.pos, end, pipe, (), False, False)


_ATOM_CONTAINERS = frozenset(
    {"binary_expression", "unary_expression", "parenthesized_expression", "test_command"}
)
# In [[ ]] these are operators even when written against a word: `[[ ($a) ]]`.
_COND_OPS = frozenset({"(", ")", "&&", "||", "<", ">"})  # bash: always tokens of their own


def _atoms(n: Node, bracket: str) -> list[Node]:
    """The leaves of a ``[ … ]``/``[[ … ]]`` expression as written (operators, operands)."""
    out: list[Node] = []
    _add_atoms(n, bracket, out)
    return out


def _add_atoms(n: Node, bracket: str, out: list[Node]) -> None:
    kids = n.children
    last = len(kids) - 1
    trim = bracket == "[[" and n.type == "test_command"  # (its brackets are no atoms)
    closer = "]]" if bracket == "[[" else "]"
    for k, c in enumerate(kids):
        t = c.type
        if trim and ((k == 0 and t == bracket) or (k == last and t == closer)):
            continue
        if t in _ATOM_CONTAINERS or (t == "ERROR" and c.child_count):
            _add_atoms(c, bracket, out)
        elif t != "comment" and not c.is_missing and c.end_byte > c.start_byte:
            out.append(c)


def _adjacent_groups(
    nodes: Sequence[Node], alone: frozenset[str] = frozenset()
) -> list[list[Node]]:
    """``nodes`` in runs of adjacent ones (a node of a type in ``alone`` is a run)."""
    groups: list[list[Node]] = []
    prev_end = -1
    prev_alone = True  # the node before stands alone (there is none)
    for n in nodes:
        is_alone = bool(alone) and n.type in alone
        if not is_alone and not prev_alone and prev_end == n.start_byte:
            groups[-1].append(n)
        else:
            groups.append([n])
        prev_end, prev_alone = n.end_byte, is_alone
    return groups


def _redirect_last(s: Stmt, redirects: tuple[Redirect, ...]) -> Stmt:
    """``s`` with ``redirects`` added to its last command (of a pipeline or a list)."""
    end = redirects[-1].end
    if isinstance(s.cmd, Pipeline) and not s.redirects:
        *first, last = s.cmd.stages
        pipe = s.cmd._replace(stages=(*first, _redirect_last(last, redirects)), end=end)
        return s._replace(cmd=pipe, end=end)
    if isinstance(s.cmd, BinaryCmd) and not s.redirects:
        binary = s.cmd._replace(right=_redirect_last(s.cmd.right, redirects), end=end)
        return s._replace(cmd=binary, end=end)
    return s._replace(redirects=s.redirects + redirects, end=max(s.end, end))


def _fd_from_word(r: Redirect) -> Redirect:
    """A descriptor the grammar left as a word before the redirect (gap 3): the
    redirection starts at its digits, as where the grammar reads them (``3<f``)."""
    if r.fd_var.isdigit():
        return r._replace(pos=r.pos - len(r.fd_var), fd=int(r.fd_var), fd_var="")
    return r


def _redirect_target(src: bytes, dests: Sequence[Node]) -> list[Node]:
    """The nodes of a redirection's target word: the grammar also puts the words that
    follow it (``>f b c``, arguments in bash) in the redirection."""
    groups = gaps.join_continued(src, dests)
    return groups[0] if groups else []


def _with_redirect_args(src: bytes, words: list[Node], redirects: Sequence[Node]) -> list[Node]:
    """The command's words with the arguments the grammar put in its redirections."""
    extra: list[Node] = []
    for r in gaps.fix_redirects(redirects):
        closes = False  # `>&-`: no target of its own
        if isinstance(r, gaps.Patched):
            dests = r.targets
        elif r.type == "file_redirect":
            dests = [c for c in r.children if c.is_named and c.type != "file_descriptor"]
            closes = any(c.type in (">&-", "<&-") for c in r.children)
        else:
            continue
        for group in gaps.join_continued(src, dests)[0 if closes else 1 :]:
            extra.extend(group)
    if not extra:
        return words
    return sorted([*words, *extra], key=lambda w: int(w.start_byte))


def _unquote_delimiter(raw: str) -> str:
    out: list[str] = []
    i, n = 0, len(raw)
    quote = ""
    while i < n:
        c = raw[i]
        if quote:
            if c == quote:
                quote = ""
            else:
                out.append(c)
        elif c in "'\"":
            quote = c
        elif c == "\\" and i + 1 < n:
            i += 1
            out.append(raw[i])
        else:
            out.append(c)
        i += 1
    return "".join(out)


def _strip_tabs(text: str, *, line_start: bool = True) -> str:
    lines = text.split("\n")
    return "\n".join(
        line.lstrip("\t") if (k > 0 or line_start) else line for k, line in enumerate(lines)
    )
