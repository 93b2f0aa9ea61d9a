"""``[[ s =~ re ]]`` as bash matches it: POSIX extended regular expressions in glibc's
dialect (``regcomp(REG_EXTENDED)``), leftmost-longest, over Python's ``re``.

Loaded on a script's first ``=~`` (the shell path does not import it). Three steps:

1. :func:`bash_text` — the right side's pieces as bash hands them to ``regcomp``
   (``quote_string_for_globbing(QGLOB_REGEXP)`` in bash's ``pathexp.c``): a quoted
   character that is special in an ERE gets a backslash, except inside a bracket
   expression, where quoting is simply dropped (``["^a"]`` negates, as in bash 5.2).
2. :class:`_Parser` — glibc's ``regcomp.c`` grammar under ``RE_SYNTAX_POSIX_EXTENDED``:
   repeated quantifiers nest (``a**``, ``a+*``), an unmatched ``)`` and a ``}`` are
   letters, a quantifier with nothing before it (``*a``, ``(+a)``, ``^*``) is an error,
   ``{`` must start a valid interval (at most 32767), a backslash in a bracket is a
   letter, ``[=a=]``/``[.-.]`` name one character, ``\\w \\W \\s \\S \\b \\B \\< \\>
   \\` \\'`` are GNU operators, ``\\1``-``\\9`` refer back to a closed group, ``^``/``$``
   are anchors anywhere. The tree becomes a Python pattern; an error glibc reports
   raises :class:`RegexInvalid` (bash prints nothing and ``=~`` gives status 2).
3. :func:`search` — the match glibc's ``regexec`` reports: the leftmost start (Python's
   ``search`` finds the same one), the **longest** end from there (found by searching
   the reversed text with the reversed pattern, anchored at that start: one more
   ``search``, no retries per end), and the groups as glibc's ``set_regs`` picks them
   for that span — the first path in priority order (the left alternative, the greedy
   repetition), which is the path Python's backtracking takes when the match is held
   to that span. The span itself is RE2's (section 4), in time linear in the value,
   unless the value is short and the regex tame (Python's search is then bounded).

Known differences (tests/dispatch/shell/ere_test.py keeps each as a strict xfail): a
loop whose body can match empty (``(b*)+``, ``(a|)*``) — Python records a last empty
iteration where glibc keeps the last non-empty one; character classes of non-ASCII
letters follow Python's Unicode tables, not glibc's locale. Python's backtracking can
still take exponential time where RE2 cannot answer for it (a back-reference, ``\\<``,
``\\>``, ``\\b`` next to a non-ASCII letter, an interval over 1000): see section 4.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from hookrun.dispatch.shell.expand import BREAK, QUOTED
from hookrun.lazyre import compile as lazy_compile
from hookrun.records import TYPE_CHECKING

if TYPE_CHECKING:  # (typing costs ~5 ms to import: not at run time)
    from typing import Any

    # Tree nodes: ("lit", ch) ("any",) ("set", negated, python_alternatives)
    # ("cat", [..]) ("alt", [..]) ("group", n, node) ("rep", node, lo, hi)
    # ("anchor", kind) ("ref", n)
    Node = tuple[Any, ...]

__all__ = ["RegexInvalid", "bash_text", "search"]


class RegexInvalid(Exception):
    """A regular expression glibc's ``regcomp`` rejects (its ``regerror`` text)."""


# glibc's regerror texts (posix/regcomp.c __re_error_msgid).
_EBRACK = "Unmatched [, [^, [:, [., or [="
_EPAREN = "Unmatched ( or \\("
_EBRACE = "Unmatched \\{"
_BADBR = "Invalid content of \\{\\}"
_ERANGE = "Invalid range end"
_ECTYPE = "Invalid character class name"
_ECOLLATE = "Invalid collation character"
_BADRPT = "Invalid preceding regular expression"
_EESCAPE = "Trailing backslash"
_ESUBREG = "Invalid back reference"
_ESIZE = "Regular expression too big"
_BADPAT = "Invalid regular expression"

RE_DUP_MAX = 0x7FFF  # glibc's bound on an interval's numbers

# Characters bash backslash-quotes when they were quoted in the word (ere_char()).
_ERE_CHARS = frozenset(".[\\()*+?{|^$")


# -- 1. the text bash compiles -------------------------------------------------------
def bash_text(pieces: Sequence[tuple[str, int]]) -> str:
    """The regex text bash gives ``regcomp`` for the expanded right side of ``=~``:
    ``pieces`` are the expander's (text, kind); QUOTED and BREAK text was quoted."""
    if not any(k in (QUOTED, BREAK) for _, k in pieces):
        return "".join(t for t, _ in pieces)
    chars: list[str] = []
    quoted: list[bool] = []
    for t, k in pieces:
        q = k in (QUOTED, BREAK)
        chars.extend(t)
        quoted.extend([q] * len(t))
    return _quote_for_regex(chars, quoted)


