"""Source text → :class:`~hookrun.shellsyntax.nodes.Script` (imports the native grammar)."""

from __future__ import annotations

import functools
from _thread import get_ident

from hookrun.lazyre import compile as lazy_compile
from hookrun.records import TYPE_CHECKING
from hookrun.shellsyntax import ShellSyntaxError, Unsupported, continuations, gaps, plain
from hookrun.shellsyntax.convert import Converter, backquoted_substitutions, here_documents
from hookrun.shellsyntax.grammar import bracket_commands, new_parser
from hookrun.shellsyntax.nodes import Script, Stmt

if TYPE_CHECKING:  # typing stays off the shell path at run time (hookrun.records says why).
    from collections.abc import Callable
    from typing import Any

# The screens by text here (and in gaps, grammar, backquotes) ask `src.find(b"x") < 0`,
# not `b"x" not in src`: CPython's bytes.__contains__ first tries the needle as an
# integer (`65 in b"A"`), and for a bytes needle that raises and clears a TypeError —
# ~1,800 instructions a test against ~150, and a parse asks about twenty of them.

# Deeper than this, a script is refused rather than walked (Python's own stack is the
# limit; bash has no practical one, but no hook nests commands 200 deep).
MAX_DEPTH = 200


def _parser() -> Any:
    # A new parser for every parse: tree-sitter-bash's external scanner can leave a
    # reused parser in a state that crashes a later parse (seen under the fuzz test,
    # never with a fresh parser). A parser costs ~10 µs to make.
    return new_parser()


# tree-sitter-bash's external scanner (src/scanner.c, 0.25.1) hands the lookahead code
# point to C's isdigit()/isalpha(), which index a 256-entry table: a code point past
# 255 reads memory far outside it. `{` followed by a CJK letter crashed the process
# (valgrind: invalid read in scan(), scanner.c:1158) — nondeterministically, by where
# the heap happened to lie, so a hostile command could turn a guard into "hookrun
# crashed", which hosts read as a non-blocking error. So the grammar only ever sees
# ASCII: every byte >= 0x80 (UTF-8 lead and continuation bytes, and invalid bytes) is
# replaced by ':' — one byte for one, so every offset in the tree is still the user's,
# and the text of every node is read from the user's own bytes. ':' is a plain word
# character that is no digit (no fd number, no brace range), no identifier letter (bash
# reads `é=1` as a command and `$é` as text, and so does the grammar now) and no
# keyword letter.
_ASCII_ONLY = bytes.maketrans(bytes(range(0x80, 0x100)), b":" * 0x80)


# The last tree made, with the text it is of and the thread that made it: the steps of
# one parse often hand the grammar the same text again (the here-document step's last
# text is the one the rest reads, a backquote screen finds none to take out). A tree is
# only read, never edited, but stays with the thread that made it.
_last: tuple[int, bytes, Any] | None = None


def _ts_parse(src: bytes) -> Any:
    """tree-sitter's tree of ``src``, parsed as ASCII (see ``_ASCII_ONLY``)."""
    global _last
    last, ident = _last, get_ident()
    if last is not None and last[0] == ident and last[1] == src:
        return last[2]
    tree = _parser().parse(src.translate(_ASCII_ONLY))
    _last = (ident, src, tree)
    return tree


def _first_error(node: Any) -> Any:
    """The first ERROR or MISSING node the gaps module does not read (or None)."""
    stack = [node]
    while stack:
        n = stack.pop()
        if (n.is_missing or n.type == "ERROR") and not gaps.tolerated(n):
            return n
        if n.has_error:
            stack.extend(reversed(n.children))
    return None


# Gap 10's screen by text: a `[` followed by a blank, where a command starts (the start
# of the text, after an operator, `!`, a group or a reserved word that a command follows).
# Read by hand, not by a regex, so that a `[ … ]` script loads no `re` (~6M instructions,
# ~1.8 ms of the shell path's start-up); it finds exactly the `[` that the pattern
# (?:^|[;&|(){}!\n]|(?:^|(?<=[ \t;&|(){}\n]))(?:if|then|else|elif|while|until|do)[ \t])
# [ \t]*(\[)[ \t\n]  found with finditer (tests/shellsyntax/imports_test pins it).
_OPERATORS = b";&|(){}!\n"  # a command starts right after one (blanks between)
_BEFORE_KEYWORD = b" \t;&|(){}\n"  # what may stand before a reserved word
_KEYWORDS = (b"if", b"then", b"else", b"elif", b"while", b"until", b"do")


