"""The conservative reading of a line the shared front end refuses.

Bash refuses such a line too (an unterminated quote or substitution, a stray
keyword), but a refused line must not pass unjudged: ``rm -rf / 'unterminated``
is still a deletion. The line is split into shell-style tokens (quotes, ``$(…)``,
backticks and escapes respected; ``;``, ``|``, ``&``, newlines and parentheses
split commands); each word's value comes from the front end's tree of that word
alone (:func:`hookrun.hooks.shell_guard.parse.words_of`), and each command
is judged by the same rules. Reasons from this path say the line was judged on
its words.
"""

from __future__ import annotations

import re

from hookrun.hooks.shell_guard.model import Command, Redirect, Script, Stdin, Word

_OPS = ("&&", "||", ";;", "|&", ";", "|", "&", "\n", "(", ")")
_REDIR = re.compile(r"[0-9]*(<<<|&>>|&>|>>|>\||>&|<&|<>|>|<)")
# Words that open or close a compound command: the command is what follows.
_PREFIX = frozenset({"if", "then", "else", "elif", "do", "while", "until", "!", "{", "time"})
_CLOSERS = frozenset({"fi", "done", "esac", "}", "]]", "in"})
_SKIP = frozenset({"for", "select", "case", "[[", "function"})
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\+?=.*", re.DOTALL)
_BLANKS = re.compile(r"\s+")
_QUOTED = re.compile(r"'[^']*'|\"(?:[^\"\\]|\\.)*\"")
# A name starts where no name character precedes it: without the lookbehind, every
# position of a long word would rescan the rest of it (quadratic on a padded command).
_FORK_BOMB = re.compile(r"(?<![\w:.+-])([\w:.+-]+)\(\)\{([^{}]*)\}")


def tokenize(text: str) -> list[tuple[str, str]]:
    """``("word", raw)``, ``("op", op)`` and ``("redir", op)`` tokens."""
    out: list[tuple[str, str]] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c in " \t\r":
            i += 1
            continue
        if c == "\\" and text.startswith("\n", i + 1):
            i += 2
            continue
        if c == "#":
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        m = _REDIR.match(text, i)
        if m is not None and not (c in "<>" and text.startswith("(", i + 1)):
            out.append(("redir", m.group(1)))
            i = m.end()
            continue
        op = next((o for o in _OPS if text.startswith(o, i)), None)
        if op is not None:
            out.append(("op", op))
            i += len(op)
            continue
        j = _word_end(text, i)
        out.append(("word", text[i:j]))
        i = j
    return out


def _word_end(text: str, i: int) -> int:
    n = len(text)
    while i < n:
        c = text[i]
        # `<(…)` is a word (process substitution); other metacharacters end the word.
        if c in " \t\r\n;&|()" or (c in "<>" and not text.startswith("(", i + 1)):
            return i
        if c == "\\":
            i += 2
        elif c == "'" and not (i > 0 and text[i - 1] == "$"):
            j = text.find("'", i + 1)
            i = n if j < 0 else j + 1
        elif c == "'" or c == '"':
            i = _span_end(text, i + 1, c)
        elif c == "$" and text.startswith("(", i + 1) or c in "<>":
            i = _span_end(text, i + 2, ")")
        elif c == "$" and text.startswith("{", i + 1):
            j = text.find("}", i)
            i = n if j < 0 else j + 1
        elif c == "`":
            j = text.find("`", i + 1)
            i = n if j < 0 else j + 1
        else:
            i += 1
    return n


def _span_end(text: str, i: int, close: str) -> int:
    """Index after the ``close`` (``'``, ``"`` or ``)``) that ends a span opened before ``i``.

    Escapes count everywhere (the ``'`` form is ``$'…'``); ``$(…)`` nests inside
    ``"…"``, and quotes and parentheses nest inside ``(…)``. ``len(text)`` if unclosed.
    """
    n = len(text)
    depth = 1
    while i < n:
        c = text[i]
        if c == "\\":
            i += 2
        elif close != ")" and c == close:
            return i + 1
        elif close == '"' and text.startswith("$(", i):
            i = _span_end(text, i + 2, ")")
        elif close == ")" and c == "'":
            j = text.find("'", i + 1)
            i = n if j < 0 else j + 1
        elif close == ")" and c == '"':
            i = _span_end(text, i + 1, '"')
        else:
            depth += (c == "(") - (c == ")") if close == ")" else 0
            i += 1
            if depth == 0:
                return i
    return n


