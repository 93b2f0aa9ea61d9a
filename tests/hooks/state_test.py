from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import types
from pathlib import Path
from typing import Any

import pytest

from hookrun.hooks import state
from tests.hooks.together import in_processes
from tests.timing import soon_after


def _unwritable_dir(tmp_path: Path) -> str:
    """A directory this process cannot create files in (root ignores modes; sysfs does not)."""
    if os.geteuid() == 0:
        return "/sys/hookrun-test-state"
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o555)
    return str(ro / "state")


def _bump_worker(barrier: Any, path: str, me: str) -> None:
    def bump(d: dict[str, Any]) -> None:
        d["n"] = d.get("n", 0) + 1
        d.setdefault("by", {})[me] = d.get("by", {}).get(me, 0) + 1

    barrier.wait()
    for _ in range(10):
        state.update(path, bump)


def _bump_in_place(barrier: Any, path: str, me: str) -> None:
    def bump(d: dict[str, Any]) -> None:
        d["n"] = d.get("n", 0) + 1
        by = d.setdefault("by", {})
        by[me] = by.get(me, 0) + 1
        # A long value one time in three and none the next: the file shrinks and grows.
        d["pad"] = "x" * 500 if d["n"] % 3 == 0 else ""

    barrier.wait()
    for _ in range(10):
        state.update(path, bump, durable=False)


def _append_worker(barrier: Any, path: str, me: str) -> None:
    barrier.wait()
    for j in range(50):
        state.append_line(path, {"w": me, "j": j, "pad": "x" * 3000})


def test_read_of_a_missing_file_is_empty_state(tmp_path: Path) -> None:
    assert state.read(str(tmp_path / "nope.json")) == {}


def test_update_persists_and_returns_what_fn_returns(tmp_path: Path) -> None:
    path = str(tmp_path / "sub" / "s.json")

    def bump(data: dict[str, Any]) -> int:
        data["n"] = data.get("n", 0) + 1
        return int(data["n"])

    assert [state.update(path, bump) for _ in range(3)] == [1, 2, 3]
    assert state.read(path) == {"n": 3}
    assert json.loads(Path(path).read_text()) == {"n": 3}


