"""Here-documents: found, delimited and taken out of the text the grammar parses (gap 5).

tree-sitter-bash (0.25) reads here-documents wrongly in many ordinary shapes: two
on one line (``cat <<A <<B``), ``<<EOF;`` (delimiter ``EOF;``), ``<<EOF && cmd``, a
body that starts after a multi-line string (``cat <<EOF; echo "a⏎b"``), ``0<<EOF``,
``<<'EOF'"2"``, an indented ``<<-`` end line, bodies whose text looks like code. So
here-documents are read the way bash reads them, here, on the copy of the source the
grammar parses (offsets stay the user's, as with the other gaps):

1. the first ``<<``/``<<-`` the grammar sees as a redirection (not inside arithmetic,
   a string, a comment, a word) is replaced by ``<`` and blanks, so the grammar reads
   an ordinary input redirection whose target is the delimiter word, with its quotes;
2. the body starts after the newline that ends that command line (a newline between
   commands, not one inside a string or a substitution; after the bodies of earlier
   here-documents on the same line), and ends at the first line equal to the
   delimiter (for ``<<-``, after leading tabs), or at the end of the text;
3. the body and its end line are blanked (newlines kept, so line numbers stay right),
   and the text is parsed again for the next one.

The converter turns the ``<`` redirection at each recorded operator into a
here-document (:meth:`hookrun.shellsyntax.convert.Converter.file_redirect`). A text
with no ``<<`` is parsed once, as before.
"""

from __future__ import annotations

from collections.abc import Callable

from hookrun.records import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:  # typing stays off the shell path at run time (hookrun.records says why).
    from typing import Any

    Node = Any  # tree_sitter.Node (this module imports no native code)
    Tree = Any

# No hook has more; past this the rest is left to the grammar's own reading.
MAX_HEREDOCS = 200

# A newline under one of these is part of a token, not the end of a command line; a
# `<<` under one of these is not a here-document operator.
_TOKENS = frozenset(
    {
        "string",
        "string_content",
        "raw_string",
        "ansi_c_string",
        "translated_string",
        "word",
        "comment",
        "heredoc_body",
        "expansion",
        "simple_expansion",
        "arithmetic_expansion",
        "binary_expression",
        "unary_expression",
        "c_style_for_statement",
        "regex",
        "number",
        "test_command",
    }
)
# A here-document inside one of these ends with it (its own command lines).
_SCOPES = frozenset({"command_substitution", "process_substitution"})


class HereDocSpan(NamedTuple):
    """Where one here-document's parts are, as byte offsets into the source."""

    op: str  # "<<" or "<<-"
    delim_start: int  # the delimiter word, as written (quotes included)
    delim_end: int
    body_start: int
    body_end: int  # the start of the end line (or of the text's end)
    end: int  # the end of the end line (its newline excluded)
    closed: bool  # an end line was found (else bash reads to the end of the text)


