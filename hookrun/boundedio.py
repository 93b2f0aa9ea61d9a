"""Reads that end: a config file of bounded size, and a stdin that may never close.

Everything hookrun reads from outside goes through here, so that no input can make
it wait forever or fill its memory:

* :func:`read_regular_file` reads a config: a regular file only (a FIFO would block
  the open, ``/dev/zero`` never ends) and at most :data:`CONFIG_LIMIT` bytes.
* :func:`read_stdin` reads the payload: until end of file, or until what arrived is
  one complete JSON object and the writer has gone quiet (a host that keeps the
  pipe open after writing the event is answered, not waited on), or until
  ``timeout`` seconds have passed (:class:`StdinTimeout`).

On POSIX, when stdin is a pipe, a socket or a regular file, the reader waits with
``select`` and reads the file descriptor itself: no thread, and neither ``threading``
nor ``queue`` to import (~10% of a bare Python start, callgrind, on every run).
Elsewhere — Windows, where ``select`` does not take pipes, or a stream without a file
descriptor — the blocking reads run on a daemon thread and the reader waits on a
queue. That thread may stay blocked on a pipe that never closes; it holds nothing and
ends with the process.

A leaf module: it imports nothing from hookrun (the config package uses it).
"""

from __future__ import annotations

import os
import stat
import sys
import time

TYPE_CHECKING = False  # a leaf imports no hookrun module: typing.TYPE_CHECKING without typing

if TYPE_CHECKING:
    import queue
    from collections.abc import Callable
    from typing import BinaryIO

# A hookrun, Claude Code or Crush config is a few KiB; 8 MiB leaves room for any real
# one and keeps a wrong path (a log file, a disk image) from filling memory.
CONFIG_LIMIT = 8 << 20

# How long `hookrun run` waits for the payload on stdin. Hosts write the event at once;
# this bounds the case where a pipe is never closed and never completes an object.
STDIN_TIMEOUT = 10.0

# How long the pipe must stay quiet before a complete JSON object on it is taken as the
# whole payload (a host that writes, then keeps stdin open).
QUIET_SECONDS = 0.05

_CHUNK = 1 << 20