def _quote_for_regex(chars: list[str], quoted: list[bool]) -> str:
    """bash's ``quote_string_for_globbing`` with QGLOB_REGEXP, over (char, quoted)."""
    out: list[str] = []
    n = len(chars)
    i = 0
    while i < n:
        c = chars[i]
        if quoted[i]:
            out.append("\\" + c if c in _ERE_CHARS else c)
            i += 1
            continue
        if c != "[":
            out.append(c)
            i += 1
            continue
        # An unquoted '[': copy the bracket expression with its quoting dropped, up to the
        # ']' that bash takes for its end; with none, read on as if '[' were a letter.
        body: list[str] = ["["]
        j = i + 1

        def at(k: int) -> str:
            return chars[k] if k < n else ""

        if j < n and not quoted[j] and chars[j] == "^":
            body.append("^")
            j += 1
        if j < n and not quoted[j] and chars[j] == "]":
            body.append("]")
            j += 1
        cclass = equiv = collsym = False
        closed = False
        while j < n:
            c = chars[j]
            if quoted[j]:
                body.append(c)
                j += 1
            elif c == "]":
                closed = True
                break
            elif c == "[" and at(j + 1) == ":":
                body.append("[:")
                j += 2
                cclass = True
            elif cclass and c == ":" and at(j + 1) == "]":
                body.append(":]")
                j += 2
                cclass = False
            elif c == "[" and at(j + 1) in ("=", "."):
                body.append(c + chars[j + 1])
                j += 2
                if at(j) == "]":
                    body.append("]")
                    j += 1
                equiv, collsym = (True, collsym) if body[-1][-1:] == "=" else (equiv, True)
            elif equiv and c == "=" and at(j + 1) == "]":
                body.append("=]")
                j += 2
                equiv = False
            elif collsym and c == "." and at(j + 1) == "]":
                body.append(".]")
                j += 2
                collsym = False
            else:
                body.append(c)
                j += 1
        if not closed:
            out.append("[")
            i += 1
            continue
        body.append("]")
        out.extend(body)
        i = j + 1
    return "".join(out)


# -- 2. glibc's grammar ----------------------------------------------------------------

_SURROGATES = "\udc80-\udcff"  # bytes that are not UTF-8: no class or '.' matches one
# \w: Python's, less the Latin-1 numerics glibc's tables leave out of alnum (² ³ ¹ ¼ ½ ¾)
_WORD = r"(?![\xb2\xb3\xb9\xbc-\xbe])\w"
# what \< \> \b \B look at: a word character, or a byte that is not UTF-8 (glibc's
# context reads one as a word character; no atom matches it)
_WCTX = "[\\w" + "\udc80-\udcff" + "]"
_ANCHOR_OPS = {"<": "<", ">": ">", "b": "b", "B": "B", "`": "^", "'": "$"}

# [:name:] in C.UTF-8 (glibc's i18n tables, approximated by Python's for non-ASCII):
# a set body for a Python class, or a pattern for one character.
_SPACES = " \\t\\n\\r\\f\\v\u1680\u2000-\u2006\u2008-\u200a\u2028\u2029\u205f\u3000"
_BLANKS = " \\t\u1680\u2000-\u2006\u2008-\u200a\u205f\u3000"
_CNTRL = "\\x00-\\x1f\\x7f-\\x9f\u2028\u2029"
_CLASS_SET = {
    "digit": "0-9",
    "xdigit": "0-9A-Fa-f",
    "blank": _BLANKS,
    "cntrl": _CNTRL,
}
# [:space:] (and \s): Python's \s less what glibc's table leaves out — the same
# characters as the class [_SPACES], which compiles ~2M instructions slower (its
# characters past Latin-1 make re build a 64K-entry table); checked over every code
# point in ere_test.py.
_SPACE = r"(?![\x1c-\x1f\x85\xa0]|\u2007|\u202f)\s"
_CLASS_PATTERN = {
    "space": _SPACE,
    "alpha": r"(?![_0-9\xb2\xb3\xb9\xbc-\xbe])\w",
    "alnum": r"(?![_\xb2\xb3\xb9\xbc-\xbe])\w",
    "punct": r"(?:[!-/:-@\[-`{-~]|(?![\w"
    + _SPACES
    + "])[^\\x00-\\x7f"
    + _CNTRL
    + _SURROGATES
    + "])",
    "print": "[^" + _CNTRL + _SURROGATES + "]",
    "graph": "(?![" + _SPACES + "])[^" + _CNTRL + _SURROGATES + "]",
}


def _cased(upper: bool) -> str:
    """[:upper:] / [:lower:] as a set body: ASCII, then the cased letters below U+3000
    by Python's tables (glibc's i18n tables agree on these scripts)."""
    body = ["A-Z" if upper else "a-z"]
    test = str.isupper if upper else str.islower
    start = -1
    for cp in range(0x80, 0x3001):
        if cp < 0x3000 and test(chr(cp)):
            if start < 0:
                start = cp
        elif start >= 0:
            body.append(chr(start) if start == cp - 1 else chr(start) + "-" + chr(cp - 1))
            start = -1
    return "".join(body)


def _set_char(c: str) -> str:
    return "\\" + c if c in "\\]^-[" else c


