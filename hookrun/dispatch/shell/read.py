"""``read`` and ``mapfile``/``readarray``: bash's line reader and its field splitting.

Pinned against bash 5.2 (tests/dispatch/shell/read_test.py; every expectation there
was printed by bash). The algorithm is bash's own, because its corner cases are what
scripts meet: while reading, a backslash (without ``-r``) leaves a marker (CTLESC)
before the character it protects, and a backslash-newline vanishes; splitting never
splits at a marked character; the markers come out of each value at the end. That
includes bash's quirks — a value that is only a marker keeps it (Oils' "read bash
bug"), and the last name takes the rest of the line minus trailing IFS white space,
or just the one field left, without its delimiter.

Loaded on the first ``read``/``mapfile`` (builtins._lazy): most hooks never read.
"""

from __future__ import annotations

import os
import re
import select
import time
from collections.abc import Callable, Iterator

from hookrun.dispatch.shell.state import Array, ShellError
from hookrun.dispatch.streams import SLICE, BufferSource
from hookrun.records import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from hookrun.dispatch.cancel import Guard
    from hookrun.dispatch.shell.interp import IO, Interp
    from hookrun.dispatch.streams import ByteSource

# bash's internal quoting characters: CTLESC protects the next character, CTLNUL
# stands for an empty field. A literal one in the input is itself protected.
CTLESC = "\x01"
CTLNUL = "\x7f"
_SPCTABNL = " \t\n"
_ISSPACE = " \t\n\v\f\r"
# bash reports a read that timed out as killed by SIGALRM.
TIMEOUT_STATUS = 128 + 14
_NAME = re.compile(r"[A-Za-z_]\w*\Z")
_ELEMENT = re.compile(r"([A-Za-z_]\w*)\[(.+)\]\Z", re.S)
_READ_USAGE = (
    "read: usage: read [-ers] [-a array] [-d delim] [-i text] [-n nchars] "
    "[-N nchars] [-p prompt] [-t timeout] [-u fd] [name ...]"
)
_MAPFILE_USAGE = (
    "mapfile: usage: mapfile [-d delim] [-n count] [-O origin] [-s count] [-t] "
    "[-u fd] [-C callback] [-c quantum] [array]"
)


class ReadOptions(NamedTuple):
    raw: bool = False  # -r: a backslash is an ordinary character
    delim: str = "\n"  # -d: one character; NUL for -d ''
    nchars: int | None = None  # -n/-N: stop after this many characters
    ignore_delim: bool = False  # -N: read exactly nchars (or to EOF), no splitting
    array: str | None = None  # -a
    prompt: str = ""  # -p: shown only when the input is a terminal
    timeout: float | None = None  # -t
    fd: int = 0  # -u
    names: tuple[str, ...] = ()


class Usage(NamedTuple):
    """A command line ``read``/``mapfile`` refuses: the message and bash's status."""

    message: str
    status: int
    usage: str = ""


# --- the command line -----------------------------------------------------------------


def _options(
    args: list[str], flags: str, valued: str
) -> tuple[list[tuple[str, str]], list[str]] | Usage:
    """getopt as bash's builtins do it: ``-rn1``, ``-d ''``, ``--``; the rest are operands."""
    found: list[tuple[str, str]] = []
    i = 0
    while i < len(args):
        word = args[i]
        if word == "--":
            i += 1
            break
        if len(word) < 2 or word[0] != "-":
            break
        j = 1
        while j < len(word):
            letter = word[j]
            if letter in flags:
                found.append((letter, ""))
                j += 1
                continue
            if letter not in valued:
                return Usage(f"-{letter}: invalid option", 2)
            if j + 1 < len(word):
                found.append((letter, word[j + 1 :]))
            elif i + 1 < len(args):
                i += 1
                found.append((letter, args[i]))
            else:
                return Usage(f"-{letter}: option requires an argument", 2)
            break
        i += 1
    return found, args[i:]


def _number(text: str) -> int | None:
    text = text.strip()
    if not re.fullmatch(r"[+-]?\d+", text):
        return None
    return int(text)


