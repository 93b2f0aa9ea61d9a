"""Exclusive locks on an open file, the one place that knows how each OS does them.

POSIX: ``flock`` on the whole file. Windows: ``msvcrt.locking`` of byte 0 — it locks
a range from the current position, so every holder seeks to 0 first and they all
contend for the same byte. Both are advisory: they serialise hookrun processes
(audit lines, policy state), which is all they are for.

``platform`` and ``msvcrt`` are parameters so the Windows branch runs in tests on
any OS.
"""

from __future__ import annotations

import importlib
import os
import sys
from types import ModuleType
from typing import Any

if sys.platform != "win32":  # pragma: win32 no cover
    import fcntl


def _msvcrt(given: ModuleType | None) -> Any:
    return given if given is not None else importlib.import_module("msvcrt")


def lock(fd: int, *, platform: str = sys.platform, msvcrt: ModuleType | None = None) -> None:
    """Block until ``fd`` is locked (Windows gives up after ~10 s with OSError)."""
    if platform == "win32":
        module = _msvcrt(msvcrt)
        os.lseek(fd, 0, os.SEEK_SET)
        module.locking(fd, module.LK_LOCK, 1)  # LK_LOCK retries for ~10 s, then raises
        return
    fcntl.flock(fd, fcntl.LOCK_EX)


def try_lock(fd: int, *, platform: str = sys.platform, msvcrt: ModuleType | None = None) -> bool:
    """One attempt that never waits; True when the lock is now held."""
    if platform == "win32":
        module = _msvcrt(msvcrt)
        os.lseek(fd, 0, os.SEEK_SET)
        try:
            module.locking(fd, module.LK_NBLCK, 1)
        except OSError:
            return False
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def unlock(fd: int, *, platform: str = sys.platform, msvcrt: ModuleType | None = None) -> None:
    if platform == "win32":
        module = _msvcrt(msvcrt)
        os.lseek(fd, 0, os.SEEK_SET)
        module.locking(fd, module.LK_UNLCK, 1)
        return
    fcntl.flock(fd, fcntl.LOCK_UN)
