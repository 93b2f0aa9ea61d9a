"""The arguments of a call in perl, ruby or awk code, read from that language's tokens.

Each language's reader (:mod:`inline_perl`, :mod:`inline_ruby`, :mod:`inline_awk`) turns
its code into :data:`Tok` tuples with its own quoting rules — string literals decoded
as the interpreter decodes them, comments and regular expressions dropped — and asks
:func:`call_args` for the arguments of each call that runs a program or deletes a tree.
An argument is known text only where the code spells it: a string literal, several
joined by the language's concatenation, a list of them (``qw(…)``, ``[…]``) or an
environment lookup (``$ENV{HOME}``, ``ENV["HOME"]``, ``ENVIRON["HOME"]``: each
reader makes it a value token of that name); anything
else is a value only the running program knows (:data:`UNKNOWN`).
"""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar

from hookrun.hooks.shell_guard.model import Part, Var, Word
from hookrun.hooks.shell_guard.parse import TooDeep
from hookrun.records import NamedTuple

# (kind, text, parts): kind "w" a name, "s" a string literal (parts: its value), "x" a
# command string the language runs (backticks, qx, %x), "v" a value (parts: Var), "n" a
# number or symbol, "g" a glob (parts: its pattern), "p" punctuation (text: the
# operator, "nl" for a newline that may end a statement).
Tok = tuple[str, str, tuple[Part, ...]]

UNKNOWN_NAME = "code_value"  # shown in a reason as $code_value
UNKNOWN: Part = Var(UNKNOWN_NAME)

_OPEN = {"(": ")", "[": "]", "{": "}"}
_CLOSE = frozenset(_OPEN.values())
# A token after which `/` (and perl's `<`, ruby's `%`, `<<`) is an operator: it ends a value.
_OCTAL = "01234567"
_HEX = "0123456789abcdefABCDEF"
_VALUE_KINDS = frozenset({"s", "x", "v", "n", "g", "r"})
_VALUE_P = frozenset({")", "]", "}"})
# eval of a string inside eval…: read this deep; deeper is refused as misc.too-deep (not
# code an agent writes; the readers must not recurse without end on one made so)
MAX_EVAL = 8


class Arg(NamedTuple):
    """One argument: ``kind`` "str" (``parts`` known), "list" (``items``; ``keys`` "*"
    when spread by ruby's splat), "hash" (``keys``: its ``key: value`` texts), "kw" (a
    ``key: value`` keyword argument), "num" (a number)."""

    kind: str
    parts: tuple[Part, ...] = ()
    items: tuple[Arg, ...] = ()
    keys: tuple[str, ...] = ()


def merged(parts: list[Part] | tuple[Part, ...]) -> tuple[Part, ...]:
    """Adjacent text parts joined (a word's parts, as the shell front end makes them)."""
    out: list[Part] = []
    for p in parts:
        if isinstance(p, str):
            if not p:
                continue
            if out and isinstance(out[-1], str):
                out[-1] += p
                continue
        out.append(p)
    return tuple(out)


def word(parts: tuple[Part, ...]) -> Word:
    """An argv word of ``parts`` (unknown parts shown as ``$NAME``)."""
    parts = merged(parts) or ("",)
    return Word(parts, shell_text(parts))


def shell_text(parts: tuple[Part, ...]) -> str:
    """``parts`` as the shell text a program hands ``sh -c``: an environment value as
    ``${NAME}`` (the same text once expanded), an unknown value as an unset name."""
    return "".join(p if isinstance(p, str) else "${" + p.name + "}" for p in parts)


def flat(args: list[Arg] | tuple[Arg, ...]) -> list[Arg]:
    """Lists flattened into their items (perl and ruby pass a list's elements)."""
    out: list[Arg] = []
    for a in args:
        if a.kind == "list":
            out.extend(flat(a.items))
        else:
            out.append(a)
    return out


