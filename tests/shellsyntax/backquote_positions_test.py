"""The nodes of a backquoted command point at the user's own text, as every other node
does: the body is parsed from its unescaped copy, then each ``pos``/``end`` is placed
back where its byte stands in the source (``hookrun.shellsyntax.backquotes.placed``).
Before, they were offsets into the body: a word after a multi-byte character or an
escape pointed at the wrong bytes (and cut a character in half), and an error message
quoting a ``${…}`` in backquotes quoted other text."""

from __future__ import annotations

import itertools

import pytest

from hookrun.shellsyntax import parser
from hookrun.shellsyntax.nodes import Lit

# Pieces a body is made of: plain words, a multi-byte one, escapes the body loses
# (\$ \` \\) and keeps (\n), quotes, a $( ) and a nested backquote.
_PIECES = ("rm -rf /tmp/x", "é", r"\$HOME", r"\\", r"a\nb", "'q é'", '"$v"', "$(echo é)", r"\`id\`")
_BODIES = [" ".join(p) for p in itertools.permutations(_PIECES, 3)][:300]
_SOURCES = [f"echo `{body}` tail" for body in _BODIES] + [
    f'x="`{body}`"; echo é' for body in _BODIES[:60]
]


def _nodes(node: object) -> list[object]:
    found = []
    stack = [node]
    while stack:
        n = stack.pop()
        fields = getattr(type(n), "_fields", None)
        if fields is None:
            if type(n) is tuple:
                stack.extend(n)
            continue
        found.append(n)
        stack.extend(v for f, v in zip(fields, n, strict=True) if f not in ("pos", "end"))
    return found


def _checked(source: str) -> int:
    """How many literals of ``source``'s backquoted body were checked against the
    bytes they stand on (after every node was found in range, on whole characters)."""
    src = source.encode()
    script = parser.parse_tree(source)
    inside = src.index(b"`") + 1
    checked = 0
    for node in _nodes(script.stmts):
        pos, end = node.pos, node.end  # type: ignore[attr-defined]
        assert 0 <= pos <= end <= len(src), (node, source)
        text = src[pos:end]
        text.decode()  # never cuts a character in half
        if isinstance(node, Lit) and pos >= inside and b"\\" not in text and b"'" not in text:
            # A literal with no escape in it is the very bytes it stands on.
            assert text.decode() == node.text, (node, source)
            checked += 1
    return checked


@pytest.mark.parametrize("chunk", range(6))
def test_every_node_in_backquotes_points_at_the_users_text(chunk: int) -> None:
    sources = _SOURCES[chunk::6]
    checked = [_checked(source) for source in sources]
    # (a body ending in an escaped backslash runs into the text after it: few literals)
    assert sum(checked) > 3 * len(sources)