def _timeout(text: str) -> float | None:
    if not re.fullmatch(r"\d+(\.\d*)?|\.\d+", text.strip()):
        return None
    return float(text)


def parse_read_args(args: list[str]) -> ReadOptions | Usage:
    """``read``'s command line, checked as bash checks it (messages and statuses)."""
    parsed = _options(args, "ers", "adinNptu")
    if isinstance(parsed, Usage):
        return parsed._replace(usage=_READ_USAGE)
    found, names = parsed
    opts = ReadOptions(names=tuple(names))
    for letter, value in found:
        if letter == "r":
            opts = opts._replace(raw=True)
        elif letter == "d":
            opts = opts._replace(delim=value[:1] or "\0")
        elif letter in "nN":
            n = _number(value)
            if n is None or n < 0:
                return Usage(f"{value}: invalid number", 1)
            opts = opts._replace(nchars=n, ignore_delim=opts.ignore_delim or letter == "N")
        elif letter == "a":
            opts = opts._replace(array=value)
        elif letter == "p":
            opts = opts._replace(prompt=value)
        elif letter == "t":
            seconds = _timeout(value)
            if seconds is None:
                return Usage(f"{value}: invalid timeout specification", 1)
            opts = opts._replace(timeout=seconds)
        elif letter == "u":
            fd = _number(value)
            if fd is None or fd < 0:
                return Usage(f"{value}: invalid file descriptor specification", 1)
            opts = opts._replace(fd=fd)
        # -e (readline), -s (no echo), -i (readline's initial text): a hook's input is
        # never a terminal, so they change nothing.
    bad = next((n for n in opts.names if not _is_target(n)), None)
    if opts.array is not None and not _NAME.match(opts.array):
        bad = opts.array
    if bad is not None:
        return Usage(f"`{bad}': not a valid identifier", 1)
    return opts


def _is_target(name: str) -> bool:
    return bool(_NAME.match(name) or _ELEMENT.match(name))


# --- reading ----------------------------------------------------------------------------


class _TimedOut(Exception):
    pass


def _utf8_length(lead: int) -> int:
    """How many bytes a UTF-8 character starting with ``lead`` has (1 if not a lead)."""
    if 0xC0 <= lead < 0xE0:
        return 2
    if 0xE0 <= lead < 0xF0:
        return 3
    if 0xF0 <= lead < 0xF8:
        return 4
    return 1


def _deadline_fd(src: ByteSource) -> int | None:
    """The descriptor to wait on for ``-t``; None where the input is already in memory."""
    if isinstance(src, BufferSource):
        return None
    try:
        return src.fileno()
    except (OSError, ValueError, AttributeError):
        return None


def _wait_until(fd: int, deadline: float, guard: Guard | None) -> None:
    """Until ``fd`` has input; _TimedOut at ``deadline`` (``-t``). With a ``guard`` (a
    FIFO, a device: streams.open_waiting) in slices, asking it between them: a ``-t``
    longer than the hook's own deadline must not outlast it."""
    while True:
        left = deadline - _now()
        if left <= 0:
            raise _TimedOut
        if select.select([fd], [], [], left if guard is None else min(left, SLICE))[0]:
            return
        if guard is not None:
            guard.check()


def _chars(src: ByteSource, opts: ReadOptions, deadline: float | None) -> Iterator[str]:
    """The input one character at a time, never reading past what is consumed.

    With the newline delimiter and no count, whole lines are taken (the loop below
    consumes up to an unescaped newline anyway); otherwise byte by byte, as bash
    reads a pipe, so the next command gets the rest.
    """
    if opts.delim == "\n" and opts.nchars is None and deadline is None:
        while line := src.readline():
            yield from line.decode("utf-8", "surrogateescape")
        return
    fd = _deadline_fd(src) if deadline is not None else None
    while True:
        if fd is not None and deadline is not None:
            _wait_until(fd, deadline, getattr(src, "guard", None))
        first = src.read(1)
        if not first:
            return
        data = first
        for _ in range(_utf8_length(first[0]) - 1):
            more = src.read(1)
            if not more:
                break
            data += more
        yield from data.decode("utf-8", "surrogateescape")


