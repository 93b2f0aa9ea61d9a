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

from hookrun.hooks.shell_guard.model import Part, Var, Word
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
