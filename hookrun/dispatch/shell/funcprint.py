"""A function's definition printed back as bash prints it (``declare -f f``, ``type f``).

bash does not echo the text it read: it prints the parsed command again in its own
layout (print_cmd.c) — four-space indents, ``;`` after each command of a compound
command's body, ``elif`` as a nested ``if`` under ``else``, ``>&2`` as ``1>&2``, ``|&``
as ``2>&1 |``. Words, assignments and arithmetic keep the text as written. Scripts read
this back (``eval "$(declare -f f)"``, ``ssh host "$(declare -f f); f"``) and tests
compare it byte for byte, so the layout follows bash's exactly, case by case.

Loaded on first use only (``declare -f``, ``type`` of a function).
"""

from __future__ import annotations

from hookrun.shellsyntax import nodes as N
from hookrun.shellsyntax.nodes import Stmt

_INDENT = "    "


def definition(name: str, body: Stmt, source: bytes) -> str:
    """``name () { …; }`` as bash lists it, without the final newline."""
    return _Printer(source).function(name, body, 0, nested=False)


def command_text(source: bytes, stmt: Stmt | None) -> str:
    """``BASH_COMMAND`` for ``stmt``: a simple command as bash prints it (a pipeline's
    last command, the right side of ``&&``/``||``), here-document bodies included."""
    if stmt is None:
        return ""
    cmd = stmt.cmd
    while isinstance(cmd, (N.Pipeline, N.BinaryCmd)):
        stmt = cmd.stages[-1] if isinstance(cmd, N.Pipeline) else cmd.right
        cmd = stmt.cmd
    stmt = stmt._replace(negated=False, background=False)
    try:
        text, heredoc = _Printer(source).stmt(stmt, 0)
    except Exception:  # a construct with no layout here: the text as written
        return source[stmt.pos : stmt.end].decode("utf-8", "surrogateescape")
    return text + heredoc


def job_text(source: bytes, stmt: Stmt) -> str:
    """A background job's command as ``jobs`` prints it (without the ``&``)."""
    try:
        return _Printer(source).stmt(stmt._replace(background=False), 0)[0]
    except Exception:  # a construct with no layout here: the text as written
        return source[stmt.pos : stmt.end].decode("utf-8", "surrogateescape")


