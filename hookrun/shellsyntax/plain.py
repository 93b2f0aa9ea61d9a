"""The front end's fast path: a plain line → the same :class:`Script`, without tree-sitter.

Most command lines an agent runs are a few simple commands in a list —
``rm -rf "$TMPDIR/build" && mkdir -p "$TMPDIR/build"``, ``git push --force origin x``,
``curl -fsSL URL | sh`` — and tree-sitter plus the converter are nearly all of their
parse. :func:`read` makes exactly the nodes that path makes of them (the same
:class:`~hookrun.shellsyntax.nodes.Stmt`, ``CallExpr``, ``Word``, ``Lit``, … with the
same offsets) and gives up (None) at anything else, which then goes to tree-sitter:

- **Words**: unquoted letters, digits, ``- _ . / : = , + @ % ~ * ?``; ``'…'``; ``"…"``
  holding no backslash, backquote or ``!``; ``$NAME`` / ``$1`` / ``$#`` (``# @ * ? $ ! -``),
  ``${NAME}``, ``${#NAME}``, ``${NAME[KEY]}``, ``${NAME<op>word}`` (``:- - := = :+ + :?
  ? # ## % %% , ,, ^ ^^``, a plain word; ``:`` a slice offset); ``$( LIST )`` (read as
  a line is, recursively) and ``$(( EXPR ))`` of names, digits, blanks, ``+ - * / %``
  and ``$NAME``, unquoted or in ``"…"``. ASCII text only (offsets are then bytes and
  characters).
- **Commands**: simple ones (assignments first; ``> >> < >& <& <<<`` redirections with
  fd digits after the words), ``[ … ]``, ``( … )``, ``{ …; }``, ``name() { …; }``,
  ``for NAME in WORDS; do …; done``, ``if/elif/else/fi``, ``while``/``until``,
  ``case WORD in [(]P|P) LIST;; … esac``, ``[[ EXPR ]]`` (words, ``!``, ``( )``,
  ``&&``, ``||``, unary and binary operators, an ``=~``'s regex), in pipelines (``|``,
  ``|&``) and lists (``&&``, ``||``, ``;``, ``&``, newlines; a newline may follow
  ``&&``, ``||``, ``|``); arrays ``a=(WORDS)``; a here-document that ends the text
  (``<<NAME`` and a newline, a body of text and ``$NAME``, the line ``NAME``) after a
  command, loop, branch, group or subshell (plaincompound.heredoc); no comment, other
  here-document, ``;&``, other redirection of a compound command, other reserved word or
  declaration builtin.
  Where the tree-sitter path has a quirk this reading cannot match cheaply, the line is
  left to it (each such place says so).

Nothing here is imported with native code: a plain line parses before (and without)
tree-sitter loading. ``tests/shellsyntax/plain_test.py`` pins that wherever this
answers, the answer equals the tree-sitter path's (:func:`parser.parse_tree`) over every
table, corpus and bench line and over generated near-miss lines, and that it fails
when a piece of this reading is broken on purpose.
"""

from __future__ import annotations

from hookrun.records import TYPE_CHECKING
from hookrun.shellsyntax import nodes
from hookrun.shellsyntax.nodes import (
    ArithExp,
    Assign,
    BinaryCmd,
    CallExpr,
    CmdSubst,
    DblQuoted,
    Lit,
    ParamExp,
    Pipeline,
    Redirect,
    Script,
    SglQuoted,
    Stmt,
    Word,
)

if TYPE_CHECKING:
    from types import ModuleType

    from hookrun.shellsyntax.nodes import ArrayElem, WordPart

# (the compound commands' classes are named through `nodes.` where built: a node class is
# made on its first use, ~90k instructions, and a line without them does not make them)

# Read by hand, not by a regex: the shell path loads no `re` (~6M instructions of its
# start-up; tests/shellsyntax/imports_test pins it).
_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_"
_NAME_START = frozenset(_LETTERS)
_DIGITS = frozenset("0123456789")
# An unquoted word's characters (`*`, `?`: a glob, kept as written; `*(` is no word: `(`
# ends it, and a `(` after a word is refused by the reading).
_PLAIN = frozenset(_LETTERS + "0123456789-./:=,+@%~*?")


def _table(*groups: tuple[bytes, bytes]) -> bytes:
    """A bytes.translate table: each group's bytes → its byte, any other byte → b" "
    (made by C loops: a loop over the 256 bytes here cost ~0.1M instructions of import)."""
    named = b"".join(chars for chars, _ in groups)
    to = b"".join(byte * len(chars) for chars, byte in groups)
    others = bytes(range(256)).translate(None, named)
    return bytes.maketrans(named + others, to + b" " * len(others))


