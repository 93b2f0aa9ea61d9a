"""A compact text form of the typed tree, so test tables stay readable."""

from __future__ import annotations

from hookrun.shellsyntax import nodes as n


def word(w: n.Word) -> str:
    return "".join(part(p) for p in w.parts)


def part(p: n.WordPart) -> str:
    if isinstance(p, n.Lit):
        return p.text
    if isinstance(p, n.SglQuoted):
        return f"S{p.value!r}"
    if isinstance(p, n.DblQuoted):
        return 'D"' + "".join(part(q) for q in p.parts) + '"'
    if isinstance(p, n.ParamExp):
        flags = ("#" if p.length else "") + ("!" if p.indirect else "")
        key = f"[{word(p.key)}]" if p.key is not None else ""
        args = ",".join(word(a) for a in p.args)
        op = f"{p.op}({args})" if p.op else ""
        return f"${{{flags}{p.name}{key}{p.prefix}{op}}}"
    if isinstance(p, n.CmdSubst):
        return "$(" + stmts(p.stmts) + ")"
    if isinstance(p, n.ArithExp):
        return "$((" + word(p.expr) + "))"
    return f"<({stmts(p.stmts)})"


def test(e: n.TestExpr) -> str:
    if isinstance(e, n.Word):
        return word(e)
    if isinstance(e, n.TestUnary):
        return f"({e.op} {test(e.operand)})"
    if isinstance(e, n.TestBinary):
        return f"({test(e.left)} {e.op} {test(e.right)})"
    return f"[{test(e.expr)}]"


def redirect(r: n.Redirect) -> str:
    fd = "" if r.fd is None else str(r.fd)
    fd = f"{{{r.fd_var}}}" if r.fd_var else fd
    doc = f"[{word(r.heredoc.body)!r}]" if r.heredoc is not None else ""
    return f"{fd}{r.op}{word(r.target)}{doc}"


def assign(a: n.Assign) -> str:
    key = f"[{word(a.key)}]" if a.key is not None else ""
    eq = "+=" if a.append else "="
    if a.array is not None:
        elems = " ".join((f"[{word(e.key)}]=" if e.key else "") + word(e.value) for e in a.array)
        return f"{a.name}{key}{eq}({elems})"
    return f"{a.name}{key}{eq}{word(a.value) if a.value is not None else ''}"


def command(c: n.Command | None) -> str:
    if c is None:
        return "(redirects)"
    if isinstance(c, n.CallExpr):
        items = [assign(a) for a in c.assigns] + [
            assign(w) if isinstance(w, n.Assign) else word(w) for w in c.args
        ]
        return "call(" + " ".join(items) + ")"
    if isinstance(c, n.Block):
        return "{" + stmts(c.stmts) + "}"
    if isinstance(c, n.Subshell):
        return "sub(" + stmts(c.stmts) + ")"
    if isinstance(c, n.IfClause):
        arms = " ".join(f"[{stmts(a)}]->[{stmts(b)}]" for a, b in c.branches)
        return f"if({arms}" + (f" else [{stmts(c.else_)}]" if c.else_ is not None else "") + ")"
    if isinstance(c, n.WhileClause):
        return f"{'until' if c.until else 'while'}([{stmts(c.cond)}] [{stmts(c.body)}])"
    if isinstance(c, n.ForClause):
        ws = "$@" if c.words is None else " ".join(word(w) for w in c.words)
        return f"for({c.name} in {ws} [{stmts(c.body)}])"
    if isinstance(c, n.CForClause):
        parts = [word(e) if e is not None else "" for e in (c.init, c.cond, c.post)]
        return f"cfor({';'.join(parts)} [{stmts(c.body)}])"
    if isinstance(c, n.CaseClause):
        items = " ".join(
            "|".join(word(p) for p in i.patterns) + f"->[{stmts(i.body)}]{i.term}" for i in c.items
        )
        return f"case({word(c.word)} {items})"
    if isinstance(c, n.FuncDecl):
        return f"func({c.name} {stmt(c.body)})"
    if isinstance(c, n.ArithCmd):
        return f"(({word(c.expr)}))"
    if isinstance(c, n.TestClause):
        return f"[[{test(c.expr)}]]"
    if isinstance(c, n.BinaryCmd):
        return f"({stmt(c.left)} {c.op} {stmt(c.right)})"
    joins = ["|&" if e else "|" for e in c.stderr]
    out = stmt(c.stages[0])
    for j, s in zip(joins, c.stages[1:], strict=False):
        out += f" {j} {stmt(s)}"
    return f"pipe({out})"


def stmt(s: n.Stmt) -> str:
    out = ("!" if s.negated else "") + command(s.cmd)
    if s.redirects:
        out += " " + " ".join(redirect(r) for r in s.redirects)
    return out + (" &" if s.background else "")


def stmts(ss: tuple[n.Stmt, ...]) -> str:
    return "; ".join(stmt(s) for s in ss)