def _bracket_command_starts(src: bytes) -> list[int]:
    """The offsets of the ``[`` that stand where a command starts (see above)."""
    found: list[int] = []
    taken = 0  # a `[` and the blank after it are read once: a command starts after them
    at = src.find(b"[")
    while at >= 0:
        if src[at + 1 : at + 2] in (b" ", b"\t", b"\n"):
            blank = at  # the first of the blanks before the `[`
            while blank > 0 and src[blank - 1] in b" \t":
                blank -= 1
            start = _command_start(src, blank, at)
            if start >= taken:
                found.append(at)
                taken = at + 2
        at = src.find(b"[", at + 1)
    return found


def _command_start(src: bytes, blank: int, at: int) -> int:
    """Where the text before a ``[`` at ``at`` (blanks from ``blank``) starts a command:
    the start of the text, the operator, or the reserved word followed by a blank; -1
    if it does not."""
    if blank == 0:
        return 0
    if src[blank - 1] in _OPERATORS:
        return blank - 1
    if blank < at:  # a reserved word, then the first blank
        for word in _KEYWORDS:
            start = blank - len(word)
            if (
                start >= 0
                and src.startswith(word, start)
                and (start == 0 or src[start - 1] in _BEFORE_KEYWORD)
            ):
                return start
    return -1


def _premasked(src: bytes) -> tuple[bytes, Any] | None:
    """Gap 10 in one parse, for the usual ``[ … ]``: the text with each ``[`` that stands
    where a command starts read as a word, and its tree — when that tree has each of them
    as a command's name (else None: the tree decides, as below)."""
    found = _bracket_command_starts(src)
    if not found:
        return None
    buf = bytearray(src)
    for at in found:
        buf[at] = ord("x")
    synthetic = bytes(buf)
    tree = _ts_parse(synthetic)
    root = tree.root_node
    for at in found:
        n = root.descendant_for_byte_range(at, at + 1)
        parent = n.parent if n is not None else None
        if (
            n is None
            or n.type != "word"
            or n.start_byte != at
            or n.end_byte != at + 1
            or parent is None
            or parent.type != "command_name"
        ):
            return None
    return synthetic, tree


def _read_brackets_as_words(src: bytes) -> Any:
    """Gap 10: parse, reading each ``[`` command (and ``==`` argument) as an ordinary
    word (see gaps.py)."""
    if src.find(b"[") < 0 and src.find(b"==") < 0 and src.find(b"=~") < 0:
        return _ts_parse(src)
    masked = _premasked(src) if src.find(b"[") >= 0 else None
    synthetic, tree = (src, _ts_parse(src)) if masked is None else masked
    return _settle(synthetic, tree, _bracket_words)[1]


def _bracket_words(root: Any, src: bytes) -> bytes | None:
    return _overwritten(src, [n.start_byte for n in bracket_commands(root, src)], ord("x"))


def _split_escaped_lines(src: bytes, tree: Any) -> Any:
    """Gaps 16 and 28: a line read as more words of the command on the line before (one
    that starts with a backslash, ``\\exit 5``; the line after a pipeline of three or
    more stages, see gaps.words_after_newline); parse again with that newline read as
    ``;``."""
    if src.find(b"\n") < 0:
        return tree
    return _settle(src, tree, _newlines_before_words)[1]


def _newlines_before_words(root: Any, src: bytes) -> bytes | None:
    spans = gaps.words_after_newline(root, src)
    if not spans:
        return None
    buf = bytearray(src)
    for first, newline in spans:
        buf[first:newline] = b" " * (newline - first)  # a comment, if any
        buf[newline] = ord(";")
    return bytes(buf)


def _overwritten(src: bytes, offsets: list[int], byte: int) -> bytes | None:
    """``src`` with the byte at each of ``offsets`` replaced by ``byte`` (None: none)."""
    if not offsets:
        return None
    buf = bytearray(src)
    for at in offsets:
        buf[at] = byte
    return bytes(buf)