class _Printer:
    def __init__(self, source: bytes) -> None:
        self.src = source

    def text(self, node: N.Word | N.Assign) -> str:
        return self.src[node.pos : node.end].decode("utf-8", "surrogateescape")

    # -- lists -----------------------------------------------------------------
    def body(self, stmts: tuple[Stmt, ...], level: int) -> str:
        """A compound command's body: each command ends with ``;`` (bash's own layout)."""
        ind = _INDENT * level
        out = []
        for st in stmts:
            text, heredoc = self.stmt(st, level)
            out.append(text + (heredoc if heredoc else ";"))
        return ind + ("\n" + ind).join(out)

    def seq(self, stmts: tuple[Stmt, ...], level: int) -> str:
        """Commands joined as a list: ``;`` then a new line between them, none after the
        last; ``&`` keeps the next command on the same line."""
        ind = _INDENT * level
        out: list[str] = []
        for k, st in enumerate(stmts):
            text, heredoc = self.stmt(st, level)
            out.append(text)
            if k == len(stmts) - 1:
                out.append(heredoc)
            elif st.background:
                out.append(" ")
            elif heredoc:
                out.append(heredoc + "\n" + ind)
            else:
                out.append(";\n" + ind)
        return "".join(out)

    # -- one command -----------------------------------------------------------
    def stmt(self, st: Stmt, level: int) -> tuple[str, str]:
        """The command's text, and the here-document bodies that follow its line."""
        cmd = st.cmd
        text = "" if cmd is None else self.command(cmd, level)
        heredocs = []
        words = [text] if text else []
        for r in st.redirects:
            words.append(self.redirect(r))
            if r.heredoc is not None:
                heredocs.append(self.heredoc_body(r))
        text = " ".join(words)
        if st.negated:
            text = "! " + text
        if st.background:
            text += " &"
        return text, "".join("\n" + h for h in heredocs)

    def command(self, cmd: object, level: int) -> str:
        ind = _INDENT * level
        if isinstance(cmd, N.CallExpr):
            return " ".join(self.text(part) for part in (*cmd.assigns, *cmd.args))
        if isinstance(cmd, N.Pipeline):
            out = ""
            for k, stage in enumerate(cmd.stages):
                text, heredoc = self.stmt(stage, level)
                if k < len(cmd.stderr) and cmd.stderr[k]:
                    text += " 2>&1"
                if k == len(cmd.stages) - 1:
                    out += text + heredoc
                elif heredoc:  # bash: the body right after the `|`, the next stage below
                    out += f"{text} |{heredoc}  "
                else:
                    out += f"{text} | "
            return out
        if isinstance(cmd, N.BinaryCmd):
            left = self.stmt(cmd.left, level)[0]
            return f"{left} {cmd.op} {self.stmt(cmd.right, level)[0]}"
        if isinstance(cmd, N.Block):
            return "{ \n" + self.indented_seq(cmd.stmts, level + 1) + "\n" + ind + "}"
        if isinstance(cmd, N.Subshell):
            return "( " + self.seq(cmd.stmts, level) + " )"
        if isinstance(cmd, N.IfClause):
            return self.if_clause(cmd.branches, cmd.else_, level)
        if isinstance(cmd, N.WhileClause):
            word = "until" if cmd.until else "while"
            return (
                f"{word} {self.seq(cmd.cond, level)}; do\n"
                + self.body(cmd.body, level + 1)
                + f"\n{ind}done"
            )
        if isinstance(cmd, N.ForClause):
            words = '"$@"' if cmd.words is None else " ".join(self.text(w) for w in cmd.words)
            return (
                f"for {cmd.name} in {words};\n{ind}do\n"
                + self.body(cmd.body, level + 1)
                + f"\n{ind}done"
            )
        if isinstance(cmd, N.CForClause):
            parts = "; ".join(
                "" if w is None else self.text(w).strip() for w in (cmd.init, cmd.cond, cmd.post)
            )
            return f"for (({parts}))\n{ind}do\n" + self.body(cmd.body, level + 1) + f"\n{ind}done"
        if isinstance(cmd, N.CaseClause):
            return self.case(cmd, level)
        if isinstance(cmd, N.TestClause):
            return f"[[ {self.test(cmd.expr)} ]]"
        if isinstance(cmd, N.ArithCmd):
            return f"(( {self.text(cmd.expr).strip()} ))"
        if isinstance(cmd, N.FuncDecl):
            return self.function(cmd.name, cmd.body, level, nested=True)
        raise _Unprintable(type(cmd).__name__)

    def indented_seq(self, stmts: tuple[Stmt, ...], level: int) -> str:
        return _INDENT * level + self.seq(stmts, level)

    def function(self, name: str, body: Stmt, level: int, *, nested: bool) -> str:
        ind = _INDENT * level
        head = f"function {name} () \n" if nested else f"{name} () \n"
        if isinstance(body.cmd, N.Block) and not body.redirects:
            inner = self.indented_seq(body.cmd.stmts, level + 1)
        else:
            inner = _INDENT * (level + 1) + self.seq((body,), level + 1)
        return head + ind + "{ \n" + inner + "\n" + ind + "}"

    def if_clause(
        self,
        branches: tuple[tuple[tuple[Stmt, ...], tuple[Stmt, ...]], ...],
        else_: tuple[Stmt, ...] | None,
        level: int,
    ) -> str:
        ind = _INDENT * level
        (cond, then), rest = branches[0], branches[1:]
        out = f"if {self.seq(cond, level)}; then\n" + self.body(then, level + 1) + "\n"
        if rest:  # elif: an if of its own under else
            nested = self.if_clause(rest, else_, level + 1)
            out += f"{ind}else\n{_INDENT * (level + 1)}{nested};\n"
        elif else_ is not None:
            out += f"{ind}else\n" + self.body(else_, level + 1) + "\n"
        return out + f"{ind}fi"

    def case(self, cmd: N.CaseClause, level: int) -> str:
        ind = _INDENT * level
        out = f"case {self.text(cmd.word)} in \n"
        for item in cmd.items:
            patterns = " | ".join(self.text(p) for p in item.patterns)
            body = self.indented_seq(item.body, level + 2) if item.body else ""
            out += f"{ind}{_INDENT}{patterns})\n{body}\n{ind}{_INDENT}{item.term}\n"
        return out + f"{ind}esac"

    def test(self, expr: object) -> str:
        if isinstance(expr, N.Word):
            return self.text(expr)
        if isinstance(expr, N.TestBinary):
            return f"{self.test(expr.left)} {expr.op} {self.test(expr.right)}"
        if isinstance(expr, N.TestUnary):
            return f"{expr.op} {self.test(expr.operand)}"
        if isinstance(expr, N.TestParen):
            return f"( {self.test(expr.expr)} )"
        raise _Unprintable(type(expr).__name__)

    def redirect(self, r: N.Redirect) -> str:
        fd = f"{{{r.fd_var}}}" if r.fd_var else ("" if r.fd is None else str(r.fd))
        target = self.text(r.target)
        if r.op in (">&", "<&"):
            return f"{fd or ('1' if r.op == '>&' else '0')}{r.op}{target}"
        if r.heredoc is not None:
            return f"{fd}{r.op}{target}"
        return f"{fd}{r.op} {target}"

    def heredoc_body(self, r: N.Redirect) -> str:
        doc = r.heredoc
        assert doc is not None
        body = self.src[doc.body.pos : doc.body.end].decode("utf-8", "surrogateescape")
        if doc.strip_tabs:
            body = "".join(line.lstrip("\t") for line in body.splitlines(keepends=True))
        if body and not body.endswith("\n"):
            body += "\n"
        delimiter = "".join(c for c in self.text(r.target) if c not in "'\"\\")
        return body + delimiter + "\n"


class _Unprintable(Exception):
    """A node this printer has no layout for (the caller prints the source instead)."""


def definition_or_source(name: str, body: Stmt, source: bytes) -> str:
    """:func:`definition`; for a construct it has no layout for, the text as written."""
    try:
        return definition(name, body, source)
    except Exception:  # _Unprintable, or a tree this printer misreads: never an error
        text = source[body.pos : body.end].decode("utf-8", "surrogateescape")
        return f"{name} () \n{text}"
