"""The ``route`` fixture: a test of children runs once per way of starting them.

``popen``: posix_spawn switched off, every child through subprocess.Popen (what Windows
always does). ``posix_spawn``: the working directory is the test's own, so that the
children the tests start with that ``cwd`` and a program path take
:func:`hookrun.dispatch.procs.spawn_route`'s ``posix_spawn`` route; the fixture counts
the children each route started, and a test whose children in that directory all went
through Popen fails on that variant (it would test the old route twice).

The direct route has two primitives: ``os.posix_spawn`` (macOS, other POSIX) and, on
Linux, Popen's own ``_posixsubprocess.fork_exec`` (:func:`procs._vfork_exec`).
``posix_spawn`` pins the first and, as on macOS, a file hook's pump without a pidfd
(the watchdog enforces the deadline); ``posix_spawn-vfork`` pins the second, with the
pidfd (Linux only). ``popen`` keeps the pidfd where there is one.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from hookrun.dispatch import procs


class Route:
    def __init__(self, name: str, cwd: str, primitive: str = "") -> None:
        self.name = name
        self.primitive = primitive  # the direct route's: "posix_spawn" or "vfork"
        self.cwd = cwd  # the process's working directory on the posix_spawn variant
        self.direct = 0  # children posix_spawn started (or failed to start)
        self.popen = 0  # children Popen started (or failed to start)
        self.popen_cwds: list[str] = []

    def argv(self, argv: Sequence[str]) -> list[str]:
        """``argv`` with its program found on PATH, as a hook given by path is."""
        found = shutil.which(argv[0]) if argv and "/" not in argv[0] else None
        return [found, *argv[1:]] if found else list(argv)


@pytest.fixture(params=["popen", "posix_spawn", "posix_spawn-vfork"])
def route(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> Iterator[Route]:
    name, _, primitive = request.param.partition("-")
    if name == "posix_spawn":
        if not hasattr(os, "posix_spawn"):  # pragma: no cover - Windows
            pytest.skip("no posix_spawn here: every child goes through Popen")
        if not procs.spawn_reports_errors():  # pragma: no cover - glibc before 2.24
            pytest.skip("this C library's posix_spawn hides exec errors: Popen only")
        if primitive == "vfork":
            if not procs._vfork_usable():  # pragma: no cover - not Linux, other CPython
                pytest.skip("fork_exec is not the direct route's primitive here")
            monkeypatch.setattr(procs, "_VFORK", True)
        else:
            primitive = "posix_spawn"
            monkeypatch.setattr(procs, "_VFORK", False)
            monkeypatch.setattr(procs, "_PIDFD_OPEN", None)  # as on macOS: the watchdog
        monkeypatch.chdir(tmp_path)
    else:
        monkeypatch.setattr(procs, "_POSIX_SPAWN", False)
    chosen = Route(name, os.getcwd(), primitive)
    direct, popen = procs._posix_spawn, procs._popen

    def counted_direct(*args: Any) -> Any:
        chosen.direct += 1
        return direct(*args)

    def counted_popen(*args: Any) -> Any:
        chosen.popen += 1
        chosen.popen_cwds.append(args[2])  # (argv, executable, cwd, …)
        return popen(*args)

    monkeypatch.setattr(procs, "_posix_spawn", counted_direct)
    monkeypatch.setattr(procs, "_popen", counted_popen)
    yield chosen
    if chosen.name == "posix_spawn" and chosen.cwd in chosen.popen_cwds:
        assert chosen.direct, "every child went through Popen: this variant tested nothing new"
    if chosen.name == "popen":
        assert chosen.direct == 0