_DIGIT_BYTES = b"0123456789"
# A plain character → b"a", any other → b" " (bytes.translate over the ASCII text): the end
# of a run of plain characters is one find.
_RUNS = _table((_LETTERS.encode() + _DIGIT_BYTES + b"-./:=,+@%~*?", b"a"))
# The nodes are made as tuple.__new__ makes them in their own __new__, without the call
# through the class (~1.3k instructions a node, a few dozen nodes a line).
_new = tuple.__new__
# A name's letter → b"n", digit → b"d", any other character → b" ": a `$NAME` ends at one find.
_NAMES = _table((_LETTERS.encode(), b"n"), (_DIGIT_BYTES, b"d"))
# Every byte a plain line may hold outside single quotes (deleted: what is left is not).
# (`{`, `}`: of a `${…}`; anywhere else no word holds them, and the reading refuses them)
# (`[`, `]`, `!`: only as a word of their own, `[ -f x ]`, `test ! -f x`: the reading refuses
# them anywhere else)
# (`#`: of a `${x#…}`; a comment, `a#b`, is refused by the reading)
# (`^`: of a `[[ =~ ]]` regex, `${x^}`; the reading refuses it anywhere else)
_ALLOWED = "".join(sorted({*_PLAIN, *"'\"$ \t;&|()<>{}[]!#^\n"})).encode()
# What a `${NAME<op>word}`'s word may hold: its text is then one literal, as the grammar
# reads it (no quote, `$`, `{`, `}`, `#`, backslash).
_OPERAND = frozenset(_LETTERS + "0123456789-./:=,+@%~*? ")
# The operators of `${NAME<op>word}` read, longest first (`${x:1}`, `${x/a/b}`, `${x@Q}`
# are left to tree-sitter).
# (two characters, then one: looked up, not tried in turn)
_PARAM_OPS2 = frozenset({":-", ":=", ":+", ":?", "##", "%%", ",,", "^^"})
_PARAM_OPS1 = frozenset("-=+?#%,^:")
# The special parameters read: `$#`, `$@`, …, and in braces (`${!…}` is indirection there).
_SPECIAL = frozenset("#@*?$!-")
_BRACED_SPECIAL = frozenset("#@*?$")
# What the grammar reads as text after text in a word (`a$$`).
_TEXT_AFTER_TEXT = "$$"
# Names the grammar reads no assignment to: `_=1` is a command word to it (bash assigns).
_NOT_ASSIGNED = frozenset({"_"})
# The grammar reads a `$?`, `$@`, `$1`, … that is a word's third part (or a later one) and
# has more after it as text (`a$v$?x`, `$@/a~b$@/`); bash expands it. Left to tree-sitter.
_SPECIAL_AS_TEXT = 2
# Lists nested deeper than this (groups, subshells, loops, branches, `$( )`, counted
# together) are left to tree-sitter: its path refuses a text nested past what Python's
# stack holds (Unsupported; ~145 quoted substitutions, ~200 bare ones, ~330 groups), and
# a reading that answered where it refuses would not be its equal. (And a RecursionError
# here, a caller deep in its own stack, gives up too.)
_MAX_NESTING = 40
# What a `$(( … ))` read here may hold (the rest: `$NAME`).
_ARITHMETIC = frozenset(_LETTERS + "0123456789 +-*/%$")
_WORD_ENDS = frozenset(" \t;&|()<>\n")  # what ends a word (else: more of it, or not plain)
# What a program's word may hold (no `=`: an assignment; no `%`, `@`, `:`, `,`, `+`, `~`:
# the grammar refuses some such names, `a%`, `1@`, where bash runs them).
_PROGRAM = frozenset(_LETTERS + "0123456789-./'\"$ \t[")
# Words whose place is a command's and that are no plain program to the grammar:
# reserved words, and declaration builtins (their name=value arguments are Assigns).
_NOT_PLAIN = frozenset(
    ["if", "then", "else", "elif", "fi", "do", "done", "while", "until", "for", "in", "case",
     "esac", "select", "function", "time", "coproc", "declare", "typeset", "export", "local",
     "readonly", "let", "unset", "alias", "!", "{", "}", "-"]
)  # fmt: skip
# (`-`: the converter reads `- a=1` as the assignment alone; bash runs a program `-`)
_SEPARATORS = frozenset({";", "&", "\n"})
_JOINS = frozenset({"&&", "||", "|", "|&"})  # (what joins commands into and-or lists)
_OPERATORS = frozenset(";&|()\n")
# The redirection operators read (`<<` here-documents, `<>`, `>|`, `&>` are left to
# tree-sitter), longest first.
_REDIRECTIONS = (">>", ">&", "<&", "<<<", ">", "<")
# What may not follow assignments alone: the grammar reads their redirections and the
# line after them into one command (gaps 15 and 32).
_NOT_AFTER_ASSIGNMENTS = frozenset({"\n", *_REDIRECTIONS})
# What may follow an array's `)` with no blank between.
_AFTER_ARRAY = frozenset({";", "&", "|", "&&", "||", "|&", ")", ""})
# The compound commands a here-document may follow (`done <<E`).
# (by name: their classes are made on first use)
_HEREDOC_COMPOUNDS = frozenset({"WhileClause", "ForClause", "IfClause", "Block", "Subshell"})
# The words that start a compound command read here.
_COMPOUND_STARTS = frozenset({"{", "for", "if", "case", "while", "until"})
_W, _O, _R = "w", "o", "r"  # a word, an operator, a redirection operator (with its fd)

_Token = tuple[str, str, int, int, "Word | None"]  # (kind, text, start, end, a word's node)
# (and `h`: a `<<NAME` that may start a here-document ending the text, to its newline)
_H = "h"


_more: ModuleType | None = None  # plaincompound, once loaded


def _compound() -> ModuleType:
    """plaincompound (``case``, ``[[ ]]``), loaded on the first line holding one (kept: an
    import statement costs a few thousand instructions each time it runs)."""
    global _more
    if _more is None:
        from hookrun.shellsyntax import plaincompound

        _more = plaincompound
    return _more


class _NotPlain(Exception):
    """The line holds something this reader leaves to tree-sitter."""