def _settle(
    src: bytes,
    tree: Any,
    rewrite: Callable[[Any, bytes], bytes | None],
    reparse: Callable[[bytes], Any] = _ts_parse,
) -> tuple[bytes, Any]:
    """Parse again, as long as ``rewrite`` (of the last tree and the text it is of) finds
    something to change in the parsed copy — 8 times at the most. Returns the last text
    and its tree."""
    synthetic = src
    for _ in range(8):
        changed = rewrite(tree.root_node, synthetic)
        if changed is None:
            break
        synthetic = changed
        tree = reparse(synthetic)
    return synthetic, tree


def _reparse_masked(src: bytes) -> Any:
    """The tree of a masked copy, with gaps 10 and 16 read in it again."""
    return _split_escaped_lines(src, _read_brackets_as_words(src))


def _patched(src: bytes, fixes: list[tuple[int, int, int]]) -> bytes:
    buf = bytearray(src)
    for start, end, byte in fixes:
        buf[start:end] = bytes((byte,)) * (end - start)
    return bytes(buf)


# Only a pre-filter (the tree decides): text where a `!` may stand before a compound
# command, so that other commands do not pay for a walk of their tree.
_BANG_COMPOUND = lazy_compile(rb"![ \t]+(?:\{|if|while|until|for|case|select)")


def _read_patched(src: bytes, tree: Any) -> tuple[Any, set[int], set[int], set[int]]:
    """Gaps 23–25 and 27–32: parse again with these patched in the parsed copy: ``for``
    headers, a ``!`` before a compound command, an escaped byte or a bracket's first
    ``]`` in a ``${…}`` pattern, ``#`` in arithmetic, an operator byte in ``${name…}``, a
    continued ``$``, a reserved word right after a group (``{ a; } then``), the blank
    before an assignment's redirections, the grouping parentheses of a ``[[ … ]]``.
    Returns the tree, the offsets of the commands to negate, of the redirections to
    join to the assignment before them and of the ``[[ … ]]`` parentheses blanked.

    Each gap but two shows as an error in the tree; those two are screened by their
    text first, so that an ordinary command pays for no walk of its tree."""
    negated: set[int] = set()
    joined: set[int] = set()  # gap 32: redirections that belong to the assignment before
    parens: set[int] = set()  # gap 41: a `[[ … ]]`'s parentheses, read as blanks
    bang = src.find(b"!") >= 0 and _BANG_COMPOUND.search(src) is not None
    brace_escape = (
        src.find(b"\\}") >= 0 and src.find(b"${") >= 0
    )  # `"${v#\}}"` parses without an error
    if not bang and not brace_escape and not tree.root_node.has_error:
        return tree, negated, joined, parens
    synthetic = src
    for _ in range(8):
        root = tree.root_node
        fixes: list[tuple[int, int, int]] = []
        if root.has_error:
            fixes.extend(gaps.for_headers(root, synthetic))
            if src.find(b"#") >= 0:
                fixes.extend(gaps.arithmetic_hashes(root))
            if src.find(b"${") >= 0:
                fixes.extend(gaps.operators_in_braces(root, synthetic))
            if src.find(b"\\\n$") >= 0:
                fixes.extend(gaps.continued_dollars(root, synthetic))
            if src.find(b"}") >= 0 or src.find(b")") >= 0:
                fixes.extend(gaps.keywords_after_groups(root, synthetic))
            if src.find(b"[[") >= 0 and src.find(b" = ") >= 0:
                fixes.extend(gaps.pattern_equals(root, synthetic))  # gap 38
            if src.find(b"=~") >= 0:
                fixes.extend(gaps.regex_words(root, synthetic))  # gap 39
            if src.find(b"case") >= 0:
                fixes.extend(gaps.case_patterns(root, synthetic))  # gap 48
            if src.find(b"~") >= 0 and src.find(b"[[") >= 0:
                fixes.extend(gaps.lone_tildes(root, synthetic))  # gap 45
            if src.find(b"[[") >= 0 and src.find(b"(") >= 0 and not parens:
                found = gaps.condition_parens(root, synthetic)  # gap 41
                parens.update(found)
                fixes.extend((at, at + 1, ord(" ")) for at in found)
            if src.find(b"=") >= 0:
                redirects = gaps.assignment_redirects(root, synthetic)
                joined.update(redirects)
                fixes.extend((at - 1, at, ord(";")) for at in redirects)
        if brace_escape or (root.has_error and src.find(b"${") >= 0):
            fixes.extend(gaps.escaped_in_patterns(root, synthetic))
            if root.has_error and synthetic.find(b")") >= 0:
                fixes.extend(gaps.parens_in_brackets(synthetic))
        bangs = gaps.negated_compounds(root, synthetic) if bang else {}
        if not fixes and not bangs:
            break
        fixes.extend((at, at + 1, ord(" ")) for at in bangs)
        negated.update(bangs.values())
        synthetic = _patched(synthetic, fixes)
        tree = _ts_parse(synthetic)
        if synthetic.find(b"\n") >= 0:  # gap 32, then 28 (`x=1 2>f && y=2 >g⏎echo`)
            synthetic, tree = _settle(synthetic, tree, _newlines_before_words)
    return tree, negated, joined, parens