def prepare(src: bytes, parse: Callable[[bytes], Tree]) -> tuple[bytes, dict[int, HereDocSpan]]:
    """The text to hand the grammar, and each here-document by its operator's offset.

    The operators are read in rounds, not one by one: every ``<<`` the current tree
    shows as an operator is turned into ``<`` at once and the text parsed once, each
    one's delimiter and body read from that tree in order, then all their bodies blanked
    and the text parsed again for operators the blanked bodies were hiding. (One parse
    per here-document made a line with n of them cost n parses of the whole text.)

    An operator after a body read in the same round is read there only if every such
    body is plain text (:data:`_INERT`) and the tree has no error: a body not blanked
    yet could change how the grammar reads what follows it (``cat <<A⏎'⏎A⏎cat <<B``:
    the quote). Otherwise it waits for the next round, read with those bodies blanked,
    as one here-document at a time would."""
    if not _maybe_operator(src):
        return src, {}
    only = _only_operator(src)
    if only >= 0:  # one `<<` in the whole text: read it without a parse to find it
        guessed = _one_guessed(src, only, parse)
        if guessed is not None:
            return guessed[0], {only: guessed[2]}
    text = src
    docs: dict[int, HereDocSpan] = {}
    next_body: dict[int, int] = {}  # a line's ending newline -> where its next body starts
    pos = 0
    budget = MAX_HEREDOCS
    tree = parse(text)
    while budget > 0:
        ops = _operators(tree.root_node, text, pos, budget)
        if not ops:
            break
        if len(ops) == 1:  # the usual text: one here-document (or one left to read)
            # A later round's one operator too: a body the grammar reads as broken code
            # (`cat <<"EOF"⏎\\⏎"⏎EOF` in a loop) leaves no redirection to read it from
            # in the round's tree; read by text, it is checked as the first one is. Not
            # on a line whose earlier here-document's body is already read (its body
            # starts after that one, not on the next line).
            guessed = _one_guessed(text, ops[0], parse)
            if guessed is not None and (not docs or guessed[3] not in next_body):
                text, tree, span, newline, after = guessed
                docs[ops[0]] = span
                budget -= 1
                pos = ops[0] + (3 if span.op == "<<-" else 2)
                next_body[newline] = after
                continue
        trial_buf = bytearray(text)
        for at in ops:
            width = 3 if text[at + 2 : at + 3] == b"-" else 2
            trial_buf[at : at + width] = b"<" + b" " * (width - 1)
        trial = bytes(trial_buf)
        trial_tree = parse(trial)
        out = bytearray(trial)
        blanked = bytearray(len(text))  # 1 where a body read in this round lies
        first_body = len(text)  # where the first body read in this round starts
        plain = not trial_tree.root_node.has_error  # and every body so far is plain text
        for k, at in enumerate(ops):
            if blanked[at]:  # inside a body read before it: text, not an operator
                continue
            if at >= first_body and not plain:  # read in the next round (see above)
                for later in ops[k:]:
                    if not blanked[later]:
                        wide = later + (3 if text[later + 2 : later + 3] == b"-" else 2)
                        out[later:wide] = text[later:wide]
                break
            budget -= 1
            strip = text[at + 2 : at + 3] == b"-"
            width = 3 if strip else 2
            pos = at + width
            delim = _delimiter(trial_tree.root_node, at)
            if delim is None:  # `cat <<` with no word: left to the grammar (a syntax error)
                out[at : at + width] = text[at : at + width]
                continue
            newline = _line_end(trial_tree.root_node, trial, delim.end_byte, at)
            start = next_body.get(newline, newline + 1) if newline >= 0 else len(src)
            word = _unquote(src[delim.start_byte : delim.end_byte]) + _returns(src, delim.end_byte)
            raw = src[delim.start_byte : delim.end_byte]
            joins = not any(q in raw for q in b"'\"\\")
            end, after, closed = _end_line(src, start, word, strip, joins)
            if newline >= 0:
                next_body[newline] = after
            op = "<<-" if strip else "<<"
            last = after - 1 if after > end and src[after - 1 : after] == b"\n" else after
            docs[at] = HereDocSpan(op, delim.start_byte, delim.end_byte, start, end, last, closed)
            out[start:after] = _blank(out[start:after])
            blanked[start:after] = b"\x01" * (after - start)
            first_body = min(first_body, start)
            plain = plain and not src[start:after].translate(None, _INERT)
        text = bytes(out)
        tree = parse(text)
    return text, docs


# A delimiter word read by text for :func:`_one_guessed` (others: the general reading).
_PLAIN_DELIMITER = frozenset(
    b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-+:@%/,="
)


def _one_guessed(
    src: bytes, at: int, parse: Callable[[bytes], Tree]
) -> tuple[bytes, Tree, HereDocSpan, int, int] | None:
    """A text's one here-document (at ``at``, the first round) read in one parse, not
    two: the general round parses the text with the operator turned into ``<`` and the
    body still in place — read as code, the body (JSON, prose) sends the grammar into
    error recovery, ~5 times the cost of parsing the text without it — only to find
    where the delimiter word and the command line end.

    Here those are guessed by text (a plain delimiter word, quoted or not; the line
    ends at the first newline after it), the body and end line found from them as the
    general round finds them, and the text with the body already blanked is parsed: the
    guess stands if that tree has no error and reads the same delimiter word at the
    operator and the same newline as the end of its command line — the text the general
    round would hand on is then this very text. Otherwise None (the general round)."""
    width = 3 if src[at + 2 : at + 3] == b"-" else 2
    i = at + width
    n = len(src)
    while i < n and src[i] in b" \t":
        i += 1
    quote = src[i : i + 1]
    j = i + 1 if quote in (b"'", b'"') else i
    while j < n and src[j] in _PLAIN_DELIMITER:
        j += 1
    if quote in (b"'", b'"'):
        if j == i + 1 or src[j : j + 1] != quote:
            return None
        j += 1
        word = src[i + 1 : j - 1]
    else:
        word = src[i:j]
    if not word or (j < n and src[j] not in b" \t\n;&|<>)"):
        return None
    newline = src.find(b"\n", j)
    if newline < 0:
        return None
    start = newline + 1
    end, after, closed = _end_line(src, start, word, width == 3, quote not in (b"'", b'"'))
    buf = bytearray(src)
    buf[at : at + width] = b"<" + b" " * (width - 1)
    buf[start:after] = _blank(buf[start:after])
    text = bytes(buf)
    tree = parse(text)
    root = tree.root_node
    if root.has_error:
        return None
    delim = _delimiter(root, at)
    if delim is None or delim.start_byte != i or delim.end_byte != j:
        return None
    if _line_end(root, text, j, at) != newline:
        return None
    last = after - 1 if after > end and src[after - 1 : after] == b"\n" else after
    op = "<<-" if width == 3 else "<<"
    return text, tree, HereDocSpan(op, i, j, start, end, last, closed), newline, after