def read(source: str) -> Script | None:
    """The front end's :class:`Script` of ``source``, or None when it is not plain."""
    if not source.isascii():
        return None  # (offsets: a character is then a byte)
    src = source.encode()
    if _refused(src):
        return None
    try:
        tokens = _tokens(source, src)
        if tokens is None:
            return None
        stmts = _Reader(source, tokens, 0).sequence(("",))
    except (_NotPlain, RecursionError):  # (nested past what this reads: tree-sitter's)
        return None
    return _new(Script, (tuple(stmts), src))


def _refused(src: bytes) -> bool:
    """A screen by bytes (C loops) before any token is made: whether ``src`` has a byte no
    plain line holds outside quotes, one no plain ``"…"`` holds inside them, or a
    here-document's ``<<`` (anywhere, quoted or not), so that such a line does not pay
    for a reading that gives up.
    Most lines that are not plain are refused here. Only ever a refusal (the reading
    decides what it lets through), and none by bytes for a line with both kinds of
    quotes (which of them quotes the other is the reading's to find)."""
    at = src.find(b"<<")
    while at >= 0:
        after = src[at + 2 : at + 3]
        if after != b"<" and not after.isalpha() and after != b"_":
            return True  # (a here-document, not a here-string, nor `<<NAME`: the reading's)
        at = src.find(b"<<", at + 3)
    if not src.translate(None, _ALLOWED):
        return False  # (most lines: every byte one a plain line may hold, quotes included)
    single, double = src.find(b"'") >= 0, src.find(b'"') >= 0
    if single and double:
        return False
    if single:  # (inside '…' anything goes)
        return bool(b"".join(src.split(b"'")[::2]).translate(None, _ALLOWED))
    if not double:
        return bool(src.translate(None, _ALLOWED))
    pieces = src.split(b'"')
    inside = b"".join(pieces[1::2])
    return bool(b"".join(pieces[::2]).translate(None, _ALLOWED)) or (
        inside.find(b"\\") >= 0 or inside.find(b"`") >= 0 or inside.find(b"!") >= 0
    )


def _tokens(text: str, src: bytes) -> list[_Token] | None:
    """Every word (with its node) and operator; None at anything else."""
    runs = src.translate(_RUNS)  # a plain character is b"a", any other b" "
    names = src.translate(_NAMES) if "$" in text else b""
    scanned = _scan(text, runs, names, 0, 0)
    if scanned is None:
        return None
    out, n = scanned
    out += [(_O, "", n, n, None)] * 2  # the end (twice: a look one token past it stays in range)
    return out


def _scan(
    text: str, runs: bytes, names: bytes, i: int, inner: int
) -> tuple[list[_Token], int] | None:
    """The tokens from ``i`` to the end of the text, or (``inner``: how deep in ``$(…)``
    the body read is) to the ``)`` that closes it, and where they end; None at anything
    not plain."""
    out: list[_Token] = []
    depth = 0  # the `(` read and not closed
    n = len(text)
    while i < n:
        if runs[i] == 97:  # a plain character: a word (most tokens), plain to its end or not
            end = runs.find(b" ", i)
            if end < 0:
                end = n
                c = ""
            else:
                c = text[end]
            if c == " " or not c or c in _WORD_ENDS:  # (most words: one literal)
                value = text[i:end]
                word = _new(Word, (i, end, (_new(Lit, (i, end, value)),)))
            else:
                found = _word(text, runs, names, i, n, inner)
                if found is None:
                    return None  # (a character no plain word holds, an unclosed quote)
                word = found
                end = word.end
                value = text[i:end]
                c = text[end] if end < n else ""
            out.append((_W, value, i, end, word))
            i = end + 1 if c == " " else end  # (and the blank after it)
            continue
        c = text[i]
        if c == " " or c == "\t":
            i += 1
        elif c in _OPERATORS:
            two = c + text[i + 1] if i + 1 < n else c
            if two == "&&" or two == "||" or two == "|&":
                out.append((_O, two, i, i + 2, None))
                i += 3 if i + 2 < n and text[i + 2] == " " else 2  # (and the blank after it)
            elif two == ";;":
                if i + 2 < n and text[i + 2] == "&":
                    return None  # (`;;&`: left to tree-sitter, as `;&` is)
                out.append((_O, two, i, i + 2, None))
                i += 2
            elif two == ";&" or two == "&>":
                return None  # (a case terminator, a redirection)
            else:
                if c == "(":
                    depth += 1
                elif c == ")":
                    if inner and not depth:
                        return out, i  # the substitution's own `)`
                    depth -= 1
                out.append((_O, c, i, i + 1, None))
                i += 2 if two[-1] == " " else 1  # (and the blank after it)
        elif c == "[" and text.startswith("[[", i) and (not i or text[i - 1] in _WORD_ENDS):
            scanned = _compound().condition_tokens(text, runs, names, i, n, inner)
            if scanned is None:
                return None
            out += scanned
            i = scanned[-1][3]
        elif c == "[" or c == "]" or c == "!" or c == "{" or c == "}":
            if (i + 1 < n and text[i + 1] not in _WORD_ENDS) or (
                i and text[i - 1] not in _WORD_ENDS
            ):
                return None  # (a word of its own, or not plain)
            if c == "{" or c == "}":  # (no word's node: only a group's reserved word)
                out.append((_W, c, i, i + 1, None))
            else:
                word = _new(Word, (i, i + 1, (_new(Lit, (i, i + 1, c)),)))
                out.append((_W, c, i, i + 1, word))
            i += 1
        elif c == ">" or c == "<":
            if c == "<" and not inner and text[i - 1] == " " and text[i + 1 : i + 2] == "<":
                after = text[i + 2 : i + 3]  # (`<<NAME`: its body and end are the reader's)
                newline = text.find("\n", i) if after.isalpha() or after == "_" else -1
                if newline > 0:
                    out.append((_H, "<<", i, newline, None))
                    i = n
                    continue
            token = _redirection(text, out, i)
            if token is None:
                return None
            out.append(token)
            i = token[3]
        else:  # (a word starting with a quote or `$`)
            found = _word(text, runs, names, i, n, inner)
            if found is None:
                return None  # (a character no plain word holds, an unclosed quote)
            end = found.end
            out.append((_W, text[i:end], i, end, found))
            i = end
    return None if inner else (out, n)  # (a `$(` not closed)