class _Parser:
    """glibc's parse_reg_exp / parse_branch / parse_expression for POSIX_EXTENDED."""

    def __init__(self, text: str) -> None:
        self.s = text
        self.i = 0
        self.ngroups = 0
        self.closed: set[int] = set()
        self.has_ref = False

    def fail(self, msg: str) -> RegexInvalid:
        return RegexInvalid(msg)

    def parse(self) -> Node:
        node = self.alternation(0)
        if self.i < len(self.s):  # pragma: no cover - a top-level ')' is a letter
            raise self.fail(_EPAREN)
        return node

    def alternation(self, depth: int) -> Node:
        branches = [self.branch(depth)]
        while self.i < len(self.s) and self.s[self.i] == "|":
            self.i += 1
            branches.append(self.branch(depth))
        return branches[0] if len(branches) == 1 else ("alt", branches)

    def branch(self, depth: int) -> Node:
        items: list[Node] = []
        s = self.s
        while self.i < len(s):
            c = s[self.i]
            if c == "|" or (c == ")" and depth > 0):
                break
            items.append(self.expression(depth))
        return items[0] if len(items) == 1 else ("cat", items)

    def expression(self, depth: int) -> Node:
        s = self.s
        c = s[self.i]
        self.i += 1
        atom: Node
        if c in "*+?{":
            # glibc: RE_CONTEXT_INVALID_OPS; a '{' here opens no interval either
            raise self.fail(_BADRPT)
        if c == "^" or c == "$":
            return ("anchor", c)  # an anchor takes no repetition ("^*" is an error)
        if c == "\\":
            if self.i >= len(s):
                raise self.fail(_EESCAPE)
            d = s[self.i]
            self.i += 1
            if d in _ANCHOR_OPS:
                return ("anchor", _ANCHOR_OPS[d])
            if d in "wWsS":
                body = _WORD if d in "wW" else _SPACE
                atom = ("set", d.isupper(), [body])
            elif "1" <= d <= "9":
                n = int(d)
                if n not in self.closed:
                    raise self.fail(_ESUBREG)
                self.has_ref = True
                atom = ("ref", n)
            else:
                atom = ("lit", d)
        elif c == "(":
            self.ngroups += 1
            n = self.ngroups
            if self.i < len(s) and s[self.i] == ")":
                inner: Node = ("cat", [])
            else:
                inner = self.alternation(depth + 1)
            if self.i >= len(s) or s[self.i] != ")":
                raise self.fail(_EPAREN)
            self.i += 1
            self.closed.add(n)
            atom = ("group", n, inner)
        elif c == ".":
            atom = ("any",)
        elif c == "[":
            atom = self.bracket()
        else:  # a letter, a top-level ')', a '}'
            atom = ("lit", c)
        return self.repetitions(atom)

    def repetitions(self, atom: Node) -> Node:
        s = self.s
        while self.i < len(s) and s[self.i] in "*+?{":
            c = s[self.i]
            self.i += 1
            if c == "*":
                atom = _loop(atom, 0, -1)
            elif c == "+":
                atom = _loop(atom, 1, -1)
            elif c == "?":
                atom = _loop(atom, 0, 1)
            else:
                lo, hi = self.interval()
                atom = _loop(atom, lo, hi)  # ({0} too: its groups keep their numbers)
        return atom

    def number(self) -> tuple[int, str]:
        """glibc's fetch_number: (-1 none, -2 bad, or the number) and the char ending it."""
        s = self.s
        num = -1
        while True:
            if self.i >= len(s):
                return -2, ""
            c = s[self.i]
            self.i += 1
            if c == "\\" and self.i < len(s):
                c = s[self.i]  # a quoted character is that character's token
                self.i += 1
                if c == ",":
                    return num, ","
                num = -2
                continue
            if c == "}" or c == ",":
                return num, c
            if num == -2 or not ("0" <= c <= "9"):
                num = -2
            else:
                num = int(c) if num == -1 else min(RE_DUP_MAX + 1, num * 10 + int(c))

    def interval(self) -> tuple[int, int]:
        lo, end = self.number()
        if lo == -1:
            if end == ",":
                lo = 0  # "{,m}" is "{0,m}"
            else:
                raise self.fail(_BADBR)  # "{}"
        hi = -1
        if lo != -2:
            if end == "}":
                hi = lo
            elif end == ",":
                hi, end = self.number()
            else:
                hi = -2
        if lo == -2 or hi == -2:
            raise self.fail(_EBRACE if self.i >= len(self.s) and end == "" else _BADBR)
        if end != "}" or (hi != -1 and lo > hi):
            raise self.fail(_BADBR)
        if (lo if hi == -1 else hi) > RE_DUP_MAX:
            raise self.fail(_ESIZE)
        return lo, hi

    def bracket(self) -> Node:
        s = self.s
        n = len(s)
        negated = False
        if self.i < n and s[self.i] == "^":
            negated = True
            self.i += 1
            if self.i >= n:
                raise self.fail(_BADPAT)
        chars: list[str] = []
        alts: list[str] = []
        first = True
        while True:
            if self.i >= n:
                raise self.fail(_EBRACK)
            kind, value = self.element(first)
            first = False
            if self.i >= n:
                raise self.fail(_EBRACK)
            if kind != "class" and kind != "equiv" and s[self.i] == "-":
                if self.i + 1 >= n:
                    raise self.fail(_EBRACK)
                if s[self.i + 1] == "]":
                    chars.append(_set_char(value))
                    chars.append("\\-")
                    self.i += 2
                    break
                self.i += 1
                end_kind, end = self.element(True)
                if kind not in ("char", "coll") or end_kind not in ("char", "coll"):
                    raise self.fail(_ERANGE)
                if ord(value) > ord(end):
                    raise self.fail(_ERANGE)
                chars.append(_set_char(value) + "-" + _set_char(end))
            elif kind == "class":
                if value in _CLASS_SET:
                    chars.append(_CLASS_SET[value])
                elif value == "upper" or value == "lower":
                    chars.append(_cased(value == "upper"))
                elif value in _CLASS_PATTERN:
                    alts.append(_CLASS_PATTERN[value])
                else:
                    raise self.fail(_ECTYPE)
            else:
                chars.append(_set_char(value))
            if self.i >= n:
                raise self.fail(_EBRACK)
            if s[self.i] == "]":
                self.i += 1
                break
        if chars:
            alts.insert(0, "[" + "".join(chars) + "]")
        return ("set", negated, alts)

    def element(self, accept_hyphen: bool) -> tuple[str, str]:
        """One bracket element: ('char', c), ('coll', c), ('equiv', c) or ('class', name)."""
        s = self.s
        n = len(s)
        c = s[self.i]
        if c == "[" and self.i + 1 < n and s[self.i + 1] in ".=:":
            delim = s[self.i + 1]
            self.i += 2
            start = self.i
            while True:  # glibc's parse_bracket_symbol
                if self.i + 1 >= n or self.i - start >= 32:
                    raise self.fail(_EBRACK)
                if s[self.i] == delim and s[self.i + 1] == "]":
                    break
                self.i += 1
            name = s[start : self.i]
            self.i += 2
            if delim == ":":
                return "class", name
            if len(name.encode("utf-8", "surrogateescape")) != 1:
                raise self.fail(_ECOLLATE)  # C.UTF-8 collates no multi-byte names
            return ("coll" if delim == "." else "equiv"), name
        if c == "-" and not accept_hyphen and not (self.i + 1 < n and s[self.i + 1] == "]"):
            raise self.fail(_ERANGE)
        self.i += 1
        return "char", c


