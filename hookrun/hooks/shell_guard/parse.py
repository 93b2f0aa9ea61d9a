"""Command line → :class:`Script`: the shared shell front end, the fallback tokenizer if it fails.

The walk flattens lists, pipelines, subshells, compound commands, function
bodies and command/process substitutions into one ordered tuple of simple
commands, keeping for each what a rule needs: its words (re-read by
:mod:`words`), redirects, heredoc text, the ``cd`` steps before it, and which
pipeline stage feeds it. Results are cached per string: agents repeat commands.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache
from typing import Any

from hookrun.hooks.shell_guard import fallback
from hookrun.hooks.shell_guard.heredoc import body_of, strip_heredocs
from hookrun.hooks.shell_guard.model import Command, Redirect, Script, Stdin, Var, Word
from hookrun.hooks.shell_guard.printed import printed
from hookrun.hooks.shell_guard.words import expand_word, match_paren, skip_double
from hookrun.shellsyntax.errors import ShellSyntaxError, Unsupported

# Substitutions inside substitutions inside …: past this depth the line is an
# evasion attempt, and the policy says so instead of recursing further.
MAX_DEPTH = 12

_RESERVED = frozenset(
    [
        "if",
        "then",
        "else",
        "elif",
        "fi",
        "for",
        "while",
        "until",
        "do",
        "done",
        "case",
        "esac",
        "select",
        "function",
        "time",
        "!",
        "[[",
        "]]",
    ]
)
_PWD = re.compile(r"\s*pwd(\s+-[LP])?\s*")
_ECHO = re.compile(r"\s*(echo|printf)\s+([^;&|<>()`$\n]*)")


class TooDeep(Exception):
    """Substitutions or shells nested past :data:`MAX_DEPTH`: refuse to judge."""


@lru_cache(maxsize=2048)
def parse_script(text: str, depth: int = 0, bodies: tuple[str, ...] = ()) -> Script:
    """Every simple command of ``text`` (cached; the Script is immutable).

    ``bodies`` are heredoc bodies taken out of an enclosing line whose
    placeholders appear in ``text`` (a ``$(cat <<EOF …)`` substitution).
    """
    if depth > MAX_DEPTH:
        raise TooDeep(text)
    stripped = strip_heredocs(text, bodies)
    if is_plain(stripped.text):
        # Plain words and list/pipe operators have exactly one reading: split them
        # directly (no tree-sitter import on the hot path of plain commands).
        return replace(fallback.parse(stripped.text, stripped.bodies, depth), parsed=True)
    try:
        return parse_with_tree(stripped.text, stripped.bodies, depth)
    except TooDeep:
        raise
    except (ShellSyntaxError, Unsupported):
        return fallback.parse(stripped.text, stripped.bodies, depth)


def parse_with_tree(text: str, bodies: tuple[str, ...], depth: int) -> Script:
    """The shared front end's tree of a heredoc-stripped line, flattened.

    Raises :class:`ShellSyntaxError` / :class:`Unsupported` as
    :func:`hookrun.shellsyntax.parse` does.
    """
    from hookrun.shellsyntax import parse  # lazy: loads tree-sitter (a few ms, first parse)

    tree = parse(text)
    walker = _Walker(tree.source, bodies, depth)
    walker.stmts(tree.stmts, [])
    return Script(tuple(walker.commands), True, tuple(walker.fork_bombs))


def is_plain(text: str) -> bool:
    """Only simple commands in lists and pipelines: no compound command, no grouping.

    Words (quotes, escapes, ``$x``, ``${x}``, ``$(…)``, backticks) are re-read by
    :mod:`words` on either path, and substitutions are parsed on their own, so
    for this grammar the tokenizer's split is bashlex's (a test pins it).
    """
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        nxt = text[i + 1] if i + 1 < n else ""
        if c == "\\":
            i += 2
        elif c == "'":
            j = text.find("'", i + 1)
            if j < 0:
                return False
            i = j + 1
        elif c == '"':
            i = skip_double(text, i + 1)
            if i == n and not text.endswith('"'):
                return False
        elif c == "$" and nxt == "(":
            i = match_paren(text, i + 2) + 1
        elif c == "$" and nxt == "{":
            j = text.find("}", i)
            if j < 0:
                return False
            i = j + 1
        elif c == "`":
            j = text.find("`", i + 1)
            if j < 0:
                return False
            i = j + 1
        elif c in "(){}" or (c in "<>" and nxt == "("):
            return False
        else:
            i += 1
    if i > n:
        return False  # an unterminated quote or substitution: let bashlex say so
    return not any(token in _RESERVED for token in text.split())


def arithmetic_substitutions(expr: str) -> list[str]:
    """The code of each ``$(…)`` and backtick substitution inside an arithmetic expression."""
    out: list[str] = []
    i, n = 0, len(expr)
    while i < n:
        if expr.startswith("$(", i) and not expr.startswith("$((", i):
            j = match_paren(expr, i + 2)
            out.append(expr[i + 2 : j])
            i = j + 1
        elif expr.startswith("$((", i):
            j = match_paren(expr, i + 3)
            out.extend(arithmetic_substitutions(expr[i + 3 : j]))
            i = j + 1
        elif expr[i] == "`":
            j = expr.find("`", i + 1)
            j = n if j < 0 else j
            out.append(expr[i + 1 : j])
            i = j + 1
        else:
            i += 1
    return out


def cd_target(argv: list[Word]) -> Word | None:
    """Where ``cd``/``pushd`` (also as ``builtin cd`` / ``command cd``) moves; None if not one."""
    words = list(argv)
    while words and words[0].static and words[0].text in ("builtin", "command"):
        words = words[1:]
    if not words or not words[0].static or words[0].text not in ("cd", "pushd"):
        return None
    operands = [w for w in words[1:] if not (w.static and w.text.startswith("-") and w.text != "-")]
    return operands[0] if operands else Word((Var("HOME"),), "~")


def finish_words(
    raw: str,
    depth: int,
    sink: list[Command],
    cd: list[Word],
    bodies: tuple[str, ...] = (),
    variables: dict[str, str] | None = None,
) -> list[Word]:
    """Expand one word as written; commands in its substitutions go to ``sink``.

    ``variables`` are plain ``NAME=text`` assignments made earlier on the line
    (``c=rm; $c -rf /``).
    """
    words = expand_word(raw)
    out: list[Word] = []
    for word in words:
        parts: list[str | Var] = []
        for part in word.parts:
            if isinstance(part, Var) and part.name in ("$(", "<("):
                part = _substitution(part, depth, sink, cd, bodies)
            elif isinstance(part, Var) and part.name == "((":
                # `$(( $(rm -rf /) + 1 ))`: arithmetic runs its command substitutions
                for code in arithmetic_substitutions(part.inner):
                    _substitution(Var("$(", code), depth, sink, cd, bodies)
            elif isinstance(part, Var) and variables and part.name in variables:
                part = variables[part.name]
            parts.append(part)
        out.append(Word(tuple(parts), word.raw))
    return out


def _substitution(
    part: Var, depth: int, sink: list[Command], cd: list[Word], bodies: tuple[str, ...]
) -> str | Var:
    if part.name == "$(":
        if _PWD.fullmatch(part.inner):
            return Var("PWD")
        m = _ECHO.fullmatch(part.inner)
        if m is not None:  # `$(echo rm)` / `$(printf r)` is just text
            raws = [raw for kind, raw in fallback.tokenize(m.group(2)) if kind == "word"]
            words = [w for raw in raws for w in expand_word(raw)]
            if all(w.static for w in words):
                return printed(m.group(1), [w.text for w in words]).rstrip("\n")
    inner = parse_script(
        part.inner, depth + 1, bodies if "__hookrun_heredoc_" in part.inner else ()
    )
    base = len(sink)
    for cmd in inner.commands:
        shift = cmd.pipe_from + base if cmd.pipe_from >= 0 else -1
        sink.append(_rebase(cmd, cd, shift))
    return part


def _rebase(cmd: Command, cd: list[Word], pipe_from: int) -> Command:
    return Command(
        cmd.argv, cmd.source, cmd.redirects, (*cd, *cmd.cd), cmd.stdin, pipe_from, cmd.via
    )


class _Walker:
    """The shared front end's tree (hookrun.shellsyntax) flattened into simple commands.

    Words are re-read from the user's text at each node's offsets by
    :func:`finish_words` (quotes, escapes, ``$IFS`` splitting, braces).
    """

    def __init__(self, source: bytes, bodies: tuple[str, ...], depth: int) -> None:
        self.source = source
        self.bodies = bodies
        self.depth = depth
        self.commands: list[Command] = []
        self.fork_bombs: list[str] = []
        self.variables: dict[str, str] = {}

    def src(self, node: Any) -> str:
        return self.source[node.pos : node.end].decode("utf-8", "surrogatepass")

    def words(self, node: Any, cd: list[Word], variables: bool = True) -> list[Word]:
        return finish_words(
            self.src(node),
            self.depth,
            self.commands,
            cd,
            self.bodies,
            self.variables if variables else None,
        )

    def stmts(self, stmts: Any, cd: list[Word]) -> None:
        for stmt in stmts:
            self.stmt(stmt, cd, None)

    def stmt(self, stmt: Any, cd: list[Word], pipe_from: int | None) -> None:
        node = stmt.cmd
        kind = type(node).__name__
        if node is None:  # redirections alone: `> /dev/sda`
            redirects = self.redirects(stmt.redirects, cd)
            if redirects:
                self.commands.append(Command((), self.src(stmt), tuple(redirects), tuple(cd)))
        elif kind == "CallExpr":
            self.call(stmt, node, cd, pipe_from)
        elif kind == "Pipeline":
            prev: int | None = None
            for stage in node.stages:
                # Each stage runs in a subshell: its `cd` does not leak.
                before = len(self.commands)
                self.stmt(stage, list(cd), prev)
                simple = type(stage.cmd).__name__ == "CallExpr"
                prev = len(self.commands) - 1 if simple and len(self.commands) > before else None
        elif kind == "BinaryCmd":
            self.stmt(node.left, cd, None)
            self.stmt(node.right, cd, None)
        elif kind in ("Block", "Subshell"):
            # `{ …; }` runs in this shell: its `cd` moves what follows; `( … )` does not.
            self.stmts(node.stmts, cd if kind == "Block" else list(cd))
            self.compound_redirects(stmt, cd)
        elif kind == "IfClause":
            inner = list(cd)
            for cond, body in node.branches:
                self.stmts(cond, inner)
                self.stmts(body, inner)
            if node.else_ is not None:
                self.stmts(node.else_, inner)
            self.compound_redirects(stmt, cd)
        elif kind == "WhileClause":
            inner = list(cd)
            self.stmts(node.cond, inner)
            self.stmts(node.body, inner)
            self.compound_redirects(stmt, cd)
        elif kind == "ForClause":
            inner = list(cd)
            for word in node.words or ():
                self.words(word, inner)  # (substitutions in the list run)
            self.stmts(node.body, inner)
            self.compound_redirects(stmt, cd)
        elif kind == "CForClause":
            inner = list(cd)
            for part in (node.init, node.cond, node.post):
                if part is not None:
                    self.arith(part, inner)
            self.stmts(node.body, inner)
            self.compound_redirects(stmt, cd)
        elif kind == "CaseClause":
            inner = list(cd)
            self.words(node.word, inner)
            for item in node.items:
                self.stmts(item.body, inner)
            self.compound_redirects(stmt, cd)
        elif kind == "ArithCmd":
            self.arith(node.expr, cd)
        elif kind == "TestClause":
            self.test(node.expr, cd)
        elif kind == "FuncDecl":
            self.function(stmt, node, cd)

    def arith(self, word: Any, cd: list[Word]) -> None:
        """Command substitutions inside an arithmetic expression run."""
        for code in arithmetic_substitutions(self.src(word)):
            _substitution(Var("$(", code), self.depth, self.commands, cd, self.bodies)

    def test(self, expr: Any, cd: list[Word]) -> None:
        kind = type(expr).__name__
        if kind == "Word":
            self.words(expr, cd)
        elif kind == "TestUnary":
            self.test(expr.operand, cd)
        elif kind == "TestBinary":
            self.test(expr.left, cd)
            self.test(expr.right, cd)
        elif kind == "TestParen":
            self.test(expr.expr, cd)

    def call(self, stmt: Any, node: Any, cd: list[Word], pipe_from: int | None) -> None:
        assigned: list[tuple[str, list[Word]]] = []
        for assign in node.assigns:
            value = self.src(assign.value) if assign.value is not None else ""
            values = finish_words(value, self.depth, self.commands, cd, self.bodies)
            assigned.append((assign.name, values))
        argv: list[Word] = []
        for arg in node.args:
            argv.extend(self.words(arg, cd))
        if not argv:  # `c=rm` alone sets c for the rest of the line
            for name, values in assigned:
                if len(values) == 1 and values[0].static:
                    self.variables[name] = values[0].text
                else:
                    self.variables.pop(name, None)
        redirects = self.redirects(stmt.redirects, cd)
        stdin = None
        for r in redirects:
            if r.op in ("<", "<<", "<<<") and r.text is not None:
                stdin = Stdin("text", r.text, self.src(stmt))
        cmd = Command(
            tuple(argv),
            self.src(stmt),
            tuple(redirects),
            tuple(cd),
            stdin,
            -1 if pipe_from is None or stdin is not None else pipe_from,
        )
        self.commands.append(cmd)
        target = cd_target(argv)
        if target is not None:
            # Later commands of this list run there (a subshell copies `cd`).
            cd.append(target)

    def compound_redirects(self, stmt: Any, cd: list[Word]) -> None:
        redirects = self.redirects(stmt.redirects, cd)
        if redirects:
            self.commands.append(Command((), self.src(stmt), tuple(redirects), tuple(cd)))

    def redirects(self, nodes: Any, cd: list[Word]) -> list[Redirect]:
        out: list[Redirect] = []
        for node in nodes:
            if node.op in (">&", "<&") and self.src(node.target).strip().isdigit():
                continue  # `2>&1`: a descriptor, not a file
            if node.op in (">&", "<&") and self.src(node.target).strip() == "-":
                continue
            if node.heredoc is not None:  # (only when strip_heredocs left one in place)
                body = node.heredoc.body
                out.append(
                    Redirect("<<", Word.lit(""), self.src(body) if node.heredoc.quoted else None)
                )
                continue
            words = self.words(node.target, cd)
            word = words[0] if words else Word.lit("")
            text: str | None = None
            op = node.op
            if op == "<" and word.static:
                text = body_of(word.text, self.bodies)
            elif op == "<<<" and word.static:
                text = word.text + "\n"
            out.append(Redirect(op, word, text))
        return out

    def function(self, stmt: Any, node: Any, cd: list[Word]) -> None:
        name = node.name
        before = len(self.commands)
        self.stmt(node.body, list(cd), None)
        calls = sum(1 for c in self.commands[before:] if c.argv and c.argv[0].text == name)
        if calls >= 2:  # `:(){ :|:& };:` — each call starts two more
            self.fork_bombs.append(self.src(stmt))