def _mask_extglobs(src: bytes, tree: Any) -> tuple[bytes, Any]:
    """Gap 17: parse again with the parentheses and bars of each extended glob the
    grammar read as a subshell swapped for letters (nested ones come out on the next
    round)."""
    if not gaps.maybe_extglobs(src):
        return src, tree
    return _settle(src, tree, _masked_extglobs, _reparse_masked)


def _masked_extglobs(root: Any, src: bytes) -> bytes | None:
    spans = gaps.extglobs(root, src)
    return gaps.mask_extglobs(src, root, spans) if spans else None


def _mask_broken_arithmetic(src: bytes, tree: Any) -> tuple[bytes, Any]:
    """Gap 26: parse again with the body of each arithmetic the grammar could not read
    as ``0`` (hookrun's evaluator reads the user's text)."""
    if not tree.root_node.has_error or src.find(b"((") < 0:
        return src, tree
    return _settle(src, tree, _zeroed_arithmetic, _reparse_masked)


def _zeroed_arithmetic(root: Any, src: bytes) -> bytes | None:
    found = gaps.broken_arithmetic(root, src)
    if not found:
        return None
    buf = bytearray(src)
    for start, end in found:
        buf[start] = 0x30  # 0
        for k in range(start + 1, end):
            if buf[k] != 0x0A:
                buf[k] = 0x20
    return bytes(buf)


def _mask_assignment_dollars(src: bytes, tree: Any) -> tuple[bytes, Any]:
    """Gap 49: parse again with each bare ``$`` that ends an assignment's value before a
    word read as a letter. Screened by text: a ``:$`` in a text with an ``=``."""
    if src.find(b":$") < 0 or src.find(b"=") < 0:
        return src, tree
    return _settle(src, tree, _assignment_dollars, _reparse_masked)


def _assignment_dollars(root: Any, src: bytes) -> bytes | None:
    return _overwritten(src, gaps.assignment_dollars(root, src), ord("x"))


def parse_bytes(src: bytes, depth: int = 0) -> tuple[Stmt, ...]:
    if depth > 20:
        raise Unsupported("backquotes nested this deeply")
    text, docs = here_documents(src, _ts_parse)  # gap 5: bodies blanked first
    text, backquoted = backquoted_substitutions(text, _ts_parse)  # gap 8
    # gaps 17, 21, 22; word text is still taken from src
    masked = gaps.escaped_blanks(gaps.control_blanks(text))
    if (
        masked.endswith(b"\\")
        and (len(masked) - len(masked.rstrip(b"\\"))) % 2
        and not masked.endswith(b"$\\")  # (`$x` would be an expansion: left as it was)
    ):
        masked = masked[:-1] + b"x"  # gap 47: `echo C:\` ends with a backslash bash keeps
    if masked.find(b"$((") >= 0:
        masked = gaps.empty_arithmetic(masked)  # gap 39
    if masked.find(b"~") >= 0 and masked.find(b"${") >= 0:
        masked = gaps.case_toggles(masked)  # gap 40
    if masked.find(b"'") >= 0 and masked.find(b"${") >= 0 and masked.find(b"/") >= 0:
        masked = gaps.quoted_slashes(masked)  # gap 46
    if masked.find(b":$") >= 0 and masked.find(b"${") >= 0:
        masked = gaps.slice_dollars(masked)  # gap 44
    if masked.find(b"esac") >= 0:
        masked = gaps.esac_arguments(masked)  # gap 39
    tree = _split_escaped_lines(masked, _read_brackets_as_words(masked))
    masked, tree = _mask_extglobs(masked, tree)  # gap 17
    masked, tree = _mask_broken_arithmetic(masked, tree)  # gap 26
    masked, tree = _mask_assignment_dollars(masked, tree)  # gap 49
    tree, negated, joined, parens = _read_patched(masked, tree)
    root = tree.root_node
    if root.has_error:
        err = _first_error(root)
        if err is not None:
            raise gaps.classify_error(src, err)
    conv = Converter(
        src,
        lambda body, _offset: parse_bytes(body, depth + 1),
        depth,
        _ts_parse,
        docs,
        backquoted,
        negated,
        joined,
        parens,
    )
    try:
        return conv.stmts(root.children)
    except RecursionError:
        raise Unsupported("commands nested this deeply") from None


