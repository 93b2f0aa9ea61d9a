"""Byte streams between the in-process shell, its children and the caller.

Builtins write into Python objects; external children need real file
descriptors. Each stream here serves both: :meth:`write`/:meth:`read` for code
running inside the Python process and :meth:`fileno` for a child, created lazily
so that a hook made only of builtins (``echo '{"decision":"allow"}'``) costs no
pipe and no thread at all.

Once a stream has handed out a descriptor, in-process writes go through the
same pipe, so output from a child and from a later builtin keeps its order.
"""

from __future__ import annotations

import os
import sys
import threading

from hookrun.records import TYPE_CHECKING

_CHUNK = 64 * 1024
# The most one write to a pipe with room for it takes whole (POSIX's least; Linux's).
_PIPE_BUF = 4096
# How often a reader blocked on a pipe that a stray grandchild keeps open looks
# at its stop flag. Only matters on the abandon path.
_POLL = 0.2
# How long a reader is waited for once no process holds its pipe any more.
_SLOW_READER = 5.0


if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Protocol

    from hookrun.dispatch.cancel import Guard

    class ByteSink(Protocol):
        def write(self, data: bytes) -> None: ...
        def fileno(self) -> int: ...

    class ByteSource(Protocol):
        def read(self, n: int = -1) -> bytes: ...
        def readline(self) -> bytes: ...
        def fileno(self) -> int: ...

else:
    # Protocols are for the type checker (nothing tests isinstance against them); at run
    # time the names only have to exist for the modules importing them, and `typing`,
    # which Protocol needs, stays off the start-up path (hookrun.records).
    ByteSink = ByteSource = object


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


class CaptureSink:
    """Collects at most ``limit`` bytes; the rest is drained and counted.

    Draining past the bound matters: a child whose pipe is never read blocks
    forever on a full pipe, which would turn a chatty hook into a hung one.
    """

    # Start values that are only ever replaced (never mutated in place), read from the
    # class until a sink assigns its own: every run makes two sinks.
    dropped = 0
    _w: int | None = None
    _r: int | None = None
    _reader: threading.Thread | None = None
    # Made with the reader (an Event costs ~6 µs here, and a hook of builtins only
    # never starts one).
    _stop: threading.Event | None = None

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._buf = bytearray()
        self._lock = threading.Lock()

    def _keep(self, data: bytes) -> None:
        with self._lock:
            room = self.limit - len(self._buf)
            if room >= len(data):
                self._buf += data
            else:
                if room > 0:
                    self._buf += data[:room]
                self.dropped += len(data) - max(room, 0)

    def write(self, data: bytes) -> None:
        if self._w is not None:
            _write_all(self._w, data)
        else:
            self._keep(data)

    def flush(self) -> None:
        pass

    def fileno(self) -> int:
        # Pipeline stages and background jobs may ask for the descriptor from
        # several threads at once; exactly one pipe and one reader must exist.
        with self._lock:
            if self._w is None:
                self._r, self._w = os.pipe()
                if self._stop is None:
                    self._stop = threading.Event()
                self._reader = threading.Thread(
                    target=self._drain, name="hookrun-capture", daemon=True
                )
                self._reader.start()
            return self._w

    def _drain(self) -> None:
        fd, stop = self._r, self._stop
        assert fd is not None and stop is not None
        try:
            if sys.platform == "win32":  # pragma: win32 cover
                while chunk := os.read(fd, _CHUNK):
                    self._keep(chunk)
            else:
                import select

                # poll, not select: select() fails on descriptors above 1023.
                poller = select.poll()
                poller.register(fd, select.POLLIN | select.POLLHUP | select.POLLERR)
                while not stop.is_set():
                    if poller.poll(_POLL * 1000):
                        chunk = os.read(fd, _CHUNK)
                        if not chunk:
                            break
                        self._keep(chunk)
        except OSError:
            pass
        finally:
            with self._lock:
                os.close(fd)
                self._r = None

    def close(self) -> None:
        """Close our write end; the reader sees EOF once every child's copy closes."""
        if self._w is not None:
            w, self._w = self._w, None
            os.close(w)

    def finish(self, timeout: float) -> bool:
        """Wait for the reader to reach EOF; return False if it had to be abandoned.

        A descendant that escaped the process-tree kill may still hold the pipe;
        after ``timeout`` the reader is told to stop and the data so far is final.
        """
        self.close()
        if self._reader is None:
            return True
        self._reader.join(timeout)
        if self._reader.is_alive() and self._writers_gone():
            # No process holds the pipe: the reader is only slow to be scheduled (a
            # loaded machine) and has at most a pipe's buffer left to read. Waiting for
            # it keeps "something escaped with the pipe" a fact, not a matter of timing.
            self._reader.join(_SLOW_READER)
        if self._reader.is_alive():
            assert self._stop is not None  # made with the reader
            self._stop.set()
            self._reader.join(_POLL * 2)
            return False
        return True

    def _writers_gone(self) -> bool:
        """Whether every write end of the pipe is closed (POSIX: POLLHUP on the read end)."""
        if sys.platform == "win32":  # pragma: win32 cover
            return False
        import select

        with self._lock:  # the reader closes the descriptor under the same lock
            if self._r is None:
                return True
            poller = select.poll()
            poller.register(self._r, select.POLLIN | select.POLLHUP)
            return any(event & select.POLLHUP for _, event in poller.poll(0))

    @property
    def data(self) -> bytes:
        with self._lock:
            return bytes(self._buf)

    @property
    def truncated(self) -> bool:
        return self.dropped > 0


