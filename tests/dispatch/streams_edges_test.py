"""Stream edge cases: a BufferSource read after a child asked for its descriptor, flushes
that have nothing to flush, and closing a descriptor the sink or source does not own."""

from __future__ import annotations

import os

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
