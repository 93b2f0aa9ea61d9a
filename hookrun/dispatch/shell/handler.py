"""The exec-handler seam: how the in-process shell runs a program that is not a builtin.

Modelled on mvdan/sh's ``interp.ExecHandlerFunc``. The interpreter decides *what* runs
(function, builtin, shebang plan); a handler decides *how* a program runs. Tests pass a
handler that records argv and answers from a table (no processes); a policy could wrap
the default one to refuse a command before it starts.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping, Sequence

from hookrun.dispatch import resolve
from hookrun.dispatch.cancel import Guard
from hookrun.dispatch.procs import ProcessTracker, SpawnError
from hookrun.dispatch.streams import ByteSink, ByteSource
from hookrun.records import TYPE_CHECKING, NamedTuple

# Not typing at run time: this module loads on a script's first program (`INPUT=$(cat)`,
# `jq`), and typing is ~16M instructions (3-4 ms) more of that run (hookrun.records).
if TYPE_CHECKING:
    from typing import Any, Protocol


class ExecRequest(NamedTuple):
    """One program to run: ``argv`` (``argv[0]`` as the script wrote it), its
    environment and working directory, and the three streams it is connected to."""

    argv: Sequence[str]
    env: Mapping[str, str]
    cwd: str
    stdin: ByteSource
    stdout: ByteSink
    stderr: ByteSink
    # Told the started child (a background job learns its pid from it); None: not asked.
    on_spawn: Callable[[Any], None] | None = None
    # The file the shell found for argv[0] on PATH (its command hash); None: look it up.
    path: str | None = None
    # Descriptors above 2 the script has open (`cmd 3<<EOF`, `exec 4>f`), by number: the
    # child gets them at those numbers, as bash's does (POSIX).
    fds: Mapping[int, Any] | None = None
    # `ulimit`'s settings, (resource, soft, hard) each, set in the child before it runs
    # the program (see ulimit.py); None: this process's own limits, inherited.
    limits: Sequence[tuple[int, int, int]] | None = None
    # `umask MODE`'s mask, set in the child; None: this process's own, inherited.
    umask: int | None = None


if TYPE_CHECKING:

    class ExecHandler(Protocol):
        def __call__(self, req: ExecRequest) -> int:
            """Run the program and return its exit status (127: not found, 126: cannot
            run)."""
            ...

else:

    class ExecHandler:
        """A callable taking an :class:`ExecRequest` and returning the program's exit
        status (127: not found, 126: cannot run): a ``typing.Protocol`` for type
        checkers, a plain base class at run time."""


def _say(stream: ByteSink, message: str) -> None:
    with contextlib.suppress(OSError):
        stream.write((message.rstrip("\n") + "\n").encode("utf-8", "surrogateescape"))


class DefaultExec:
    """Find the program on the shell's PATH and run it as a tracked child process.

    Its process group is the run's (:class:`ProcessTracker`): a timeout or a
    cancellation ends it with the rest of the tree, politely first, then by force.
    """

    def __init__(self, procs: ProcessTracker, guard: Guard, platform: str) -> None:
        self.procs = procs
        self.guard = guard
        self.platform = platform

    def __call__(self, req: ExecRequest) -> int:
        argv = list(req.argv)
        name = argv[0]
        if "\0" in name:
            _say(req.stderr, f"hookrun: {name!r}: invalid file name (NUL byte)")
            return 126
        executable = None
        if not _is_path(name, self.platform):
            exe = req.path or resolve.find_executable(
                name, env=req.env, cwd=req.cwd, platform=self.platform
            )
            executable = req.path
            if exe is None:
                # bash runs the first file on PATH it finds when none may be run: the OS
                # refuses it (126) rather than "not found"
                found = resolve.find_executable(
                    name, env=req.env, cwd=req.cwd, platform=self.platform, runnable=resolve.denied
                )
                if found is not None:
                    _say(req.stderr, f"hookrun: {found}: Permission denied")
                    return 126
                _say(req.stderr, f"hookrun: {name}: command not found")
                return 127
            if resolve.is_windows(self.platform):
                argv = list(resolve.command_argv(exe, argv[1:], self.platform))
                executable = None
            # Elsewhere the child sees the name as typed in argv[0] (its messages say
            # `cat:`, not `/usr/bin/cat:`); the OS finds the same file on the same PATH.
        try:
            proc = self.procs.spawn(
                argv,
                cwd=req.cwd,
                env=req.env,
                stdin=_fd(req.stdin),
                stdout=_fd(req.stdout),
                stderr=_fd(req.stderr),
                executable=executable,
                fds=_extra_fds(req.fds),
                limits=req.limits,
                umask=req.umask,
            )
        except SpawnError as exc:
            _say(req.stderr, exc.message)
            return exc.exit_code
        if req.on_spawn is not None:
            req.on_spawn(proc)
        return self.procs.wait(proc, self.guard)


# subprocess.DEVNULL's value; subprocess itself loads only when a child starts (start-up).
_DEVNULL = -3


def _fd(stream: Any) -> int:
    """The descriptor a child gets for ``stream``. One the script closed (``exec >&-``)
    has none: the child gets the null device (bash would hand it a closed descriptor;
    either way what it writes there goes nowhere), not an error of the whole hook."""
    try:
        fd: int = stream.fileno()
    except (OSError, ValueError):
        return _DEVNULL
    return fd


def _extra_fds(fds: Mapping[int, Any] | None) -> dict[int, int] | None:
    """The descriptors above 2 to hand over; one the script closed is not handed over."""
    if not fds:
        return None
    out = {}
    for number, stream in fds.items():
        try:
            out[number] = stream.fileno()
        except (OSError, ValueError, AttributeError):
            continue
    return out or None


def _is_path(name: str, platform: str) -> bool:
    return (
        resolve.is_path_word(name, platform)
        or "/" in name
        or (resolve.is_windows(platform) and "\\" in name)
    )