# Held while a BufferSource hands out its pipe or reads from memory: a command and its
# `<(…)`, or a background job, share the hook's stdin and start their programs at once.
# Unlocked, two threads each made a pipe (the first one's read end was never closed: a
# descriptor leaked per race), and a builtin reading from memory meanwhile could read
# bytes the pipe then carried again. One lock for all sources: the sections are a slice
# or a pipe(2), never a blocking read, and a source costs no lock of its own per run.
_TAKE = threading.Lock()


class BufferSource:
    """Stdin from bytes in memory (the hook payload, a here-document).

    Builtins read the buffer directly. A child gets the read end of a pipe fed by
    a writer thread, so a child that never reads, or exits early, cannot
    deadlock the caller: the writer ends on EPIPE, which is not an error. Once the
    pipe exists every read goes through it (thread-safe: :data:`_TAKE`).
    """

    # Start values, replaced (never mutated) once a source reads or hands out a pipe.
    _pos = 0
    _r: int | None = None
    _writer: threading.Thread | None = None

    def __init__(self, data: bytes) -> None:
        self._data = data

    def read(self, n: int = -1) -> bytes:
        r = self._r
        if r is None:
            with _TAKE:
                r = self._r
                if r is None:
                    end = len(self._data) if n < 0 else min(len(self._data), self._pos + n)
                    chunk = self._data[self._pos : end]
                    self._pos = end
                    return chunk
        return _fd_read(r, n)

    def readline(self) -> bytes:
        r = self._r
        if r is None:
            with _TAKE:
                r = self._r
                if r is None:
                    nl = self._data.find(b"\n", self._pos)
                    end = len(self._data) if nl < 0 else nl + 1
                    line = self._data[self._pos : end]
                    self._pos = end
                    return line
        return _fd_readline(r)

    def read_until(self, delim: bytes) -> bytes | None:
        """Up to and with the first ``delim`` (or to the end), from the buffer in one
        slice; None once a child took the source (then it is a pipe, read byte by byte
        so the next command gets the rest)."""
        if self._r is not None:
            return None
        with _TAKE:
            if self._r is not None:
                return None
            k = self._data.find(delim, self._pos)
            end = len(self._data) if k < 0 else k + len(delim)
            chunk = self._data[self._pos : end]
            self._pos = end
            return chunk

    def fileno(self) -> int:
        r = self._r
        if r is None:
            with _TAKE:
                r = self._r
                if r is None:
                    r, w = os.pipe()
                    rest = self._data[self._pos :]
                    self._pos = len(self._data)
                    writer = threading.Thread(
                        target=_feed, args=(w, rest), name="hookrun-stdin", daemon=True
                    )
                    try:
                        writer.start()
                    except BaseException:  # no thread to be had: nothing may stay open
                        os.close(r)
                        os.close(w)
                        raise
                    self._writer = writer
                    self._r = r  # last: a reader that sees it finds the writer started
        return r

    def close(self) -> None:
        with _TAKE:
            r, self._r = self._r, None
        if r is not None:
            os.close(r)


