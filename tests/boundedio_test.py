"""hookrun.boundedio: a config read is bounded in size and kind, a stdin wait in time."""

from __future__ import annotations

import contextlib
import io
import os
import select
import socket
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

import pytest

from hookrun import boundedio
from hookrun.boundedio import ReadRefused, StdinTimeout, read_regular_file, read_stdin


def test_a_regular_file_is_read(tmp_path: Path) -> None:
    path = tmp_path / "hooks.json"
    path.write_bytes(b'{"hooks": {}}')
    assert read_regular_file(str(path)) == b'{"hooks": {}}'


@pytest.mark.parametrize(
    ("path", "kind"),
    [("/dev/zero", "a character device"), ("/dev/urandom", "a character device")],
)
@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="POSIX device files")
def test_a_device_file_is_refused_without_reading_it(path: str, kind: str) -> None:
    with pytest.raises(ReadRefused) as info:
        read_regular_file(path)
    assert info.value.message.startswith(f"is {kind}, not a regular file")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX FIFOs")
def test_a_fifo_without_a_writer_is_refused_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "hooks.json"
    os.mkfifo(fifo)
    with pytest.raises(ReadRefused) as info:
        read_regular_file(str(fifo))
    assert "a FIFO (named pipe)" in info.value.message


def test_a_directory_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ReadRefused) as info:
        read_regular_file(str(tmp_path))
    assert info.value.message.startswith("is a directory")


def test_a_file_over_the_limit_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    path.write_bytes(b" " * 2048)
    assert read_regular_file(str(path), limit=2048) == b" " * 2048
    with pytest.raises(ReadRefused) as info:
        read_regular_file(str(path), limit=2047)
    assert "larger than" in info.value.message


@pytest.fixture
def pipe() -> Iterator[tuple[BinaryIO, BinaryIO]]:
    r, w = os.pipe()
    reader, writer = os.fdopen(r, "rb"), os.fdopen(w, "wb", buffering=0)
    yield reader, writer
    for end in (writer, reader):
        with contextlib.suppress(OSError):
            end.close()


def test_a_closed_pipe_is_read_to_its_end(pipe: tuple[BinaryIO, BinaryIO]) -> None:
    reader, writer = pipe
    writer.write(b'{"a": 1}\n{"not": "parsed here"}')
    writer.close()
    assert read_stdin(reader, timeout=5) == b'{"a": 1}\n{"not": "parsed here"}'


def test_a_complete_object_on_an_open_pipe_is_answered(pipe: tuple[BinaryIO, BinaryIO]) -> None:
    reader, writer = pipe
    writer.write(b'{"tool_name": "Bash"}\n')
    started = time.monotonic()
    assert read_stdin(reader, timeout=30) == b'{"tool_name": "Bash"}\n'
    assert time.monotonic() - started < 10  # the 30 s bound was not what ended it


def test_an_object_written_in_pieces_is_waited_for(pipe: tuple[BinaryIO, BinaryIO]) -> None:
    reader, writer = pipe

    def write_slowly() -> None:
        for piece in (b'{"tool_name": ', b'"Bash", "tool_input": {}', b"}"):
            writer.write(piece)
            time.sleep(0.2)  # longer than the quiet time: each piece is tried alone

    thread = threading.Thread(target=write_slowly)
    thread.start()
    assert read_stdin(reader, timeout=30) == b'{"tool_name": "Bash", "tool_input": {}}'
    thread.join()


@pytest.mark.parametrize(
    ("written", "what"),
    [(b"", "with nothing on it"), (b'{"tool_name": "Ba', "with 17 bytes that are not a complete")],
    ids=["empty", "partial"],
)
def test_an_open_pipe_without_an_object_times_out(
    pipe: tuple[BinaryIO, BinaryIO], written: bytes, what: str
) -> None:
    reader, writer = pipe
    writer.write(written)
    started = time.monotonic()
    with pytest.raises(StdinTimeout) as info:
        read_stdin(reader, timeout=0.3)
    assert 0.3 <= time.monotonic() - started < 10
    assert "stdin was still open after 0.3s " + what in info.value.message
    assert "--stdin-timeout" in info.value.message


