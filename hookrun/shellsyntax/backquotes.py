"""Backquoted command substitutions, found as bash finds them (gap 8 in gaps.py).

tree-sitter-bash (0.25) reads backquotes wrongly whenever backslashes are involved
(``echo `echo \\$```, ``echo `echo \\(```), reads ``$``` as one token, and reads two
substitutions separated by a blank (```a` `b```) as one. bash's own rule is simple:
from an unescaped, unquoted backquote, the body runs to the next backquote that no
backslash escapes — quotes inside do not count — and is parsed when it runs, after
``\\$``, ``\\``` and ``\\\\`` (and ``\\"`` inside double quotes) lose their backslash.

So each substitution is found here, in order, on the copy of the source the grammar
parses, and its whole span is replaced by ``:`` characters — plain word text, which
joins the word around it as the substitution does (so is a plain ``$`` right before
it, which the grammar would read with the backquote) — before the text is parsed
again for the next one. The converter makes each recorded span (a
:class:`~hookrun.shellsyntax.convert.Backquoted`) a
:class:`~hookrun.shellsyntax.nodes.CmdSubst` whose body is parsed from the user's text
(:meth:`hookrun.shellsyntax.convert.Converter.backquoted_subst`). Loaded by the first
text with a backquote (:func:`hookrun.shellsyntax.convert.backquoted_substitutions`).
"""

from __future__ import annotations

from collections.abc import Callable

from hookrun.records import TYPE_CHECKING
from hookrun.shellsyntax.convert import Backquoted

if TYPE_CHECKING:  # typing stays off the shell path at run time (hookrun.records says why).
    from typing import Any

    Node = Any  # tree_sitter.Node (this module imports no native code)
    Tree = Any

# Past this many, the rest is left to the grammar's own reading.
MAX_SUBSTITUTIONS = 200

# A backquote under one of these is text, not the start of a substitution.
_TEXT = frozenset({"raw_string", "ansi_c_string", "comment", "heredoc_body"})


def prepare(src: bytes, parse: Callable[[bytes], Tree]) -> tuple[bytes, dict[int, Backquoted]]:
    """The text to hand the grammar, and each substitution by its opening offset."""
    if src.find(b"`") < 0:
        return src, {}
    text = src
    found: dict[int, Backquoted] = {}
    tree = parse(text)
    at = text.find(b"`")
    for _ in range(MAX_SUBSTITUTIONS):
        if at < 0:
            break
        leaf = tree.root_node.descendant_for_byte_range(at, at + 1)
        if _escaped(text, at) or _in_text(leaf):
            at = text.find(b"`", at + 1)
            continue
        end = closing(text, at)
        if end < 0:  # unterminated: the grammar reports it
            break
        if _in_arithmetic(leaf):  # arithmetic text is read from the source by hookrun
            at = text.find(b"`", end)
            continue
        lead = at - 1 if _lone_dollar(text, at) else at  # `$`…``: that `$` is text
        text = text[:lead] + b":" * (end - lead) + text[end:]
        tree = parse(text)
        # Quoting is read with the body gone: its backslashes confuse the grammar.
        inside = tree.root_node.descendant_for_byte_range(at, at + 1)
        found[at] = Backquoted(at, end, _in_dquotes(inside))
        at = text.find(b"`", end)
    return text, found


def closing(text: bytes, at: int) -> int:
    """Just past the backquote that closes the one at ``at`` (-1 if none)."""
    i = at + 1
    while i < len(text):
        c = text[i]
        if c == 0x5C:  # backslash: the next byte is taken as it is
            i += 2
            continue
        if c == 0x60:
            return i + 1
        i += 1
    return -1


def unescape(body: bytes, in_dquotes: bool) -> bytes:
    """The body as bash parses it: ``\\$ \\` \\\\`` (and ``\\"`` in "…") lose the backslash."""
    special = b'$`\\"' if in_dquotes else b"$`\\"
    out = bytearray()
    i = 0
    while i < len(body):
        c = body[i : i + 1]
        if c == b"\\" and i + 1 < len(body) and body[i + 1 : i + 2] in special:
            out += body[i + 1 : i + 2]
            i += 2
            continue
        out += c
        i += 1
    return bytes(out)


def _lone_dollar(text: bytes, at: int) -> bool:
    """A ``$`` right before ``at`` that is plain text (not ``$$``, not escaped)."""
    n = 0
    while at - n - 1 >= 0 and text[at - n - 1] == 0x24:
        n += 1
    return n % 2 == 1 and not _escaped(text, at - n)


def _escaped(text: bytes, at: int) -> bool:
    n = 0
    while at - n - 1 >= 0 and text[at - n - 1] == 0x5C:
        n += 1
    return n % 2 == 1


def _in_text(leaf: Node) -> bool:
    n = leaf
    while n is not None:
        if n.type in _TEXT:
            return True
        if n.type == "command_substitution" and n.children and n.children[0].type == "$(":
            return False
        n = n.parent
    return False


def _in_arithmetic(leaf: Node) -> bool:
    n = leaf
    while n is not None:
        if n.type in ("arithmetic_expansion", "c_style_for_statement") or (
            n.type == "compound_statement" and n.children and n.children[0].type == "(("
        ):
            return True
        if n.type in ("process_substitution", "string") or (
            n.type == "command_substitution" and n.children and n.children[0].type == "$("
        ):
            return False
        n = n.parent
    return False


def _in_dquotes(leaf: Node) -> bool:
    n = leaf
    while n is not None:
        if n.type == "string":
            return True
        if n.type in ("command_substitution", "process_substitution"):
            return False
        n = n.parent
    return False


def placed(stmts: tuple[Any, ...], src: bytes, start: int, body: bytes) -> tuple[Any, ...]:
    """The body's statements (parsed from ``body``, the unescaped text of the backquotes
    opened just before ``start`` in ``src``) with every ``pos``/``end`` moved to where its
    byte stands in ``src``: a word of a backquoted command points at the user's own text,
    as every other node does. ``\\$ \\` \\\\ \\"`` lost their backslash in ``body``; such a
    byte is placed at its backslash."""
    where = []  # body offset -> src offset
    i = start
    for byte in body:
        if src[i] == 0x5C and byte != 0x5C or src[i : i + 2] == b"\\\\":
            # an escaped byte (``\\\\`` is one backslash in the body)
            where.append(i)
            i += 2
        else:
            where.append(i)
            i += 1
    where.append(i)
    return tuple(_moved(s, where) for s in stmts)


def _moved(node: Any, where: list[int]) -> Any:
    fields = getattr(type(node), "_fields", None)
    if fields is None:
        if type(node) is tuple:
            return tuple(_moved(x, where) for x in node)
        return node
    values = []
    for name, value in zip(fields, node, strict=True):
        if name == "pos" or name == "end":
            values.append(where[value])
        else:
            values.append(_moved(value, where))
    return type(node)._make(values)