def _feed(fd: int, data: bytes) -> None:
    try:
        _write_all(fd, data)
    except OSError:  # EPIPE: the reader went away, which is its right
        pass
    finally:
        os.close(fd)


# How long one wait of the in-process shell on a FIFO or a device lasts before it asks
# its guard again (see open_waiting).
SLICE = 0.05


def open_waiting(
    path: str, flags: int, guard: Guard | None, opener: Callable[[str, int], int] = os.open
) -> tuple[int, str]:
    """``opener(path, flags)`` for the in-process shell (a FIFO: see below), and what it
    opened if no regular file: "fifo" (its reads and writes must then wait with ``guard``:
    FdSource, FdSink) or "device" (its reads must), else "".

    In the hookrun process itself nothing ends a blocking call: not the hook's
    deadline, not a cancel, not Ctrl-C (the handler runs; the call is retried). bash
    blocks opening a FIFO until its other end is opened, and reading it until a writer
    writes or leaves: a hook's ``read x < fifo`` kept ``hookrun run`` for ever, through
    its timeout and SIGTERM. So a FIFO opens as in bash, but waiting in slices that ask
    the guard between them (it raises Interrupted at the deadline or on a cancel): for
    writing, non-blocking opens until a reader is there (the system refuses, ENXIO, while
    there is none); for reading, the blocking open on a thread of its own (nothing else
    tells when a writer came), which an interrupted wait releases by being that writer
    for an instant. Its reads then wait as :class:`FdSource`'s do.
    """
    if guard is None or sys.platform == "win32":  # pragma: win32 cover
        return opener(path, flags), ""
    import stat

    try:
        kind = stat.S_IFMT(os.stat(path).st_mode)
    except (OSError, ValueError):  # none yet (created as a regular file), or a bad name
        kind = stat.S_IFREG
    if kind in (stat.S_IFREG, stat.S_IFDIR):
        return opener(path, flags), ""
    if kind != stat.S_IFIFO:
        return opener(path, flags), "device"
    if flags & os.O_ACCMODE == os.O_RDWR:  # never waits: it is a reader itself
        return opener(path, flags), "fifo"
    if flags & os.O_ACCMODE == os.O_RDONLY:
        return _open_reader(path, flags, guard), "fifo"
    import errno
    import time

    delay = 0.001
    while True:
        try:
            fd = os.open(path, flags | os.O_NONBLOCK)
            break
        except OSError as exc:
            if exc.errno != errno.ENXIO:  # ENXIO: no reader yet
                raise
        guard.check()
        time.sleep(delay)
        delay = min(delay * 2, SLICE)
    os.set_blocking(fd, True)  # the descriptor is shared with children: as bash leaves it
    return fd, "fifo"


def _open_reader(path: str, flags: int, guard: Guard) -> int:
    """A FIFO's read end, once a writer came (bash's open), waited for in slices."""
    opened: list[int | OSError] = []
    done = threading.Event()

    def opener() -> None:
        try:
            opened.append(os.open(path, flags))
        except OSError as exc:
            opened.append(exc)
        finally:
            done.set()

    threading.Thread(target=opener, name="hookrun-fifo", daemon=True).start()
    try:
        while not done.wait(SLICE):
            guard.check()
    except BaseException:
        # The opener is released by a writer that leaves at once (ENXIO until it is
        # in its open: no reader yet); what it opened is closed.
        while not done.wait(0.001):
            try:  # noqa: SIM105 - not contextlib: see the module's imports
                os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
            except OSError:
                pass
        if isinstance(opened[0], int):
            os.close(opened[0])
        raise
    if isinstance(opened[0], OSError):
        raise opened[0]
    return opened[0]


def read_waiting(path: str, limit: int, guard: Guard | None) -> bytes:
    """What ``path`` holds, at most ``limit`` bytes (-1: all), opened and read as
    :func:`open_waiting` and :class:`FdSource` do (``$(< f)``, ``source f``)."""
    flags = os.O_RDONLY | getattr(os, "O_BINARY", 0) | getattr(os, "O_CLOEXEC", 0)
    fd, special = open_waiting(path, flags, guard)
    wait = guard if special else None
    try:
        parts: list[bytes] = []
        left = limit
        while left:
            chunk = _fd_read(fd, _CHUNK if left < 0 else min(left, _CHUNK), wait)
            if not chunk:
                break
            parts.append(chunk)
            left = left if left < 0 else left - len(chunk)
        return b"".join(parts)
    finally:
        os.close(fd)