# -- emitting Python patterns ------------------------------------------------------------
# ctx for the variants used with an end bound (endpos): the character just past the
# bound, which a pattern held to that bound cannot see — "" (none: end of text), "w" (a
# word character), "n" (another character).


def _after(word: bool, ctx: str | None) -> str:
    """The next character is (not) a word character, where the next may lie past endpos."""
    if ctx != "w":
        return "(?=" + _WCTX + ")" if word else "(?!" + _WCTX + ")"
    return "(?:(?=" + _WCTX + r")|\Z)" if word else "(?!" + _WCTX + r")(?!\Z)"


def _emit(node: Node, out: list[str], groups: bool, rev: bool, ctx: str | None, dot: str) -> None:
    """``node`` as Python pattern text; ``dot`` is what '.' becomes (see _DOTS)."""
    kind = node[0]
    if kind == "lit":
        out.append(re.escape(node[1]))
    elif kind == "any":
        out.append(dot)
    elif kind == "set":
        alts = node[2]
        one = alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")"
        out.append("(?!" + one + ")" + dot if node[1] else one)
    elif kind == "cat":
        items = reversed(node[1]) if rev else node[1]
        for item in items:
            _emit(item, out, groups, rev, ctx, dot)
    elif kind == "alt":
        out.append("(?:")
        for k, b in enumerate(node[1]):
            if k:
                out.append("|")
            _emit(b, out, groups, rev, ctx, dot)
        out.append(")")
    elif kind == "group":
        out.append(f"(?P<g{node[1]}>" if groups else "(?:")
        _emit(node[2], out, groups, rev, ctx, dot)
        out.append(")")
    elif kind == "rep":
        out.append("(?:")
        _emit(node[1], out, groups, rev, ctx, dot)
        lo, hi = node[2], node[3]
        q = {(0, -1): "*", (1, -1): "+", (0, 1): "?"}.get((lo, hi))
        out.append(")" + (q or (f"{{{lo},}}" if hi == -1 else f"{{{lo},{hi}}}")))
    elif kind == "ref":
        out.append(f"(?P=g{node[1]})")
    else:
        out.append(_anchor(node[1], rev, ctx))


def _anchor(a: str, rev: bool, ctx: str | None) -> str:
    """An anchor; in the reversed pattern 'after' is the original 'before'."""
    w = _WCTX
    if rev:
        # the text is reversed and its end bound is the original start, whose left
        # neighbour is ctx ("" = the start of the text)
        if a == "^":
            return r"\Z" if ctx == "" else "(?!)"
        if a == "$":
            return r"\A"
        after_w, after_n = _after(True, ctx), _after(False, ctx)
        if a == "<":  # original: word here, none before
            return "(?<=" + w + ")" + after_n
        if a == ">":
            return "(?<!" + w + ")" + after_w
        if a == "b":
            return "(?:(?<=" + w + ")" + after_n + "|(?<!" + w + ")" + after_w + ")"
        return "(?:(?<=" + w + ")" + after_w + "|(?<!" + w + ")" + after_n + ")"
    if a == "^":
        return r"\A"
    if a == "$":
        return r"\Z" if ctx is None or ctx == "" else "(?!)"
    after_w, after_n = _after(True, ctx), _after(False, ctx)
    if a == "<":
        return "(?<!" + w + ")" + after_w
    if a == ">":
        return "(?<=" + w + ")" + after_n
    if a == "b":
        return "(?:(?<=" + w + ")" + after_n + "|(?<!" + w + ")" + after_w + ")"
    return "(?:(?<=" + w + ")" + after_w + "|(?<!" + w + ")" + after_n + ")"


def _has(node: Node, kinds: frozenset[str]) -> bool:
    k = node[0]
    if k in kinds:
        return True
    if k == "cat" or k == "alt":
        return any(_has(n, kinds) for n in node[1])
    if k == "group":
        return _has(node[2], kinds)
    if k == "rep":
        return _has(node[1], kinds)
    return False


def _nullable(node: Node) -> bool:
    k = node[0]
    if k in ("lit", "any", "set"):
        return False
    if k == "cat":
        return all(_nullable(n) for n in node[1])
    if k == "alt":
        return any(_nullable(n) for n in node[1])
    if k == "group":
        return _nullable(node[2])
    if k == "rep":
        return node[2] == 0 or _nullable(node[1])
    return True  # anchors, back-references (a group may have matched empty)


def _zero_width(node: Node) -> bool:
    k = node[0]
    if k == "anchor":
        return True
    if k == "cat" or k == "alt":
        return all(_zero_width(n) for n in node[1])
    if k == "group":
        return _zero_width(node[2])
    if k == "rep":
        return _zero_width(node[1])
    return False