def matching(toks: list[Tok], i: int) -> int:
    """Index of the bracket closing the one at ``i`` (``len(toks)`` when unclosed)."""
    depth = 0
    for k in range(i, len(toks)):
        kind, text, _ = toks[k]
        if kind != "p":
            continue
        if text in _OPEN:
            depth += 1
        elif text in _CLOSE:
            depth -= 1
            if depth == 0:
                return k
    return len(toks)


def call_args(
    toks: list[Tok],
    i: int,
    *,
    concat: frozenset[str],
    stops: frozenset[str] = frozenset(),
) -> tuple[list[Arg], int]:
    """The arguments of a call whose name ends before ``toks[i]``, and where they end.

    ``(a, b)`` or, without parentheses, up to the statement's end (``;``, a newline
    not after a comma, a closing bracket, a name in ``stops``). ``concat``: the
    operators joining strings (perl ``.``, ruby ``+``; awk writes them side by side).
    """
    n = len(toks)
    if i < n and toks[i][:2] == ("p", "("):
        end = matching(toks, i)
        return split_args(toks, i + 1, end, concat), min(end + 1, n)
    k = i
    while k < n:
        kind, text, _ = toks[k]
        if kind == "p":
            if text in _OPEN:
                k = matching(toks, k) + 1
                continue
            if text in _CLOSE or text == ";":
                break
            if text == "nl" and not (
                k > i and toks[k - 1][0] == "p" and toks[k - 1][1] not in _CLOSE
            ):
                break  # (a line ending in an operator or a comma goes on)
        elif kind == "w" and text in stops:
            break
        k += 1
    return split_args(toks, i, k, concat), k


def split_args(toks: list[Tok], start: int, end: int, concat: frozenset[str]) -> list[Arg]:
    """The comma-separated arguments in ``toks[start:end]``."""
    out: list[Arg] = []
    k = start
    piece_start = start
    while k <= end:
        if k == end or (toks[k][0] == "p" and toks[k][1] in (",", "=>")):
            piece = [t for t in toks[piece_start:k] if t[:2] != ("p", "nl")]
            if piece:
                out.append(value(piece, concat))
            piece_start = k + 1
            k += 1
            continue
        if toks[k][0] == "p" and toks[k][1] in _OPEN:
            k = matching(toks, k) + 1
            continue
        k += 1
    return out


def value(piece: list[Tok], concat: frozenset[str]) -> Arg:
    """What one argument's tokens are: known text, a list, a hash or unknown."""
    splat = len(piece) > 1 and piece[0][:2] == ("p", "*")
    if splat:
        piece = piece[1:]  # ruby's splat: `File.delete(*Dir.glob("…"))`, `system(*%w[…])`
    first_kind, first_text, _ = piece[0]
    if first_kind == "p" and first_text in ("[", "(") and matching(piece, 0) == len(piece) - 1:
        items = split_args(piece, 1, len(piece) - 1, concat)
        if first_text == "(" and len(items) == 1:
            return items[0]
        return Arg("list", items=tuple(items), keys=("*",) if splat else ())
    if first_kind == "n" and len(piece) == 1:
        return Arg("num")
    if first_kind == "p" and first_text == "{" and matching(piece, 0) == len(piece) - 1:
        return Arg("hash", keys=_keys(piece[1:-1]))
    if first_kind == "w" and len(piece) >= 3 and piece[1][:2] == ("p", ":"):
        return Arg("kw", keys=(first_text + ":" + "".join(t[1] for t in piece[2:]),))
    parts: list[Part] = []
    want_value = True
    for kind, text, tparts in piece:
        if kind in ("s", "v", "g") and (want_value or not concat):
            parts.extend(tparts)
            want_value = False
        elif kind == "p" and text in concat and not want_value:
            want_value = True
        else:
            return Arg("str", (UNKNOWN,))
    return Arg("str", tuple(parts))


