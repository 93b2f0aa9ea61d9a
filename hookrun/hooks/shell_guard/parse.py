"""Command line → :class:`Script`: bashlex first, the fallback tokenizer if it fails.

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
        # directly (bashlex costs 0.1–1 ms per line, more than all the rules).
        return replace(fallback.parse(stripped.text, stripped.bodies, depth), parsed=True)
    try:
        return parse_with_bashlex(stripped.text, stripped.bodies, depth)
    except TooDeep:
        raise
    except Exception:  # bashlex raises many types (ParsingError, NotImplementedError…)
        return fallback.parse(stripped.text, stripped.bodies, depth)


def parse_with_bashlex(text: str, bodies: tuple[str, ...], depth: int) -> Script:
    """The bashlex walk of a heredoc-stripped line; raises whatever bashlex raises."""
    from hookrun.bashlex_loader import load  # lazy: cached tables, see bashlex_loader

    bashlex = load()

    walker = _Walker(text, bodies, depth)
    for tree in bashlex.parse(text):
        walker.walk(tree, [], None)
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
    def __init__(self, text: str, bodies: tuple[str, ...], depth: int) -> None:
        self.text = text
        self.bodies = bodies
        self.depth = depth
        self.commands: list[Command] = []
        self.fork_bombs: list[str] = []
        self.variables: dict[str, str] = {}

    def src(self, node: Any) -> str:
        start, end = node.pos
        return str(self.text[start:end])

    def walk(self, node: Any, cd: list[Word], stdin: int | None) -> None:
        kind = node.kind
        if kind == "list":
            for part in node.parts:
                if part.kind != "operator":
                    self.walk(part, cd, None)
        elif kind == "pipeline":
            prev: int | None = None
            for part in node.parts:
                if part.kind in ("pipe", "reservedword"):
                    continue
                # Each stage runs in a subshell: its `cd` does not leak.
                if part.kind == "command":
                    self.command(part, list(cd), prev)
                    prev = len(self.commands) - 1
                else:
                    self.walk(part, list(cd), None)
                    prev = None
        elif kind == "command":
            self.command(node, cd, stdin)
        elif kind == "compound":
            # `{ …; }` runs in this shell: its `cd` moves what follows; `( … )` does not.
            first = node.list[0] if node.list else None
            brace = first is not None and getattr(first, "word", "") == "{"
            inner = cd if brace else list(cd)
            for part in node.list:
                if part.kind != "reservedword":
                    self.walk(part, inner, None)
            redirects = self.redirects(getattr(node, "redirects", []) or [], cd)
            if redirects:
                self.commands.append(Command((), self.src(node), tuple(redirects), tuple(cd)))
        elif kind in ("if", "for", "while", "until"):
            inner = list(cd)
            for part in node.parts:
                if part.kind not in ("reservedword", "word", "operator"):
                    self.walk(part, inner, None)
        elif kind == "function":
            self.function(node, cd)

    def command(self, node: Any, cd: list[Word], pipe_from: int | None) -> None:
        argv: list[Word] = []
        assigned: list[tuple[str, list[Word]]] = []
        redirect_nodes: list[Any] = []
        for part in node.parts:
            if part.kind == "word":
                argv.extend(
                    finish_words(
                        self.src(part), self.depth, self.commands, cd, self.bodies, self.variables
                    )
                )
            elif part.kind == "assignment":
                name, _, value = self.src(part).partition("=")
                values = finish_words(value, self.depth, self.commands, cd, self.bodies)
                assigned.append((name.rstrip("+"), values))
            elif part.kind == "redirect":
                redirect_nodes.append(part)
        if not argv:  # `c=rm` alone sets c for the rest of the line
            for name, values in assigned:
                static = len(values) == 1 and values[0].static
                if static:
                    self.variables[name] = values[0].text
                else:
                    self.variables.pop(name, None)
        redirects = self.redirects(redirect_nodes, cd)
        stdin = None
        for r in redirects:
            if r.op in ("<", "<<", "<<<") and r.text is not None:
                stdin = Stdin("text", r.text, self.src(node))
        cmd = Command(
            tuple(argv),
            self.src(node),
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

    def redirects(self, nodes: list[Any], cd: list[Word]) -> list[Redirect]:
        out: list[Redirect] = []
        for node in nodes:
            target = getattr(node, "output", None)
            if not hasattr(target, "pos"):
                continue  # `2>&1`: a descriptor, not a file
            words = finish_words(
                self.src(target), self.depth, self.commands, cd, self.bodies, self.variables
            )
            word = words[0] if words else Word.lit("")
            text: str | None = None
            if node.type == "<" and word.static:
                text = body_of(word.text, self.bodies)
            elif node.type == "<<<" and word.static:
                text = word.text + "\n"
            out.append(Redirect(node.type, word, text))
        return out

    def function(self, node: Any, cd: list[Word]) -> None:
        name = self.src(node.parts[0])
        body = node.parts[-1]
        before = len(self.commands)
        self.walk(body, list(cd), None)
        calls = sum(1 for c in self.commands[before:] if c.argv and c.argv[0].text == name)
        if calls >= 2:  # `:(){ :|:& };:` — each call starts two more
            self.fork_bombs.append(self.src(node))