def _nonempty(node: Node) -> Node | None:
    """``node`` less its empty matches, its groups kept once (None: not without copying a
    group). glibc's loop takes no iteration that matches empty (its NFA walk does not
    come back to a node without reading): ``(a*)*`` on "aa" leaves "aa" in the group
    where Python's loop adds a last empty iteration and leaves ""."""
    k = node[0]
    if not _nullable(node):
        return node
    if k == "group":
        inner = _nonempty(node[2])
        return None if inner is None else ("group", node[1], inner)
    if k == "alt":
        kept = []
        for b in node[1]:
            if _zero_width(b):
                if _has(b, _GROUPS):
                    return None
                continue
            nb = _nonempty(b)
            if nb is None:
                return None
            kept.append(nb)
        if not kept:
            return None
        return kept[0] if len(kept) == 1 else ("alt", kept)
    if k == "rep":
        body = node[1]
        if _nullable(body):
            body = _nonempty(body)
            if body is None:
                return None
        return ("rep", body, max(node[2], 1), node[3])
    if k == "cat":
        wide = [n for n in node[1] if not _zero_width(n)]
        if len(wide) != 1:
            return None
        inner = _nonempty(wide[0])
        if inner is None:
            return None
        return ("cat", [inner if n is wide[0] else n for n in node[1]])
    return None


_GROUPS = frozenset({"group"})
_NO_LOOP_REWRITE = frozenset({"anchor", "ref"})


def _loop(atom: Node, lo: int, hi: int) -> Node:
    """``atom`` repeated, a loop over a body that can match empty rewritten (see
    :func:`_nonempty`) where that changes which groups Python reports."""
    if atom[0] == "rep":
        # A repetition repeated (glibc takes "a**", "a+*", "a*{2,3}") as the one
        # repetition it amounts to: Python's backtracking over (?:(?:.)+)* is
        # exponential where it fails ('.+*x' over 30 characters: seconds).
        ilo, ihi = atom[2], atom[3]
        if ihi == -1 and ilo <= 1:
            return _loop(atom[1], ilo * lo, -1)
        if (ilo, ihi) == (0, 1) and (hi == -1 or (lo, hi) == (0, 1)):
            return _loop(atom[1], 0, hi if lo == 0 else -1)
    # X+ over a nullable X matches what X* does — unless X holds an anchor or a
    # back-reference, whose one required pass may fail
    if (
        hi == -1
        and (lo == 0 or (lo == 1 and not _has(atom, _NO_LOOP_REWRITE)))
        and _nullable(atom)
        and _has(atom, _GROUPS)
    ):
        body = _nonempty(atom)
        if body is not None:
            return ("rep", body, 0, -1)
    return ("rep", atom, lo, hi)


def _required(node: Node, out: list[str]) -> None:
    """The literal runs every match of ``node`` contains (into ``out``)."""
    k = node[0]
    if k == "cat":
        run: list[str] = []
        for n in node[1]:
            if n[0] == "lit":
                run.append(n[1])
                continue
            if run:
                out.append("".join(run))
                run = []
            _required(n, out)
        if run:
            out.append("".join(run))
    elif k == "lit":
        out.append(node[1])
    elif k == "group":
        _required(node[2], out)
    elif k == "rep" and node[2] >= 1:
        _required(node[1], out)


def _has_broad_loop(node: Node) -> bool:
    """Whether ``node`` holds an unbounded repetition of '.' or a negated class."""
    k = node[0]
    if k == "rep":
        body = node[1]
        if node[3] == -1 and (body[0] == "any" or (body[0] == "set" and body[1])):
            return True
        return _has_broad_loop(body)
    if k == "cat" or k == "alt":
        return any(_has_broad_loop(n) for n in node[1])
    if k == "group":
        return _has_broad_loop(node[2])
    return False


def _greedy_is_longest(node: Node) -> bool:
    """Whether Python's first match from a start is always the longest there: a sequence
    (groups read through) of single characters, anchors and greedy repetitions of a
    single character ('rm[[:space:]]+-rf', '^git[[:space:]]+push.*--force', '\\w+').
    Backtracking gives up a repetition's characters last-first, so its first success
    keeps every repetition as long as it can be (checked against the longest end over
    generated patterns of this shape in ere_test.py). Such a regex needs no reversed
    search, which costs a pass over the text after the match (~100 ms over 100 KB)."""
    k = node[0]
    if k in ("lit", "any", "set", "anchor"):
        return True
    if k == "cat":
        return all(_greedy_is_longest(n) for n in node[1])
    if k == "group":
        return _greedy_is_longest(node[2])
    if k == "rep":
        body = node[1]
        while body[0] == "group":
            body = body[2]
        return body[0] in ("lit", "any", "set")
    return False


_FLAGS = re.DOTALL