def _operators(root: Node, text: bytes, pos: int, most: int) -> list[int]:
    """The offsets of the (at most ``most``) ``<<`` at or after ``pos`` that ``root``
    reads as here-document operators, in order."""
    found: list[int] = []
    at = _first_operator(root, text, pos)
    while at is not None and len(found) < most:
        found.append(at)
        at = _first_operator(root, text, at + (3 if text[at + 2 : at + 3] == b"-" else 2))
    return found


def _maybe_operator(text: bytes) -> bool:
    """Is there a ``<<`` that is no here-string's ``<<<``? (The screen of
    :func:`_first_operator` by text alone, so that ``read x <<< "$s"`` costs no parse.)"""
    at = text.find(b"<<")
    while at >= 0:
        if text[at + 2 : at + 3] != b"<":
            return True
        at = text.find(b"<<", at + 3)
    return False


def _only_operator(text: bytes) -> int:
    """The offset of the text's one ``<<`` that is no ``<<<``, or -1 (none, or more)."""
    found = -1
    at = text.find(b"<<")
    while at >= 0:
        if text[at + 2 : at + 3] == b"<":  # a here-string
            at = text.find(b"<<", at + 3)
            continue
        if found >= 0:
            return -1
        found = at
        at = text.find(b"<<", at + 2)
    return found


def _first_operator(root: Node, text: bytes, pos: int) -> int | None:
    at = text.find(b"<<", pos)
    while at >= 0:
        if text[at + 2 : at + 3] == b"<":  # a here-string, `<<<`
            at = text.find(b"<<", at + 3)
            continue
        if _is_operator(root, at):
            return at
        at = text.find(b"<<", at + 2)
    return None


# A C-style for loop's header is arithmetic (`for ((i = 1<<2; …))`), its body commands:
# coming up from one of these, a `c_style_for_statement` is no token.
_BODIES = frozenset({"do_group", "compound_statement"})


def _is_operator(root: Node, at: int) -> bool:
    n = root.descendant_for_byte_range(at, at + 2)
    body = False
    while n is not None and n.type not in _SCOPES:  # `"$(cat <<EOF …)"` is one
        t = n.type
        if t in _BODIES:
            body = True
        elif t in _TOKENS and not (body and t == "c_style_for_statement"):
            return False
        n = n.parent
    return True


def _delimiter(root: Node, at: int) -> Node | None:
    """The target word of the ``<`` redirection that now stands at ``at``."""
    op = root.descendant_for_byte_range(at, at + 1)
    if op is None or op.type != "<" or op.start_byte != at:
        return None
    redirect = op.parent
    if redirect is None or redirect.type != "file_redirect":
        return None
    seen = False
    for c in redirect.children:
        if c.start_byte == at and c.type == "<":
            seen = True
        elif seen and c.is_named and not c.is_missing and c.end_byte > c.start_byte:
            return c
    return None


def _scope(root: Node, at: int) -> Node:
    """The substitution the operator at ``at`` is in (its command lines end there)."""
    n = root.descendant_for_byte_range(at, at + 1)
    while n is not None:
        if n.type in _SCOPES:
            return n
        n = n.parent
    return root