_KINDS = (
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


class ReadRefused(Exception):
    """The input cannot be read as asked; ``message`` says why, for a person."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class StdinTimeout(ReadRefused):
    """stdin neither ended nor completed a JSON object in time."""


def _not_regular(mode: int) -> ReadRefused:
    if stat.S_ISDIR(mode):
        return ReadRefused("is a directory: expected a JSON config file")
    kind = next((name for test, name in _KINDS if test(mode)), "a special file")
    return ReadRefused(f"is {kind}, not a regular file: expected a JSON config file")


def read_regular_file(path: str, *, limit: int = CONFIG_LIMIT) -> bytes:
    """The bytes of ``path``, a regular file of at most ``limit`` bytes.

    Raises ``OSError`` as ``open`` does (missing file, permissions) and
    :class:`ReadRefused` for anything that is not a regular file or is too large.
    """
    mode = os.stat(path).st_mode  # never blocks, unlike opening a FIFO
    if not stat.S_ISREG(mode):
        raise _not_regular(mode)
    # O_NONBLOCK: if the path became a FIFO since the stat, the open does not wait for a
    # writer; the fstat below then refuses it.
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    with os.fdopen(fd, "rb") as fh:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise _not_regular(mode)
        data = fh.read(limit + 1)
    if len(data) > limit:
        raise ReadRefused(
            f"is larger than {limit >> 20} MiB: not a config file (hookrun reads at most that)"
        )
    return data


def _complete_object(data: bytes | bytearray) -> bool:
    """Whether ``data`` is one whole JSON object (surrounding blanks allowed)."""
    end = len(data.rstrip())
    if not end or data[end - 1 : end] != b"}":
        return False
    # Here, not at the top: only a writer that keeps the pipe open gets here, and json's
    # import is ~5M instructions (hookrun.cjson, which a leaf cannot import).
    import json

    try:
        return isinstance(json.loads(bytes(data).lstrip(b"\xef\xbb\xbf")), dict)
    except (ValueError, RecursionError):
        return False


def _pollable(stream: BinaryIO, platform: str) -> int | None:
    """The file descriptor to wait on with ``select``, or None to read on a thread.

    POSIX only, and only a pipe (FIFO), a socket or a regular file: what ``select``
    takes on every POSIX system (macOS refuses some character devices).
    """
    if platform == "win32":
        return None
    try:
        fd = stream.fileno()
        mode = os.fstat(fd).st_mode
    except (AttributeError, OSError, ValueError):  # io.UnsupportedOperation is an OSError
        return None
    if stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) or stat.S_ISREG(mode):
        return fd
    return None


def read_stdin(
    stream: BinaryIO,
    *,
    timeout: float = STDIN_TIMEOUT,
    quiet: float = QUIET_SECONDS,
) -> bytearray:
    """All of ``stream``, or the complete JSON object it holds once the writer went quiet.

    Raises :class:`StdinTimeout` when neither happens within ``timeout`` seconds
    (the message says what had arrived), and ``OSError`` from the read itself.
    ``stream`` must not have been read from before: its file descriptor may be read
    directly, past the stream's own buffer.
    """
    fd = _pollable(stream, sys.platform)
    next_chunk = _thread_chunks(stream) if fd is None else _select_chunks(fd)
    data = bytearray()
    deadline = time.monotonic() + timeout
    checked = -1  # the length last tried as a complete object: try each length once
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise StdinTimeout(_timeout_message(data, timeout))
        chunk = next_chunk(min(left, quiet) if data else left)
        if chunk is None:  # nothing more within the wait
            if data and len(data) != checked:
                checked = len(data)
                if _complete_object(data):
                    return data
            continue
        if not chunk:
            return data
        data += chunk


# Each reader below gives the next chunk that arrives within ``wait`` seconds: bytes,
# b"" at the end of the stream, None when nothing arrived.


def _select_chunks(fd: int) -> Callable[[float], bytes | None]:
    import select  # here: Windows never needs it

    def next_chunk(wait: float) -> bytes | None:
        ready, _, _ = select.select([fd], [], [], wait)
        return os.read(fd, _CHUNK) if ready else None

    return next_chunk


def _thread_chunks(stream: BinaryIO) -> Callable[[float], bytes | None]:
    """Chunks read by a daemon thread: where ``select`` cannot wait on ``stream``."""
    # Imported here: a POSIX run reading a pipe needs neither (see the module's doc).
    import queue
    import threading

    chunks: queue.SimpleQueue[bytes | BaseException | None] = queue.SimpleQueue()
    threading.Thread(target=_pump, args=(stream, chunks), name="hookrun-stdin", daemon=True).start()

    def next_chunk(wait: float) -> bytes | None:
        try:
            item = chunks.get(timeout=wait)
        except queue.Empty:
            return None
        if isinstance(item, BaseException):
            raise item
        return b"" if item is None else item

    return next_chunk


def _pump(stream: BinaryIO, chunks: queue.SimpleQueue[bytes | BaseException | None]) -> None:
    try:
        while True:
            chunk = stream.read1(_CHUNK) if hasattr(stream, "read1") else stream.read(_CHUNK)
            if not chunk:
                break
            chunks.put(chunk)
    except BaseException as exc:  # noqa: BLE001 — handed to the reading thread
        chunks.put(exc)
        return
    chunks.put(None)


def _timeout_message(data: bytearray, timeout: float) -> str:
    what = "nothing" if not data else f"{len(data)} bytes that are not a complete JSON object"
    return (
        f"stdin was still open after {timeout:g}s with {what} on it: the host must write "
        "the event as one JSON object (and should close stdin); raise --stdin-timeout "
        "if it is slow"
    )