class _Compiled:
    """One regex's patterns: the search, and the variants built on first need."""

    __slots__ = (
        "tree", "names", "anchored", "refs", "flags", "greedy", "musts", "_pats", "_linear",
        "tame",
    )  # fmt: skip

    def __init__(self, tree: Node, ngroups: int, refs: bool, icase: bool) -> None:
        self.tree = tree
        self.flags = _FLAGS | re.IGNORECASE if icase else _FLAGS
        self.names = [f"g{k}" for k in range(1, ngroups + 1)]
        self.refs = refs
        self.anchored = _has(tree, frozenset({"anchor"}))
        self.greedy = _greedy_is_longest(tree)
        # Literal runs any match holds, looked for first (at C speed): a value without
        # one cannot match, and Python's search need not try every start — for 'x.*y'
        # over 100 KB of 'x ' it tries 50,000 starts, each running to the end (~75 s).
        # Only runs after a loop that can run over anything ('.*', '[^x]+'): where no
        # such loop comes first, Python's search is linear and a look-up would be a
        # second pass (~0.5 ms over 100 KB for each run).
        self.musts: list[str] = []
        if not icase:
            items = tree[1] if tree[0] == "cat" else [tree]
            for k, item in enumerate(items):
                if _has_broad_loop(item):
                    _required(("cat", items[k + 1 :]), self.musts)
                    break
        self._pats: dict[tuple[str, str | None, bool], re.Pattern[str]] = {}
        self._linear: _Linear | None = None
        self.tame = _tame(tree)

    def _pattern(self, kind: str, ctx: str | None, clean: bool) -> re.Pattern[str]:
        key = (kind, ctx if self.anchored or ctx is None else "n", clean)
        p = self._pats.get(key)
        if p is None:
            out: list[str] = []
            _emit(self.tree, out, kind != "back", kind == "back", key[1], _DOTS[clean])
            text = "(?:" + "".join(out) + r")\Z" if kind == "back" else "".join(out)
            p = self._pats[key] = _compile(text, self.flags)
        return p

    def find(self, clean: bool) -> re.Pattern[str]:
        """The pattern for the search (``clean``: the value holds no undecodable byte)."""
        return self._pattern("find", None, clean)

    def held(self, ctx: str, clean: bool) -> re.Pattern[str]:
        """The pattern with groups, for a match held to end at endpos (ctx: past it)."""
        return self._pattern("held", ctx, clean)

    def back(self, ctx: str, clean: bool) -> re.Pattern[str]:
        """The reversed pattern, ending at endpos (the original start; ctx: before it)."""
        return self._pattern("back", ctx, clean)

    def linear(self) -> _Linear:
        """The RE2 form of this regex (built on first need)."""
        if self._linear is None:
            self._linear = _Linear(self.tree, self.flags)
        return self._linear


# What '.' and a negated class's "any other character" become: Python's '.' (DOTALL)
# for a value with no undecodable byte — its repetition is a plain scan, where a class
# repetition tests each character (^git[[:space:]]+push.*--force over 100 KB: 3.8M ->
# 0.5M instructions) — and a class without those bytes otherwise (glibc's '.' matches
# none of them).
_DOTS = {True: ".", False: "[^" + _SURROGATES + "]"}
_UNDECODABLE = re.compile("[" + _SURROGATES + "]")


def _compile(pattern: str, flags: int) -> re.Pattern[str]:
    try:
        return re.compile(pattern, flags)
    except (re.error, OverflowError, RecursionError) as exc:  # pragma: no cover
        # A translation Python refuses is a bug here; the hook still gets status 2
        # (never an internal error), with glibc's generic text.
        raise RegexInvalid(f"{_BADPAT} ({exc})") from None


_CACHE: dict[tuple[str, bool], _Compiled] = {}
_CACHE_MAX = 256


def compile_ere(text: str, icase: bool = False) -> _Compiled:
    """The compiled form of ``text`` (cached by text, up to 256 regexes); ``icase`` for
    ``shopt -s nocasematch`` (bash compiles with REG_ICASE)."""
    key = (text, icase)
    c = _CACHE.get(key)
    if c is None:
        p = _Parser(text)
        try:
            tree = p.parse()
        except RecursionError:
            raise RegexInvalid(_ESIZE) from None
        c = _Compiled(tree, p.ngroups, p.has_ref, icase)
        if len(_CACHE) >= _CACHE_MAX:
            _CACHE.pop(next(iter(_CACHE)))
        _CACHE[key] = c
    return c


def _ctx(value: str, i: int) -> str:
    """What lies at ``i`` for \\< \\> \\b \\B: "" nothing, "w" a word character, "n" other."""
    if i < 0 or i >= len(value):
        return ""
    c = value[i]
    return "w" if c == "_" or c.isalnum() or "\udc80" <= c <= "\udcff" else "n"


# With back-references the reversed pattern cannot be built: the ends past Python's are
# tried one by one from the longest, over at most this many characters.
_REF_SPAN = 256


def search(text: str, value: str, icase: bool = False) -> list[str] | None:
    """BASH_REMATCH for ``[[ value =~ text ]]`` (whole match, then one entry per group,
    "" for a group that took no part), or None when it does not match; ``icase`` under
    ``shopt -s nocasematch``. Raises :class:`RegexInvalid` for a regex glibc rejects."""
    c = compile_ere(text, icase)
    for must in c.musts:
        if must not in value:
            return None
    clean = value.isascii() or _UNDECODABLE.search(value) is None
    span = _INEXACT if len(value) <= c.tame else c.linear().span(value)
    if span is None:
        return None
    if span is not _INEXACT:
        s, e = span
        if not c.names:
            return [value[s:e]]
        held = c.held(_ctx(value, e), clean).fullmatch(value, s, e)
        if held is not None:  # (always: that span matches)
            group = held.group
            return [group(0)] + [group(name) or "" for name in c.names]
    m = c.find(clean).search(value)
    if m is None:
        return None
    s, e = m.span()
    if e < len(value) and not c.greedy:
        longest = _longest_end(c, value, s, e, clean)
        if longest != e:
            held = c.held(_ctx(value, longest), clean).fullmatch(value, s, longest)
            if held is not None:  # (always: that span matches)
                m = held
    group = m.group
    return [group(0)] + [group(name) or "" for name in c.names]


