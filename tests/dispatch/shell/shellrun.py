"""Helpers for the in-process shell tests: a shell with real streams and processes."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from hookrun.dispatch.cancel import Guard
from hookrun.dispatch.procs import ProcessTracker
from hookrun.dispatch.shell import Shell
from hookrun.dispatch.streams import BufferSource, CaptureSink


@dataclass(frozen=True)
class Ran:
    code: int
    out: str
    err: str
    route: str | None
    procs: int  # how many children the run started


def make_shell(
    *,
    cwd: str,
    env: Mapping[str, str],
    stdin: bytes = b"",
    timeout: float | None = 30.0,
    platform: str | None = None,
    limit: int = 1 << 26,
) -> tuple[Shell, CaptureSink, CaptureSink, ProcessTracker]:
    return make_shell_and_input(
        cwd=cwd, env=env, stdin=BufferSource(stdin), timeout=timeout, platform=platform, limit=limit
    )


def make_shell_and_input(
    *,
    cwd: str,
    env: Mapping[str, str],
    stdin: BufferSource,
    timeout: float | None = 30.0,
    platform: str | None = None,
    limit: int = 1 << 26,
) -> tuple[Shell, CaptureSink, CaptureSink, ProcessTracker]:
    """:func:`make_shell` reading ``stdin``, which the caller closes after the run
    (once a child took it, it holds the read end of a pipe, as in
    ``hookrun.dispatch.run``, which closes it too)."""
    out, err = CaptureSink(limit), CaptureSink(limit)
    procs = ProcessTracker()
    extra = {} if platform is None else {"platform": platform}
    shell = Shell(
        cwd=cwd,
        env=env,
        stdin=stdin,
        stdout=out,
        stderr=err,
        procs=procs,
        guard=Guard(timeout),
        **extra,
    )
    return shell, out, err, procs


def base_env(**extra: str) -> dict[str, str]:
    env = {"PATH": os.environ.get("PATH", os.defpath), "HOME": "/home/hooker", "LC_ALL": "C"}
    env.update(extra)
    return env


def bash_result(source: str, env: Mapping[str, str]) -> tuple[int, str]:
    """``bash -c source``'s status and stdout: the oracle of the bash-confirmed tests."""
    import shutil
    import subprocess

    bash = shutil.which("bash")
    assert bash is not None
    done = subprocess.run(
        [bash, "-c", source], env=dict(env), capture_output=True, timeout=30, check=False
    )
    return done.returncode, done.stdout.decode()


Runner = Callable[..., Ran]