def _redirection(text: str, out: list[_Token], i: int) -> _Token | None:
    """The redirection operator at ``i`` (a token from its fd's digits, when a word of
    digits just before it is one: it is then taken off ``out``); None if it is none
    this reader reads."""
    for op in _REDIRECTIONS:
        if text.startswith(op, i):
            break
    else:
        return None  # (not reached: `>` and `<` are operators)
    end = i + len(op)
    if end < len(text) and text[end] in "<>&|(":
        return None  # `<<` (not `<<<`), `<>`, `>|`, `>>&`, `<(`, …
    start = i
    if out:
        kind, value, before, after, _ = out[-1]
        if kind == _W and after == i and value[0] == "-" and value[-1].isdigit():
            return None  # (`-1<x`, `-n1<x`: a descriptor to the grammar; bash runs `-1`)
        if kind == _W and after == i and value.isdigit():  # `2>`: the descriptor
            if op == "<<<":
                return None  # (`3<<< x`: the grammar refuses it; bash does not)
            out.pop()
            start = before
    return (_R, op, start, end, None)


def _word(text: str, runs: bytes, names: bytes, i: int, n: int, level: int) -> Word | None:
    """The word starting at ``i``; None if none does, or it is not plain."""
    start = i
    parts: list[WordPart] = []
    while i < n:
        c = text[i]
        if runs[i] == 97:  # plain characters, up to the next other one
            end = runs.find(b" ", i)
            if end < 0:
                end = n
            parts.append(_new(Lit, (i, end, text[i:end])))
            i = end
        elif c == "'":
            close = text.find("'", i + 1)
            if close < 0:
                return None
            parts.append(_new(SglQuoted, (i, close + 1, text[i + 1 : close], False)))
            i = close + 1
        elif c == '"':
            close = text.find('"', i + 1)
            if close < 0:
                return None
            subst = text.find("$(", i + 1, close)
            if subst < 0:
                inner = _quoted_parts(text, names, i + 1, close)
                if inner is None:
                    return None
                parts.append(_new(DblQuoted, (i, close + 1, inner, False)))
            else:
                quoted = _quoted_substitutions(text, runs, names, i, level)
                if quoted is None:
                    return None
                parts.append(quoted)
                close = quoted.end - 1
            i = close + 1
        elif c == "$":
            found: CmdSubst | ArithExp | ParamExp | None
            if parts and text.startswith(_TEXT_AFTER_TEXT, i):
                return None  # (`a$$`: one literal to the grammar)
            if i + 1 < n and text[i + 1] == "(":  # `$(`
                found = _substitution(text, runs, names, i, level)
            else:
                found = _param(text, names, i, n)
                if (
                    len(parts) >= _SPECIAL_AS_TEXT
                    and found is not None
                    and found.short
                    and found.name[0] not in _NAME_START
                ):
                    return None  # (`a$v$?x`, `a$v$1/`: text to the grammar, see _SPECIAL_AS_TEXT)
            if found is None:
                return None
            parts.append(found)
            i = found.end
        else:
            break
    return _new(Word, (start, i, tuple(parts))) if parts else None


def _substitution(
    text: str, runs: bytes, names: bytes, i: int, level: int
) -> CmdSubst | ArithExp | None:
    """The ``$( LIST )`` or ``$(( EXPR ))`` at ``i`` (``level`` substitutions deep);
    None if not one read here."""
    if text.startswith("$((", i):
        return _arithmetic(text, names, i)
    if level >= _MAX_NESTING:
        return None
    scanned = _scan(text, runs, names, i + 2, level + 1)
    if scanned is None:
        return None
    tokens, close = scanned
    tokens += [(_O, "", close, close, None)] * 2
    stmts = _Reader(text, tokens, level + 1).sequence(("",))  # (raises _NotPlain)
    return _new(CmdSubst, (i, close + 1, tuple(stmts), False))