def _taken_until(src: ByteSource, delim: bytes) -> str | None:
    """What :meth:`BufferSource.read_until` takes, decoded (None: not such a source)."""
    until = getattr(src, "read_until", None)
    if until is None:
        return None
    chunk: bytes | None = until(delim)
    return None if chunk is None else chunk.decode("utf-8", "surrogateescape")


def _then(first: str, rest: Iterator[str]) -> Iterator[str]:
    yield from first
    yield from rest


def _now() -> float:
    return time.monotonic()


class Input(NamedTuple):
    text: str  # with CTLESC markers where saw_escape
    saw_escape: bool
    status: int  # 0, 1 at end of input, TIMEOUT_STATUS


def read_input(src: ByteSource, opts: ReadOptions, ifs: str) -> Input:
    """Read as bash's ``read`` does: to the delimiter, ``nchars`` characters or EOF."""
    skip_ctlesc = CTLESC in ifs
    skip_ctlnul = CTLNUL in ifs
    out: list[str] = []
    saw_escape = False
    pass_next = False
    count = 0
    status = 0
    if opts.nchars == 0:
        return Input("", False, 0)
    deadline = None if opts.timeout is None else _now() + opts.timeout
    chars = _chars(src, opts, deadline)
    if opts.delim == "\n" and opts.nchars is None and deadline is None:
        # _chars reads whole lines here. A line that ends at its newline and holds
        # nothing the loop below treats specially (a backslash without -r, NUL, the
        # markers) is its text: the loop would take every character up to the newline.
        line = src.readline().decode("utf-8", "surrogateescape")
        if not line:
            return Input("", False, 1)  # end of input before the delimiter
        body = line[:-1]
        if line[-1:] == "\n" and not (
            "\0" in body or CTLESC in body or CTLNUL in body or ("\\" in body and not opts.raw)
        ):
            return Input(body, False, 0)
        chars = _then(line, chars)
    elif opts.nchars is None and deadline is None and not opts.ignore_delim:
        # Another delimiter, from a buffer in memory (the payload, a here-string): the
        # text up to it in one slice, the same shortcut as the line's above.
        taken = _taken_until(src, opts.delim.encode("utf-8", "surrogateescape"))
        if taken is not None:
            body = taken[: -len(opts.delim)] if taken.endswith(opts.delim) else taken
            if not (
                "\0" in body or CTLESC in body or CTLNUL in body or ("\\" in body and not opts.raw)
            ):
                return Input(body, False, 0 if len(body) < len(taken) else 1)
            chars = _then(taken, chars)
    try:
        for c in chars:
            if pass_next:
                pass_next = False
                if c == "\n":
                    # backslash-newline: a line continuation, whatever the delimiter
                    if not skip_ctlesc and out:
                        out.pop()
                    continue
            elif c == "\\" and not opts.raw:
                pass_next = True
                if not skip_ctlesc:
                    saw_escape = True
                    out.append(CTLESC)
                continue
            elif not opts.ignore_delim and c == opts.delim:
                break
            elif c == "\0" and opts.delim != "\0":
                continue  # bash drops NUL bytes
            elif (not skip_ctlesc and c == CTLESC) or (not skip_ctlnul and c == CTLNUL):
                saw_escape = True
                out.append(CTLESC)
            out.append(c)
            count += 1
            if opts.nchars is not None and count >= opts.nchars:
                break
        else:
            status = 1  # end of input before the delimiter
    except _TimedOut:
        status = TIMEOUT_STATUS
    return Input("".join(out), saw_escape, status)


def input_ready(src: ByteSource) -> bool:
    """``read -t 0``: is there input (or end of input) to read without waiting?"""
    fd = _deadline_fd(src)
    if fd is None:
        return True
    return bool(select.select([fd], [], [], 0)[0])


