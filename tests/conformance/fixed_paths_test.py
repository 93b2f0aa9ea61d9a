"""Cases that use fixed paths under /tmp hold a machine-wide lock around their runs."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from tests.conformance import oracle

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="flock")


def _held_elsewhere(path: Path) -> bool:
    """Whether another open file description holds ``path``'s lock (no waiting)."""
    import fcntl

    fd = os.open(path, os.O_RDWR | os.O_CREAT)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)
    return False


def test_builtin_cd_cases_on_fixed_tmp_paths_are_the_ones_locked(tmp_path: Path) -> None:
    lock = tmp_path / "lock"
    cases = {c.key: c for c in oracle.all_cases(["builtin-cd"])}
    fixed = [c for c in cases.values() if "/tmp/oil-spec-test/pwd" in c.code]
    assert len(fixed) >= 4  # the rmdir case and the ones that mkdir + cd there
    for case in fixed:
        with oracle.fixed_paths_lock(case, str(lock)):
            assert _held_elsewhere(lock)
        assert not _held_elsewhere(lock)
    plain = next(c for c in cases.values() if "/tmp/" not in c.code)
    with oracle.fixed_paths_lock(plain, str(lock)):
        assert not _held_elsewhere(lock)
