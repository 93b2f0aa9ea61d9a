"""A quote-aware pre-pass that makes bash constructs bashlex 0.18 rejects parseable.

bashlex 0.18 refuses ``$(( ))``, ``(( ))``, ``[[ ]]``, ``case`` and quoted here-document
delimiters, and silently misreads ``$'…'``. Those are common in real hooks, so instead of
giving up we rewrite each into something bashlex parses and the interpreter recognises:

- ``$((expr))``  → ``${__hookrun_arith_K}`` (a parameter the expander evaluates),
- ``$(cmds)``    → ``${__hookrun_subst_K}`` (bashlex rejects ``$(a && b)``; the expander
  parses and runs the original text),
- ``((expr))``   → ``__hookrun_arith_cmd K`` (a builtin),
- ``[[ expr ]]`` → ``__hookrun_dbl K`` (a builtin over the raw text),
- ``case w in p) body;; esac`` →
  ``{ __hookrun_case K; if __hookrun_case_arm K 0; then body; fi; }``,
- ``'a$b'``      → ``"${__hookrun_lit_K}"`` (single-quoted text holding ``$``, backquotes
  or backslashes: bashlex can loop forever on some of it),
- ``<<EOF`` and its body lines → ``<__hookrun_heredoc_K`` (the interpreter opens the
  registered body: tabs already stripped for ``<<-``, marked for expansion unless the
  delimiter was quoted). bashlex 0.18 reads a here-document inside ``if``/``for``/``{ }``…
  one line late, so its body would be parsed — and run — as commands; it never sees one.
- ``$'…'``       → the decoded text in plain single quotes, ``$"…"`` → ``"…"``.

K indexes a process-wide table of raw snippets (:func:`snippet`). The table only grows with
distinct snippets of source code, which a hook runner sees few of. Raw snippets keep the
original text: the runtime expander understands ``$((``, ``$'`` natively.

Constructs we do not interpret (arrays, ``select``, ``coproc``, ``time``, ``for ((``,
process substitution, ``;&``) are reported as :class:`Unsupported` with their name.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass

ARITH_PREFIX = "__hookrun_arith_"
SUBST_PREFIX = "__hookrun_subst_"
LITERAL_PREFIX = "__hookrun_lit_"
HEREDOC_PREFIX = "__hookrun_heredoc_"
# Stands in the output for a here-document's word until its body has been read (the
# snippet index is only known then); NUL keeps it apart from anything bashlex may see.
_HEREDOC_MARK = "\0heredoc{}\0"
_HEREDOC_MARK_RE = re.compile(r"\0heredoc(\d+)\0")

_META = " \t\n;&|<>()"
_lock = threading.Lock()
_snippets: list[tuple[str, ...]] = []
_snippet_ids: dict[tuple[str, ...], int] = {}


def _register(value: tuple[str, ...]) -> int:
    with _lock:
        found = _snippet_ids.get(value)
        if found is None:
            found = len(_snippets)
            _snippets.append(value)
            _snippet_ids[value] = found
        return found


def snippet(index: int) -> tuple[str, ...]:
    """The raw text(s) registered under ``index`` by the pre-pass."""
    return _snippets[index]


class Unsupported(Exception):
    """A construct the in-process shell does not interpret; ``construct`` names it."""

    def __init__(self, construct: str) -> None:
        super().__init__(construct)
        self.construct = construct


class PrepassError(Exception):
    """A syntax error found by the pre-pass; ``offset`` is in the original source."""

    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset


@dataclass
class _Heredoc:
    delimiter: str
    strip_tabs: bool
    quoted: bool
    slot: int  # index into _Scanner.heredoc_words


_ANSI_SIMPLE = {
    "a": "\a",
    "b": "\b",
    "e": "\x1b",
    "E": "\x1b",
    "f": "\f",
    "n": "\n",
    "r": "\r",
    "t": "\t",
    "v": "\v",
    "\\": "\\",
    "'": "'",
    '"': '"',
    "?": "?",
}


def decode_ansi_c(body: str) -> str:
    """Decode the inside of ``$'…'`` (bash's ANSI-C quoting); text after a NUL is dropped."""
    out: list[str] = []
    i = 0
    while i < len(body):
        c = body[i]
        if c != "\\" or i + 1 >= len(body):
            out.append(c)
            i += 1
            continue
        e = body[i + 1]
        i += 2
        if e in _ANSI_SIMPLE:
            out.append(_ANSI_SIMPLE[e])
        elif e in "01234567":
            m = re.match(r"[0-7]{0,2}", body[i:])
            digits = e + (m.group(0) if m else "")
            i += len(digits) - 1
            out.append(chr(int(digits, 8) & 0xFF))
        elif e in "xuU":
            width = {"x": 2, "u": 4, "U": 8}[e]
            m = re.match(rf"[0-9a-fA-F]{{1,{width}}}", body[i:])
            if m is None:
                out.append("\\" + e)
            else:
                i += len(m.group(0))
                out.append(chr(int(m.group(0), 16)))
        elif e == "c" and i < len(body):
            out.append(chr(ord(body[i]) & 0x1F))
            i += 1
        else:
            out.append("\\" + e)
    text = "".join(out)
    return text.split("\0", 1)[0]


def single_quote(text: str) -> str:
    """POSIX single-quoting of ``text`` (``'`` becomes ``'\\''``)."""
    return "'" + text.replace("'", "'\\''") + "'"


class _Scanner:
    def __init__(self, src: str) -> None:
        self.src = src
        self.i = 0
        self.out: list[str] = []
        self.heredocs: list[_Heredoc] = []  # read, bodies not yet
        self.heredoc_words: list[str] = []  # a filled-in here-document word per slot

    # -- helpers -------------------------------------------------------------
    def peek(self, k: int = 0) -> str:
        j = self.i + k
        return self.src[j] if j < len(self.src) else ""

    def startswith(self, s: str) -> bool:
        return self.src.startswith(s, self.i)

    def emit(self, s: str) -> None:
        self.out.append(s)

    def copy(self, n: int = 1) -> None:
        self.out.append(self.src[self.i : self.i + n])
        self.i += n

    def fail(self, message: str) -> PrepassError:
        return PrepassError(message, min(self.i, len(self.src)))

    # -- commands ------------------------------------------------------------
    def commands(self, stops: frozenset[str]) -> str | None:
        """Copy commands until one of ``stops`` (``)``, ``;;``, ``esac``…) at command level.

        Returns the stop found (not consumed for words, consumed for operators) or None at
        the end of the input.
        """
        cmd_pos = True
        src = self.src
        while self.i < len(src):
            c = src[self.i]
            if c in " \t":
                self.copy()
            elif c == "\\" and self.peek(1) == "\n":
                self.copy(2)
            elif c == "\n":
                self.copy()
                self.read_heredoc_bodies()
                cmd_pos = True
            elif c == "#":
                end = src.find("\n", self.i)
                self.copy((len(src) if end < 0 else end) - self.i)
            elif c in ";&|()<>":
                op = self.operator()
                if op in stops:
                    return op
                if op in (";&", ";;&"):
                    raise Unsupported(f"case fall-through '{op}'")
                if op in ("<(", ">("):
                    raise Unsupported("process substitution <(…)/>(…)")
                if op == "(" and cmd_pos and self.peek() == "(":
                    self.arith_command()
                    cmd_pos = False
                    continue
                # A here-document becomes a plain input redirection from its registered body.
                self.emit("<" if op in ("<<", "<<-") else op)
                if op == "(":
                    if self.commands(frozenset({")"})) != ")":
                        raise self.fail("unexpected EOF while looking for matching `)'")
                    self.emit(")")
                    cmd_pos = False
                elif op in ("<<", "<<-"):
                    self.heredoc_operator(op == "<<-")
                    cmd_pos = False
                elif op in (")",):
                    cmd_pos = False
                elif op in ("<", ">", ">>", "<<<", "&>", "&>>", ">&", "<&", ">|", "<>"):
                    pass  # a redirection does not change the command position
                else:
                    cmd_pos = True
            else:
                start = self.i
                mark = len(self.out)
                word = self.word()
                if cmd_pos and word in stops:
                    del self.out[mark:]
                    self.i = start
                    return word
                cmd_pos = self.after_word(word, start, mark, cmd_pos)
        return None

    def operator(self) -> str:
        for op in (";;&", "&>>", ";;", ";&", "&&", "||", "<<<", "<<-", "<<", ">>", "&>", ">&"):
            if self.startswith(op):
                self.i += len(op)
                return op
        for op in ("<&", ">|", "<>", "|&", "<(", ">("):
            if self.startswith(op):
                self.i += len(op)
                return op
        c = self.src[self.i]
        self.i += 1
        return c

    def after_word(self, word: str, start: int, mark: int, cmd_pos: bool) -> bool:
        """Handle reserved words at command position; return the next command position."""
        if not cmd_pos:
            if word == "{":  # `f() {`: the body's first word is a command word
                return True
            if re.fullmatch(r"[A-Za-z_]\w*\+?=", word) and self.peek() == "(":
                raise Unsupported("arrays")
            return False
        if word == "case":
            del self.out[mark:]
            self.case()
            return False
        if word == "[[":
            del self.out[mark:]
            self.double_bracket()
            return False
        if word in ("select", "coproc", "time"):
            raise Unsupported(f"'{word}'")
        if word == "for":
            j = self.i
            while j < len(self.src) and self.src[j] in " \t":
                j += 1
            if self.src.startswith("((", j):
                raise Unsupported("arithmetic for loop 'for ((…))'")
            return False
        if re.fullmatch(r"[A-Za-z_]\w*\[.*\]\+?=.*", word, re.S):
            raise Unsupported("arrays")
        if re.fullmatch(r"[A-Za-z_]\w*\+?=", word) and self.peek() == "(":
            raise Unsupported("arrays")
        if "=" in word and re.match(r"[A-Za-z_]\w*\+?=", word):
            return True  # a prefix assignment: the command word is still to come
        return word in (
            "if",
            "then",
            "elif",
            "else",
            "do",
            "while",
            "until",
            "!",
            "{",
            "}",
            "fi",
            "done",
        )

    # -- words ---------------------------------------------------------------
    def word(self) -> str:
        """Copy one word (rewriting ``$((``, ``$'`` inside); return its unquoted text."""
        plain: list[str] = []
        src = self.src
        while self.i < len(src):
            c = src[self.i]
            if c in _META:
                break
            if c == "\\":
                plain.append("\0")
                self.copy(2)
            elif c == "'":
                end = src.find("'", self.i + 1)
                if end < 0:
                    raise self.fail("unexpected EOF while looking for matching `''")
                plain.append("\0")
                text = src[self.i + 1 : end]
                if any(ch in text for ch in "$`\\"):
                    # bashlex 0.18 loops forever on some of these (`a'${'b`): it never
                    # sees them; a quoted placeholder has the same meaning.
                    self.emit(f'"${{{LITERAL_PREFIX}{_register(("lit", text))}}}"')
                    self.i = end + 1
                else:
                    self.copy(end + 1 - self.i)
            elif c == '"':
                plain.append("\0")
                self.copy()
                self.double_quoted()
            elif c == "`":
                plain.append("\0")
                self.backticks()
            elif c == "$":
                plain.append("\0")
                self.dollar()
            else:
                plain.append(c)
                self.copy()
        return "".join(plain)

    def double_quoted(self) -> None:
        src = self.src
        while self.i < len(src):
            c = src[self.i]
            if c == '"':
                self.copy()
                return
            if c == "\\":
                self.copy(2)
            elif c == "`":
                self.backticks()
            elif c == "$" and self.peek(1) in "({":
                self.dollar()
            else:
                self.copy()
        raise self.fail("unexpected EOF while looking for matching `\"'")

    def backticks(self) -> None:
        start = self.i
        self.i += 1
        while self.i < len(self.src):
            c = self.src[self.i]
            if c == "\\":
                self.i += 2
                continue
            if c == "`":
                self.i += 1
                self.out.append(self.src[start : self.i])
                return
            self.i += 1
        self.i = start
        raise self.fail("unexpected EOF while looking for matching ``'")

    def dollar(self) -> None:
        if self.startswith("$(("):
            end = self.matching_double_paren(self.i + 3)
            if end is not None:
                expr = self.src[self.i + 3 : end]
                self.i = end + 2
                self.emit(f"${{{ARITH_PREFIX}{_register(('arith', expr))}}}")
                return
        if self.startswith("$("):
            # bashlex 0.18 rejects `&&`, `||` and `&` inside `$( )`, so it never sees the
            # body: the expander runs the original text when it meets the placeholder.
            start = self.i = self.i + 2
            mark = len(self.out)
            if self.commands(frozenset({")"})) != ")":
                raise self.fail("unexpected EOF while looking for matching `)'")
            del self.out[mark:]
            body = self.src[start : self.i - 1]
            self.emit(f"${{{SUBST_PREFIX}{_register(('subst', body))}}}")
            return
        if self.startswith("${"):
            self.copy(2)
            self.braced()
            return
        if self.startswith("$'"):
            end = self.ansi_c_end(self.i + 2)
            self.emit(single_quote(decode_ansi_c(self.src[self.i + 2 : end])))
            self.i = end + 1
            return
        if self.startswith('$"'):
            self.i += 1
            self.copy()
            self.double_quoted()
            return
        self.copy()

    def braced(self) -> None:
        depth = 1
        src = self.src
        if re.match(r"[#!]?[A-Za-z_]\w*\[", src[self.i : self.i + 200]):
            raise Unsupported("arrays")
        while self.i < len(src):
            c = src[self.i]
            if c == "\\":
                self.copy(2)
            elif c == "'":
                end = src.find("'", self.i + 1)
                self.copy((len(src) if end < 0 else end + 1) - self.i)
            elif c == '"':
                self.copy()
                self.double_quoted()
            elif c == "$" and self.peek(1) in "({'":
                self.dollar()
            elif c == "`":
                self.backticks()
            elif c == "{":
                depth += 1
                self.copy()
            elif c == "}":
                depth -= 1
                self.copy()
                if depth == 0:
                    return
            else:
                self.copy()
        raise self.fail("unexpected EOF while looking for matching `}'")

    def ansi_c_end(self, j: int) -> int:
        while j < len(self.src):
            if self.src[j] == "\\":
                j += 2
            elif self.src[j] == "'":
                return j
            else:
                j += 1
        raise self.fail("unexpected EOF while looking for matching `''")

    def matching_double_paren(self, j: int) -> int | None:
        """Index of the ``))`` closing an arithmetic expression starting at ``j``, or None."""
        depth = 0
        src = self.src
        while j < len(src):
            c = src[j]
            if c == "(":
                depth += 1
            elif c == ")":
                if depth == 0:
                    return j if src.startswith("))", j) else None
                depth -= 1
            elif c in "'\"":
                end = src.find(c, j + 1)
                if end < 0:
                    return None
                j = end
            elif c == "\\":
                j += 1
            j += 1
        return None

    # -- rewritten constructs ------------------------------------------------
    def arith_command(self) -> None:
        end = self.matching_double_paren(self.i + 1)
        if end is None:
            raise Unsupported("nested subshells written '((' (add a space: '( (')")
        expr = self.src[self.i + 1 : end]
        self.i = end + 2
        if self.peek() and self.peek() not in _META:
            raise self.fail(f"syntax error near `{self.peek()}' after '))'")
        self.emit(f"__hookrun_arith_cmd {_register(('arith', expr))}")

    def double_bracket(self) -> None:
        start = self.i
        src = self.src
        j = self.i
        while j < len(src):
            c = src[j]
            if c == "\\":
                j += 2
                continue
            if c in "'\"":
                end = src.find(c, j + 1)
                if end < 0:
                    break
                j = end + 1
                continue
            if c == "\n":
                break
            if (
                src.startswith("]]", j)
                and src[j - 1] in " \t"
                and (j + 2 >= len(src) or src[j + 2] in _META)
            ):
                self.i = j + 2
                self.emit(f"__hookrun_dbl {_register(('dbl', src[start:j]))}")
                return
            j += 1
        self.i = start
        raise self.fail("'[[' without a matching ']]' on the same line")

    def skip_blank(self, newlines: bool) -> None:
        src = self.src
        while self.i < len(src):
            c = src[self.i]
            if c in " \t" or (newlines and c in "\n;"):
                if c == "\n":
                    self.copy()
                    self.read_heredoc_bodies()
                    continue
                self.i += 1
            elif c == "\\" and self.peek(1) == "\n":
                self.i += 2
            elif newlines and c == "#":
                end = src.find("\n", self.i)
                self.i = len(src) if end < 0 else end
            else:
                return

    def raw_word(self) -> str:
        """Read one word without emitting it; return its original text."""
        start = self.i
        mark = len(self.out)
        self.word()
        del self.out[mark:]
        return self.src[start : self.i]

    def case(self) -> None:
        self.skip_blank(newlines=False)
        subject = self.raw_word()
        if not subject:
            raise self.fail("'case' without a word to match")
        self.skip_blank(newlines=True)
        if self.raw_word() != "in":
            raise self.fail("'case WORD' must be followed by 'in'")
        arms: list[tuple[str, ...]] = []
        bodies: list[str] = []
        while True:
            self.skip_blank(newlines=True)
            if self.i >= len(self.src):
                raise self.fail("'case' without a matching 'esac'")
            start = self.i
            if self.raw_word() == "esac":
                break
            self.i = start
            if self.peek() == "(":
                self.i += 1
            patterns: list[str] = []
            while True:
                self.skip_blank(newlines=False)
                pattern = self.raw_word()
                if not pattern:
                    raise self.fail("expected a pattern in 'case'")
                patterns.append(pattern)
                self.skip_blank(newlines=False)
                c = self.peek()
                self.i += 1
                if c == ")":
                    break
                if c != "|":
                    self.i -= 1
                    raise self.fail("expected '|' or ')' after a 'case' pattern")
            arms.append(tuple(patterns))
            mark = len(self.out)
            stop = self.commands(frozenset({";;", "esac"}))
            bodies.append("".join(self.out[mark:]))
            del self.out[mark:]
            if stop is None:
                raise self.fail("'case' without a matching 'esac'")
            if stop == "esac":
                self.raw_word()
                break
        key = _register(("case", subject, *("\x1f".join(p) for p in arms)))
        text = [f"{{ __hookrun_case {key}; "]
        for n, body in enumerate(bodies):
            text.append("if" if n == 0 else "elif")
            text.append(f" __hookrun_case_arm {key} {n}; then ")
            text.append(_terminated(body))
        if bodies:
            text.append("fi; ")
        text.append("}")
        self.emit("".join(text))

    # -- here-documents ------------------------------------------------------
    def heredoc_operator(self, strip_tabs: bool) -> None:
        while self.peek() in (" ", "\t"):
            self.i += 1  # `<< EOF` → `<WORD`: nothing may come between the two
        start = self.i
        mark = len(self.out)
        self.word()
        raw = self.src[start : self.i]
        del self.out[mark:]
        if not raw:
            raise self.fail("a here-document needs a delimiter word after '<<'")
        quoted = any(q in raw for q in "'\"\\")
        delimiter = re.sub(r"[\\'\"]", "", raw)
        slot = len(self.heredoc_words)
        self.heredoc_words.append("")
        self.emit(_HEREDOC_MARK.format(slot))
        self.heredocs.append(_Heredoc(delimiter, strip_tabs, quoted, slot))

    def read_heredoc_bodies(self) -> None:
        """Take the bodies of the pending here-documents out of the source, in order.

        Called just after a newline. The body lines are not copied: bashlex must not see
        them. At the end of the input the document ends there, as in bash.
        """
        pending, self.heredocs = self.heredocs, []
        src = self.src
        for doc in pending:
            lines: list[str] = []
            while self.i < len(src):
                end = src.find("\n", self.i)
                end = len(src) if end < 0 else end
                line = src[self.i : end]
                self.i = min(end + 1, len(src))
                if doc.strip_tabs:
                    line = line.lstrip("\t")
                if line == doc.delimiter:
                    break
                lines.append(line + "\n")
            key = _register(("heredoc", "".join(lines), "quoted" if doc.quoted else "expand"))
            self.heredoc_words[doc.slot] = f"{HEREDOC_PREFIX}{key}"

    def finish(self) -> str:
        """The rewritten text, every here-document word filled in."""
        self.read_heredoc_bodies()  # documents with no line after them: empty bodies
        text = "".join(self.out)
        if not self.heredoc_words:
            return text
        words = self.heredoc_words

        def fill(m: re.Match[str]) -> str:
            n = int(m.group(1))  # NUL-holding user text that only looks like a mark stays
            return words[n] if n < len(words) else m.group(0)

        return _HEREDOC_MARK_RE.sub(fill, text)


def _terminated(body: str) -> str:
    """A case arm's body made safe to follow with ``elif``/``fi``."""
    stripped = body.rstrip(" \t")
    if not stripped.strip():
        return ":; "  # an empty arm: `then fi` is a syntax error, `then :; fi` a no-op
    if stripped.endswith("\n"):
        return stripped
    if stripped.endswith("&"):
        return stripped + "\n"
    backslashes = len(stripped[:-1]) - len(stripped[:-1].rstrip("\\"))
    if stripped.endswith(";") and backslashes % 2 == 0:
        return stripped + " "  # the last arm's `cmd; esac`: already terminated
    return stripped + "; "


def rewrite(source: str) -> str:
    """The source with every construct bashlex cannot parse rewritten (see module doc).

    Raises :class:`Unsupported` or :class:`PrepassError`.
    """
    triggers = ("(", "[", "'", "case", "<<", '$"', "select", "coproc", "time")
    if not any(t in source for t in triggers):
        return source
    scanner = _Scanner(source)
    stop = scanner.commands(frozenset())
    if stop is not None:  # pragma: no cover - no stops were asked for
        raise scanner.fail(f"unexpected '{stop}'")
    return scanner.finish()