# --- splitting, as bash's subst.c does it -------------------------------------------------


def dequote(text: str) -> str:
    """Take the CTLESC markers out; a lone marker stays (bash's dequote_string)."""
    if text == CTLNUL:
        return ""
    if text == CTLESC:
        return CTLESC
    if CTLESC not in text:
        return text
    out: list[str] = []
    i = 0
    while i < len(text):
        if text[i] == CTLESC:
            i += 1
            if i >= len(text):
                break
        out.append(text[i])
        i += 1
    return "".join(out)


def _extract(s: str, start: int, seps: str) -> int:
    """End of the field starting at ``start``: the first separator not marked."""
    if not seps:
        return len(s)
    if CTLESC not in s:
        # Nothing marked (no backslash was read): the first separator, found by a C scan
        # for each — what _extract_scan finds one character at a time.
        end = len(s)
        for c in seps:
            k = s.find(c, start, end)
            if k >= 0:
                end = k
        return end
    return _extract_scan(s, start, seps)


def _extract_scan(s: str, start: int, seps: str) -> int:
    """:func:`_extract` for any text (the reference its shortcut must agree with)."""
    if not seps:
        return len(s)
    no_ctlesc = CTLESC in seps
    j = start
    while j < len(s):
        c = s[j]
        if c == CTLESC and (not no_ctlesc or s[j + 1 : j + 2] == CTLNUL):
            j += 2
            continue
        if c in seps:
            break
        j += 1
    return min(j, len(s))


def next_field(s: str, seps: str) -> tuple[str | None, str]:
    """(field, rest): bash's get_word_from_string; None when only IFS white space is left."""
    i = _skip_white(s, 0, seps, _SPCTABNL)
    if i == len(s):
        return None, ""
    s = s[i:]
    j = _extract(s, 0, seps)
    return s[:j], s[_past_delimiter(s, j, seps, _SPCTABNL) :]


def _skip_white(s: str, j: int, seps: str, white: str) -> int:
    """Past the IFS white space (``white`` that is in ``seps``) from ``s[j]`` on."""
    while j < len(s) and s[j] in white and s[j] in seps:
        j += 1
    return j


def _past_delimiter(s: str, j: int, seps: str, white: str) -> int:
    """Past the delimiter that ends a field at ``s[j]``: that character and the IFS white
    space after it; after white space, one non-white IFS character too and the white
    space after that (one delimiter, not two)."""
    whitesep = j < len(s) and s[j] in white
    if j < len(s):
        j += 1
    j = _skip_white(s, j, seps, white)
    if j < len(s) and whitesep and s[j] in seps and s[j] not in white:
        j = _skip_white(s, j + 1, seps, white)
    return j


def strip_trailing(s: str, seps: str, saw_escape: bool) -> str:
    """bash's strip_trailing_ifs_whitespace (which never looks at the first character)."""
    k = len(s) - 1
    while k > 0 and (
        (s[k] in _SPCTABNL and s[k] in seps)
        or (saw_escape and s[k] == CTLESC and s[k + 1 : k + 2] in tuple(_SPCTABNL))
    ):
        k -= 1
    return s[: k + 1]


def split_all(s: str, seps: str) -> list[str]:
    """Every field (``read -a``): bash's list_string, empty fields marked CTLNUL."""
    sh_style = seps == _SPCTABNL
    white = _SPCTABNL if sh_style else _ISSPACE
    if seps:
        s = s[_skip_white(s, 0, seps, _SPCTABNL) :]
    words: list[str] = []
    j = 0
    while j < len(s):
        end = _extract(s, j, seps)
        word = s[j:end]
        j = end
        if word:
            words.append(word)
        elif not sh_style and not (j < len(s) and s[j] in _ISSPACE):
            words.append(CTLNUL)
        j = _past_delimiter(s, j, seps, white)
    return words


