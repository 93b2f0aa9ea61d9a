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

import bisect
import re
from functools import lru_cache

from hookrun.hooks.shell_guard.model import (
    Command,
    Redirect,
    Script,
    Stdin,
    Word,
    cd_target,
    mark_may_fail,
)
from hookrun.lazyre import compile as lazy_compile

_OPS = ("&&", "||", ";;", "|&", ";", "|", "&", "\n", "(", ")")
_REDIR = lazy_compile(
    r"(?:[0-9]*|\{[A-Za-z_][A-Za-z0-9_]*\})(<<<|<<-|<<|&>>|&>|>>|>\||>&|<&|<>|>|<)"
)
# Words that open or close a compound command: the command is what follows.
_PREFIX = frozenset(
    {"if", "then", "else", "elif", "do", "while", "until", "!", "{", "time", "coproc"}
)
_CLOSERS = frozenset({"fi", "done", "esac", "}", "]]", "in"})
_SKIP = frozenset({"for", "select", "case", "[[", "function"})
_ASSIGNMENT = lazy_compile(r"[A-Za-z_][A-Za-z0-9_]*\+?=.*", re.DOTALL)
_BLANKS = lazy_compile(r"\s+")
_QUOTED = lazy_compile(r"'[^']*'|\"(?:[^\"\\]|\\.)*\"")
# A name starts where no name character precedes it: without the lookbehind, every
# position of a long word would rescan the rest of it (quadratic on a padded command).
_FORK_BOMB = lazy_compile(r"(?<![\w:.+-])([\w:.+-]+)\(\)\{([^{}]*)\}")


def tokenize(text: str) -> list[tuple[str, str]]:
    """``("word", raw)``, ``("op", op)``, ``("redir", op)`` and here-document tokens.

    A here-document (``<<DELIM`` / ``<<-DELIM``) is read as bash reads it: its
    body, the lines after the rest of its line up to the ``DELIM`` line, is the
    command's input, not commands. Its token, ``("heredoc", body)`` (``DELIM``
    unquoted: substitutions in the body run) or ``("heredoc-quoted", body)``, takes
    the place of the ``<<`` redirect, before the delimiter's word token. A ``<<``
    whose ``DELIM`` line never comes (or inside ``(( … ))``) stays a plain redirect
    and the lines after it are read as commands: the reading that misses nothing.
    """
    return _tokens(text)[0]


def _tokens(text: str) -> tuple[list[tuple[str, str]], str]:
    """The tokens of ``text`` and ``text`` without its here-document bodies."""
    out: list[tuple[str, str]] = []
    pending: list[int] = []  # indexes in out of "<<" redirects whose body comes next
    code: list[str] = []  # text outside here-document bodies
    at = 0  # where the text not yet copied to code starts
    arith = 0  # open `((`
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
            if m.group(1) in ("<<", "<<-") and not arith:
                pending.append(len(out))
            out.append(("redir", m.group(1)))
            i = m.end()
            continue
        op = next((o for o in _OPS if text.startswith(o, i)), None)
        if op is not None:
            if op == "(" and text.startswith("((", i):
                arith += 1
            elif op == ")" and arith and text.startswith("))", i):
                arith -= 1
            out.append(("op", op))
            i += len(op)
            if op == "\n" and pending:
                end = _bodies(text, i, out, pending)
                if end > i:
                    code.append(text[at:i])
                    at = i = end
                pending = []
            continue
        j = _word_end(text, i)
        if out and out[-1] in (("redir", "<<"), ("redir", "<<-")):
            # A here-document's delimiter: to bash a CR after it is a byte of the word
            # (a CRLF line's `cat <<EOF` ends at an `EOF\r` line, not at `EOF`).
            while j < n and text[j] == "\r":
                j += 1
        out.append(("word", text[i:j]))
        i = j
    code.append(text[at:])
    return out, "".join(code)