def _arithmetic(text: str, names: bytes, i: int) -> ArithExp | None:
    """The ``$(( EXPR ))`` at ``i``, when EXPR holds only names, digits, blanks, ``+ - *
    / %`` and ``$NAME`` (its text then Lits and ParamExps, as the converter reads it)."""
    start = i + 3
    close = text.find("))", start)
    if close <= start:
        return None
    expr = text[start:close]
    if not _ARITHMETIC.issuperset(expr) or expr.isspace():
        return (
            None  # (`$(( )) $(( ))`: the grammar reads one from the first `$((` to the last `))`)
        )
    pieces = expr.split()
    for k in range(len(pieces) - 1):
        if pieces[k][-1] not in "+-*/%" and pieces[k + 1][0] not in "+-*/%":
            return None  # (`$((a b c))`: no arithmetic, and the grammar errs on some)
    parts: list[Lit | ParamExp] = []
    done = start
    at = text.find("$", start, close)
    while at >= 0:
        end = _name_end(names, at + 1, close)
        if end < 0:
            return None
        if at > done:
            parts.append(_new(Lit, (done, at, text[done:at])))
        parts.append(
            _new(ParamExp, (at, end, text[at + 1 : end], True, None, False, False, "", "", ()))
        )
        done = end
        at = text.find("$", done, close)
    if done < close:
        parts.append(_new(Lit, (done, close, text[done:close])))
    return _new(ArithExp, (i, close + 2, _new(Word, (start, close, tuple(parts)))))


def _quoted_substitutions(
    text: str, runs: bytes, names: bytes, i: int, level: int
) -> DblQuoted | None:
    """The ``"…"`` at ``i`` holding a ``$(…)`` or ``$((…))`` (whose text may hold quotes
    of its own); None unless what lies between them is plain (no ``${``)."""
    parts: list[WordPart] = []
    at = i + 1
    while True:
        close = text.find('"', at)
        if close < 0:
            return None
        subst = text.find("$(", at, close)
        stop = close if subst < 0 else subst
        if at < stop:
            if text.find("${", at, stop) >= 0:
                return None  # (the quirk of a `${…}` after blanks: left to tree-sitter)
            between = _quoted_parts(text, names, at, stop)
            if between is None:
                return None
            parts += between
        if subst < 0:
            return _new(DblQuoted, (i, close + 1, tuple(parts), False))
        found = _substitution(text, runs, names, subst, level)
        if found is None:
            return None
        parts.append(found)
        at = found.end


def _param(text: str, names: bytes, i: int, n: int) -> ParamExp | None:
    """The ``$NAME``, ``$1``, ``${NAME}``, ``${#NAME}`` or ``${NAME<op>word}`` at ``i``
    (up to ``n``); None if none is there, or not one read here."""
    if i + 1 >= n:
        return None
    kind = names[i + 1]  # (_name_end's reading, inline: most `$` are a `$NAME`)
    if kind == 110:  # b"n": a name starts with a letter or `_` (digits go on it)
        end = names.find(b" ", i + 2)
        if end < 0 or end > n:
            end = n
    elif kind == 100:  # b"d": `$1` is one digit
        end = i + 2
    elif text[i + 1] == "{":  # `${`
        return _braced(text, names, i, n)
    elif text[i + 1] in _SPECIAL:
        end = i + 2  # (`$#`, `$@`, …: one character)
    else:
        return None
    return _new(ParamExp, (i, end, text[i + 1 : end], True, None, False, False, "", "", ()))


def _braced(text: str, names: bytes, i: int, n: int) -> ParamExp | None:
    """The ``${…}`` at ``i`` (see _param)."""
    close = text.find("}", i + 2, n)
    if close < 0:
        return None
    at = i + 2
    length = text[at] == "#" and at + 1 < close  # (`${#}`: `$#`)
    if length:
        at += 1
    end = _name_end(names, at, close)
    key: Word | None = None
    if end < 0:
        if at >= close or text[at] not in _BRACED_SPECIAL or (length and text[at] == "#"):
            return None  # (`${##}`: a bad substitution to the grammar)
        end = at + 1  # (`${@}`, `${#@}`, `${@:-x}`, `${@: -1}`, …)
    elif text[end] == "[":  # `${a[1]}`, `${#a[@]}`
        shut = text.find("]", end, close)
        index = text[end + 1 : shut]
        if shut < 0 or not (index.isdigit() or index == "@" or index == "*" or _name(index)):
            return None
        key = _new(Word, (end + 1, shut, (_new(Lit, (end + 1, shut, index)),)))
        if shut + 1 != close:
            return None  # (`${a[1]:-x}`: left to tree-sitter)
        return _new(ParamExp, (i, close + 1, text[at:end], False, key, length, False, "", "", ()))
    name = text[at:end]
    if end == close:
        return _new(ParamExp, (i, close + 1, name, False, None, length, False, "", "", ()))
    if length:
        return None  # (`${#x…}`)
    op = text[end : end + 2]
    if op not in _PARAM_OPS2:
        op = text[end]
        if op not in _PARAM_OPS1:
            return None
    start = end + len(op)
    operand = text[start:close]
    if not _OPERAND.issuperset(operand) or (op == "##" and not operand):
        return None  # (`${x##}`: the grammar reads `#` and a `#`)
    if op == ":" and not operand.lstrip(" ").lstrip("-").isdigit():
        return None  # (a slice: `${x: -1}`, `${@:2}`; not `${x:1:2}`, `${x:a}`)
    if operand:
        word = _new(Word, (start, close, (_new(Lit, (start, close, operand)),)))
    else:
        word = _new(Word, (close, close, ()))
    return _new(ParamExp, (i, close + 1, name, False, None, False, False, "", op, (word,)))


def _name(text: str) -> bool:
    """Whether ``text`` is an ASCII shell name."""
    return text.isidentifier() and text.isascii()


