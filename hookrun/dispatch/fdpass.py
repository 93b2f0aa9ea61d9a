"""Descriptors above 2 handed to a child at the numbers the script gave them (POSIX).

``cmd 3<<EOF``, ``exec 4>log; cmd``, ``cmd 5<&0``: bash's child inherits those
descriptors at those numbers. hookrun's in-process shell keeps them as streams whose
real descriptor has some other number, and ``subprocess`` can only keep a descriptor at
the number it already has (``pass_fds``). So the move happens in the child, between
``fork`` and ``exec``: each source is first copied above every number involved (a
target may be another one's source: ``3<&5 5<&3``), then onto its target.

This needs ``preexec_fn``, which makes ``subprocess`` fork instead of ``vfork`` and
runs a little Python in the child. It is used only for a command that gets such a
descriptor (rare in hooks); the function calls only ``os``/``fcntl`` primitives that
take no lock. ``close_fds`` is off for that child, as bash does (it hands a child every
descriptor it holds): Python opens its own descriptors non-inheritable (PEP 446), so
the child gets its three streams, the targets, and only what the embedding program
itself marked inheritable. On Windows a child gets its three streams only.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Callable, Mapping
from typing import Any


def popen_args(fds: Mapping[int, int]) -> dict[str, Any]:
    """The extra ``Popen`` arguments that give the child ``target: source`` descriptors
    (no source among 0–2: see :func:`parent_sources`)."""
    moves = sorted(fds.items())
    top = max([t for t, _ in moves] + [s for _, s in moves]) + 1
    return {"preexec_fn": _mover(moves, top), "close_fds": False}


def parent_sources(fds: Mapping[int, int]) -> tuple[dict[int, int], list[int]]:
    """``fds`` with each source among 0–2 replaced by a copy, and the copies (for the
    parent to close once the child started): in the child, 0–2 are already its own
    streams when the move runs."""
    copies: list[int] = []
    out: dict[int, int] = {}
    for target, source in fds.items():
        if source < 3:
            source = os.dup(source)
            copies.append(source)
        out[target] = source
    return out, copies


def _mover(moves: list[tuple[int, int]], top: int) -> Callable[[], None]:
    def move() -> None:  # runs in the child, after fork, before exec
        high = [(t, fcntl.fcntl(s, fcntl.F_DUPFD, top)) for t, s in moves]
        for target, copy in high:
            os.dup2(copy, target)  # dup2's descriptor is inheritable
            os.close(copy)

    return move
