"""Persistent policy state: small JSON files that many hook processes share.

hookrun is started once per agent tool call, and a host may run several agents
(and so several hookrun processes) at once. Stateful policies (reviewer-lockout,
ask-user-limit) therefore read-modify-write their files under an exclusive lock:

* the lock is a separate ``<file>.lock`` (the state file itself is replaced on
  every write, so locking it would lock an inode nobody else opens next time);
* the new content goes to a temp file in the same directory, is fsynced, then
  ``os.replace``-d over the old one, so a reader (or a crash) never sees half a file
  (state whose loss is harmless may instead be rewritten in place: ``update``'s
  ``durable=False``);
* JSON Lines ledgers are appended with ``O_APPEND`` and one ``write`` per line, under
  the same kind of lock, so concurrent lines never interleave.

Every failure (corrupt JSON, unreadable or read-only directory, lock timeout)
becomes a :class:`StateError` whose message says which file, what went wrong and
what to do next. The runner records it as that hook's error and applies the
hook's ``on_error`` (the policy's default fail mode unless the config sets one).
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from hookrun import filelock

T = TypeVar("T")

# Long enough for 20 processes queueing behind each other on a slow disk, short
# enough that a stuck lock holder shows up as an error instead of a hung agent.
LOCK_TIMEOUT = 10.0
_POLL = 0.005  # seconds between non-blocking lock attempts


class StateError(RuntimeError):
    """A policy could not read or write a file it depends on (message is user-facing)."""


def state_path(state_dir: str, name: str) -> str:
    return os.path.join(state_dir, name)


def not_a_directory(directory: str) -> str | None:
    """The file standing where ``directory`` (or one of its parents) should be, if any.

    ``os.makedirs`` reports such a file as "File exists" or "Not a directory" without
    saying which path is the culprit; this finds it so the message can name it.
    """
    current = os.path.abspath(directory)
    while not os.path.exists(current):
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent
    return None if os.path.isdir(current) else current


def _why(directory: str, error: OSError, fix: str) -> str:
    """Why creating something in ``directory`` failed, and what to do next."""
    blocker = not_a_directory(directory)
    if blocker is not None:
        return f"{blocker} is not a directory — move that file away or use another path"
    return f"{error.strerror or error} — {fix}"


@contextlib.contextmanager
def locked(
    path: str, *, timeout: float = LOCK_TIMEOUT, platform: str = sys.platform
) -> Iterator[None]:
    """Hold the exclusive lock that guards ``path`` (the file ``path + ".lock"``)."""
    lock_path = path + ".lock"
    try:
        os.makedirs(os.path.dirname(lock_path) or ".", exist_ok=True)
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as e:
        fix = "make the directory writable by the user running hookrun"
        why = _why(os.path.dirname(lock_path) or ".", e, fix)
        raise StateError(f"cannot open lock file {lock_path}: {why}") from None
    try:
        deadline = time.monotonic() + timeout
        # Polling instead of a blocking flock: a blocking call cannot time out, and a
        # hook that hangs forever on a stale lock is worse than one that says so.
        while not filelock.try_lock(fd, platform=platform):
            if time.monotonic() >= deadline:
                raise StateError(
                    f"timed out after {timeout:g}s waiting for the lock on {path} — "
                    "another hookrun process holds it; retry, or delete "
                    f"{lock_path} if no hookrun is running"
                )
            time.sleep(_POLL)
        try:
            yield
        finally:
            filelock.unlock(fd, platform=platform)
    finally:
        os.close(fd)


# --- JSON state --------------------------------------------------------------------------


def _load(path: str) -> dict[str, Any]:
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as e:
        reason = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
        raise StateError(
            f"cannot read state file {path}: {reason} — check its permissions, or delete it "
            "to start from empty state"
        ) from None
    if not text.strip():
        return {}
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise StateError(
            f"state file {path} is corrupt (line {e.lineno} column {e.colno}: {e.msg}) — "
            "fix it by hand or delete it to start from empty state"
        ) from None
    except (RecursionError, ValueError):  # nested past the decoder's depth; huge numbers
        raise StateError(
            f"state file {path} is corrupt (nested too deeply or a number too long to read) — "
            "fix it by hand or delete it to start from empty state"
        ) from None
    if not isinstance(data, dict):
        raise StateError(
            f"state file {path} is corrupt (expected a JSON object, found "
            f"{type(data).__name__}) — fix it by hand or delete it to start from empty state"
        )
    return data


def read(path: str) -> dict[str, Any]:
    """The JSON object in ``path``; ``{}`` when the file does not exist.

    Lock-free: writers replace the file atomically, so a reader sees either the old
    or the new content, never a mix.
    """
    return _load(path)


# Windows refuses to replace a file another process has open (a lock-free reader), so
# the rename is retried for a moment there; on POSIX a rename never waits for readers.
_REPLACE_TRIES = 50
_REPLACE_PAUSE = 0.02


def _replace(tmp: str, path: str, platform: str) -> None:
    for attempt in range(_REPLACE_TRIES):
        try:
            os.replace(tmp, path)
            return
        except PermissionError:
            if platform != "win32" or attempt == _REPLACE_TRIES - 1:
                raise
            time.sleep(_REPLACE_PAUSE)


def _encode(data: dict[str, Any]) -> str:
    # No indent: json's C encoder only serves the compact form, and the pretty one
    # costs ~1 ms per write in pure Python — on a hook that runs per tool call.
    return json.dumps(data, sort_keys=True, ensure_ascii=False) + "\n"


def _write_atomic(path: str, data: dict[str, Any], platform: str = sys.platform) -> None:
    directory = os.path.dirname(path) or "."
    text = _encode(data)
    try:
        os.makedirs(directory, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=directory, prefix="." + os.path.basename(path) + ".")
    except OSError as e:
        fix = "make it writable by the user running hookrun (or remove this policy from the config)"
        raise StateError(f"cannot write state in {directory}: {_why(directory, e, fix)}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        _replace(tmp, path, platform)
    except OSError as e:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise StateError(
            f"cannot write state file {path}: {e.strerror or e} — make it writable by the "
            "user running hookrun"
        ) from None


_NOFOLLOW: int = getattr(os, "O_NOFOLLOW", 0)  # POSIX
_BINARY: int = getattr(os, "O_BINARY", 0)  # Windows: no newline translation


def _write_in_place(path: str, data: dict[str, Any]) -> None:
    """Overwrite ``path`` from its first byte with ``data``, in one ``write``, under the
    caller's lock; never shorter than before (spaces pad the JSON: a reader ignores
    them), so no truncation is needed and there is no moment the file holds the start of
    one object and the end of another."""
    text = _encode(data).encode("utf-8")
    try:
        # Never through a symlink (a checkout may carry one in .hookrun/state): the
        # renaming path replaces the link itself; this one refuses it. (The directory
        # exists: the caller's lock file is in it.)
        fd = os.open(path, os.O_RDWR | os.O_CREAT | _NOFOLLOW | _BINARY, 0o600)
        try:
            size = os.fstat(fd).st_size
            if len(text) < size:
                text += b" " * (size - len(text))
            os.lseek(fd, 0, os.SEEK_SET)
            written = os.write(fd, text)
        finally:
            os.close(fd)
    except OSError as e:
        why = (
            "it is a symbolic link — remove it"
            if os.path.islink(path)
            else f"{e.strerror or e} — make it writable by the user running hookrun"
        )
        raise StateError(f"cannot write state file {path}: {why}") from None
    if written != len(text):  # a full disk; say so instead of a silently cut file
        raise StateError(
            f"short write to state file {path} ({written}/{len(text)} bytes) — free some disk "
            "space, then delete the file to start from empty state"
        )


def update(
    path: str,
    fn: Callable[[dict[str, Any]], T],
    *,
    timeout: float = LOCK_TIMEOUT,
    platform: str = sys.platform,
    durable: bool = True,
) -> T:
    """Lock, read, let ``fn`` mutate the object, write it back atomically, unlock.

    Returns what ``fn`` returns. The file is rewritten only when ``fn`` changed the
    object, so a read-mostly policy does not churn the disk.

    ``durable=False`` rewrites the file in place (:func:`_write_in_place`) instead of
    a fsynced temp file renamed over it. Replacing a file costs a disk flush twice: the
    fsync, and on ext4 the rename itself (``auto_da_alloc`` writes the new file's data
    out when it replaces another): 0.5 ms at idle, 3-18 ms when other processes use the
    disk (measured session 20), against ~10 µs for one ``write`` over the old bytes.
    What in-place gives up: a power cut may take the update back, and a write over
    one page (4 KiB) cut by SIGKILL could leave the file torn, which reads as corrupt
    (a StateError naming the file; the hook's ``on_error`` applies). Writers are
    serialised by the lock as before; a lock-free :func:`read` during the write may
    see it torn too. So only state whose loss is harmless, read under the lock, opts
    in: ask-user-limit's counts.
    """
    with locked(path, timeout=timeout, platform=platform):
        data = _load(path)
        before = json.dumps(data, sort_keys=True)
        result = fn(data)
        if json.dumps(data, sort_keys=True) != before:
            if durable:
                _write_atomic(path, data, platform)
            else:
                _write_in_place(path, data)
        return result


# --- JSON Lines ledgers ------------------------------------------------------------------


def append_line(path: str, record: dict[str, Any], *, platform: str = sys.platform) -> None:
    """Append ``record`` as one JSON line: O_APPEND, under the lock, one ``write``."""
    line = (json.dumps(record, ensure_ascii=False, default=str) + "\n").encode("utf-8")
    with locked(path, platform=platform):
        try:
            fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        except OSError as e:
            raise StateError(
                f"cannot open ledger {path}: {e.strerror or e} — make its directory writable "
                "by the user running hookrun, or set another path"
            ) from None
        try:
            written = os.write(fd, line)
            if written != len(line):  # a full disk; say so instead of leaving half a line
                raise StateError(f"short write to ledger {path} ({written}/{len(line)} bytes)")
        except OSError as e:
            raise StateError(f"cannot append to ledger {path}: {e.strerror or e}") from None
        finally:
            os.close(fd)