def _bodies(text: str, start: int, out: list[tuple[str, str]], pending: list[int]) -> int:
    """Read the bodies of the here-documents in ``pending`` from ``start``; where they end.

    Each found body replaces its ``<<`` token in ``out``; when one's ``DELIM`` line
    is missing, it and those after it stay redirects and the text from where its body
    would start is read on as commands (the bodies before it are still bodies: read as
    commands, a quote in one could hide a command bash runs after it).
    """
    i = start
    found: list[tuple[int, str, str]] = []
    for k in pending:
        if k + 1 >= len(out) or out[k + 1][0] != "word":
            return start
        raw = out[k + 1][1]
        delim = raw.replace("'", "").replace('"', "").replace("\\", "")
        strip = out[k][1] == "<<-"
        lines: list[str] = []
        begun, closed = i, False
        while i < len(text):
            j = text.find("\n", i)
            line = text[i:] if j < 0 else text[i:j]
            i = len(text) if j < 0 else j + 1
            if (line.lstrip("\t") if strip else line) == delim:
                closed = True
                break
            lines.append(line.lstrip("\t") if strip else line)
        if not closed:
            i = begun  # unterminated: read on as commands from here
            break
        body = "".join(f"{line}\n" for line in lines)
        kind = "heredoc" if raw == delim else "heredoc-quoted"
        found.append((k, kind, body))
    for k, kind, body in found:
        out[k] = (kind, body)
    return i


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


def _substitutions(body: str) -> list[str]:
    """The ``$(…)`` and backquoted spans of an unquoted here-document body (they run)."""
    spans = []
    i, n = 0, len(body)
    while i < n:
        c = body[i]
        if c == "\\":
            i += 2  # `\$(…)` is text
        elif c == "$" and body.startswith("(", i + 1):
            j = _span_end(body, i + 2, ")")
            spans.append(body[i:j])
            i = j
        elif c == "`":
            j = body.find("`", i + 1)
            j = n if j < 0 else j + 1
            spans.append(body[i:j])
            i = j
        else:
            i += 1
    return spans


def substitutions(text: str) -> list[str]:
    """The ``$(…)`` and backquoted spans of ``text``, quotes or not (for the judgement of
    text bash evaluates: :mod:`hookrun.hooks.shell_guard.indirect`)."""
    return _substitutions(text)


def span_end(text: str, i: int, close: str) -> int:
    """Where the span opened before ``i`` and closed by ``close`` ends (past the close)."""
    return _span_end(text, i, close)


def _span_end(text: str, i: int, close: str) -> int:
    """Index after the ``close`` (``'``, ``"`` or ``)``) that ends a span opened before ``i``.

    Escapes count everywhere (the ``'`` form is ``$'…'``); ``$(…)`` nests inside
    ``"…"``, and quotes and parentheses nest inside ``(…)``. ``len(text)`` if unclosed.
    """
    n = len(text)
    depth = 1
    heredocs: list[tuple[str, bool]] = []  # (delimiter, <<-) whose bodies start next line
    start = i
    cases = 0  # `case … in` open in this span: a pattern's `)` closes nothing (bash)
    while i < n:
        c = text[i]
        if c == "\\":
            i += 2
        elif close == ")" and c in "ce" and _keyword_at(text, i, start):
            cases += 1 if c == "c" else -(cases > 0)
            i += 4
        elif close == ")" and c == ")" and depth == 1 and cases:
            i += 1
        elif close == ")" and c == "<" and (m := _HEREDOC.match(text, i)) is not None:
            heredocs.append((m.group(3), m.group(1) == "-"))
            i = m.end()
        elif close == ")" and c == "\n" and heredocs:
            # A body is text up to its delimiter line: a `)` in it closes nothing (bash);
            # without the line, read on as before (the reading that misses nothing).
            i = _past_bodies(text, i + 1, heredocs)
            heredocs = []
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


def _keyword_at(text: str, i: int, start: int) -> bool:
    """``case`` or ``esac`` as a whole word at ``i``, ``case`` where a command starts."""
    word = text[i : i + 4]
    if word not in ("case", "esac") or text[i + 4 : i + 5] not in ("", " ", "\t", "\n", ";", ")"):
        return False
    before = text[start:i].rstrip(" \t")
    if word == "esac":
        return before == "" or before[-1] in " \t\n;&|("
    return before == "" or before[-1] in "\n;&|({" or before.endswith(("then", "do", "else"))


