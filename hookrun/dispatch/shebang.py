"""Parsing a script's ``#!`` line the way the kernel and ``env`` would.

On Unix the kernel reads the first line of an executable and runs the named
interpreter; Windows has no such thing. hookrun does this in userland so that
``./hooks/check.py`` behaves the same on every OS. The rules follow Linux:

- ``#!/path/to/interp rest of line`` — the interpreter is the first word; the
  rest of the line, blanks trimmed at both ends, is ONE argument (Linux does not
  split it: ``#!/bin/sh -e -u`` passes ``"-e -u"``).
- ``#!/usr/bin/env NAME [arg]`` (also ``#!env NAME``) — NAME is looked up on PATH;
  the rest of the line is again ONE argument, as ``env`` would receive it.
- ``#!/usr/bin/env -S NAME args…`` — the rest is split into words the way GNU
  ``env -S`` does (quotes, backslash escapes, ``#`` comments).

Pure: no file system, no PATH. :mod:`hookrun.dispatch.resolve` does the I/O.
"""

from __future__ import annotations

from hookrun import exitcodes
from hookrun.records import NamedTuple

# 126 is POSIX's "found but cannot be executed": a malformed #! line means the
# script exists but nothing can run it.

_BLANKS = " \t"


class Shebang(NamedTuple):
    """What a ``#!`` line asks for.

    ``interpreter`` is a literal path (``lookup`` False) or a command name to find
    on PATH (``lookup`` True, the ``env`` forms). ``args`` go between the
    interpreter and the script path.
    """

    interpreter: str
    args: tuple[str, ...] = ()
    lookup: bool = False

    @property
    def name(self) -> str:
        """The interpreter's base name, for ``route`` (``shebang:python3``)."""
        return _basename(self.interpreter)


class ShebangError(NamedTuple):
    """A ``#!`` line nothing can run. ``message`` names the script and the problem."""

    message: str
    exit_code: int = exitcodes.NOT_EXECUTABLE


def _basename(path: str) -> str:
    # Both separators: a Windows-written shebang may say #!C:\Python\python.exe.
    return path.replace("\\", "/").rstrip("/").rsplit("/", 1)[-1]


def _is_env(word: str) -> bool:
    return _basename(word) in ("env", "env.exe")


def parse_shebang(head: bytes, *, script: str) -> Shebang | ShebangError | None:
    """Parse the ``#!`` line at the start of ``head``.

    ``head`` is the first bytes of the file (its first line must be complete in
    it, or be the whole file). Returns None when the file does not start with
    ``#!``, a :class:`ShebangError` for a line nothing can run, else a
    :class:`Shebang`. ``script`` is only used in messages.
    """
    if not head.startswith(b"#!"):
        return None
    line_bytes = head[2:].split(b"\n", 1)[0]
    # CRLF files: the \r belongs to the line ending, not to the interpreter name
    # (the kernel would look for "python3\r" and fail with a baffling message).
    line = line_bytes.decode("utf-8", "surrogateescape").rstrip("\r")
    line = line.strip(_BLANKS)
    interpreter, rest = _kernel_split(line)
    if not interpreter:
        return ShebangError(f"{script}: empty #! line: name an interpreter, e.g. #!/bin/sh")
    if not _is_env(interpreter):
        return Shebang(interpreter, () if rest is None else (rest,))
    return _parse_env(rest or "", script=script, env=interpreter)


def _kernel_split(line: str) -> tuple[str, str | None]:
    """The interpreter and its one argument (None: none) of a ``#!`` line whose blanks
    at both ends are trimmed, as Linux reads them: the interpreter ends at a blank or
    a NUL; after a blank, the argument starts at the next non-blank and ends at a NUL
    (both are C strings to the kernel: ``#!/bin/sh<NUL>x`` runs /bin/sh alone, and
    ``#!/bin/sh <NUL>`` passes an empty argument). A NUL used to reach os.stat and make
    the hook "an internal error in hookrun dispatch"."""
    for i, ch in enumerate(line):
        if ch in _BLANKS:
            return line[:i], line[i:].lstrip(_BLANKS).split("\0", 1)[0]
        if ch == "\0":
            return line[:i], None
    return line, None