def _name_end(names: bytes, i: int, n: int) -> int:
    """The end of the ``NAME`` / digit of a ``$NAME`` at ``i`` (``names``: the text
    through _NAMES); -1 if none is there."""
    if i >= n:
        return -1
    kind = names[i]
    if kind == 100:  # b"d": `$1` is one digit
        return i + 1
    if kind != 110:  # b"n": a name starts with a letter or `_`
        return -1
    end = names.find(b" ", i + 1)  # (digits go on a name)
    return n if end < 0 or end > n else end


def _quoted_parts(
    text: str, names: bytes, start: int, close: int
) -> tuple[Lit | ParamExp, ...] | None:
    """The parts of a double-quoted string's inside (``start`` to ``close``); None unless
    it holds no backslash, backquote or ``!``, and ``$`` only before a name."""
    inner = text[start:close]
    if "\\" in inner or "`" in inner or "!" in inner:
        return None
    at = inner.find("$")
    if at < 0:  # (most strings: one literal, or none)
        return (_new(Lit, (start, close, inner)),) if inner else ()
    parts: list[Lit | ParamExp] = []
    done = start
    at += start
    while at >= 0:
        param = _param(text, names, at, close)
        if param is None:
            return None
        if at > done:
            gap = text[done:at]
            if (
                not param.short
                and not gap.strip(" \t")
                and (not parts or type(parts[-1]) is ParamExp)
            ):
                # (the grammar's `${…}` after blanks alone, at the start or after an
                # expansion, starts at the blanks)
                param = _new(ParamExp, (done, *param[1:]))
            parts.append(_new(Lit, (done, at, gap)))
        parts.append(param)
        done = param.end
        at = text.find("$", done, close)
    if done < close:
        parts.append(_new(Lit, (done, close, text[done:close])))
    return tuple(parts)