_HEREDOC = lazy_compile(r"<<(?!<)(-?)[ \t]*(['\"]?)([A-Za-z0-9_.-]+)\2")


def _past_bodies(text: str, i: int, heredocs: list[tuple[str, bool]]) -> int:
    """Where the bodies of ``heredocs`` starting at ``i`` end; ``i`` if a delimiter is missing.

    Inside ``$( )`` bash also ends a body at its delimiter followed by the ``)``
    (``$(bash <<EOF ⏎ … ⏎ EOF)``): the span goes on at that ``)``. The delimiter lines
    are looked up in an index of the text's lines (one pass per text: many spans, each
    with a here-document, must not read the rest of the text each).
    """
    start = i
    for delim, strip in heredocs:
        whole, closing = _line_index(text)[1 if strip else 0]
        at = _first_at(whole.get(delim), i)
        close = _first_at(closing.get(delim), i)
        if close is not None and (at is None or close[0] < at[0]):
            return close[1]  # `DELIM)`: the span goes on at the `)`
        if at is None:
            return start
        i = at[1]
    return i


def _first_at(places: list[tuple[int, int]] | None, i: int) -> tuple[int, int] | None:
    if not places:
        return None
    k = bisect.bisect_left(places, (i, -1))
    return places[k] if k < len(places) else None


_Index = dict[str, list[tuple[int, int]]]


@lru_cache(maxsize=4)
def _line_index(text: str) -> tuple[tuple[_Index, _Index], tuple[_Index, _Index]]:
    """For each line content (tabs kept, and stripped for ``<<-``): where such lines start
    and where the text goes on past them; and, for a line ``DELIM)``, where its ``)`` is."""
    out: list[tuple[_Index, _Index]] = []
    for strip in (False, True):
        whole: _Index = {}
        closing: _Index = {}
        pos = 0
        for line in text.split("\n"):
            bare = line.lstrip("\t") if strip else line
            lead = len(line) - len(bare)
            whole.setdefault(bare, []).append((pos, pos + len(line) + 1))
            paren = bare.find(")")
            if paren > 0:
                head = bare[:paren].rstrip(" \t")
                closing.setdefault(head, []).append((pos, pos + lead + len(head)))
            pos += len(line) + 1
        out.append((whole, closing))
    return out[0], out[1]


def parse(text: str, depth: int) -> Script:
    commands: list[Command] = []
    # `(` opens a subshell: a `cd` inside it ends at its `)`.
    cd_stack: list[list[Word]] = [[]]
    variables: dict[str, str] = {}
    values: list[tuple[str, str]] = []
    tokens, code = _tokens(text)
    stage: list[tuple[str, str]] = []
    prev_stage: int | None = None
    listed = [*tokens, ("op", ";")]
    i = -1
    while i + 1 < len(listed):
        i += 1
        kind, value = listed[i]
        if kind != "op":
            stage.append((kind, value))
            continue
        if (
            value == "("
            and stage
            and stage[-1][0] == "word"
            and _ARRAY_HEAD.fullmatch(stage[-1][1])
        ):
            i = _array(stage.pop()[1], listed, i, depth, commands, cd_stack[-1], values)
            continue
        index = _command(stage, commands, cd_stack[-1], depth, prev_stage, variables, values)
        if variables:  # (the fallback sees no branch, loop or subshell: a name the text
            # may set twice — `c=echo; if …; then c=rm; fi`, `export c=…`, `read c` — may
            # hold either value where it is used, so it is not known)
            from hookrun.hooks.shell_guard.parse import may_set_count

            for name in [n for n in variables if may_set_count(n, text) > 1]:
                del variables[name]
        stage = []
        if value not in ("&&", "|", "|&"):  # (a `cd` before `;`, `||`, `&` may have failed)
            mark_may_fail(cd_stack[-1])
        prev_stage = index if value in ("|", "|&") else None
        if value == "(":
            cd_stack.append(list(cd_stack[-1]))
        elif value == ")" and len(cd_stack) > 1:
            cd_stack.pop()
    # (a bomb inside quotes, or in a here-document's body, is text being printed,
    # searched or written to a file, not a definition)
    if "(" not in code:  # no function definition, no bomb: skip the scan
        return Script(tuple(commands), parsed=False, fork_bombs=(), values=tuple(values))
    compact = _BLANKS.sub("", _QUOTED.sub("''", code))
    bombs = tuple(
        m.group(0)
        for m in _FORK_BOMB.finditer(compact)
        if len(re.findall(r"(?:^|[|&;])" + re.escape(m.group(1)) + r"(?=$|[|&;])", m.group(2))) >= 2
    )
    return Script(tuple(commands), parsed=False, fork_bombs=bombs, values=tuple(values))


