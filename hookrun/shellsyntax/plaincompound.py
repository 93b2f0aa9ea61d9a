"""The plain reading's ``case … esac`` and ``[[ … ]]`` (see :mod:`.plain`), loaded on the
first line that holds one, so that plain's import stays what it was for every other line."""

from __future__ import annotations

from hookrun.records import TYPE_CHECKING
from hookrun.shellsyntax import ShellSyntaxError, condition
from hookrun.shellsyntax.nodes import (
    CaseClause,
    CaseItem,
    HereDoc,
    Lit,
    ParamExp,
    Redirect,
    Stmt,
    TestClause,
    Word,
)
from hookrun.shellsyntax.plain import (
    _LETTERS,
    _NAME_START,
    _NAMES,
    _NOT_PLAIN,
    _O,
    _W,
    _WORD_ENDS,
    _new,
    _NotPlain,
    _word,
)

if TYPE_CHECKING:
    from hookrun.shellsyntax.nodes import WordPart
    from hookrun.shellsyntax.plain import _Reader, _Token

# What an `[[ … =~ REGEX ]]`'s regex read here may hold: no quote, backslash, blank, `&`,
# `;`, `<`, `>`, `~` (`$`: see _regex).
_REGEX = frozenset(_LETTERS + "0123456789^$.*+?()|[]{}-/:,=@%")
# What a `[[ … ]]`'s word may not hold (the grammar refuses `[[ ~ ]]`; bash does not).
# The tree-sitter path reads `[[ ~ ]]` since gap 45, so this refusal is no longer needed
# for equality (plain_test finds no line it changes); kept until the fast path is taught
# `~` there, as _NOT_AFTER_EQUALS is.
_NOT_IN_CONDITIONS = "~"
# What makes a here-document's `$` text (before anything else but a name it is left to
# tree-sitter: `${`, `$(`, `$1`, `$#`, …).
_DOLLAR_TEXT = frozenset(" \t\n")
# What the word after a `[[ … ]]`'s `=` may not hold (the grammar errs on `[[ x = *"a b"* ]]`;
# bash does not, nor the grammar with `==`). The tree-sitter path reads it since gap 38,
# so this refusal is no longer needed for equality; kept until the fast path is taught it.
_NOT_AFTER_EQUALS = " \t"
# What may not follow a `[[ … ]]`'s operator but a binary one (`[[ -x ! ]]`: the grammar
# refuses it).
_NOT_OPERANDS = frozenset({"!"})


def condition_tokens(
    text: str, runs: bytes, names: bytes, i: int, n: int, level: int
) -> list[_Token] | None:
    """The tokens of the ``[[ … ]]`` at ``i``: ``[[``, its words (an ``=~``'s regex as
    one word), ``(``, ``)``, ``&&``, ``||``, then ``]]``; None if it is not one read here
    (a newline, ``<``, ``>``, a word not plain, a regex holding what is not in _REGEX)."""
    at = i + 2
    out: list[_Token] = [(_O, "[[", i, at, None)]
    regex = False  # the word after `=~`
    while True:
        c = text[at] if at < n else ""
        if c != " " and c != "\t":
            return None  # (a blank after `[[` and after each word, or `(`, `)`)
        while c == " " or c == "\t":
            at += 1
            c = text[at] if at < n else ""
        if not c:
            return None
        if c == "]" and text.startswith("]]", at):
            if at + 2 < n and text[at + 2] not in _WORD_ENDS:
                return None
            out.append((_O, "]]", at, at + 2, None))
            return out
        if regex:
            end = at
            while end < n and text[end] != " " and text[end] != "\t":
                end += 1
            if not _regex(text[at:end]):
                return None
            out.append(
                (
                    _W,
                    text[at:end],
                    at,
                    end,
                    _new(Word, (at, end, (_new(Lit, (at, end, text[at:end])),))),
                )
            )
            at = end
            regex = False
            continue
        while c == "(" or c == ")":  # (as tokens of their own, blanks or not)
            out.append((_O, c, at, at + 1, None))
            at += 1
            if text.startswith(c, at):
                return None  # (`((`: arithmetic to the grammar)
            c = text[at] if at < n else ""
        if c == " " or c == "\t":
            continue
        if not c:
            return None  # (`[[ (`: no `]]`)
        if c == "&" or c == "|":
            if not text.startswith(c + c, at):
                return None
            out.append((_O, c + c, at, at + 2, None))
            at += 2
            continue
        if c == "!":
            end = at + 2 if text.startswith("!=", at) else at + 1
            word = _new(Word, (at, end, (_new(Lit, (at, end, text[at:end])),)))
        else:
            end = runs.find(b" ", at) if runs[at] == 97 else at
            if end < 0:
                end = n
            if at < end and (end == n or text[end] in _WORD_ENDS):
                word = _new(Word, (at, end, (_new(Lit, (at, end, text[at:end])),)))
            else:
                found = _word(text, runs, names, at, n, level)
                if found is None:
                    return None
                word = found
                end = word.end
            regex = end - at == 2 and text.startswith("=~", at)
        value = text[at:end]
        if value.find(_NOT_IN_CONDITIONS) >= 0 and value != "=~":
            return None  # (the grammar refuses a `~` in `[[ ]]`, `[[ ~ ]]`; bash does not)
        out.append((_W, value, at, end, word))
        at = end
        while at < n and text[at] == ")":
            out.append((_O, ")", at, at + 1, None))
            at += 1