def test_update_that_changes_nothing_does_not_write(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    assert state.update(str(path), lambda d: d.get("x")) is None
    assert not path.exists()


def test_update_leaves_no_temp_files_behind(tmp_path: Path) -> None:
    path = str(tmp_path / "s.json")
    for i in range(5):
        state.update(path, lambda d, i=i: d.__setitem__("i", i))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.json", "s.json.lock"]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"{", "is corrupt (line 1 column 2"),
        (b'{"a": 1,}', "is corrupt"),
        (b"[1, 2]", "expected a JSON object, found list"),
        (b"null", "expected a JSON object, found NoneType"),
        (b"\xff\xfe{}", "cannot read state file"),
    ],
)
def test_a_corrupt_state_file_is_a_clear_error_not_a_crash(
    tmp_path: Path, content: bytes, message: str
) -> None:
    path = tmp_path / "s.json"
    path.write_bytes(content)
    for call in (lambda: state.read(str(path)), lambda: state.update(str(path), lambda d: 0)):
        with pytest.raises(state.StateError) as info:
            call()
        assert message in str(info.value)
        assert str(path) in str(info.value)
        assert "delete it" in str(info.value) or "permissions" in str(info.value)


def test_empty_state_file_counts_as_empty_state(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    path.write_text("  \n")
    assert state.read(str(path)) == {}


def test_an_unwritable_state_dir_is_a_clear_error(tmp_path: Path) -> None:
    path = os.path.join(_unwritable_dir(tmp_path), "s.json")
    with pytest.raises(state.StateError, match="writable"):
        state.update(path, lambda d: d.__setitem__("x", 1))


@pytest.mark.parametrize(
    ("blocker", "under"),
    [(".hookrun", ("state", "s.json")), ("state", ("s.json",))],
    ids=["a-parent-is-a-file", "the-state-dir-is-a-file"],
)
def test_a_file_where_the_state_dir_should_be_is_named_as_not_a_directory(
    tmp_path: Path, blocker: str, under: tuple[str, ...]
) -> None:
    (tmp_path / blocker).write_text("not a dir")
    with pytest.raises(state.StateError) as info:
        state.update(str(tmp_path.joinpath(blocker, *under)), lambda d: 0)
    message = str(info.value)
    assert message.startswith("cannot open lock file "), message
    assert f"{tmp_path / blocker} is not a directory" in message, message
    assert "File exists" not in message, message


def test_writing_state_under_a_file_names_that_file(tmp_path: Path) -> None:
    (tmp_path / "blocker").write_text("a file")
    directory = tmp_path / "blocker" / "state"
    with pytest.raises(state.StateError) as info:
        state._write_atomic(str(directory / "s.json"), {"x": 1})
    assert str(info.value).startswith(
        f"cannot write state in {directory}: {tmp_path / 'blocker'} is not a directory"
    )


@pytest.mark.parametrize(
    ("files", "directory", "expected"),
    [
        ((), "a/b", None),  # nothing there yet: makedirs can create it
        (("a",), "a/b/c", "a"),
        (("a/b",), "a/b", "a/b"),
        (("a/b",), "a/b/c/d", "a/b"),
        (("a/b",), "a", None),
    ],
)
def test_not_a_directory_finds_the_file_in_the_way(
    tmp_path: Path, files: tuple[str, ...], directory: str, expected: str | None
) -> None:
    for name in files:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("x")
    found = state.not_a_directory(str(tmp_path / directory))
    assert found == (None if expected is None else str(tmp_path / expected))


def test_a_held_lock_times_out_with_advice_instead_of_hanging(tmp_path: Path) -> None:
    path = str(tmp_path / "s.json")
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time; from hookrun.hooks import state\n"
            "with state.locked(sys.argv[1]):\n"
            "    print('held', flush=True); time.sleep(30)\n",
            path,
        ],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": os.getcwd()},
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        start = time.monotonic()
        with pytest.raises(state.StateError, match="timed out after 0.3s .*retry"):
            state.update(path, lambda d: 0, timeout=0.3)
        soon_after(time.monotonic() - start, 0.3, idle_bound=3)  # the holder keeps it 30 s
    finally:
        holder.kill()
        holder.wait()


def test_twenty_processes_updating_at_once_lose_no_update(tmp_path: Path) -> None:
    path = str(tmp_path / "counter.json")
    in_processes(_bump_worker, [(path, str(i)) for i in range(20)])
    data = json.loads(Path(path).read_text())
    assert data["n"] == 200
    assert data["by"] == {str(i): 10 for i in range(20)}


def test_twenty_processes_appending_lines_never_interleave(tmp_path: Path) -> None:
    path = str(tmp_path / "ledger.jsonl")
    in_processes(_append_worker, [(path, str(i)) for i in range(20)])
    lines = Path(path).read_text().splitlines()
    records = [json.loads(line) for line in lines]
    assert len(records) == 1000
    assert {(r["w"], r["j"]) for r in records} == {
        (str(w), j) for w in range(20) for j in range(50)
    }


def test_append_line_into_an_unwritable_dir_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(state.StateError, match="writable"):
        state.append_line(os.path.join(_unwritable_dir(tmp_path), "l.jsonl"), {"a": 1})


class _FakeMsvcrt(types.ModuleType):
    """msvcrt as Windows has it: byte-range locks, LK_NBLCK raises OSError when taken."""

    LK_UNLCK, LK_NBLCK = 0, 2

    def __init__(self, busy: int) -> None:
        super().__init__("msvcrt")
        self.busy = busy
        self.calls: list[int] = []

    def locking(self, fd: int, mode: int, nbytes: int) -> None:
        assert nbytes == 1 and os.lseek(fd, 0, os.SEEK_CUR) == 0
        self.calls.append(mode)
        if mode == self.LK_NBLCK and self.busy:
            self.busy -= 1
            raise OSError(36, "Resource deadlock avoided")


def test_win32_locks_one_byte_with_msvcrt_and_polls_while_busy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = _FakeMsvcrt(busy=2)
    monkeypatch.setitem(sys.modules, "msvcrt", fake)
    path = str(tmp_path / "s.json")
    assert state.update(path, lambda d: d.__setitem__("x", 1), platform="win32") is None
    assert fake.calls == [fake.LK_NBLCK] * 3 + [fake.LK_UNLCK]
    assert state.read(path) == {"x": 1}


def test_win32_lock_that_stays_busy_times_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "msvcrt", _FakeMsvcrt(busy=10**9))
    with pytest.raises(state.StateError, match="timed out"):
        state.update(str(tmp_path / "s.json"), lambda d: 0, timeout=0.1, platform="win32")


