"""Stream edge cases: a BufferSource read after a child asked for its descriptor, flushes
that have nothing to flush, and closing a descriptor the sink or source does not own."""

from __future__ import annotations

import os
import time
from typing import Any

import pytest

from hookrun.dispatch.streams import BufferSource, CaptureSink, FdSink, FdSource


@pytest.mark.parametrize(
    ("data", "reads", "expected"),
    [
        (b"one\ntwo\n", ["readline", "readline", "readline"], [b"one\n", b"two\n", b""]),
        (b"abcdef", ["read:2", "read:-1", "read:3"], [b"ab", b"cdef", b""]),
        (b"x\ny", ["read:0", "readline", "read:-1"], [b"", b"x\n", b"y"]),
    ],
)
def test_a_buffer_source_reads_through_its_pipe_once_a_child_asked_for_the_descriptor(
    data: bytes, reads: list[str], expected: list[bytes]
) -> None:
    src = BufferSource(data)
    src.fileno()  # what a child does: from now on, reads go through the pipe
    got = []
    for op in reads:
        got.append(src.readline() if op == "readline" else src.read(int(op.split(":")[1])))
    src.close()
    assert got == expected


def test_a_buffer_source_read_in_memory_keeps_the_rest_for_the_pipe() -> None:
    src = BufferSource(b"head\ntail\n")
    assert src.readline() == b"head\n"
    fd = src.fileno()
    assert os.read(fd, 100) == b"tail\n"
    src.close()


def _identity(fd: int) -> tuple[int, int] | None:
    """What ``fd`` is open on (device, inode), or None when it is not open."""
    try:
        st = os.fstat(fd)
    except OSError:
        return None
    return (st.st_dev, st.st_ino)


@pytest.mark.parametrize("owned", [True, False])
def test_fd_sink_and_source_close_only_what_they_own(owned: bool) -> None:
    r, w = os.pipe()
    pipe = _identity(r)  # (both ends: one pipe inode)
    sink, source = FdSink(w, owned=owned), FdSource(r, owned=owned)
    sink.write(b"data\n")
    sink.flush()
    assert (sink.fileno(), source.fileno()) == (w, r)
    assert source.readline() == b"data\n"
    sink.close()
    source.close()
    sink.close()  # a second close is harmless
    source.close()
    for fd in (r, w):
        if owned:
            # Closed: the number is free, or already taken again by another thread's open
            # (a test before this one may leave a reader thread ending) — never this pipe.
            assert _identity(fd) != pipe
        else:
            os.fstat(fd)  # still open: the caller owns it
            os.close(fd)


def test_capture_sink_flush_keeps_what_was_written() -> None:
    sink = CaptureSink(16)
    sink.write(b"abc")
    sink.flush()
    sink.finish(10)
    assert sink.data == b"abc"


def _open_fds() -> int:
    return len(os.listdir("/proc/self/fd" if os.path.isdir("/proc/self/fd") else "/dev/fd"))


def test_a_buffer_source_asked_for_its_descriptor_by_many_threads_at_once_makes_one_pipe() -> None:
    # A command and its `<(…)` (or a background job) share the hook's stdin and start
    # their programs at once: each asks for the descriptor. Two pipes were made when two
    # asked together, the first one's read end never closed (a descriptor leaked per
    # race: `head -1 <(seq 9)` left ~1 in 200 runs, ci4's suite failed on it).
    import threading

    before = _open_fds()
    for _ in range(40):
        src = BufferSource(b"payload\n")
        start = threading.Barrier(8)
        got: list[int] = []

        def ask(
            src: BufferSource = src, start: threading.Barrier = start, got: list[int] = got
        ) -> None:
            start.wait()
            got.append(src.fileno())

        threads = [threading.Thread(target=ask) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert len(set(got)) == 1, got  # one pipe, the same descriptor for every child
        assert os.read(got[0], 100) == b"payload\n"  # the payload once, not once a pipe
        src.close()
        if src._writer is not None:
            src._writer.join(5)
    assert _open_fds() <= before


class _SlowBytes(bytes):
    """Bytes whose slices take a while (and let other threads run meanwhile)."""

    def __getitem__(self, key: Any) -> Any:
        time.sleep(0.002)
        return bytes(self)[key]


def test_a_buffer_source_read_in_memory_while_a_child_takes_the_pipe_hands_each_byte_once() -> None:
    # A builtin `read` in one thread and a child's descriptor asked in another (a
    # command and its `<(…)`): what the builtin got from memory must not be in the pipe
    # too, and nothing may be lost. The slow slices widen the window between where a
    # reader looks and what it takes.
    import threading

    data = _SlowBytes(b"".join(b"%d\n" % i for i in range(50)))
    for _ in range(5):
        src = BufferSource(data)
        lines: list[bytes] = []

        def builtin(src: BufferSource = src, lines: list[bytes] = lines) -> None:
            for _ in range(10):
                lines.append(src.readline())

        reader = threading.Thread(target=builtin)
        reader.start()
        time.sleep(0.005)
        fd = src.fileno()
        reader.join()
        rest = b""
        while chunk := os.read(fd, 65536):
            rest += chunk
        src.close()
        assert b"".join(lines) + rest == bytes(data)