def _regex(regex: str) -> bool:
    """Whether an ``=~``'s regex is one the grammar reads as one literal, as written:
    of _REGEX's characters, parentheses balanced, ``$`` only last or before ``)`` / ``|``,
    no ``]]``."""
    if not regex or not _REGEX.issuperset(regex) or regex.find("]]") >= 0:
        return False
    depth = 0
    for k, c in enumerate(regex):
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth < 0:
                return False
        elif c == "$" and regex[k + 1 : k + 2] not in ("", ")", "|"):
            return False
    return not depth


def case(self: _Reader, start: int) -> Stmt:
    """``case WORD in [(]PATTERN[|PATTERN]…) [LIST] ;; … esac`` (after ``case``; the
    last item's ``;;`` may be left out; ``;&``, ``;;&`` are left to tree-sitter)."""
    tokens = self.tokens
    _kind, value, _at, _after, subject = tokens[self.k]
    if subject is None or value in _NOT_PLAIN or tokens[self.k + 1][:2] != (_W, "in"):
        raise _NotPlain  # (`case x⏎in`: left to tree-sitter)
    self.k += 2
    items: list[CaseItem] = []
    while True:
        self.newlines()
        kind, value, pos, _after, word = tokens[self.k]
        if kind == _W and value == "esac" and items:
            break
        if kind == _O and value == "(":
            self.k += 1
        patterns: list[Word] = []
        while True:
            _kind, value, _at, _after, word = tokens[self.k]
            if word is None or value in _NOT_PLAIN:
                raise _NotPlain  # (no pattern, or a reserved word: `esac)`)
            patterns.append(word)
            op = tokens[self.k + 1][1]
            self.k += 2
            if op == ")":
                break
            if op != "|":
                raise _NotPlain
        close = tokens[self.k - 1][3]
        kind, value, at, end = tokens[self.k][:4]
        if at == close and value != ";;":
            raise _NotPlain  # (`a)b;; esac`, `a)(b);;`: the grammar errs on some)
        body: list[Stmt] = []
        if value == ";;":  # (an empty item)
            self.k += 1
        elif kind == _W and value == "esac":
            end = close  # (the last item, empty: it ends at its `)`)
        else:
            body = self.sequence((";;", "esac"))
            if self.closer == "esac":
                self.k -= 1  # (the case's own)
                # (the last item ends after the separator after its last statement,
                # or the last of the newlines there)
                sep = tokens[self.after]
                end = tokens[self.k - 1][3] if sep[1] == "\n" else sep[3]
            else:
                end = tokens[self.k - 1][3]
        items.append(_new(CaseItem, (pos, end, tuple(patterns), tuple(body), ";;")))
    end = tokens[self.k][3]
    self.k += 1
    clause = _new(CaseClause, (start, end, subject, tuple(items)))
    return _new(Stmt, (start, end, clause, (), False, False))


