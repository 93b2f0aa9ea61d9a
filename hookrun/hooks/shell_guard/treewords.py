"""A word of the shared front end's tree → the word(s) the shell would pass, statically.

A pure evaluation of :class:`hookrun.shellsyntax.nodes.Word` parts, nothing re-read
from the source text: literal and quoted parts give their text (``$'…'`` arrives
decoded by the front end), an unquoted ``$IFS`` splits the word
(``rm${IFS}-rf${IFS}/`` is three words), unquoted braces expand (``{rm,-rf,/}``), a
leading ``~`` is the home directory, and whatever only the running shell knows is a
:class:`Var`. Substitutions are handed to ``subst``, which walks the commands in them
(they run) and says what the part stands for.
"""

from __future__ import annotations

from collections.abc import Callable

from hookrun.hooks.shell_guard.model import Part, Var, Word
from hookrun.shellsyntax import nodes as n
from hookrun.shellsyntax.walk import unescape

# A brace expansion multiplies words; past this many an evasion is being
# attempted or the word is not a brace expansion at all: keep it literal.
MAX_BRACE_WORDS = 64

Subst = Callable[[n.CmdSubst | n.ProcSubst | n.ArithExp], Part]


class _Char(str):
    """One unquoted literal character: the only text braces, ``~`` and commas act in."""

    __slots__ = ()


_ACTIVE = "\\{~"  # what makes unquoted literal text more than itself
_SPLIT = Var("\0split")  # an unquoted $IFS: a field break
_Item = _Char | str | Var  # str (not _Char): quoted text, inert


def plain_text(word: n.Word) -> str | None:
    """The value of a word that is one literal with nothing active in it; else None."""
    parts = word.parts
    if len(parts) == 1 and type(parts[0]) is n.Lit:
        text = parts[0].text
        # (_ACTIVE, unrolled; a `~` acts only at the start: HEAD~3 is plain)
        if "\\" not in text and "{" not in text and not text.startswith("~"):
            return text
    return None


def word_values(word: n.Word, source: bytes, subst: Subst) -> list[Word]:
    """The words ``word`` becomes (usually one; zero for an empty unquoted expansion)."""
    plain = plain_text(word)
    if plain is not None:  # most words: plain text, nothing to do
        return [Word((plain,), plain)]
    return values_of(word, source, subst)


def values_of(word: n.Word, source: bytes, subst: Subst) -> list[Word]:
    """:func:`word_values` of a word whose :func:`plain_text` is None (its caller asked)."""
    raw = source[word.pos : word.end].decode("utf-8", "surrogatepass")
    inert = _inert_parts(word.parts) if word.parts else None
    if inert is not None:  # (no brace, tilde, split or substitution: the one word)
        return [Word(inert, raw)]
    return _expanded(word, raw, subst)


def _expanded(word: n.Word, raw: str, subst: Subst) -> list[Word]:
    """:func:`word_values` by every step: braces, tilde, fields."""
    items: list[_Item] = []
    for part in word.parts:
        _items(part, subst, items, quoted=False)
    out: list[Word] = []
    for variant in _brace_expand(items):
        for parts in _fields(_tilde(variant)):
            out.append(Word(_merge(parts), raw))
    return out


def _inert_parts(parts: tuple[n.WordPart, ...]) -> tuple[Part, ...] | None:
    """The value of a word none of whose parts acts — unquoted text without a backslash,
    brace, comma or tilde; quotes; ``$NAME`` / ``${NAME}`` (not an unquoted ``$IFS``) — merged as
    :func:`_merge` merges :func:`_items`'s items; None for any other word. Such a word is
    one field: no brace expands, no tilde, no split (the value :func:`_expanded` gives,
    in fewer steps)."""
    merged: list[Part] = []  # (empty texts dropped, neighbouring texts joined: _merge)
    for part in parts:
        quoted = type(part) is n.DblQuoted
        for piece in part.parts if quoted else (part,):  # type: ignore[union-attr]
            kind = type(piece)
            if kind is n.Lit:
                text = piece.text  # type: ignore[union-attr]
                if not quoted and ("\\" in text or not _BRACE_OR_TILDE.isdisjoint(text)):
                    return None
            elif kind is n.SglQuoted:
                text = piece.value  # type: ignore[union-attr]
            elif kind is n.ParamExp and _is_value(piece):  # type: ignore[arg-type]
                if piece.name != "IFS":  # type: ignore[union-attr]
                    merged.append(Var(piece.name))  # type: ignore[union-attr]
                    continue
                if not quoted:
                    return None  # (an unquoted $IFS: a field break)
                text = " "
            else:
                return None
            if text:
                if merged and type(merged[-1]) is str:
                    merged[-1] += text
                else:
                    merged.append(text)
    return tuple(merged) if merged else ("",)


