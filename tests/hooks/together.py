"""Running a test's workers in real processes at the same moment (state under contention)."""

from __future__ import annotations

import multiprocessing as mp
from collections.abc import Callable
from typing import Any


def in_processes(target: Callable[..., None], args: list[tuple[Any, ...]]) -> None:
    """Run ``target`` in one real process per ``args``, released together by a barrier
    (its first argument).

    fork where the OS has it (no re-import per worker, so the test stays fast);
    spawn elsewhere. Each worker must exit 0.
    """
    ctx = mp.get_context("fork" if "fork" in mp.get_all_start_methods() else "spawn")
    barrier = ctx.Barrier(len(args))
    procs = [ctx.Process(target=target, args=(barrier, *a)) for a in args]
    for proc in procs:
        proc.start()
    for proc in procs:
        proc.join(100)
    assert [proc.exitcode for proc in procs] == [0] * len(procs)
