"""The small YAML subset Ralph's session files use, parsed without a YAML dependency.

Supported: block mappings and sequences by indentation (spaces), ``- key: value``
items, plain / single-quoted / double-quoted scalars, ``|`` and ``>`` block scalars
(with ``-``/``+`` chomping), flow lists/maps of scalars (``[a, b]``, ``{a: 1}``),
comments, ``---`` / ``...`` markers, null (``~``, ``null``, empty), ``true``/``false``,
integers and floats. Timestamps stay strings (validators check them as text).

Not supported, and reported as a :class:`YamlError` with the line: anchors,
aliases, tags, tabs in indentation, nested flow collections, multi-document
streams. A guard that cannot read a file says so instead of guessing.
"""

from __future__ import annotations

import json
import re
from typing import Any

_INT = re.compile(r"[-+]?\d+\Z")
_FLOAT = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?\Z")
_BLOCK_HEADER = re.compile(r"[|>][-+]?\Z")


class YamlError(ValueError):
    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line


def parse(text: str) -> Any:
    """The value of the single YAML document in ``text`` (None when it is empty)."""
    return _Parser(text.splitlines()).document()


def dig(data: Any, dotted: str) -> tuple[bool, Any]:
    """(found, value) of ``a.b.c`` in nested mappings."""
    for part in dotted.split("."):
        if not isinstance(data, dict) or part not in data:
            return False, None
        data = data[part]
    return True, data


def _strip_comment(text: str) -> str:
    quote = ""
    i = 0
    while i < len(text):
        c = text[i]
        if quote:
            if c == "\\" and quote == '"':
                i += 1  # skip the escaped character
            elif c == quote:
                if quote == "'" and text[i + 1 : i + 2] == "'":
                    i += 1  # '' is an escaped quote inside '…'
                else:
                    quote = ""
        elif c in "'\"" and (i == 0 or text[i - 1] in " \t[{,:"):
            quote = c
        elif c == "#" and (i == 0 or text[i - 1] in " \t"):
            return text[:i].rstrip()
        i += 1
    return text.rstrip()


def _split_key(text: str) -> tuple[str, str] | None:
    """``key: rest`` → (key, rest); None when the line is not a mapping entry."""
    if text[:1] in "\"'":
        end = text.find(text[0], 1)
        while end != -1 and text[0] == "'" and text[end + 1 : end + 2] == "'":
            end = text.find("'", end + 2)
        if end == -1 or text[end + 1 : end + 2] != ":":
            return None
        after = text[end + 2 :]
        if after and not after.startswith((" ", "\t")):
            return None
        return _quoted(text[: end + 1], 0), after.strip()
    if text[:1] in "[{#&*!|>%@`" or text.startswith("- ") or text == "-":
        return None
    m = re.search(r":(?:[ \t]|\Z)", text)
    if m is None:
        return None
    return text[: m.start()].rstrip(), text[m.end() :].strip()


def _quoted(text: str, line: int) -> str:
    if text[0] == '"':
        try:
            value = json.loads(text)
        except json.JSONDecodeError:
            raise YamlError(line, f"bad double-quoted string {text}") from None
        return str(value)
    if len(text) < 2 or not text.endswith("'"):
        raise YamlError(line, f"unterminated single-quoted string {text}")
    return text[1:-1].replace("''", "'")


def _split_flow(body: str, line: int) -> list[str]:
    parts, quote, start = [], "", 0
    for i, c in enumerate(body):
        if quote:
            if c == quote:
                quote = ""
        elif c in "'\"":
            quote = c
        elif c in "[]{}":
            raise YamlError(line, "nested flow collections are not supported")
        elif c == ",":
            parts.append(body[start:i].strip())
            start = i + 1
    last = body[start:].strip()
    if last:
        parts.append(last)
    return parts


def scalar(text: str, line: int) -> Any:
    """A flow value: quoted or plain scalar, or a one-level flow list/map."""
    text = text.strip()
    if not text or text in ("~", "null", "Null", "NULL"):
        return None
    if text[0] in "\"'":
        return _quoted(text, line)
    if text[0] == "[":
        if not text.endswith("]"):
            raise YamlError(line, f"unterminated flow list {text}")
        return [scalar(p, line) for p in _split_flow(text[1:-1], line)]
    if text[0] == "{":
        if not text.endswith("}"):
            raise YamlError(line, f"unterminated flow mapping {text}")
        out: dict[str, Any] = {}
        for part in _split_flow(text[1:-1], line):
            kv = _split_key(part)
            if kv is None:
                raise YamlError(line, f"expected 'key: value' in {text}")
            out[kv[0]] = scalar(kv[1], line)
        return out
    if text[0] in "&*!":
        raise YamlError(line, "anchors, aliases and tags are not supported")
    if text[0] in "%@`":
        raise YamlError(line, f"a plain value cannot start with {text[0]!r} — quote it")
    if text in ("true", "True", "TRUE"):
        return True
    if text in ("false", "False", "FALSE"):
        return False
    if _INT.match(text):
        return int(text)
    if _FLOAT.match(text):
        return float(text)
    return text