def _keys(toks: list[Tok]) -> tuple[str, ...]:
    """``key: value`` / ``key => value`` texts of a hash's tokens."""
    out: list[str] = []
    key = ""
    for kind, text, parts in toks:
        if kind == "p" and text in (",", "nl"):
            key = ""
        elif kind == "p" and text in (":", "=>"):
            key += ":"
        else:
            shown = "".join(p for p in parts if isinstance(p, str)) if kind == "s" else text
            key += shown
            if ":" in key:
                out.append(key)
    return tuple(out)


# ------------------------------------------------------------ shared by the perl and ruby readers


# The values of the variables the code being read assigns once, each to a literal, by
# the reader's name for them (perl `$c`, ruby `c`): what an interpolation of one in a
# string is (each reader's string decoder asks :func:`bound`). A context variable: two
# threads may read code at once.
_BOUND: ContextVar[dict[str, tuple[Part, ...]] | None] = ContextVar("inline_bound", default=None)
# A variable followed by one of these and `=` is changed in place (`$c .= "x"`, `c += …`).
_MODIFY = frozenset({".", "+", "-", "*", "/", "|", "&", "||", "&&", "//", "x", "<<", "**", "^"})

VarOf = Callable[[list[Tok], int], "str | None"]


def bound(name: str) -> tuple[Part, ...] | None:
    """The literal value the code being read gives variable ``name``, when it gives one."""
    known = _BOUND.get()
    return None if known is None else known.get(name)


def read_code(
    code: str,
    depth: int,
    *,
    may_run: Callable[[str], bool],
    lex: Callable[..., list[Tok]],
    calls: Callable[[list[Tok], int], tuple[list[str], list[list[Word]]]],
    var: VarOf | None = None,
    concat: frozenset[str] = frozenset(),
) -> tuple[list[str], list[list[Word]]]:
    """(shell code strings, argv lists) that ``code`` runs, read by one language's ``lex``
    and ``calls`` (``depth``: how deep in ``eval`` strings this code stands).

    ``var`` names the variable a token is a reference to (None: not one): a variable the
    code assigns once, to a literal (``$c = "rm -rf /"; system($c)``), is read as that
    literal where it is used — in a call's arguments and interpolated into a string."""
    if not may_run(code):
        return [], []
    if depth > MAX_EVAL:  # judged as misc.too-deep (engine.judge catches it)
        raise TooDeep(f"eval nested more than {MAX_EVAL} deep")
    toks = _bound_lex(code, lex, var, concat, True)
    shell, argvs = calls(toks, depth)
    if any(kind == "r" and may_run(text) for kind, text, _ in toks):
        # A `/` after a name may be a division (`b = 4; a = b /2; system(…)`) where it
        # was read as a regular expression: the code is also read so, and both count.
        more_shell, more_argvs = calls(_bound_lex(code, lex, var, concat, False), depth)
        shell.extend(x for x in more_shell if x not in shell)
        argvs.extend(x for x in more_argvs if x not in argvs)
    return shell, argvs


def _bound_lex(
    code: str, lex: Callable[..., list[Tok]], var: VarOf | None, concat: frozenset[str], regex: bool
) -> list[Tok]:
    """``code``'s tokens, each reference to a variable bound to a literal replaced by the
    literal's tokens, and its interpolations in strings decoded with the literal's text."""
    toks = lex(code, regex=regex)
    if var is None:
        return toks
    binds = bindings(toks, var, concat)
    if not binds or _too_many_uses(code, toks, binds, var):
        return toks  # (as before: their values unknown)
    values = {name: parts for name, (_, parts) in binds.items() if parts is not None}
    if values:
        token = _BOUND.set(values)
        try:
            toks = lex(code, regex=regex)
        finally:
            _BOUND.reset(token)
    out: list[Tok] = []
    n = len(toks)
    for i, tok in enumerate(toks):
        name = var(toks, i)
        if name is not None and name in binds and not _assigned_at(toks, i, n):
            out.extend(binds[name][0])
        else:
            out.append(tok)
    return out


# Bounds on what binding may copy: a value longer than this is not bound, and code using
# its bound names more often than this is read without them (each use copies the value:
# a long value used in every line would make the code read grow as their product).
MAX_BOUND_CHARS = 4096
MAX_BOUND_USES = 64