def assign_fields(text: str, names: tuple[str, ...], ifs: str, saw_escape: bool) -> list[str]:
    """The value of each name: a field each, the last one the rest of the line."""
    values: list[str] = []
    rest = text
    if ifs:
        i = 0
        while i < len(rest) and rest[i] in _SPCTABNL and rest[i] in ifs:
            i += 1
        rest = rest[i:]
    for _ in names[:-1]:
        word: str | None = None
        if rest:
            word, rest = next_field(rest, ifs)
        values.append(dequote(word) if word is not None and saw_escape else (word or ""))
    if rest:
        # One field left: it loses its delimiter (`a:` → a); more: the rest, as is, but
        # for trailing IFS white space.
        word, after = next_field(rest, ifs)
        rest = (word or "") if after == "" else strip_trailing(rest, ifs, saw_escape)
    values.append(dequote(rest) if saw_escape and rest else rest)
    return values


# --- the builtins -----------------------------------------------------------------------


def _say(sh: Interp, io: IO, name: str, problem: Usage) -> int:
    sh.error(f"{name}: {problem.message}", io)
    if problem.usage:
        sh.error_plain(problem.usage, io)
    return problem.status


def _ifs(sh: Interp) -> str:
    value = sh.state.get_var("IFS")
    return _SPCTABNL if value is None else value


def _assign(sh: Interp, name: str, value: str) -> None:
    element = _ELEMENT.match(name)
    if element:
        sh.expander.set_element(element.group(1), element.group(2), value)
    else:
        sh.state.set_var(name, value)


def _indexed_array(sh: Interp, name: str) -> Usage | None:
    arr = sh.state.arrays.get(name)
    if arr is not None and arr.assoc:
        return Usage(f"{name}: not an indexed array", 1)
    return None


def _source(io: IO, fd: int) -> ByteSource | Usage:
    stream = io.get(fd)
    if stream is None or not hasattr(stream, "read"):
        return Usage(f"{fd}: invalid file descriptor: Bad file descriptor", 1)
    src: ByteSource = stream
    return src


def b_read(sh: Interp, argv: list[str], io: IO) -> int:
    opts = parse_read_args(argv[1:])
    if isinstance(opts, Usage):
        return _say(sh, io, "read", opts)
    if opts.array is not None and (problem := _indexed_array(sh, opts.array)):
        return _say(sh, io, "read", problem)
    src = _source(io, opts.fd)
    if isinstance(src, Usage):
        return _say(sh, io, "read", src)
    if opts.timeout == 0:
        return 0 if input_ready(src) else 1
    if opts.prompt and _is_terminal(src):
        io.stderr.write(opts.prompt.encode("utf-8", "surrogateescape"))
    ifs = _ifs(sh)
    got = read_input(src, opts, ifs)
    try:
        _store(sh, opts, got, ifs)
    except ShellError as exc:
        sh.error(exc.message, io)
        return exc.status
    return got.status


def _store(sh: Interp, opts: ReadOptions, got: Input, ifs: str) -> None:
    st = sh.state
    if opts.array is not None:
        words = split_all(got.text, ifs)
        clean: Callable[[str], str] = (
            dequote if got.saw_escape else (lambda w: w.replace(CTLNUL, ""))
        )
        st.set_array(opts.array, Array(False, {k: clean(w) for k, w in enumerate(words)}))
        return
    if not opts.names:
        st.set_var("REPLY", dequote(got.text) if got.saw_escape else got.text)
        return
    if opts.ignore_delim:
        # -N: the characters as read, no splitting: all of them to the first name.
        whole = dequote(got.text) if got.saw_escape else got.text
        values = [whole] + [""] * (len(opts.names) - 1)
    else:
        values = assign_fields(got.text, opts.names, ifs, got.saw_escape)
    for name, value in zip(opts.names, values, strict=True):
        _assign(sh, name, value)


def _is_terminal(src: ByteSource) -> bool:
    fd = _deadline_fd(src)
    return fd is not None and os.isatty(fd)