def _await_input(fd: int, guard: Guard) -> None:
    """Until ``fd`` has input or its writers left, asking ``guard`` between slices (it
    raises Interrupted at the deadline or on a cancel)."""
    import select

    poller = select.poll()
    poller.register(fd, select.POLLIN)
    while not poller.poll(SLICE * 1000):
        guard.check()


def _fd_read(fd: int, n: int, guard: Guard | None = None) -> bytes:
    if guard is not None:
        _await_input(fd, guard)
    if n >= 0:
        return os.read(fd, n)
    parts = []
    while chunk := os.read(fd, _CHUNK):
        parts.append(chunk)
        if guard is not None:
            _await_input(fd, guard)
    return b"".join(parts)


def _fd_readline(fd: int, guard: Guard | None = None) -> bytes:
    # Byte by byte, as shells do on pipes: reading ahead would steal input from
    # the next command that shares this descriptor.
    out = bytearray()
    while True:
        if guard is not None:
            _await_input(fd, guard)
        b = os.read(fd, 1)
        if not b:
            break
        out += b
        if b == b"\n":
            break
    return bytes(out)


def _write_waiting(fd: int, data: bytes, guard: Guard) -> None:
    """All of ``data`` to a FIFO, in writes that do not block, waiting for room in slices
    and asking ``guard`` between them (it raises Interrupted at the deadline or on a
    cancel).

    A reader that opened the FIFO and never reads is not always a process of the hook's
    (nothing kills it at the deadline): once its pipe was full, a builtin's blocking
    write kept the hookrun process for ever. The system says a pipe is writable while
    it has a free page, and a write of at most PIPE_BUF bytes then fits whole."""
    import select

    poller = select.poll()
    poller.register(fd, select.POLLOUT)
    view = memoryview(data)
    while view:
        while not poller.poll(SLICE * 1000):
            guard.check()
        written = os.write(fd, view[:_PIPE_BUF])  # (no reader left: EPIPE, as before)
        view = view[written:]


class FdSink:
    """Output to an existing descriptor (a pipe between stages, a redirected file).

    With a ``guard`` (a FIFO: :func:`open_waiting`) every write waits for room in slices,
    asking the guard between them (:func:`_write_waiting`)."""

    # Held open by the shell's `exec` (`exec 4>f`): a job started meanwhile takes a copy.
    exec_held = False
    guard: Guard | None = None

    def __init__(self, fd: int, *, owned: bool = True, guard: Guard | None = None) -> None:
        self.fd = fd
        self.owned = owned
        if guard is not None:
            self.guard = guard

    def write(self, data: bytes) -> None:
        if self.guard is None:
            _write_all(self.fd, data)
        else:
            _write_waiting(self.fd, data, self.guard)

    def flush(self) -> None:
        pass

    def fileno(self) -> int:
        return self.fd

    def close(self) -> None:
        if self.owned and self.fd >= 0:
            os.close(self.fd)
            self.fd = -1


class FdSource:
    """Input from an existing descriptor (a pipe between stages, a redirected file).

    With a ``guard`` (a FIFO or a device: :func:`open_waiting`) every read first waits
    for input in slices, asking the guard between them."""

    # Held open by the shell's `exec` (`exec 4>f`): a job started meanwhile takes a copy.
    exec_held = False

    def __init__(self, fd: int, *, owned: bool = True, guard: Guard | None = None) -> None:
        self.fd = fd
        self.owned = owned
        self.guard = guard

    def read(self, n: int = -1) -> bytes:
        return _fd_read(self.fd, n, self.guard)

    def readline(self) -> bytes:
        return _fd_readline(self.fd, self.guard)

    def fileno(self) -> int:
        return self.fd

    def close(self) -> None:
        if self.owned and self.fd >= 0:
            os.close(self.fd)
            self.fd = -1


class FdDuplex(FdSink):
    """A descriptor opened for reading and writing (``exec 3<> file``): both at once;
    its reads and writes wait with a ``guard`` as :class:`FdSource`'s and
    :class:`FdSink`'s do."""

    def read(self, n: int = -1) -> bytes:
        return _fd_read(self.fd, n, self.guard)

    def readline(self) -> bytes:
        return _fd_readline(self.fd, self.guard)