_ARRAY_HEAD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\+?=")


def _array(
    head: str,
    listed: list[tuple[str, str]],
    i: int,
    depth: int,
    sink: list[Command],
    cd: list[Word],
    values: list[tuple[str, str]],
) -> int:
    """``a=(-rf /)``: the words up to the ``)`` are the array's elements, a value of the
    line (their substitutions run); the index of that ``)``."""
    from hookrun.hooks.shell_guard.parse import words_of as expand  # (import cycle)

    elements: list[Word] = []
    j = i + 1
    while j < len(listed) and listed[j] != ("op", ")"):
        if listed[j][0] == "word":
            elements.extend(expand(listed[j][1], depth, sink, cd))
        j += 1
    if elements:
        text = " ".join(w.text if w.static else w.raw for w in elements)
        values.append((head.rstrip("=").rstrip("+"), text))
    return j


def _command(
    tokens: list[tuple[str, str]],
    sink: list[Command],
    cd: list[Word],
    depth: int,
    pipe_from: int | None,
    variables: dict[str, str],
    values: list[tuple[str, str]],
) -> int | None:
    """Append the command ``tokens`` make to ``sink``; its index, or None if none."""
    from hookrun.hooks.shell_guard.parse import words_of as expand  # (import cycle)

    while tokens and tokens[0][0] == "word" and tokens[0][1] in _PREFIX:
        if tokens[0][1] == "coproc" and len(tokens) > 2 and tokens[2] == ("word", "{"):
            tokens = tokens[1:]  # `coproc NAME { …; }`: NAME names the coprocess
        tokens = tokens[1:]
    if not tokens or (tokens[0][0] == "word" and tokens[0][1] in _SKIP | _CLOSERS):
        # `for x in $(…)`, `select x in $(…)`, `case $(…) in`, `[[ $(…) ]]`: no command
        # of their own, but the substitutions in their words run
        listed = len(tokens) > 1 and tokens[0][1] in ("for", "select") and ("word", "in") in tokens
        for kind, value in tokens:
            if kind == "word" and any(c in value for c in "$`<>"):
                expand(value, depth, sink, cd, variables)
            elif listed and kind == "word" and ("'" in value or '"' in value):
                for w in expand(value, depth, sink, cd, variables):  # `select c in 'rm -rf /'`
                    if w.static and " " in w.text:
                        values.append((tokens[1][1], w.text))
        return None
    argv: list[Word] = []
    assigned: list[tuple[str, list[Word]]] = []
    redirects: list[Redirect] = []
    stdin: Stdin | None = None
    i = 0
    while i < len(tokens):
        kind, value = tokens[i]
        if kind in ("heredoc", "heredoc-quoted"):
            delim = tokens[i + 1][1] if i + 1 < len(tokens) else ""
            redirects.append(Redirect("<<", Word.lit(delim), value))
            stdin = Stdin("text", value)
            if kind == "heredoc":  # an unquoted body: its substitutions run
                for span in _substitutions(value):
                    expand(span, depth, sink, cd, variables)
            i += 2
            continue
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
            words = expand(raw, depth, sink, cd)
            assigned.append((name.rstrip("+"), words))
            if len(words) == 1 and words[0].static:
                values.append((name.rstrip("+"), words[0].text))
        else:
            argv.extend(expand(value, depth, sink, cd, variables))
        i += 1
    if not argv:  # `c=rm` alone sets c for the rest of the line
        for name, words in assigned:
            if len(words) == 1 and words[0].static:
                variables[name] = words[0].text
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