def _is_value(part: n.ParamExp) -> bool:
    """``$x`` / ``${x}``: the variable's value (no operator, subscript, ``#``, ``!``)."""
    return not (part.op or part.args or part.key is not None or part.length) and not (
        part.indirect or part.prefix
    )


def static_text(word: n.Word, subst: Subst) -> str:
    """A word's value as one string, unknown parts shown as written (``$x``, ``$(…)``).

    For here-document bodies and assignment values: no splitting, no braces.
    """
    items: list[_Item] = []
    for part in word.parts:
        _items(part, subst, items, quoted=True)
    return Word(_merge([i for i in items if i is not _SPLIT]), "").text


def _items(part: n.WordPart, subst: Subst, out: list[_Item], *, quoted: bool) -> None:
    if isinstance(part, n.Lit):
        if quoted:
            out.append(part.text)  # cooked already (inside "…" or a here-doc body)
        else:
            _unquoted(part.text, out)
    elif isinstance(part, n.SglQuoted):
        out.append(part.value)
    elif isinstance(part, n.DblQuoted):
        out.append("")  # `""` is an (empty) word of its own
        for inner in part.parts:
            _items(inner, subst, out, quoted=True)
    elif isinstance(part, n.ParamExp):
        # `${x:-$(rm -rf /)}`, `${a[$(…)]}`: substitutions in the operands may run.
        for operand in (*part.args, *((part.key,) if part.key is not None else ())):
            for inner in operand.parts:
                _items(inner, subst, [], quoted=True)
        if part.length or part.indirect or part.prefix or part.key is not None:
            out.append(Var(f"{{{part.name}}}"))  # `${#x}`, `${!x}`, `${x[0]}`: not x's value
        elif part.op not in _VALUE_OPS:
            # `${x/ls/rm}`, `${x:1:2}`, `${x,,}`, `${IFS:0:0}`: what the shell makes of x
            out.append(Var(f"{{{part.name}{part.op}}}"))
        elif part.name == "IFS" and not part.op:
            out.append(" " if quoted else _SPLIT)
        else:
            out.append(Var(part.name))
    else:
        value = subst(part)
        if value == "" and not quoted:
            return  # (unquoted, an expansion to nothing is no text: `$(true) rm -rf /` runs rm)
        if (
            not quoted
            and isinstance(value, str)
            and (" " in value or "\t" in value or "\n" in value)
        ):
            # `$(echo 'rm -rf /')` unquoted: bash splits what it prints into words
            if value[:1].isspace():
                out.append(_SPLIT)
            for k, field in enumerate(value.split()):
                if k:
                    out.append(_SPLIT)
                out.append(field)
            if value[-1:].isspace():
                out.append(_SPLIT)
            return
        out.append(value)


# Operators whose word is the variable's value when it is set (a line's `c=rm` fills
# `${c:-x}`); any other operator makes something else of it.
_VALUE_OPS = frozenset({"", ":-", "-", ":=", "=", ":?", "?"})
_BRACE_OR_TILDE = frozenset("{},~")


def _unquoted(text: str, out: list[_Item]) -> None:
    """Quote removal on raw unquoted text; an escaped character is quoted (inert)."""
    if "\\" not in text:
        if _BRACE_OR_TILDE.isdisjoint(text) and not (out and isinstance(out[0], _Char)):
            # Nothing here can act (no brace, no tilde, no user name of a leading `~`
            # to continue): one inert piece instead of a character each.
            out.append(text)
        else:
            out.extend(_Char(c) for c in text)
        return
    i, size = 0, len(text)
    while i < size:
        c = text[i]
        if c == "\\" and i + 1 < size:
            out.append(unescape(text[i : i + 2]))
            i += 2
        else:
            out.append(_Char(c))
            i += 1


def _tilde(items: list[_Item]) -> list[_Item]:
    """A leading unquoted ``~``/``~+``/``~user`` up to the first ``/``."""
    if not items or not (isinstance(items[0], _Char) and items[0] == "~"):
        return items
    j = 1
    while j < len(items) and isinstance(items[j], _Char) and items[j] != "/":
        j += 1
    if j < len(items) and not isinstance(items[j], _Char):
        return items  # `~"x"`: not a tilde prefix
    user = "".join(str(c) for c in items[1:j])
    head = Var("HOME") if user == "" else Var("PWD") if user == "+" else Var("~" + user)
    return [head, *items[j:]]