def _longest_end(c: _Compiled, value: str, s: int, e: int, clean: bool) -> int:
    n = len(value)
    if c.refs:
        for end in range(min(n, e + _REF_SPAN), e, -1):
            if c.held(_ctx(value, end), clean).fullmatch(value, s, end) is not None:
                return end
        return e
    back = c.back(_ctx(value, s - 1), clean).search(value[::-1], 0, n - s)
    return n - back.start() if back is not None else e


# -- 4. the match in linear time (RE2) ---------------------------------------------------
# Python's backtracking can take exponential time where glibc's automaton does not:
# '(a+)+b' over 30 'a's and no 'b' runs for minutes, bounded only by the hook's timeout
# — and a timeout is "no opinion", so a guard written with such a regex failed open on
# hostile input. The whole match is found by RE2 instead (leftmost-longest: glibc's
# whole match), in time linear in the value; Python's re then only reads the groups,
# held to that span (a fullmatch of text that matches), and only when there are groups.
#
# RE2's classes and case folding are not the ones used above; so that its answer is the
# same, each set (and, under nocasematch, each letter) is written out as the characters
# it holds among those that can occur: the 128 ASCII characters (tested once per regex
# with the set's own Python pattern) and the other characters of the value at hand (one
# RE2 pattern per such alphabet, cached). A byte that is not UTF-8 (a lone surrogate,
# which RE2 cannot take) is read as a private-use character of plane 15 standing for it.
# Where RE2 cannot answer exactly — a back-reference, \< and \> (no look-around in
# RE2), \b or \B next to a non-ASCII word character, an interval over 1000, a pattern
# RE2 refuses as too large — the Python search above decides, as before.

_INEXACT = (-1, -1)  # a span that says: RE2 cannot answer here (or need not)
# A value no longer than these, under a regex of star height one with no, one or two
# loops (:func:`_tame`), is searched by Python alone: its backtracking is then linear,
# at most ~n^2 or ~n^3 steps (1M, 2M) — and the first =~ of a process does not load
# RE2 (~10M instructions: the libraries it links), which most hook values and regexes
# (a command line, a path, a JSON payload; '\.(env|pem)$', 'rm[[:space:]]+-rf') never
# need.
_SHORT = (1 << 62, 1024, 128)
_ASCII = "".join(map(chr, range(128)))
_STAND_IN = 0xF0000 - 0xDC00  # a lone surrogate U+DCxx is read as U+F00xx
_STAND_INS = lazy_compile("[\U000f0080-\U000f00ff]")  # (a value that is not ASCII only)
_RE2_DOT = "[^\\x{f0080}-\\x{f00ff}]"  # '.' holds no byte that is not UTF-8
_RE2_NEVER = "[^\\x{0}-\\x{10ffff}]"
_RE2_ANCHORS = {"^": "\\A", "$": "\\z", "b": "\\b", "B": "\\B"}
_RE2_MAX_REPEAT = 1000
_NO_ALPHABET: frozenset[str] = frozenset()
_re2: Any = None
_re2_options: Any = None


class _NotLinear(Exception):
    """A regex RE2 cannot run with the same answer."""


def _load_re2() -> Any:
    global _re2, _re2_options
    if _re2 is None:
        import re2  # linear time; loaded on the first =~ of a process

        options = re2.Options()
        options.longest_match = True
        options.never_capture = True
        options.log_errors = False
        _re2, _re2_options = re2, options
    return _re2


def _re2_char(c: str) -> str:
    if c.isascii() and c.isalnum():
        return c
    o = ord(c)
    if 0xDC80 <= o <= 0xDCFF:
        o += _STAND_IN
    return f"\\x{{{o:x}}}"


def _re2_class(chars: str) -> str:
    """A RE2 class holding exactly ``chars`` (none: a class that matches nothing)."""
    if not chars:
        return _RE2_NEVER
    out = ["["]
    codes = sorted({ord(c) + _STAND_IN if 0xDC80 <= ord(c) <= 0xDCFF else ord(c) for c in chars})
    k = 0
    while k < len(codes):
        j = k
        while j + 1 < len(codes) and codes[j + 1] == codes[j] + 1:
            j += 1
        lo, hi = codes[k], codes[j]
        out.append(f"\\x{{{lo:x}}}" if j == k else f"\\x{{{lo:x}}}-\\x{{{hi:x}}}")
        k = j + 1
    out.append("]")
    return "".join(out)