class _Parser:
    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.i = 0
        self.seen = False  # a content line was met (a later "---" starts a 2nd document)

    def _next(self) -> int | None:
        """Indent of the next meaningful line (skipping blanks and comments), or None."""
        while self.i < len(self.lines):
            raw = self.lines[self.i]
            stripped = raw.lstrip(" ")
            if stripped.startswith("\t"):
                raise YamlError(self.i + 1, "tab in indentation — YAML indents with spaces")
            text = stripped.strip()
            if not text or text.startswith("#"):
                self.i += 1
                continue
            if text == "---" or text.startswith("--- "):
                if self.seen or text != "---":
                    raise YamlError(
                        self.i + 1, "only one YAML document per file, with nothing after '---'"
                    )
                self.i += 1
                continue
            if text == "...":
                self.i += 1
                continue
            self.seen = True
            return len(raw) - len(stripped)
        return None

    def _text(self) -> str:
        return self.lines[self.i].strip()

    def document(self) -> Any:
        indent = self._next()
        if indent is None:
            return None
        value = self._block(indent)
        if self._next() is not None:
            raise YamlError(self.i + 1, "unexpected content — check the indentation")
        return value

    def _block(self, indent: int) -> Any:
        text = self._text()
        if text.startswith("- ") or text == "-":
            return self._seq(indent)
        if _split_key(text) is not None:
            return self._map(indent)
        line = self.i + 1
        self.i += 1
        return scalar(_strip_comment(text), line)

    def _map(self, indent: int) -> dict[str, Any]:
        out: dict[str, Any] = {}
        while True:
            cur = self._next()
            if cur is None or cur < indent:
                return out
            line = self.i + 1
            if cur > indent:
                raise YamlError(line, "unexpected indentation")
            kv = _split_key(self._text())
            if kv is None:
                raise YamlError(line, f"expected 'key: value', found {self._text()!r}")
            key, rest = kv
            if key in out:
                raise YamlError(line, f"duplicate key {key!r}")
            self.i += 1
            out[key] = self._value(rest, indent, line)

    def _value(self, rest: str, indent: int, line: int) -> Any:
        rest = _strip_comment(rest)
        if _BLOCK_HEADER.match(rest):
            return self._block_scalar(rest, indent)
        if rest:
            return scalar(rest, line)
        nxt = self._next()
        if nxt is None:
            return None
        text = self._text()
        if nxt > indent:
            return self._block(nxt)
        if nxt == indent and (text.startswith("- ") or text == "-"):
            return self._seq(indent)  # "key:\n- a" — a sequence may sit at the key's indent
        return None

    def _seq(self, indent: int) -> list[Any]:
        out: list[Any] = []
        while True:
            cur = self._next()
            if cur is None or cur < indent:
                return out
            text = self._text()
            line = self.i + 1
            if cur > indent:
                raise YamlError(line, "unexpected indentation")
            if not (text.startswith("- ") or text == "-"):
                return out
            item = text[1:].lstrip(" ")
            if not item or item.startswith("#"):
                self.i += 1
                out.append(self._value("", indent, line))
            elif _split_key(item) is not None:
                # "- key: v" opens a mapping whose keys align with "key".
                column = cur + len(text) - len(item)
                self.lines[self.i] = " " * column + item
                out.append(self._map(column))
            elif item.startswith(("- ", "|", ">")) or item == "-":
                raise YamlError(
                    line, "nested sequences/block scalars in '- ' items are not supported"
                )
            else:
                self.i += 1
                out.append(scalar(_strip_comment(item), line))

    def _block_scalar(self, header: str, indent: int) -> str:
        body: list[str] = []
        content_indent: int | None = None
        while self.i < len(self.lines):
            raw = self.lines[self.i]
            if not raw.strip():
                body.append("")
                self.i += 1
                continue
            ind = len(raw) - len(raw.lstrip(" "))
            if ind <= indent:
                break
            if content_indent is None:
                content_indent = ind
            if ind < content_indent:
                raise YamlError(self.i + 1, "block scalar line is less indented than its first")
            body.append(raw[content_indent:])
            self.i += 1
        trailing = 0
        while body and body[-1] == "":
            body.pop()
            trailing += 1
        text = "\n".join(body)
        if header[0] == ">":
            # Folding: a single line break becomes a space, n+1 breaks keep n.
            text = re.sub(r"\n(\n*)", lambda m: m.group(1) or " ", text)
        chomp = header[1:2]
        if chomp == "-" or not text:
            return text
        if chomp == "+":
            return text + "\n" * (trailing + 1)
        return text + "\n"
