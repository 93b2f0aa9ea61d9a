"""A JSONC reader that knows where every value came from.

Config files are hand-written, so they get comments (``//``, ``/* */``) and
trailing commas, and every mistake must be reported at its line:column with
what was expected there. Two readers share the work:

- the fast path: the file is plain JSON (the usual case for generated and big
  files) → the standard library's C parser, with duplicate keys detected;
- the located path: a small recursive-descent parser that accepts JSONC and
  records the position of every key and value. It runs when the fast path
  fails (comments, trailing commas, a mistake) and, lazily, when a later stage
  needs a position for a message.

Positions are 1-based; columns count characters (code points), not bytes.
"""

from __future__ import annotations

import bisect
import json
import re
from collections.abc import Callable

from hookrun.config.quote import char_name, quote
from hookrun.records import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from typing import Any, NoReturn

JsonPath = tuple["str | int", ...]
Position = tuple[int, int]  # (line, column), both 1-based

# Deep enough for any real config, shallow enough to stay far from Python's recursion limit.
MAX_DEPTH = 200

_ESCAPES = frozenset('"\\/bfnrt')

# What ends a line — for positions and for where a ``//`` comment stops: LF, CRLF, and a
# lone CR (old Mac files; JSON takes CR as whitespace, so such a file is valid JSON and
# one "line" to a reader that counts only LF).
_LINE_BREAK = r"\r\n?|\n"


class JsoncError(Exception):
    """A file that is not valid JSONC: what is wrong and where (1-based line and column)."""

    def __init__(self, message: str, line: int, column: int) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column


class DuplicateKey(NamedTuple):
    path: JsonPath  # the object's path plus the key
    at: Position  # the repeated key
    first: Position  # the first occurrence


class Positions:
    """Where each key and value of a document starts, by JSON path."""

    def __init__(self) -> None:
        self.values: dict[JsonPath, Position] = {}
        self.keys: dict[JsonPath, Position] = {}
        self.duplicates: list[DuplicateKey] = []

    def of_value(self, path: JsonPath) -> Position | None:
        """The position of the value at ``path``, or of its nearest present ancestor."""
        for end in range(len(path), -1, -1):
            found = self.values.get(path[:end])
            if found is not None:
                return found
        return None

    def of_key(self, path: JsonPath) -> Position | None:
        """The position of the key that names ``path`` (falls back to the value's)."""
        return self.keys.get(path) or self.of_value(path)


