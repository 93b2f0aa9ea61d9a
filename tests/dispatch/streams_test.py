"""Streams between builtins, children and the caller: bounds, order, no deadlock."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import threading

import pytest

from hookrun.dispatch.streams import BufferSource, CaptureSink, FdSink, FdSource


def test_in_memory_writes_are_kept_up_to_the_bound_and_the_rest_counted() -> None:
    sink = CaptureSink(10)
    sink.write(b"0123456")
    sink.write(b"789abc")
    assert sink.data == b"0123456789"
    assert sink.dropped == 3
    assert sink.truncated


def test_builtin_writes_never_create_a_pipe_or_thread() -> None:
    before = threading.active_count()
    sink = CaptureSink(100)
    sink.write(b"x")
    assert sink.finish(1.0)
    assert threading.active_count() == before
    assert sink.data == b"x"


def test_child_output_and_later_builtin_output_keep_their_order() -> None:
    sink = CaptureSink(1 << 20)
    sink.write(b"first\n")
    subprocess.run([sys.executable, "-c", "print('child')"], stdout=sink.fileno(), check=True)
    sink.write(b"last\n")
    assert sink.finish(5.0)
    assert sink.data == b"first\nchild\nlast\n"


def test_a_child_flooding_past_the_bound_is_drained_not_blocked() -> None:
    sink = CaptureSink(1000)
    code = "import sys; sys.stdout.buffer.write(b'x' * 5_000_000)"
    subprocess.run([sys.executable, "-c", code], stdout=sink.fileno(), check=True, timeout=30)
    assert sink.finish(5.0)
    assert len(sink.data) == 1000
    assert sink.dropped == 5_000_000 - 1000


def test_fileno_from_many_threads_at_once_makes_one_pipe() -> None:
    sink = CaptureSink(1 << 20)
    barrier = threading.Barrier(8)
    fds: list[int] = []

    def grab() -> None:
        barrier.wait()
        fds.append(sink.fileno())

    threads = [threading.Thread(target=grab) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(set(fds)) == 1
    sink.write(b"ok")
    assert sink.finish(5.0)
    assert sink.data == b"ok"


def test_capture_works_with_descriptors_above_1023() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 1200:
        pytest.fail(f"this machine allows only {hard} open files; the test needs 1200")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, 1200), hard))
    fillers = [os.open(os.devnull, os.O_RDONLY) for _ in range(1100)]
    try:
        sink = CaptureSink(100)
        assert sink.fileno() > 1023
        sink.write(b"high")
        assert sink.finish(5.0)
        assert sink.data == b"high"
    finally:
        for fd in fillers:
            os.close(fd)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_finish_abandons_a_pipe_held_open_by_a_stray_process() -> None:
    sink = CaptureSink(100)
    holder = subprocess.Popen(
        [sys.executable, "-c", "import time; time.sleep(30)"], stdout=sink.fileno()
    )
    try:
        assert sink.finish(0.3) is False
    finally:
        holder.kill()
        holder.wait()


def test_buffer_source_serves_builtins_then_hands_the_rest_to_a_child() -> None:
    src = BufferSource(b"line1\nline2\nrest\n")
    assert src.readline() == b"line1\n"
    out = subprocess.run(["cat"], stdin=src.fileno(), capture_output=True, check=True).stdout
    assert out == b"line2\nrest\n"
    src.close()


def test_buffer_source_does_not_deadlock_when_the_child_never_reads() -> None:
    src = BufferSource(b"x" * 10_000_000)
    subprocess.run(["true"], stdin=src.fileno(), check=True, timeout=10)
    src.close()


def test_fd_sink_and_source_move_bytes_through_a_pipe() -> None:
    r, w = os.pipe()
    sink, source = FdSink(w), FdSource(r)
    sink.write(b"a\nbc")
    sink.close()
    assert source.readline() == b"a\n"
    assert source.read() == b"bc"
    source.close()