@functools.lru_cache(maxsize=512)
def parse(source: str) -> Script:
    """Parse ``source``; cached (hooks run the same command many times).

    A plain line (:mod:`hookrun.shellsyntax.plain`) is read without tree-sitter, into
    the same nodes; anything else is :func:`parse_tree`'s. Raises
    :class:`ShellSyntaxError` or :class:`Unsupported`, nothing else, for any text.
    """
    script = plain.read(source)
    if script is not None:
        return script
    return parse_tree(source)


def _final_continuation_dropped(src: bytes) -> bytes:
    """``src`` without a backslash-newline that ends it: bash joins it to the end of the
    input (``echo hi\\⏎`` runs ``echo hi``), the grammar calls it an unexpected end of
    file. Texts with a here-document keep it (their body's rules are the here-document
    reader's)."""
    if not src.endswith(b"\\\n") or src.find(b"<<") >= 0:
        return src
    head = src[:-1]
    if (len(head) - len(head.rstrip(b"\\"))) % 2 == 0:
        return src  # `\\⏎`: an escaped backslash, then the newline
    return src[:-2]


def _joined_tree(src: bytes) -> Script:
    """Gap 43: ``src`` parsed without the line continuations bash removes, its offsets
    moved back onto ``src`` (errors too: their line and column are the user's)."""
    found = continuations.joined(src)
    if found is None:
        return Script(parse_bytes(_final_continuation_dropped(src)), src)
    text, removed = found
    try:
        stmts = parse_bytes(_final_continuation_dropped(text))
    except ShellSyntaxError as err:
        at = continuations.user_position(removed, text, err.line, err.column)
        raise ShellSyntaxError(err.message, *_line_col(src, at)) from None
    except Unsupported as err:
        if not err.line:
            raise
        at = continuations.user_position(removed, text, err.line, err.column)
        raise Unsupported(err.construct, *_line_col(src, at)) from None
    return Script(continuations.placed(stmts, removed), src)


def _line_col(src: bytes, at: int) -> tuple[int, int]:
    line = src.count(b"\n", 0, at) + 1
    return line, at - (src.rfind(b"\n", 0, at) + 1) + 1


def parse_tree(source: str) -> Script:
    """``source`` parsed by tree-sitter (not cached, no fast path: :func:`parse` is the
    entry). Raises :class:`ShellSyntaxError` or :class:`Unsupported`, nothing else."""
    src = source.encode("utf-8", "surrogateescape")
    try:
        if src.find(b"\\\n") >= 0:  # gap 43: line continuations, taken out as bash does
            return _joined_tree(src)
        return Script(parse_bytes(_final_continuation_dropped(src)), src)
    except (ShellSyntaxError, Unsupported):
        raise
    except (
        StopIteration,
        AttributeError,
        IndexError,
        ValueError,
        TypeError,
        AssertionError,
    ) as exc:
        # A tree shape the converter did not expect: refuse the script by name rather
        # than guess what it means (the fuzz test hunts for these).
        raise Unsupported(f"a construct the parser could not read ({type(exc).__name__})") from None