class MapfileOptions(NamedTuple):
    delim: str = "\n"
    limit: int = 0  # -n: at most this many lines (0: all)
    origin: int | None = None  # -O: first index; the array is not cleared
    skip: int = 0  # -s
    trim: bool = False  # -t: drop the delimiter
    fd: int = 0
    callback: str = ""  # -C
    quantum: int = 5000  # -c
    array: str = "MAPFILE"


def parse_mapfile_args(args: list[str]) -> MapfileOptions | Usage:
    parsed = _options(args, "t", "dnOsuCc")
    if isinstance(parsed, Usage):
        return parsed._replace(usage=_MAPFILE_USAGE)
    found, names = parsed
    opts = MapfileOptions()
    problems = {
        "n": "invalid line count",
        "O": "invalid array origin",
        "s": "invalid line count",
        "c": "invalid callback quantum",
        "u": "invalid file descriptor specification",
    }
    for letter, value in found:
        if letter == "t":
            opts = opts._replace(trim=True)
        elif letter == "d":
            opts = opts._replace(delim=value[:1] or "\0")
        elif letter == "C":
            opts = opts._replace(callback=value)
        else:
            n = _number(value)
            if n is None or n < 0 or (letter == "c" and n == 0):
                return Usage(f"{value}: {problems[letter]}", 1)
            if letter == "n":
                opts = opts._replace(limit=n)
            elif letter == "O":
                opts = opts._replace(origin=n)
            elif letter == "s":
                opts = opts._replace(skip=n)
            elif letter == "c":
                opts = opts._replace(quantum=n)
            else:
                opts = opts._replace(fd=n)
    if names:
        if not _NAME.match(names[0]):
            return Usage(f"`{names[0]}': not a valid identifier", 1)
        opts = opts._replace(array=names[0])
    return opts


def _lines(src: ByteSource, delim: str) -> Iterator[str]:
    """Each line with its delimiter (the last may lack it); a read error ends the input,
    as bash's mapfile ignores it."""
    d = delim.encode("utf-8", "surrogateescape")[:1]
    try:
        if d == b"\n":
            while line := src.readline():
                yield line.decode("utf-8", "surrogateescape")
            return
        while (text := _taken_until(src, d)) is not None:
            if not text:
                return
            yield text
        data = bytearray()
        while b := src.read(1):
            data += b
            if b == d:
                yield data.decode("utf-8", "surrogateescape")
                data.clear()
        if data:
            yield data.decode("utf-8", "surrogateescape")
    except OSError:
        return


def b_mapfile(sh: Interp, argv: list[str], io: IO) -> int:
    name = argv[0]
    opts = parse_mapfile_args(argv[1:])
    if isinstance(opts, Usage):
        return _say(sh, io, name, opts._replace(usage=opts.usage.replace("mapfile", name, 2)))
    if sh.state.refs and opts.array in sh.state.refs:  # a nameref: the array it names
        from hookrun.dispatch.shell.namerefs import resolve

        opts = opts._replace(array=resolve(sh.state, opts.array))
    if problem := _indexed_array(sh, opts.array):
        return _say(sh, io, name, problem)
    src = _source(io, opts.fd)
    if isinstance(src, Usage):
        return _say(sh, io, name, src)
    st = sh.state
    arr = st.arrays.get(opts.array)
    if arr is None or opts.origin is None:
        arr = Array(False)
        try:
            st.set_array(opts.array, arr)
        except ShellError as exc:
            sh.error(exc.message, io)
            return exc.status
    index = opts.origin or 0
    stored = 0
    for number, line in enumerate(_lines(src, opts.delim)):
        if number < opts.skip:
            continue
        if opts.trim and line.endswith(opts.delim):
            line = line[: -len(opts.delim)]
        if "\0" in line:  # bash stores a line as a C string: it ends at a NUL
            line = line[: line.index("\0")]
        if opts.callback and (stored + 1) % opts.quantum == 0:
            sh.run_source(f"{opts.callback} {index} {_single_quote(line)}", io)
        arr.items[index] = line
        index += 1
        stored += 1
        if opts.limit and stored >= opts.limit:
            break  # no line read past the last one taken: the next command gets it
    return 0


def _single_quote(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"
