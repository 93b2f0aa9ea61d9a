"""The optional audit trail: one JSON line per event run, appended by many processes.

Several agents (or several ``hookrun run`` processes of one agent) may append to the
same file at once. Each line is written with ONE ``write`` on a descriptor opened with
``O_APPEND`` (the kernel puts it at the end atomically on POSIX), under an exclusive
lock (which also covers Windows and network file systems, where ``O_APPEND`` alone
does not promise that) — so no line is torn, interleaved or lost.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Mapping
from datetime import datetime, timezone
from types import ModuleType
from typing import Any

from hookrun import filelock
from hookrun.runner.result import RunResult


def record(
    result: RunResult,
    *,
    session_id: str,
    tool_name: str | None,
    when: datetime,
    payload: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The audit entry for one run. Pure. ``payload`` (already scrubbed) is kept when
    the config asks for it (``audit_payload``), for ``hookrun replay``."""
    stamp = when.astimezone(timezone.utc).isoformat(timespec="milliseconds")
    return {
        "time": stamp.replace("+00:00", "Z"),
        "event": result.event,
        "session": session_id,
        "tool": tool_name,
        "decision": result.decision,
        "halt": result.halt,
        "reason": result.reason,
        "cancelled": result.cancelled,
        "hooks": [
            {
                "name": hook.name,
                "exit": hook.exit_code,
                "duration_ms": hook.duration_ms,
                "error": hook.error,
            }
            for hook in result.hooks
        ],
        **({} if payload is None else {"payload": payload}),
    }


def encode_line(entry: Mapping[str, Any]) -> bytes:
    """One line, newline-terminated; never contains another newline (JSON escapes them)."""
    return (json.dumps(entry, ensure_ascii=True, separators=(",", ":")) + "\n").encode("ascii")


def append_line(
    path: str, line: bytes, *, platform: str = sys.platform, msvcrt: ModuleType | None = None
) -> None:
    """Append ``line`` to ``path`` atomically with respect to other writers.

    Creates the file (and its directory) if needed. Raises OSError. ``platform`` and
    ``msvcrt`` let the Windows branch be exercised on any OS.
    """
    directory = os.path.dirname(path)
    if directory:
        os.makedirs(directory, exist_ok=True)
    flags = os.O_APPEND | os.O_CREAT | getattr(os, "O_BINARY", 0)
    try:  # read access too: to see whether the last line was left unfinished
        fd, readable = os.open(path, flags | os.O_RDWR, 0o644), True
    except PermissionError:
        fd, readable = os.open(path, flags | os.O_WRONLY, 0o644), False
    try:
        filelock.lock(fd, platform=platform, msvcrt=msvcrt)
        try:
            if readable and not _ends_a_line(fd):
                # A hook appended part of a line: ours starts on a fresh one, so that
                # every record of hookrun's stays parsable.
                line = b"\n" + line
            written = os.write(fd, line)
            if written != len(line):  # a full disk, not a race: say so
                raise OSError(f"short write ({written} of {len(line)} bytes)")
        finally:
            filelock.unlock(fd, platform=platform, msvcrt=msvcrt)
    finally:
        os.close(fd)


def _ends_a_line(fd: int) -> bool:
    """Whether the file is empty or ends with a newline (the caller holds the lock)."""
    size = os.fstat(fd).st_size
    if size == 0:
        return True
    os.lseek(fd, size - 1, os.SEEK_SET)
    return os.read(fd, 1) == b"\n"


def scrubbed(payload: Mapping[str, Any]) -> Any:
    """``payload`` with every secret and personal value the secret rules know redacted
    (``[REDACTED:<kind>]``, as pii-scrubber does): an audit trail must not become a
    second copy of every credential the agent saw."""
    from collections import Counter

    from hookrun.hooks.pii import scrub  # only configs that keep payloads pay for it
    from hookrun.hooks.pii_patterns import scanner

    return scrub(dict(payload), scanner(), Counter())


def write(
    path: str,
    result: RunResult,
    *,
    session_id: str,
    tool_name: str | None,
    payload: Mapping[str, Any] | None = None,
) -> str | None:
    """Append ``result``'s line to ``path``; the error message when that failed, else None.

    A failure never fails the run (the answer to the host matters more than its trail),
    but it is reported: the CLI shows it and embedders find it on ``audit_error``.
    ``payload``: kept in the line, scrubbed (``audit_payload`` in the config).
    """
    entry = record(
        result,
        session_id=session_id,
        tool_name=tool_name,
        when=datetime.now(timezone.utc),
        payload=None if payload is None else scrubbed(payload),
    )
    if payload is not None:
        # What replay compares a new decision with, beyond the decision itself.
        entry["context"] = scrubbed({"c": list(result.context)})["c"]
        entry["updated_input"] = (
            None if result.updated_input is None else scrubbed(result.updated_input)
        )
    try:
        append_line(path, encode_line(entry))
    except OSError as exc:
        from hookrun.hooks.state import not_a_directory  # only on this failure path

        # makedirs says "File exists" for a file where a directory should be: name it.
        blocker = not_a_directory(os.path.dirname(os.path.abspath(path)))
        detail = f"{blocker} is not a directory" if blocker else exc.strerror or str(exc)
        return f"audit log {path}: could not append: {detail} — check audit_log in the config"
    return None