class _Reader:
    """A list of pipelines of commands (see the module's docstring)."""

    def __init__(self, text: str, tokens: list[_Token], depth: int) -> None:
        self.text = text
        self.tokens = tokens
        self.k = 0  # the next token
        self.closer = ""  # the word that closed the last sequence
        self.after = 0  # the last separator read after a statement (its token's index)
        self.depth = depth  # the lists (and substitutions) this one is in
        self.brackets = "[" in text or "]" in text  # (a `[` command's words may be there)
        self.heredoc = False  # a command's here-document was read

    def newlines(self) -> None:
        tokens = self.tokens
        while tokens[self.k][1] == "\n":
            self.k += 1

    def sequence(self, closers: tuple[str, ...]) -> list[Stmt]:
        """Statements up to one of ``closers`` (``)``, ``done``, ``then``, …; "" the end),
        which is read (and kept in ``self.closer``)."""
        tokens = self.tokens
        stmts: list[Stmt] = []
        self.depth += 1
        if self.depth > _MAX_NESTING:
            raise _NotPlain  # (the tree-sitter path's limits are its own: see _MAX_NESTING)
        while True:
            kind, value, _at, _end, _word = tokens[self.k]
            while value == "\n":  # (blank lines)
                self.k += 1
                kind, value, _at, _end, _word = tokens[self.k]
            if value in closers and kind != _R:
                if not stmts:
                    raise _NotPlain  # nothing, `()`, `do done`: left to tree-sitter
                self.k += 1
                self.closer = value
                self.depth -= 1
                return stmts
            if kind == _O and value == "":
                raise _NotPlain  # unclosed
            stmt = self.command()
            value = tokens[self.k][1]
            if value in _JOINS:
                stmt = self.and_or(stmt, value)
                value = tokens[self.k][1]
            if value in _SEPARATORS:
                self.after = self.k
                self.k += 1
                if value == "&":
                    stmt = stmt._replace(background=True)
            elif not (((value == ")" or value == ";;") and value in closers) or value == ""):
                stmt = self.compound_heredoc(stmt)  # (else a `done` comes after a separator)
            stmts.append(stmt)

    def compound_heredoc(self, stmt: Stmt) -> Stmt:
        """``stmt``, a compound command, with the here-document that ends the text after it
        (the statement then ends at its delimiter); _NotPlain if that is not what follows."""
        kind, _value, at, end, _word = self.tokens[self.k]
        if kind != _H or type(stmt.cmd).__name__ not in _HEREDOC_COMPOUNDS:
            raise _NotPlain
        heredoc = _compound().heredoc(self.text, at)
        if heredoc is None:
            raise _NotPlain
        self.k += 1
        return _new(Stmt, (stmt.pos, end, stmt.cmd, (heredoc,), False, False))

    def and_or(self, left: Stmt, op: str) -> Stmt:
        """The and-or list of pipelines that starts with the command ``left``, whose
        operator ``op`` (one of _JOINS) is the next token."""
        tokens = self.tokens
        if op == "|" or op == "|&":
            left = self.pipeline(left, op)
            op = tokens[self.k][1]
        while op == "&&" or op == "||":
            self.k += 1
            self.newlines()  # a newline may follow them
            right = self.command()
            after = tokens[self.k][1]
            if after == "|" or after == "|&":
                right = self.pipeline(right, after)
            if self.heredoc:
                raise _NotPlain  # (the tree-sitter path's spans differ: `a && cat <<E`)
            left = _new(
                Stmt,
                (
                    left.pos,
                    right.end,
                    _new(BinaryCmd, (left.pos, right.end, op, left, right)),
                    (),
                    False,
                    False,
                ),
            )
            op = tokens[self.k][1]
        return left

    def pipeline(self, first: Stmt, op: str) -> Stmt:
        """The pipeline that starts with the command ``first``, whose ``op`` (``|``,
        ``|&``) is the next token."""
        tokens = self.tokens
        stages = [first]
        stderr: list[bool] = []
        while op == "|" or op == "|&":
            stderr.append(op == "|&")
            self.k += 1
            self.newlines()
            stages.append(self.command())
            op = tokens[self.k][1]
        if self.heredoc:
            raise _NotPlain  # (`a | cat <<E`: left to tree-sitter)
        pos, end = first.pos, stages[-1].end
        return _new(
            Stmt,
            (pos, end, _new(Pipeline, (pos, end, tuple(stages), tuple(stderr))), (), False, False),
        )

    def command(self) -> Stmt:
        kind, value, start, end, _word = self.tokens[self.k]
        if kind == _O and value == "(":
            after = self.tokens[self.k + 1]
            if after[1] == "(" and after[2] == end:
                raise _NotPlain  # `((`: arithmetic
            self.k += 1
            stmts = self.sequence((")",))
            end = self.tokens[self.k - 1][3]
            return _new(
                Stmt,
                (start, end, _new(nodes.Subshell, (start, end, tuple(stmts))), (), False, False),
            )
        if kind == _O and value == "[[":
            return self.test_clause(start)
        if kind == _W:
            after = self.tokens[self.k + 1]
            if value not in _COMPOUND_STARTS and (after[1] != "(" or after[2] != end):
                return self.simple()  # (most commands)
            if value == "{":
                return self.group(start)
            if after[1] == "(" and after[2] == end and value[-1] != "=":  # `name()`
                return self.function(start, value)
            if value == "for":
                self.k += 1
                return self.loop(start)
            if value == "if":
                self.k += 1
                return self.conditional(start)
            if value == "case":
                self.k += 1
                return self.case(start)
            if value == "while" or value == "until":
                self.k += 1
                cond = self.sequence(("do",))
                body = self.sequence(("done",))
                end = self.tokens[self.k - 1][3]
                loop = _new(
                    nodes.WhileClause, (start, end, value == "until", tuple(cond), tuple(body))
                )
                return _new(Stmt, (start, end, loop, (), False, False))
        return self.simple()

    def group(self, start: int) -> Stmt:
        """``{ LIST; }`` (at its ``{``)."""
        self.k += 1
        stmts = self.sequence(("}",))
        end = self.tokens[self.k - 1][3]
        return _new(
            Stmt, (start, end, _new(nodes.Block, (start, end, tuple(stmts))), (), False, False)
        )

    def function(self, start: int, name: str) -> Stmt:
        """``name() { LIST; }`` (at its name)."""
        tokens, k = self.tokens, self.k
        if not name.isidentifier() or name in _NOT_PLAIN:
            raise _NotPlain
        shut, brace = tokens[k + 2], tokens[k + 3]
        if shut[1] != ")" or shut[2] != tokens[k + 1][3] or brace[:2] != (_W, "{"):
            raise _NotPlain  # (`f() x`, `f ( )`: left to tree-sitter)
        self.k = k + 3
        body = self.group(brace[2])
        end = body.end
        return _new(
            Stmt, (start, end, _new(nodes.FuncDecl, (start, end, name, body)), (), False, False)
        )

    def conditional(self, start: int) -> Stmt:
        """``if LIST; then LIST; [elif LIST; then LIST;]… [else LIST;] fi`` (after ``if``)."""
        branches: list[tuple[tuple[Stmt, ...], tuple[Stmt, ...]]] = []
        else_: tuple[Stmt, ...] | None = None
        closer = "elif"
        while closer == "elif":
            cond = self.sequence(("then",))
            body = self.sequence(("elif", "else", "fi"))
            branches.append((tuple(cond), tuple(body)))
            closer = self.closer
        if closer == "else":
            else_ = tuple(self.sequence(("fi",)))
        end = self.tokens[self.k - 1][3]
        clause = _new(nodes.IfClause, (start, end, tuple(branches), else_))
        return _new(Stmt, (start, end, clause, (), False, False))

    def case(self, start: int) -> Stmt:
        """``case … esac`` (after ``case``): see plaincompound.case."""
        stmt: Stmt = _compound().case(self, start)
        return stmt

    def test_clause(self, start: int) -> Stmt:
        """``[[ … ]]`` (at its ``[[``): see plaincompound.test_clause."""
        stmt: Stmt = _compound().test_clause(self, start)
        return stmt

    def loop(self, start: int) -> Stmt:
        """``for NAME in WORDS; do LIST; done`` (after ``for``)."""
        tokens = self.tokens
        name, keyword = tokens[self.k], tokens[self.k + 1]
        if not (name[0] == _W and name[1].isidentifier()) or name[1] in _NOT_PLAIN:
            raise _NotPlain
        if keyword[:2] != (_W, "in"):
            raise _NotPlain
        self.k += 2
        words: list[Word] = []
        while tokens[self.k][0] == _W:
            _kind, value, _start, _end, word = tokens[self.k]
            if value in ("do", "done", "in") or word is None:
                raise _NotPlain
            words.append(word)
            self.k += 1
        if not words or tokens[self.k][1] not in (";", "\n"):
            raise _NotPlain  # (`for d in ⏎do`: bash reads it, the grammar does not)
        self.k += 1
        self.newlines()
        if tokens[self.k][:2] != (_W, "do"):
            raise _NotPlain
        self.k += 1
        body = self.sequence(("done",))
        end = tokens[self.k - 1][3]
        loop = _new(nodes.ForClause, (start, end, name[1], tuple(words), tuple(body)))
        return _new(Stmt, (start, end, loop, (), False, False))

    def simple(self) -> Stmt:
        """A simple command: assignments, words, then redirections."""
        tokens = self.tokens
        k = self.k
        kind, first, start, end, word = tokens[k]
        assigns: list[Assign] = []
        while word is not None and "=" in first:  # (_assignment: not at the start)
            assign = _assignment(self.text, first, word)
            if assign is None:
                break
            k += 1
            kind, first, after, end, word = tokens[k]
            if after == assign.end and first and not assign.value.parts:  # type: ignore[union-attr]
                if first != "(":
                    raise _NotPlain  # (`a=|b`: the grammar refuses it; bash does not)
                assign, k = _array(tokens, k, assign)  # `a=(x y)`
                kind, first, after, end, word = tokens[k]
                if after == assign.end and first not in _AFTER_ARRAY:
                    raise _NotPlain  # (`a=(x)y`, `a=(x)>f`: the grammar's spans differ)
            assigns.append(assign)
        args: list[Word] = []
        if word is not None:
            if first in _NOT_PLAIN or not _PROGRAM.issuperset(first):
                raise _NotPlain  # (not a plain program: a keyword, a declaration builtin)
            head = word.parts[0]
            if head.end < word.end and type(head) is Lit and head.text in _NOT_PLAIN:
                raise _NotPlain  # (`case$x`: the grammar reads the reserved word alone)
            at = k
            while word is not None:
                args.append(word)
                k += 1
                word = tokens[k][4]
            if self.brackets:  # (the line holds a `[` or `]`: a word of them?)
                brackets = 0  # the `[` and `]` words
                for token in tokens[at:k]:
                    if token[1] == "[" or token[1] == "]":
                        brackets += 1
                if brackets and not _test_command(first, tokens[k - 1][1], brackets):
                    raise _NotPlain
        if not args and (not assigns or tokens[k][1] in _NOT_AFTER_ASSIGNMENTS):
            # (an operator, redirections alone; the grammar reads an assignment's
            # redirections and the line after it into one command: gaps 15 and 32)
            raise _NotPlain
        stop = (args[-1] if args else assigns[-1]).end
        if tokens[k][0] == _H:  # (a here-document ending the text: the command's only redirection)
            heredoc = _compound().heredoc(self.text, tokens[k][2])
            if heredoc is None or not args:
                raise _NotPlain
            self.heredoc = True
            self.k = k + 1
            call = _new(CallExpr, (start, stop, tuple(assigns) if assigns else (), tuple(args)))
            return _new(Stmt, (start, heredoc.end, call, (heredoc,), False, False))
        redirects: list[Redirect] = []
        joined = bool(args)  # here-strings right after the words: in the command's span
        while tokens[k][0] == _R:
            _kind, op, at, after, _ = tokens[k]
            target = tokens[k + 1][4]
            if target is None:
                raise _NotPlain  # (no word after the operator)
            fd = int(self.text[at : after - len(op)]) if at < after - len(op) else None
            redirects.append(_new(Redirect, (at, target.end, fd, "", op, target, None)))
            if op == "<<<" and joined:
                stop = target.end
            else:
                joined = False
            k += 2
            if tokens[k][4] is not None:
                raise _NotPlain  # (a word after a redirection: the grammar's spans differ)
        self.k = k
        end = redirects[-1].end if redirects else stop
        call = _new(CallExpr, (start, stop, tuple(assigns) if assigns else (), tuple(args)))
        return _new(Stmt, (start, end, call, tuple(redirects) if redirects else (), False, False))