def _fields(items: list[_Item]) -> list[list[Part]]:
    fields: list[list[Part]] = [[]]
    touched = False  # the current field has content (even an empty quote)
    for item in items:
        if item is _SPLIT:
            if touched:
                fields.append([])
                touched = False
            continue
        fields[-1].append(str(item) if isinstance(item, str) else item)
        touched = True
    if not touched:
        fields.pop()
    return fields


def _merge(parts: list[Part] | list[_Item]) -> tuple[Part, ...]:
    merged: list[Part] = []
    for p in parts:
        if p == "" and len(parts) > 1:
            continue  # `""$HOME` is just $HOME
        if isinstance(p, str) and merged and isinstance(merged[-1], str):
            merged[-1] = merged[-1] + p
        else:
            merged.append(str(p) if isinstance(p, str) else p)
    return tuple(merged) if merged else ("",)


def _brace_expand(items: list[_Item]) -> list[list[_Item]]:
    """Bash brace expansion of unquoted ``{a,b}`` and ``{x..y}`` as bash orders it: the
    leftmost brace outermost, each alternative expanded in turn (``{r,{m,n}}`` is r m n;
    ``{a,b}{1..2}`` is a1 a2 b1 b2)."""
    if "{" not in items or ("," not in items and "." not in items):
        return [items]
    listed = _first_brace(items) if "," in items else None
    seq = _first_seq(items) if "." in items else None
    middles: list[list[_Item]]
    if seq is not None and (listed is None or seq[0] < listed[0]):
        start, end, values = seq
        middles = [[value] for value in values]  # (the value is inert text)
    elif listed is not None:
        start, end, commas = listed
        bounds = [start, *commas, end]
        middles = []
        for a, b in zip(bounds, bounds[1:], strict=False):
            middles += _brace_expand(items[a + 1 : b])
    else:
        return [items]
    pre, tails = items[:start], _brace_expand(items[end + 1 :])
    if len(middles) * len(tails) > MAX_BRACE_WORDS:
        return [items]
    return [[*pre, *middle, *tail] for middle in middles for tail in tails]


def _first_seq(items: list[_Item]) -> tuple[int, int, list[str]] | None:
    """The first unquoted sequence expression ``{x..y[..step]}``: (open, close, values)."""
    for start, item in enumerate(items):
        if not (isinstance(item, _Char) and item == "{"):
            continue
        end = start + 1
        while end < len(items):
            c = items[end]
            if not isinstance(c, _Char) or c in "{}":
                break
            end += 1
        closer = items[end] if end < len(items) else None
        if not (isinstance(closer, _Char) and closer == "}"):
            continue
        values = _seq_values("".join(str(c) for c in items[start + 1 : end]))
        if values is not None:
            return start, end, values
    return None


def _seq_values(body: str) -> list[str] | None:
    """The words of a sequence expression's body ``x..y[..step]``; None if it is none."""
    bounds = body.split("..")
    if len(bounds) not in (2, 3) or not all(bounds):
        return None
    a, b = bounds[0], bounds[1]
    step = bounds[2] if len(bounds) == 3 else "1"
    if not _is_int(step):
        return None
    inc = abs(int(step)) or 1
    if _is_int(a) and _is_int(b):
        x, y = int(a), int(b)
        if abs(y - x) // inc >= MAX_BRACE_WORDS:
            return None
        padded = any(len(t.lstrip("-")) > 1 and t.lstrip("-")[0] == "0" for t in (a, b))
        width = max(len(a), len(b)) if padded else 0
        numbers = range(x, y + 1, inc) if x <= y else range(x, y - 1, -inc)
        return [f"{v:0{width}d}" if width else str(v) for v in numbers]
    if len(a) == 1 and len(b) == 1 and a.isascii() and b.isascii() and a.isalpha() and b.isalpha():
        x, y = ord(a), ord(b)
        if abs(y - x) // inc >= MAX_BRACE_WORDS:
            return None
        codes = range(x, y + 1, inc) if x <= y else range(x, y - 1, -inc)
        return [chr(v) for v in codes]
    return None


def _is_int(text: str) -> bool:
    digits = text[1:] if text[:1] in "+-" else text
    return digits.isdigit() and digits.isascii()


def _first_brace(items: list[_Item]) -> tuple[int, int, list[int]] | None:
    """The first unquoted ``{…,…}``: (open, close, top-level comma indexes)."""
    for start, item in enumerate(items):
        if not (isinstance(item, _Char) and item == "{"):
            continue
        depth = 0
        commas: list[int] = []
        for i in range(start, len(items)):
            c = items[i]
            if not isinstance(c, _Char):
                continue
            if c == "{":
                depth += 1
            elif c == "}":
                depth -= 1
                if depth == 0:
                    if commas:
                        return start, i, commas
                    break
            elif c == "," and depth == 1:
                commas.append(i)
    return None
