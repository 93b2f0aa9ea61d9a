"""Helpers for the in-process shell tests: a shell with real streams and processes."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

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


class BashRan(NamedTuple):
    code: int
    out: str
    err: str


def bash_run(
    source: str,
    env: Mapping[str, str],
    *,
    cwd: str | os.PathLike[str] | None = None,
    stdin: bytes | int | None = None,
    args: Sequence[str] = (),
) -> BashRan:
    """``bash -c source [args…]`` in ``cwd``, the oracle of the bash-confirmed tests:
    its status, stdout and stderr. ``stdin``: bytes it reads, or what ``subprocess``
    takes (``subprocess.DEVNULL``; None: this process's own)."""
    import shutil
    import subprocess

    bash = shutil.which("bash")
    assert bash is not None
    done = subprocess.run(
        [bash, "-c", source, *args],
        cwd=cwd,
        env=dict(env),
        input=stdin if isinstance(stdin, bytes) else None,
        stdin=None if isinstance(stdin, bytes) else stdin,
        capture_output=True,
        timeout=30,
        check=False,
    )
    return BashRan(done.returncode, done.stdout.decode(), done.stderr.decode())


def as_hookrun(err: str) -> str:
    """bash's stderr as hookrun words it: the ``NAME: line N:`` bash puts first (NAME
    ``bash``, or ``environment`` inside a function) read as ``hookrun:``."""
    import re

    return re.sub(r"(?m)^[^:\n]*: line \d+: ", "hookrun: ", err)


def agrees_with_bash(run: Runner, tmp_path: str | os.PathLike[str], source: str) -> Ran:
    """Run ``source`` in-process and in bash, each in a fresh directory under
    ``tmp_path`` with the shell tests' environment: status, stdout and stderr equal
    (bash's prefix read as hookrun's, :func:`as_hookrun`)."""
    mine, theirs = os.path.join(tmp_path, "in-process"), os.path.join(tmp_path, "bash")
    os.mkdir(mine)
    os.mkdir(theirs)
    env = base_env()
    ran = run(source, env=env, cwd=mine)
    want = bash_run(source, env, cwd=theirs)
    assert (ran.code, ran.out, ran.err) == (want.code, want.out, as_hookrun(want.err))
    return ran


def agrees_in_fresh_dirs(
    run: Runner,
    tmp_path: str | os.PathLike[str],
    source: str,
    *,
    stdin: bytes = b"",
    args: Sequence[str] = (),
) -> Ran:
    """Run ``source`` in-process and by bash (``bash -c source args…``), each in a fresh
    directory under ``tmp_path``, both with ``HOME=tmp_path`` and ``stdin``: status,
    stdout (each one's own directory read as ``CWD``) and whether anything went to
    stderr equal. For texts whose error wording may differ from bash's; where it must
    not, :func:`agrees_with_bash`."""
    env = base_env(HOME=str(tmp_path))
    mine, theirs = os.path.join(tmp_path, "in-process"), os.path.join(tmp_path, "bash")
    os.mkdir(mine)
    os.mkdir(theirs)
    ran = run(source, env=env, cwd=mine, stdin=stdin)
    got = (ran.code, ran.out.replace(mine, "CWD"), bool(ran.err))
    want = bash_run(source, env, cwd=theirs, stdin=stdin, args=args)
    assert got == (want.code, want.out.replace(theirs, "CWD"), bool(want.err)), ran.err
    return ran


def bash_result(source: str, env: Mapping[str, str], **how: Any) -> tuple[int, str]:
    """:func:`bash_run`'s status and stdout."""
    ran = bash_run(source, env, **how)
    return ran.code, ran.out


Runner = Callable[..., Ran]