def parse(text: str, depth: int) -> Script:
    commands: list[Command] = []
    # `(` opens a subshell: a `cd` inside it ends at its `)`.
    cd_stack: list[list[Word]] = [[]]
    variables: dict[str, str] = {}
    tokens = tokenize(text)
    stage: list[tuple[str, str]] = []
    prev_stage: int | None = None
    for kind, value in [*tokens, ("op", ";")]:
        if kind != "op":
            stage.append((kind, value))
            continue
        index = _command(stage, commands, cd_stack[-1], depth, prev_stage, variables)
        stage = []
        prev_stage = index if value in ("|", "|&") else None
        if value == "(":
            cd_stack.append(list(cd_stack[-1]))
        elif value == ")" and len(cd_stack) > 1:
            cd_stack.pop()
    # (a bomb inside quotes is text being printed or searched, not a definition)
    if "(" not in text:  # no function definition, no bomb: skip the scan
        return Script(tuple(commands), parsed=False, fork_bombs=())
    compact = _BLANKS.sub("", _QUOTED.sub("''", text))
    bombs = tuple(
        m.group(0)
        for m in _FORK_BOMB.finditer(compact)
        if len(re.findall(r"(?:^|[|&;])" + re.escape(m.group(1)) + r"(?=$|[|&;])", m.group(2))) >= 2
    )
    return Script(tuple(commands), parsed=False, fork_bombs=bombs)


def _command(
    tokens: list[tuple[str, str]],
    sink: list[Command],
    cd: list[Word],
    depth: int,
    pipe_from: int | None,
    variables: dict[str, str],
) -> int | None:
    """Append the command ``tokens`` make to ``sink``; its index, or None if none."""
    from hookrun.hooks.shell_guard.parse import (  # (import cycle; cached after the first)
        cd_target,
    )
    from hookrun.hooks.shell_guard.parse import words_of as expand

    while tokens and tokens[0][0] == "word" and tokens[0][1] in _PREFIX:
        tokens = tokens[1:]
    if not tokens or (tokens[0][0] == "word" and tokens[0][1] in _SKIP | _CLOSERS):
        return None
    argv: list[Word] = []
    assigned: list[tuple[str, list[Word]]] = []
    redirects: list[Redirect] = []
    stdin: Stdin | None = None
    i = 0
    while i < len(tokens):
        kind, value = tokens[i]
        if kind == "redir":
            target_raw = tokens[i + 1][1] if i + 1 < len(tokens) else ""
            words = expand(target_raw, depth, sink, cd, variables)
            target = words[0] if words else Word.lit("")
            text = target.text + "\n" if value == "<<<" and target.static else None
            redirects.append(Redirect(value, target, text))
            if text is not None:
                stdin = Stdin("text", text)
            i += 2
            continue
        if not argv and _ASSIGNMENT.fullmatch(value):
            name, _, raw = value.partition("=")
            values = expand(raw, depth, sink, cd)
            assigned.append((name.rstrip("+"), values))
        else:
            argv.extend(expand(value, depth, sink, cd, variables))
        i += 1
    if not argv:  # `c=rm` alone sets c for the rest of the line
        for name, values in assigned:
            if len(values) == 1 and values[0].static:
                variables[name] = values[0].text
            else:
                variables.pop(name, None)
    source = " ".join(v for _, v in tokens)
    cmd = Command(
        tuple(argv),
        source,
        tuple(redirects),
        tuple(cd),
        stdin,
        -1 if pipe_from is None or stdin is not None else pipe_from,
    )
    sink.append(cmd)
    moved = cd_target(argv)
    if moved is not None:
        cd.append(moved)
    return len(sink) - 1