def decode(data: bytes) -> str:
    """UTF-8 text of ``data`` (a leading BOM dropped); JsoncError at the first bad byte."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        good = data[: exc.start].decode("utf-8")
        breaks = list(re.finditer(_LINE_BREAK, good))
        line = len(breaks) + 1
        column = len(good) - (breaks[-1].end() if breaks else 0) + 1
        raise JsoncError(
            f"invalid UTF-8 byte 0x{data[exc.start]:02x}: save the file as UTF-8",
            line,
            column,
        ) from None


class _Duplicate(Exception):
    pass


def _reject_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result = dict(pairs)
    if len(result) != len(pairs):
        raise _Duplicate
    return result


def _reject_constant(name: str) -> NoReturn:
    raise ValueError(name)  # NaN / Infinity are not JSON


def _int(token: str) -> int | float:
    """An integer, or ±infinity past Python's int-string limit (4,300 digits), which
    int() refuses — as JavaScript reads such a number; validation then names the field."""
    return int(token) if len(token) < 4300 else float(token)


def _loads(text: str) -> Any:
    return json.loads(
        text,
        object_pairs_hook=_reject_duplicates,
        parse_constant=_reject_constant,
        parse_int=_int,
    )


class Document:
    """A parsed JSONC document: its value, and positions computed on demand."""

    def __init__(self, text: str, value: Any, positions: Positions | None) -> None:
        self.text = text
        self.value = value
        self._positions = positions

    @property
    def positions(self) -> Positions:
        if self._positions is None:
            try:
                self._positions = _Parser(self.text).parse()[1]
            except JsoncError:
                # Valid JSON that the located parser refuses (nested deeper than MAX_DEPTH):
                # messages then carry their JSON path only.
                self._positions = Positions()
        return self._positions

    @property
    def duplicates(self) -> list[DuplicateKey]:
        # The fast path only succeeds without duplicates, so no positions are computed here then.
        return [] if self._positions is None else self._positions.duplicates


# Two passes turn JSONC into JSON for the C parser. Both consume every string whole from
# its opening quote (raw newlines included, so json.loads still rejects them), which is
# what keeps "//", "/*" and "," inside strings untouched. Pass 1 drops comments; pass 2
# drops a comma that follows a value and precedes a closer ("[,]" keeps its comma and
# fails). Whatever json.loads then refuses goes to the located parser, which alone
# decides what the error is and where.
_STRING = r'"(?:[^"\\]|\\.)*"'


class _Regexes:
    """The patterns of :func:`strip_jsonc` and the located parser, compiled on first use:
    a plain JSON config (the usual case) needs none of them, and compiling them all
    costs about a millisecond on the start-up path of every ``hookrun run``."""

    def __init__(self) -> None:
        self.comments = re.compile(rf"({_STRING})|//[^\r\n]*|/\*[\s\S]*?\*/")
        self.trailing_comma = re.compile(
            rf"({_STRING})(?:(\s*),(?=\s*[\]}}]))?|([\]}}0-9a-z]\s*),(?=\s*[\]}}])"
        )
        self.ws = re.compile(r"[ \t\r\n]*")
        self.line_end = re.compile(r"[\r\n]")
        self.str_run = re.compile(r'[^"\\\x00-\x1f]*')
        self.number = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
        self.word = re.compile(r"[A-Za-z0-9_.+\-]+")
        self.hex4 = re.compile(r"[0-9a-fA-F]{4}")


_COMPILED: list[_Regexes] = []


def _regexes() -> _Regexes:
    if not _COMPILED:  # two threads may both compile: the same patterns, harmless
        _COMPILED.append(_Regexes())
    return _COMPILED[0]


def strip_jsonc(text: str) -> str:
    """``text`` as plain JSON when it is valid JSONC (comments and trailing commas dropped).

    Templates, not callbacks, so the substitutions run at C speed: a comment becomes a
    space (never joining two tokens) and every string gets a harmless space after it.
    """
    if "/" in text:
        text = _regexes().comments.sub(r"\1 ", text)
    if "," in text:
        text = _regexes().trailing_comma.sub(r"\1\2\3", text)
    return text


def parse(text: str) -> Document:
    """Parse JSONC ``text``; raises JsoncError for the first syntax error.

    Duplicate keys are not a syntax error here (the last value is kept, as in
    JSON): they are listed in ``Document.duplicates`` for the caller to report.
    """
    try:
        try:  # plain JSON first: a JSONC file fails fast, at its first comment
            value = _loads(text)
        except ValueError:
            value = _loads(strip_jsonc(text))
    except (ValueError, _Duplicate, RecursionError):
        value, positions = _Parser(text).parse()
        return Document(text, value, positions)
    return Document(text, value, None)


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.n = len(text)
        self.i = 0
        self.line_starts = [0] + [m.end() for m in re.finditer(_LINE_BREAK, text)]
        self.positions = Positions()
        self.depth = 0
        self.rx = _regexes()

    # -- positions and errors ---------------------------------------------------------

    def pos(self, i: int) -> Position:
        line = bisect.bisect_right(self.line_starts, i)
        return line, i - self.line_starts[line - 1] + 1

    def fail(self, message: str, i: int) -> NoReturn:
        line, column = self.pos(i)
        raise JsoncError(message, line, column)

    def got(self, i: int) -> str:
        """What is at ``i``, for "expected X, got Y" messages."""
        if i >= self.n:
            return "end of file"
        m = self.rx.word.match(self.text, i)
        token = m.group()[:20] if m else self.text[i]
        if not token.isprintable():
            return f"character {char_name(token)}"
        if token == '"':
            return "'\"'"
        return quote(token)

    # -- lexing -----------------------------------------------------------------------

    def skip(self) -> None:
        """Skip whitespace and comments."""
        text = self.text
        while True:
            self.i = _match_end(self.rx.ws, text, self.i)
            if text.startswith("//", self.i):
                eol = self.rx.line_end.search(text, self.i)
                self.i = self.n if eol is None else eol.start()
            elif text.startswith("/*", self.i):
                end = text.find("*/", self.i + 2)
                if end < 0:
                    self.fail("unterminated /* comment: add */", self.i)
                self.i = end + 2
            else:
                return

    # -- grammar ----------------------------------------------------------------------

    def parse(self) -> tuple[Any, Positions]:
        self.skip()
        if self.i >= self.n:
            self.fail("empty file: expected a JSON object", self.i)
        value = self.value(())
        self.skip()
        if self.i < self.n:
            self.fail(f"unexpected {self.got(self.i)} after the end of the top-level value", self.i)
        return value, self.positions

    def value(self, path: JsonPath) -> Any:
        i = self.i
        self.positions.values[path] = self.pos(i)
        c = self.text[i] if i < self.n else ""
        if c == "{":
            return self.nested(self.obj, path)
        if c == "[":
            return self.nested(self.array, path)
        if c == '"':
            return self.string()
        m = self.rx.number.match(self.text, i)
        if m:
            self.i = m.end()
            token = m.group()
            return float(token) if any(ch in token for ch in ".eE") else _int(token)
        for word, literal in (("true", True), ("false", False), ("null", None)):
            if self.text.startswith(word, i) and not _is_word_char(self.text, i + len(word)):
                self.i = i + len(word)
                return literal
        hint = ": strings need double quotes" if c == "'" else ""
        self.fail(f"expected a value, got {self.got(i)}{hint}", i)

    def nested(self, parse: Callable[[JsonPath], Any], path: JsonPath) -> Any:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            self.fail(f"nested more than {MAX_DEPTH} levels deep", self.i)
        try:
            return parse(path)
        finally:
            self.depth -= 1

    def obj(self, path: JsonPath) -> dict[str, Any]:
        opened = self.i
        self.i += 1
        result: dict[str, Any] = {}
        self.skip()
        if self.text.startswith("}", self.i):
            self.i += 1
            return result
        while True:
            if not self.text.startswith('"', self.i):
                hint = ": strings need double quotes" if self.text.startswith("'", self.i) else ""
                self.fail(
                    f'expected a property name in double quotes or "}}", '
                    f"got {self.got(self.i)}{hint}{self.unclosed(opened)}",
                    self.i,
                )
            key_at = self.pos(self.i)
            key = self.string()
            key_path = (*path, key)
            if key in result:
                first = self.positions.keys[key_path]
                self.positions.duplicates.append(DuplicateKey(key_path, key_at, first))
            else:
                self.positions.keys[key_path] = key_at
            self.skip()
            if not self.text.startswith(":", self.i):
                self.fail(
                    f'expected ":" after property name {quote(key)}, got {self.got(self.i)}',
                    self.i,
                )
            self.i += 1
            self.skip()
            result[key] = self.value(key_path)
            self.skip()
            if self.text.startswith(",", self.i):
                self.i += 1
                self.skip()
                if self.text.startswith("}", self.i):  # trailing comma
                    self.i += 1
                    return result
                continue
            if self.text.startswith("}", self.i):
                self.i += 1
                return result
            self.fail(
                f'expected "," or "}}" after the value of {quote(key)}, '
                f"got {self.got(self.i)}{self.unclosed(opened)}",
                self.i,
            )

    def array(self, path: JsonPath) -> list[Any]:
        opened = self.i
        self.i += 1
        result: list[Any] = []
        self.skip()
        if self.text.startswith("]", self.i):
            self.i += 1
            return result
        while True:
            result.append(self.value((*path, len(result))))
            self.skip()
            if self.text.startswith(",", self.i):
                self.i += 1
                self.skip()
                if self.text.startswith("]", self.i):  # trailing comma
                    self.i += 1
                    return result
                continue
            if self.text.startswith("]", self.i):
                self.i += 1
                return result
            self.fail(
                f'expected "," or "]" after an array element, '
                f"got {self.got(self.i)}{self.unclosed(opened)}",
                self.i,
            )

    def unclosed(self, opened: int) -> str:
        if self.i < self.n:
            return ""
        line, column = self.pos(opened)
        return f" (the {'object' if self.text[opened] == '{' else 'list'} opened at " + (
            f"{line}:{column} is never closed)"
        )

    def string(self) -> str:
        text = self.text
        start = self.i
        i = start + 1
        while True:
            i = _match_end(self.rx.str_run, text, i)
            if i >= self.n:
                self.fail("unterminated string: add the closing double quote", start)
            c = text[i]
            if c == '"':
                break
            if c == "\\":
                esc = text[i + 1 : i + 2]
                if esc in _ESCAPES and esc:
                    i += 2
                elif esc == "u" and self.rx.hex4.fullmatch(text, i + 2, i + 6):
                    i += 6
                else:
                    self.fail(
                        _invalid_escape(text[i : i + 6] if esc == "u" else text[i : i + 2]), i
                    )
            elif c == "\n":
                self.fail("unterminated string: add the closing double quote", start)
            else:
                self.fail(f"control character U+{ord(c):04X} in string: write it escaped", i)
        self.i = i + 1
        decoded: str = json.loads(text[start : self.i])
        return decoded


def _invalid_escape(shown: str) -> str:
    """The message for the bad escape ``shown`` (a backslash and what follows it)."""
    # A control character after the backslash cannot be shown as is (a newline would split
    # the message in two): show the escape up to it, then name it.
    cut = next((k for k, c in enumerate(shown) if not c.isprintable()), len(shown))
    after = f" followed by {char_name(shown[cut])}" if cut < len(shown) else ""
    return f'invalid escape "{shown[:cut]}"{after} in string (a backslash is written "\\\\")'


def _is_word_char(text: str, i: int) -> bool:
    return i < len(text) and (text[i].isalnum() or text[i] == "_")


def _match_end(pattern: re.Pattern[str], text: str, i: int) -> int:
    """End of ``pattern`` (which can match empty) at ``i``."""
    m = pattern.match(text, i)
    return m.end() if m else i