def _array(tokens: list[_Token], k: int, assign: Assign) -> tuple[Assign, int]:
    """``assign`` (``a=``) with the array at ``tokens[k]``, its ``(``, and the token after
    its ``)`` (words only, on one line: ``[k]=v`` and newlines are left to tree-sitter)."""
    elements: list[ArrayElem] = []
    k += 1
    while True:
        _kind, value, _at, end, word = tokens[k]
        k += 1
        if word is None:
            if value != ")":
                raise _NotPlain
            break
        elements.append(_new(nodes.ArrayElem, (None, word)))
    return assign._replace(end=end, value=None, array=tuple(elements)), k


def _test_command(first: str, last: str, brackets: int) -> bool:
    """Whether a command whose words hold ``brackets`` ``[`` / ``]`` words is one
    ``[ … ]`` (a `[` or `]` elsewhere has gap 10's quirks: left to tree-sitter)."""
    return brackets == 2 and first == "[" and last == "]"


def _assignment(text: str, value: str, word: Word) -> Assign | None:
    """The ``NAME=value`` / ``NAME+=value`` of a word (``value``: its text), or None."""
    eq = value.find("=")
    if eq <= 0:
        return None
    append = value[eq - 1] == "+"
    name = value[: eq - 1] if append else value[:eq]
    if not name.isidentifier() or not name.isascii() or name in _NOT_ASSIGNED:
        return None
    first = word.parts[0]
    if type(first) is not Lit or first.end - first.pos <= eq:
        return None  # (the `=` is not in the word's first, unquoted, text)
    at = word.pos + eq + 1  # the value's start
    rest = word.parts[1:]
    if first.end > at:
        rest = (_new(Lit, (at, first.end, text[at : first.end])), *rest)
    return _new(
        Assign, (word.pos, word.end, name, None, append, _new(Word, (at, word.end, rest)), None)
    )