def _too_many_uses(
    code: str,
    toks: list[Tok],
    binds: dict[str, tuple[list[Tok], tuple[Part, ...] | None]],
    var: VarOf,
) -> bool:
    """The code uses its bound names more than :data:`MAX_BOUND_USES` times (a name in a
    string counts as a use: it may be interpolated), or a value is too long to copy."""
    if any(len(rhs) > MAX_BOUND_CHARS // 4 for rhs, _ in binds.values()):
        return True
    for _, parts in binds.values():
        if parts is not None and sum(len(p) for p in parts if isinstance(p, str)) > MAX_BOUND_CHARS:
            return True
    uses = sum(1 for i in range(len(toks)) if var(toks, i) in binds)
    for name in binds:
        uses += code.count(name.lstrip("$@"))
    return uses > MAX_BOUND_USES


def _assigned_at(toks: list[Tok], i: int, n: int) -> bool:
    """``toks[i]`` is assigned to: ``= `` after it (not ``==``, ``=~``, ``=>``)."""
    if i + 1 >= n or toks[i + 1][:2] != ("p", "="):
        return False
    after = toks[i + 2] if i + 2 < n else None
    return not (after is not None and after[0] == "p" and after[1] in ("=", "~", ">"))


def bindings(
    toks: list[Tok], var: VarOf, concat: frozenset[str]
) -> dict[str, tuple[list[Tok], tuple[Part, ...] | None]]:
    """The variables ``toks`` assign exactly once, each to a literal (strings, numbers,
    brackets of them, joined by ``concat``): name → (the value's tokens, its text when a
    string). One assigned twice, changed in place (``.=``, ``+=``, ``=~``) or given
    anything else (a call's result) is not bound."""
    counts: dict[str, int] = {}
    found: dict[str, list[Tok]] = {}
    n = len(toks)
    for i in range(n):
        name = var(toks, i)
        if name is None or i + 1 >= n:
            continue
        nxt = toks[i + 1]
        after = toks[i + 2] if i + 2 < n else ("", "", ())
        if (
            (nxt[1] in _MODIFY and nxt[0] in "pw" and after[:2] == ("p", "="))  # `$c .= "x"`
            or nxt[:2] in (("p", "=~"), ("p", "<<"))  # `$c =~ s/…/…/`, ruby's `c << "x"`
            or (nxt[:2] == ("p", ".") and after[0] == "w" and _mutator(after[1]))  # c.sub!
        ):
            counts[name] = counts.get(name, 0) + 2  # (changed in place: not one value)
            continue
        if nxt[:2] != ("p", "="):
            continue
        if not _assigned_at(toks, i, n):
            if i + 2 < n and toks[i + 2][:2] == ("p", "~"):
                counts[name] = counts.get(name, 0) + 2  # (`$c =~ s/…/…/`: may change it)
            continue
        counts[name] = counts.get(name, 0) + 1
        _, end = call_args(toks, i + 2, concat=concat)
        rhs = [t for t in toks[i + 2 : end] if t[:2] != ("p", "nl")]
        if rhs and all(_literal(t, concat) for t in rhs):
            found[name] = rhs
    out: dict[str, tuple[list[Tok], tuple[Part, ...] | None]] = {}
    for name, rhs in found.items():
        if counts.get(name) == 1:
            arg = value(rhs, concat)
            out[name] = (rhs, arg.parts if arg.kind == "str" and UNKNOWN not in arg.parts else None)
    return out


def _mutator(method: str) -> bool:
    """A ruby method that changes its string in place (``sub!``, ``replace``, ``concat``)."""
    return method.endswith("!") or method in ("replace", "concat", "insert", "prepend", "clear")


def _literal(tok: Tok, concat: frozenset[str]) -> bool:
    kind, text, parts = tok
    if kind in ("s", "n"):
        return UNKNOWN not in parts
    if kind == "v":
        return UNKNOWN not in parts  # (`$ENV{HOME}`: a value of its own)
    return kind == "p" and (text in _OPEN or text in _CLOSE or text == "," or text in concat)


def known_parts(a: Arg) -> tuple[Part, ...]:
    """A string argument's parts; anything else one unknown value."""
    return a.parts if a.kind == "str" else (UNKNOWN,)


def ends_value(toks: list[Tok]) -> bool:
    """The last token ends a value: a ``/`` (or perl's ``<``, ruby's ``%``, ``<<``)
    after it is an operator."""
    if not toks:
        return False
    kind, text, _ = toks[-1]
    return kind in _VALUE_KINDS or (kind == "p" and text in _VALUE_P)


def line_end(code: str, i: int) -> int:
    """Index of the newline ending the line at ``i`` (``len(code)`` on the last line)."""
    end = code.find("\n", i)
    return len(code) if end < 0 else end


def quoted_end(code: str, i: int, open_: str, close: str, interp: bool = False) -> int:
    """Index after the ``close`` ending a literal whose body starts at ``i`` (brackets
    nest; a backslash escapes the next character; ``interp``: a ruby ``#{…}`` inside is
    skipped whole). Unterminated: ``len(code) + 1`` (the interpreter refuses it; nothing
    is lost reading the rest as the literal)."""
    depth = 1
    n = len(code)
    while i < n:
        c = code[i]
        if c == "\\":
            i += 2
            continue
        if c == close and open_ != close:
            depth -= 1
            if depth == 0:
                return i + 1
        elif c == close:
            return i + 1
        elif c == open_ and open_ != close:
            depth += 1
        elif interp and c == "#" and code.startswith("#{", i) and open_ != "{":
            i = quoted_end(code, i + 2, "{", "}", interp=True)
            continue
        i += 1
    return n + 1


def single_quoted(body: str, open_: str, close: str) -> str:
    """A ``'…'``/``q(…)``/``%q(…)`` body's value: only ``\\\\`` and an escaped
    delimiter change."""
    if "\\" not in body:
        return body
    out: list[str] = []
    i = 0
    while i < len(body):
        c = body[i]
        if c == "\\" and i + 1 < len(body) and body[i + 1] in ("\\", open_, close):
            out.append(body[i + 1])
            i += 2
            continue
        out.append(c)
        i += 1
    return "".join(out)


def heredoc_body(code: str, pos: int, term: str, indent: bool) -> tuple[str, int]:
    """(text, index after the terminator line) of a here-document whose body starts at
    ``pos``; ``indent``: the terminator may be indented and the lines lose theirs
    (perl's ``<<~``, ruby's ``<<~``/``<<-``). Unterminated: the rest of the code."""
    n = len(code)
    lines: list[str] = []
    while pos < n:
        end = line_end(code, pos)
        line = code[pos:end]
        if (line.strip() if indent else line) == term:
            return "".join(x + "\n" for x in lines), end + 1
        lines.append(line.lstrip() if indent else line)
        pos = end + 1
    return "".join(x + "\n" for x in lines), n


def short_escape(body: str, i: int, text: list[str]) -> int:
    """``\\xHH`` (up to two hex digits) or ``\\NNN`` (up to three octal digits), whose
    letter or first digit is at ``i``, decoded into ``text``: the index after it; -1
    when the escape is neither (perl and ruby read both alike)."""
    c = body[i]
    n = len(body)
    if c == "x":
        k = i + 1
        while k < n and k < i + 3 and body[k] in _HEX:
            k += 1
        text.append(char_of(body[i + 1 : k], 16))
        return k
    if c in _OCTAL:
        k = i
        while k < n and k < i + 3 and body[k] in _OCTAL:
            k += 1
        text.append(char_of(body[i:k], 8))
        return k
    return -1


def char_of(digits: str, base: int) -> str:
    """The character an escape's digits name (U+FFFD where there is none)."""
    try:
        return chr(int(digits or "0", base))
    except (ValueError, OverflowError):
        return "\ufffd"