def test_a_read_error_is_raised_to_the_caller() -> None:
    class Broken:
        def read(self, size: int = -1) -> bytes:
            raise OSError(5, "Input/output error")

    with pytest.raises(OSError):
        read_stdin(Broken(), timeout=5)  # type: ignore[arg-type]


def test_the_reader_needs_no_select_so_windows_pipes_work(
    pipe: tuple[BinaryIO, BinaryIO], monkeypatch: pytest.MonkeyPatch
) -> None:
    """On Windows, select() refuses pipes (WinError 10038): the reader must not use it."""

    def windows_select(*args: object) -> None:
        raise OSError(10038, "An operation was attempted on something that is not a socket")

    monkeypatch.setattr(select, "select", windows_select)
    monkeypatch.setattr(sys, "platform", "win32")
    reader, writer = pipe
    writer.write(b'{"event": "PreToolUse"}')
    assert read_stdin(reader, timeout=30) == b'{"event": "PreToolUse"}'
    with pytest.raises(StdinTimeout):
        read_stdin(reader, timeout=0.2)


@pytest.mark.skipif(sys.platform == "win32", reason="the POSIX reader")
def test_on_posix_a_pipe_or_a_file_is_read_without_a_thread(
    pipe: tuple[BinaryIO, BinaryIO], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_thread(*args: object, **kwargs: object) -> None:
        raise AssertionError("a thread was started")

    monkeypatch.setattr(threading, "Thread", no_thread)
    reader, writer = pipe
    writer.write(b'{"event": "PreToolUse"}')
    assert read_stdin(reader, timeout=30) == b'{"event": "PreToolUse"}'
    with pytest.raises(StdinTimeout):
        read_stdin(reader, timeout=0.2)
    payload = tmp_path / "payload.json"
    payload.write_bytes(b'{"a": 1}\n')
    with payload.open("rb") as stream:
        assert read_stdin(stream, timeout=5) == b'{"a": 1}\n'


def test_a_stream_without_a_file_descriptor_is_read_on_a_thread() -> None:
    assert read_stdin(io.BytesIO(b'{"a": 1}'), timeout=5) == b'{"a": 1}'


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX file kinds")
@pytest.mark.parametrize("platform", ["linux", "darwin", "win32"])
def test_select_waits_only_on_pipes_sockets_and_files_and_never_on_windows(
    tmp_path: Path, platform: str
) -> None:
    (tmp_path / "f").write_bytes(b"x")
    with contextlib.ExitStack() as stack:
        r, w = os.pipe()
        left, right = socket.socketpair()
        for end in (left, right):
            stack.callback(end.close)
        stack.callback(os.close, w)
        closed = stack.enter_context(open(os.devnull, "rb"))  # noqa: SIM115
        closed.close()
        kinds: dict[str, tuple[object, bool]] = {
            "pipe": (stack.enter_context(os.fdopen(r, "rb")), True),
            "regular file": (stack.enter_context((tmp_path / "f").open("rb")), True),
            "socket": (stack.enter_context(left.makefile("rb")), True),
            "character device": (stack.enter_context(open(os.devnull, "rb")), False),  # noqa: SIM115
            "no file descriptor": (io.BytesIO(b""), False),
            "closed": (closed, False),
        }
        for kind, (stream, pollable) in kinds.items():
            fd = boundedio._pollable(stream, platform)  # type: ignore[arg-type]
            assert (fd is not None) is (pollable and platform != "win32"), kind


def test_the_defaults_are_documented_values() -> None:
    assert (boundedio.STDIN_TIMEOUT, boundedio.CONFIG_LIMIT) == (10.0, 8 << 20)
