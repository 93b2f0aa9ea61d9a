"""Descriptors handed to a child at the script's numbers, and ``ulimit`` limits set in it,
with no Python run in a forked child (:mod:`hookrun.dispatch.fdpass`).

Both routes run real children: a copy placed at the target number in this process
(``pass_fds``), and the exec helper (a target taken here, or limits to set). The oracle
for what a child sees is bash where bash can say it (``ulimit``, SIGPIPE), else the
kernel (``/proc/self/fd``, ``/proc/self/status``).
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from hookrun.dispatch import fdpass, procs
from hookrun.dispatch.procs import SpawnError
from tests.dispatch.forkprobe import ForkProbe
from tests.dispatch.shell.shellrun import base_env

pytestmark = pytest.mark.skipif(
    sys.platform == "win32" or shutil.which("bash") is None,
    reason="descriptor numbers and resource limits: POSIX; bash is the oracle",
)


def _free_pair(start: int = 40) -> list[int]:
    """Two pipes' read ends, holding b"one" and b"two", at free numbers from ``start``."""
    held = []
    for text in (b"one", b"two"):
        r, w = os.pipe()
        os.write(w, text)
        os.close(w)
        held.append(fcntl.fcntl(r, fcntl.F_DUPFD_CLOEXEC, start))
        os.close(r)
    return held


def _run(
    argv: list[str], fds: dict[int, int], limits: list[tuple[int, int, int]] | None = None
) -> bytes:
    r, w = os.pipe()
    try:
        proc = procs._popen(argv, None, os.getcwd(), dict(base_env()), (-3, w, w), fds, limits)
    finally:
        os.close(w)
    out = b""
    while chunk := os.read(r, 65536):
        out += chunk
    os.close(r)
    proc.wait()
    return out


def test_descriptors_that_swap_numbers_reach_the_child_swapped() -> None:
    # Each target is the other's source: both taken here, so the helper moves them (via
    # numbers above both, as a bash child gets them).
    a, b = _free_pair()
    code = f"import os; print(os.read({a}, 9).decode(), os.read({b}, 9).decode())"
    try:
        out = _run([sys.executable, "-c", code], {a: b, b: a})
    finally:
        os.close(a)
        os.close(b)
    assert out == b"two one\n"


def test_a_free_target_number_is_placed_here_and_given_back_after_the_start(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    a, b = _free_pair()
    target = fcntl.fcntl(a, fcntl.F_DUPFD_CLOEXEC, 200)  # find a free number …
    os.close(target)  # … and leave it free
    placed = fdpass.place({target: a, b: b})
    # Exactly there (F_DUPFD gives the lowest free from it up); b is at b already.
    assert placed == ([b, target], [target])
    os.close(target)
    monkeypatch.setattr(fdpass, "Helper", None)  # no helper on this route
    code = f"import os; print(os.read({target}, 9).decode(), sorted(os.listdir('/dev/fd')))"
    try:
        out = _run([sys.executable, "-c", code], {target: a})
    finally:
        os.close(a)
        os.close(b)
    assert out.split(b" ", 1)[0] == b"one"
    # Nothing but 0-2 and the target reached the child (and the listing's own).
    listed = eval(out.split(b" ", 1)[1])  # noqa: S307 - our own child's repr of a list
    assert len(set(listed) - {"0", "1", "2", str(target)}) <= 1
    # The copy at the target was this process's only until the child started.
    with pytest.raises(OSError):
        os.fstat(target)


def test_a_taken_target_is_not_placed_and_nothing_is_left_open() -> None:
    a, b = _free_pair()
    before = sorted(os.listdir("/dev/fd"))
    try:
        assert fdpass.place({b + 50: a, b: a}) is None  # b is taken (by b)
        assert sorted(os.listdir("/dev/fd")) == before
    finally:
        os.close(a)
        os.close(b)


@pytest.mark.parametrize("limits", [None, [(7, 100, 200)]])  # 7: RLIMIT_NOFILE on Linux
def test_an_exec_error_through_the_helper_is_reported_as_popens(
    tmp_path: Path, limits: list[tuple[int, int, int]] | None
) -> None:
    a, b = _free_pair()
    plain = tmp_path / "plain"
    plain.write_text("not a program\n")
    try:
        for argv, code, says in (
            ([str(tmp_path / "missing")], 127, "command not found"),
            ([str(plain)], 126, "permission denied"),
            (["no-such-program-hookrun"], 127, "command not found"),
        ):
            with pytest.raises(SpawnError) as err:
                _run(argv, {b: a}, limits)  # b is taken here: the helper runs it
            assert (err.value.exit_code, says in err.value.message) == (code, True)
            assert err.value.message.startswith(argv[0] + ":")
    finally:
        os.close(a)
        os.close(b)


@pytest.fixture
def fork_probe() -> Iterator[ForkProbe]:
    probe = ForkProbe()
    yield probe
    probe.close()


def test_the_fork_probe_sees_a_preexec_child(fork_probe: ForkProbe) -> None:
    # The probe above is real: a child forked with a preexec_fn runs the handlers.
    subprocess.run(["/bin/true"], preexec_fn=lambda: None, check=True)  # noqa: PLW1509
    assert fork_probe.written() == b"x"