def _split_first(text: str) -> tuple[str, str]:
    """First blank-separated word and the rest, blanks trimmed."""
    for i, ch in enumerate(text):
        if ch in _BLANKS:
            return text[:i], text[i:].strip(_BLANKS)
    return text, ""


def _parse_env(rest: str, *, script: str, env: str) -> Shebang | ShebangError:
    if not rest:
        return ShebangError(f"{script}: #!{env} names no command: write e.g. #!{env} python3")
    first, after = _split_first(rest)
    if first in ("-S", "--split-string"):
        return _parse_split(after, script=script, env=env)
    if first.startswith("--split-string="):
        return _parse_split(first[len("--split-string=") :] + " " + after, script=script, env=env)
    if first.startswith("-S"):
        return _parse_split(first[2:] + " " + after, script=script, env=env)
    if first.startswith("-"):
        return ShebangError(
            f"{script}: #!{env}: unsupported env option {first!r}: "
            f"only -S is supported (e.g. #!{env} -S python3 -u)"
        )
    if "=" in first:
        return ShebangError(
            f"{script}: #!{env}: variable assignment {first!r} is not supported: "
            "set the variable in the hook's env instead"
        )
    return Shebang(first, (after,) if after else (), lookup=True)


def _parse_split(text: str, *, script: str, env: str) -> Shebang | ShebangError:
    words = split_env_string(text)
    if isinstance(words, str):
        return ShebangError(f"{script}: #!{env} -S: {words}")
    if not words:
        return ShebangError(
            f"{script}: #!{env} -S names no command: write e.g. #!{env} -S node --flag"
        )
    name = words[0]
    if name.startswith("-") or "=" in name:
        return ShebangError(
            f"{script}: #!{env} -S: {name!r} is not supported before the command name: "
            "only a plain command name may follow -S"
        )
    return Shebang(name, tuple(words[1:]), lookup=True)


_ESCAPES = {"f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v", "_": " "}
_LITERAL_ESCAPES = "\\\"'#$ "


def split_env_string(text: str) -> list[str] | str:
    """Split like GNU ``env -S``; a str return value is the error message.

    Supported: blanks between words, '…' (only \\\\ and \\' escape inside),
    "…" and bare words with backslash escapes (\\t \\n \\_ for a blank, \\c
    to stop), ``#`` at a word start comments out the rest. ``${VAR}`` expansion
    is refused rather than passed through literally, which would be a silent
    misreading.
    """
    words: list[str] = []
    word: list[str] = []
    in_word = False
    i, n = 0, len(text)
    quote = ""
    while i < n:
        ch = text[i]
        if quote == "'":
            if ch == "'":
                quote = ""
            elif ch == "\\" and i + 1 < n and text[i + 1] in "\\'":
                i += 1
                word.append(text[i])
            else:
                word.append(ch)
        elif ch == "\\":
            if i + 1 >= n:
                return "a backslash ends the line"
            nxt = text[i + 1]
            i += 1
            if nxt == "c":
                if quote:
                    return "\\c inside double quotes"
                break
            if nxt in _ESCAPES:
                word.append(_ESCAPES[nxt])
            elif nxt in _LITERAL_ESCAPES:
                word.append(nxt)
            else:
                return f"unknown escape \\{nxt}"
            in_word = True
        elif ch == "$":
            return "${VAR} expansion is not supported: set the value in the hook's command"
        elif quote == '"':
            if ch == '"':
                quote = ""
            else:
                word.append(ch)
        elif ch in "'\"":
            quote = ch
            in_word = True
        elif ch in _BLANKS:
            if in_word:
                words.append("".join(word))
                word, in_word = [], False
        elif ch == "#" and not in_word:
            break
        else:
            word.append(ch)
            in_word = True
        i += 1
    if quote:
        return f"unterminated {quote} quote"
    if in_word:
        words.append("".join(word))
    return words