def test_clause(self: _Reader, start: int) -> Stmt:
    """``[[ EXPR ]]`` (at its ``[[``): its words read into an expression as the
    converter reads them (condition.parse_condition), loaded with this module."""
    tokens = self.tokens
    k = self.k + 1
    items: list[condition.Item] = []
    operator = False  # the word before was a unary or binary operator
    unary = False  # the word before was a unary operator
    nested = False  # a `!`, `(` or `)` was read
    while True:
        kind, value, at, after, word = tokens[k]
        if kind == _O:
            if value == "]]":
                break
            if operator:
                raise _NotPlain  # (`[[ a == ( b ) ]]`: an extended glob to the grammar)
            items.append(condition.Item(_new(Word, (at, after, ())), value))
            operator = unary = False
            nested = nested or value == "(" or value == ")"
        elif word is not None:  # (a word: the scan made one for each)
            parts = word.parts
            lit = len(parts) == 1 and type(parts[0]) is Lit
            op = value if lit else ""
            binary = op in condition.BINARY
            if operator and (binary or op in _NOT_OPERANDS):
                raise _NotPlain  # (`[[ -z != ]]`, `[[ -x ! ]]`: the grammar refuses them)
            if unary and not value.strip("*?"):
                raise _NotPlain  # (`[[ -n * ]]`: the grammar refuses it)
            unary = op in condition.UNARY
            items.append(condition.Item(word, op))
            operator = binary or unary
            nested = nested or op == "!"
            if op == "=":  # (`[[ a = b* || c ]]`: an error to it; `[[ a = ${x} ]]`: text)
                right = tokens[k + 1][1]
                _pattern(right, tokens[k + 2][1] != "]]")
                for blank in _NOT_AFTER_EQUALS:
                    if blank in right:
                        raise _NotPlain  # (`[[ x = *"a b"* ]]`: an error to the grammar)
        k += 1
    if nested:  # (`[[ ! a = ${x} ]]`: a literal to it; `[[ (a = *"b"*) ]]`: an error)
        for kind, value, _at, _after, _word in tokens[self.k + 1 : k]:
            if kind == _W:
                _pattern(value, True)
    end = tokens[k][3]
    self.k = k + 1
    try:
        expr = condition.parse_condition(items, (1, 1))
    except ShellSyntaxError:
        raise _NotPlain from None  # (the tree-sitter path's error to give)
    return _new(Stmt, (start, end, _new(TestClause, (start, end, expr)), (), False, False))


def _pattern(word: str, globs: bool) -> None:
    """Raises _NotPlain if the text of a ``[[ … ]]``'s ``word`` holds a ``${`` or (with
    ``globs``) a glob, which the grammar reads otherwise than bash in some places (see
    test_clause). The tree-sitter path reads all of those as bash since gaps 36, 38 and
    41 (``[[ (a == *"b"*) ]]``, the last), so this refusal is no longer needed for
    equality (plain_test finds no line it changes); kept until the fast path is taught
    these words, as _NOT_AFTER_EQUALS is."""
    for glob in "*?[" if globs else "":
        if word.find(glob) >= 0:
            raise _NotPlain
    if word.find("${") >= 0:
        raise _NotPlain


def heredoc(text: str, i: int) -> Redirect | None:
    """The here-document whose ``<<`` is at ``i``, when it ends the text: ``<<NAME`` and a
    newline, its body, then a line ``NAME`` that is the text's last (or a newline after
    it); the body holds no backslash, backquote or CR, and ``$`` only before a name (a
    ParamExp), a blank or a newline. None if not one read here."""
    start = i + 2
    newline = text.find("\n", start)
    name = text[start:newline]
    if newline < 0 or not name.isidentifier():
        return None
    body = newline + 1
    lines = text[body:].split("\n")
    if name not in lines:
        return None  # (not closed)
    last = lines.index(name)
    if len(lines) > last + 2 or lines[-1] and len(lines) > last + 1:
        return None  # (more after the end line: left to tree-sitter)
    close = body + sum(len(line) + 1 for line in lines[:last])  # the end line's start
    inner = text[body:close]
    if "\\" in inner or "`" in inner or "\r" in inner:
        return None
    parts: list[WordPart] = []
    done = body
    at = inner.find("$")
    if at >= 0:
        names = inner.encode().translate(_NAMES)
        while at >= 0:
            after = inner[at + 1]  # (the body ends with a newline)
            if after in _DOLLAR_TEXT:
                at = inner.find("$", at + 1)
                continue  # (a `$` of its own: text)
            if after not in _NAME_START:
                return None  # (`${`, `$(`, `$1`, `$#`, …: left to tree-sitter)
            end = names.find(b" ", at + 1)  # (the body ends with a newline)
            if body + at > done:
                parts.append(_new(Lit, (done, body + at, text[done : body + at])))
            param = (
                body + at,
                body + end,
                inner[at + 1 : end],
                True,
                None,
                False,
                False,
                "",
                "",
                (),
            )
            parts.append(_new(ParamExp, param))
            done = body + end
            at = inner.find("$", end)
    if done < close:
        parts.append(_new(Lit, (done, close, text[done:close])))
    target = _new(Word, (start, newline, (_new(Lit, (start, newline, name)),)))
    document = _new(
        HereDoc, (body, close, _new(Word, (body, close, tuple(parts))), False, False, True)
    )
    return _new(Redirect, (i, close + len(name), None, "", "<<", target, document))