class _Linear:
    """The RE2 patterns of one regex, by the alphabet of the values it meets."""

    __slots__ = ("tree", "flags", "icase", "exact", "words", "_ascii", "_sets", "_by_alphabet")

    def __init__(self, tree: Node, flags: int) -> None:
        self.tree = tree
        self.flags = flags
        self.icase = bool(flags & re.IGNORECASE)
        self.exact = not _has(tree, _NOT_LINEAR_NODES) and not _has_lookaround_anchor(tree)
        self.words = _has_word_anchor(tree)
        # per set (and, under nocasematch, letter) node: its Python patterns (clean,
        # undecodable) and the ASCII characters it holds
        self._sets: dict[int, tuple[re.Pattern[str], re.Pattern[str] | None]] = {}
        self._ascii: dict[int, str] = {}
        self._by_alphabet: dict[frozenset[str], Any] = {}

    def span(self, value: str) -> tuple[int, int] | None:
        """The leftmost-longest match's span, None for no match, or ``_INEXACT``."""
        if not self.exact:
            return _INEXACT
        text = value
        alphabet = _NO_ALPHABET
        if not value.isascii():
            if _STAND_INS.search(value) is not None:
                return _INEXACT  # (a private-use character the stand-ins would shadow)
            if _UNDECODABLE.search(value) is not None:
                text = _UNDECODABLE.sub(lambda m: chr(ord(m.group()) + _STAND_IN), value)
            alphabet = frozenset(c for c in set(value) if not c.isascii())
            if self.words and any(_is_word_context(c) for c in alphabet):
                return _INEXACT  # (RE2's \b knows ASCII word characters only)
        rx = self._by_alphabet.get(alphabet)
        if rx is None:
            rx = self._compile(alphabet)
        if rx is False:
            return _INEXACT
        m = rx.search(text)
        return None if m is None else m.span()

    def _compile(self, alphabet: frozenset[str]) -> Any:
        re2 = _load_re2()
        try:
            out: list[str] = []
            self._emit(self.tree, out, alphabet)
            rx = re2.compile("".join(out), _re2_options)
        except (_NotLinear, re2.error):
            rx = False
        if len(self._by_alphabet) >= 16:
            self._by_alphabet.pop(next(iter(self._by_alphabet)))
        self._by_alphabet[alphabet] = rx
        return rx

    def _emit(self, node: Node, out: list[str], alphabet: frozenset[str]) -> None:
        kind = node[0]
        if kind == "lit":
            out.append(self._members(node, alphabet) if self.icase else _re2_char(node[1]))
        elif kind == "any":
            out.append(_RE2_DOT)
        elif kind == "set":
            out.append(self._members(node, alphabet))
        elif kind == "cat":
            for item in node[1]:
                self._emit(item, out, alphabet)
        elif kind == "alt":
            out.append("(?:")
            for k, b in enumerate(node[1]):
                if k:
                    out.append("|")
                self._emit(b, out, alphabet)
            out.append(")")
        elif kind == "group":
            out.append("(?:")
            self._emit(node[2], out, alphabet)
            out.append(")")
        elif kind == "rep":
            lo, hi = node[2], node[3]
            if max(lo, hi) > _RE2_MAX_REPEAT:
                raise _NotLinear
            out.append("(?:")
            self._emit(node[1], out, alphabet)
            q = {(0, -1): "*", (1, -1): "+", (0, 1): "?"}.get((lo, hi))
            out.append(")" + (q or (f"{{{lo},}}" if hi == -1 else f"{{{lo},{hi}}}")))
        elif kind == "anchor" and node[1] in _RE2_ANCHORS:
            out.append(_RE2_ANCHORS[node[1]])
        else:  # pragma: no cover - refused in __init__ (exact is False)
            raise _NotLinear

    def _members(self, node: Node, alphabet: frozenset[str]) -> str:
        """A set (or a letter under nocasematch) as the RE2 class of the characters it
        holds, by its own Python pattern."""
        key = id(node)
        pats = self._sets.get(key)
        if pats is None:
            clean = self._one(node, True)
            pats = self._sets[key] = (clean, None)
            self._ascii[key] = "".join(clean.findall(_ASCII))
        chars = self._ascii[key]
        if alphabet:
            more: list[str] = []
            for c in alphabet:
                if "\udc80" <= c <= "\udcff":
                    dirty = pats[1]
                    if dirty is None:
                        dirty = self._one(node, False)
                        self._sets[key] = (pats[0], dirty)
                    if dirty.fullmatch(c) is not None:
                        more.append(c)
                elif pats[0].fullmatch(c) is not None:
                    more.append(c)
            chars += "".join(more)
        return _re2_class(chars)

    def _one(self, node: Node, clean: bool) -> re.Pattern[str]:
        out: list[str] = []
        _emit(node, out, False, False, None, _DOTS[clean])
        return _compile("".join(out), self.flags)


_NOT_LINEAR_NODES = frozenset({"ref"})


def _has_lookaround_anchor(node: Node) -> bool:
    return _has_anchor(node, "<>")


def _has_word_anchor(node: Node) -> bool:
    return _has_anchor(node, "bB")


def _has_anchor(node: Node, kinds: str) -> bool:
    k = node[0]
    if k == "anchor":
        return node[1] in kinds
    if k == "cat" or k == "alt":
        return any(_has_anchor(n, kinds) for n in node[1])
    if k == "group":
        return _has_anchor(node[2], kinds)
    if k == "rep":
        return _has_anchor(node[1], kinds)
    return False


def _is_word_context(c: str) -> bool:
    return c == "_" or c.isalnum() or "\udc80" <= c <= "\udcff"


def _tame(node: Node) -> int:
    """How long a value Python's search may take on its own (see ``_SHORT``): -1 unless
    no repetition of more than one holds another or an alternation (``(a+)+``,
    ``(a|a)*`` are exponential, ``(.*a){12}`` is of degree 12), at most two are loops
    (a varying count, or a count over 16), and there is no back-reference."""
    loops = [0]
    if not _tame_walk(node, loops, False) or loops[0] > 2:
        return -1
    return _SHORT[loops[0]]


def _tame_walk(node: Node, loops: list[int], looped: bool) -> bool:
    k = node[0]
    if k == "cat" or k == "alt":
        if k == "alt" and looped:
            return False
        return all(_tame_walk(n, loops, looped) for n in node[1])
    if k == "group":
        return _tame_walk(node[2], loops, looped)
    if k == "rep":
        if looped:
            return False
        if node[3] != node[2] or node[3] > 16:
            loops[0] += 1
        return _tame_walk(node[1], loops, node[3] == -1 or node[3] > 1)
    return bool(k != "ref")