def _line_end(root: Node, text: bytes, start: int, at: int) -> int:
    """The newline that ends the command line of the operator at ``at`` (or -1)."""
    scope = _scope(root, at)
    span = (scope.start_byte, scope.end_byte)
    nl = text.find(b"\n", start)
    while 0 <= nl < span[1]:
        if _ends_line(root, text, nl, span):
            return nl
        nl = text.find(b"\n", nl + 1)
    return -1


def _ends_line(root: Node, text: bytes, nl: int, scope: tuple[int, int]) -> bool:
    """Whether the newline at ``nl`` ends a command line directly in ``scope``: not
    inside a token, nor in a substitution nested deeper, nor escaped."""
    if nl > 0 and text[nl - 1 : nl] == b"\\":
        escape = root.descendant_for_byte_range(nl - 1, nl)
        if escape is None or escape.type not in _TOKENS:
            return False  # a line continuation
    n = root.descendant_for_byte_range(nl, nl + 1)
    if n is not None and n.type == "word":
        # A bare newline is never inside a word; the grammar sometimes starts one with
        # the newline after a redirection's target (`cat < EOF⏎\\ x`).
        n = n.parent
    body = False
    while n is not None and (n.start_byte, n.end_byte) != scope:
        t = n.type
        if t in _BODIES:
            body = True
        elif (t in _TOKENS and not (body and t == "c_style_for_statement")) or t in _SCOPES:
            return False
        n = n.parent
    return True


def _end_line(
    src: bytes, start: int, word: bytes, strip: bool, joins: bool = False
) -> tuple[int, int, bool]:
    """(start of the end line, just past it, whether it was found).

    ``joins``: the delimiter is unquoted, so bash reads the body's lines with each
    backslash-newline removed (an odd run of backslashes before the newline) and
    compares the joined line with the word — ``a\\⏎EOF`` is the line ``aEOF``, not
    the end (the end line then starts at the first of the lines joined)."""
    i = start
    head = start  # where the line being joined began
    joined = b""
    while i < len(src):
        nl = src.find(b"\n", i)
        line_end = len(src) if nl < 0 else nl
        line = src[i:line_end]
        if joins and nl >= 0 and _continued(line):
            joined += line[:-1]
            i = nl + 1
            continue
        whole = joined + line if joined else line
        if (whole.lstrip(b"\t") if strip else whole) == word:
            return head, (line_end if nl < 0 else nl + 1), True
        if nl < 0:
            break
        i = head = nl + 1
        joined = b""
    return len(src), len(src), False


def _continued(line: bytes) -> bool:
    """Whether ``line`` ends in an odd run of backslashes (its newline is removed)."""
    return (len(line) - len(line.rstrip(b"\\"))) % 2 == 1


def _returns(src: bytes, at: int) -> bytes:
    """The carriage returns right after a delimiter word (a CRLF line's ``cat <<EOF``).

    The grammar reads a CR as a blank and ends the word before it; to bash it is a byte
    of the word like any other, so the delimiter is ``EOF\\r`` and only an ``EOF\\r``
    line ends the body — an ``EOF`` line does not. Read without it, ``cat <<EOF\\r⏎hi\\r⏎
    EOF\\r⏎rm -rf /⏎EOF`` hid the ``rm`` bash runs in a body that bash had ended."""
    end = at
    while src[end : end + 1] == b"\r":
        end += 1
    return src[at:end]


# The bytes of a body that cannot change how the grammar reads the text after it (no
# quote, substitution, bracket, escape, operator or comment).
_INERT = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 \t\n.,:/=+@%_-"

# Every byte but a newline read as a blank (one C call, not a generator per byte).
_BLANKED = b" " * 0x0A + b"\n" + b" " * (0xFF - 0x0A)


def _blank(chunk: bytes | bytearray) -> bytes:
    return bytes(chunk).translate(_BLANKED)


def _unquote(raw: bytes) -> bytes:
    """The delimiter after quote removal (bash compares end lines with this)."""
    out = bytearray()
    quote = 0
    i = 0
    while i < len(raw):
        c = raw[i]
        if quote:
            if c == quote:
                quote = 0
            else:
                out.append(c)
        elif c in (0x22, 0x27):
            quote = c
        elif c == 0x5C and i + 1 < len(raw):
            i += 1
            out.append(raw[i])
        else:
            out.append(c)
        i += 1
    return bytes(out)