def test_win32_retries_a_replace_blocked_by_a_reader(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Windows cannot rename over a file another process holds open; POSIX can.
    monkeypatch.setitem(sys.modules, "msvcrt", _FakeMsvcrt(busy=0))
    real_replace, refusals = os.replace, [2]

    def sharing_violation(src: str, dst: str) -> None:
        if refusals[0]:
            refusals[0] -= 1
            raise PermissionError(13, "The process cannot access the file")
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", sharing_violation)
    path = str(tmp_path / "s.json")
    state.update(path, lambda d: d.__setitem__("x", 1), platform="win32")
    assert state.read(path) == {"x": 1} and refusals == [0]
    refusals[0] = 1
    with pytest.raises(state.StateError, match="cannot write state file"):
        state.update(path, lambda d: d.__setitem__("x", 2), platform="linux")
    assert state.read(path) == {"x": 1}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.json", "s.json.lock"]


def _fsyncs(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Record the descriptors ``os.fsync`` is called with (and still sync them)."""
    calls: list[int] = []
    real = os.fsync

    def recording(fd: int) -> None:
        calls.append(fd)
        real(fd)

    monkeypatch.setattr(os, "fsync", recording)
    return calls


def test_a_durable_update_is_flushed_and_renamed_a_non_durable_one_written_in_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = _fsyncs(monkeypatch)
    path = tmp_path / "s.json"
    state.update(str(path), lambda d: d.__setitem__("n", 1))
    assert len(calls) == 1
    inode = path.stat().st_ino
    state.update(str(path), lambda d: d.__setitem__("n", 2))
    assert len(calls) == 2 and path.stat().st_ino != inode  # a new file renamed over
    inode = path.stat().st_ino
    state.update(str(path), lambda d: d.__setitem__("n", 3), durable=False)
    assert len(calls) == 2 and path.stat().st_ino == inode  # the same file, rewritten
    assert state.read(str(path)) == {"n": 3}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.json", "s.json.lock"]


def _steps() -> list[Any]:
    """Updates that grow, shrink, empty and refill the object (keys of every length)."""
    steps: list[Any] = []
    for i in range(40):
        key = "k" * (1 + i * 7 % 23)
        steps.append(lambda d, key=key, i=i: d.__setitem__(key, "é" * (i % 9) + str(i)))
        if i % 5 == 4:
            steps.append(lambda d: d.pop(sorted(d)[0]) if d else None)
        if i % 13 == 12:
            steps.append(lambda d: d.clear())
    return steps


def test_in_place_updates_read_back_as_the_durable_ones_do_through_growth_and_shrinking(
    tmp_path: Path,
) -> None:
    # The reference is the durable path (temp file, fsync, rename); the in-place one
    # pads a shorter object with spaces instead of truncating: after every step both
    # files hold the same object, and the in-place file only what the reader accepts.
    durable, in_place = str(tmp_path / "a.json"), str(tmp_path / "b.json")
    for step in _steps():
        assert state.update(durable, step) == state.update(in_place, step, durable=False)
        assert state.read(in_place) == state.read(durable)
        text = Path(in_place).read_text(encoding="utf-8")
        assert json.loads(text) == state.read(durable)
        assert text.rstrip(" ") == Path(durable).read_text(encoding="utf-8")


def test_twenty_processes_updating_in_place_at_once_lose_no_update(tmp_path: Path) -> None:
    path = str(tmp_path / "counter.json")
    in_processes(_bump_in_place, [(path, str(i)) for i in range(20)])
    data = state.read(path)
    assert data["n"] == 200
    assert data["by"] == {str(i): 10 for i in range(20)}


@pytest.mark.parametrize("durable", [True, False])
def test_a_directory_where_the_state_file_should_be_is_a_clear_error(
    tmp_path: Path, durable: bool
) -> None:
    (tmp_path / "s.json").mkdir()
    with pytest.raises(state.StateError, match="s.json"):
        state.update(str(tmp_path / "s.json"), lambda d: d.__setitem__("x", 1), durable=durable)


def test_an_in_place_update_never_writes_through_a_symlink(tmp_path: Path) -> None:
    # A checkout could carry .hookrun/state/ask_user.json -> a file of the user's; the
    # renaming path replaces the link, the in-place one refuses it: nothing is created
    # or changed at the link's target.
    target = tmp_path / "elsewhere" / "authorized_keys"
    target.parent.mkdir()
    link = tmp_path / "state" / "s.json"
    link.parent.mkdir()
    link.symlink_to(target)
    with pytest.raises(state.StateError, match="s.json"):
        state.update(str(link), lambda d: d.__setitem__("x", 1), durable=False)
    assert not target.exists()
    target.write_text("{}")
    with pytest.raises(state.StateError, match="s.json"):
        state.update(str(link), lambda d: d.__setitem__("x", 1), durable=False)
    assert target.read_text() == "{}"


def test_an_in_place_write_that_fails_or_falls_short_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A full disk (a short write) and an I/O error: each names the file and what to do.
    path = str(tmp_path / "s.json")
    state.update(path, lambda d: d.__setitem__("n", 1), durable=False)
    real_write = os.write
    monkeypatch.setattr(os, "write", lambda fd, data: real_write(fd, bytes(data)[:3]))
    with pytest.raises(state.StateError, match=r"short write to state file .*s\.json \(3/"):
        state.update(path, lambda d: d.__setitem__("n", 2), durable=False)
    monkeypatch.setattr(os, "write", real_write)

    def failing(fd: int, pos: int, how: int) -> int:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "lseek", failing)
    with pytest.raises(state.StateError, match=r"s\.json: Input/output error — make it"):
        state.update(path, lambda d: d.__setitem__("n", 3), durable=False)
