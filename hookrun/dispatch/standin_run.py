"""Running a bash/sh command line with the in-process shell (the bash stand-in).

:mod:`.standin` decides *whether* (and reads the command line); this module runs it,
for the two places a ``bash …`` can come from: a hook's own command (dispatch's
``api``) and a command inside a script the in-process shell is running (``bash
"$DIR/x.sh"`` — the form most published hooks take, which has a ``$`` and so is
always shell code).
"""

from __future__ import annotations

import contextlib
import os
import shlex
from collections.abc import Mapping, Sequence
from typing import NamedTuple

from hookrun.dispatch.cancel import Guard
from hookrun.dispatch.procs import ProcessTracker
from hookrun.dispatch.resolve import FilePlan, read_script
from hookrun.dispatch.shell import Shell
from hookrun.dispatch.shell.interp import ShellProcess
from hookrun.dispatch.standin import (
    Invocation,
    StandInError,
    parse_invocation,
    shell_name,
    unsupported_error,
)
from hookrun.dispatch.streams import BufferSource, ByteSink, ByteSource
from hookrun.shellsyntax import ShellSyntaxError, Unsupported, parse

# bash's status for a command line it rejects (bad option), as `bash -Q` exits.
USAGE_EXIT = 2


class Ran(NamedTuple):
    status: int
    route: str  # "inprocess:bash", or "sh-fallback" when the script was handed on
    # Why it failed as a run (bad command line, unreadable file, a construct the
    # in-process shell lacks) rather than by its own exit status; else None.
    error: str | None
    unsupported: str | None = None  # that construct


def run_standin(
    argv: Sequence[str],
    *,
    cwd: str,
    env: Mapping[str, str],
    stdin: ByteSource,
    stdout: ByteSink,
    stderr: ByteSink,
    procs: ProcessTracker,
    guard: Guard,
    platform: str,
    mode: str,
    process: ShellProcess | None = None,
) -> Ran:
    """Run ``bash ARGS`` (``argv``) in a fresh in-process shell; ``stdin`` is its input.

    Like a new bash process: only ``env`` (the exported variables) carries over.
    ``process``: what the in-process shell that started it counts as its process, for
    ``kill`` (interp.ShellProcess); None when dispatch starts it.
    A message for anything that stops it before it runs goes to ``stderr``.
    """
    name = shell_name(argv[0], platform) or "bash"
    route = f"inprocess:{name}"
    inv = parse_invocation(name, argv[1:])
    if isinstance(inv, StandInError):
        _say(stderr, inv.message)
        return Ran(USAGE_EXIT, route, inv.message)
    script = _script(inv, cwd=cwd, env=env, platform=platform, stdin=stdin)
    if isinstance(script, FilePlan):
        _say(stderr, script.message)
        return Ran(script.exit_code, route, script.message)
    text, source = script
    if "-n" in inv.options:
        # bash -n reads the script and runs nothing: a syntax check.
        if source is not stdin and isinstance(source, BufferSource):
            source.close()
        return _syntax_check(text, route, stderr)
    shell = Shell(
        # A new bash with no $PWD to trust finds its directory with getcwd(): the
        # physical path, not the logical one the calling shell was in (a symlink).
        cwd=cwd if env.get("PWD") else os.path.realpath(cwd),
        env=env,
        stdin=source,
        stdout=stdout,
        stderr=stderr,
        procs=procs,
        guard=guard,
        platform=platform,
        standin_mode=mode,
        process=process,
    )
    try:
        setup = [f"set {shlex.join(inv.options)}"] if inv.options else []
        pairs = range(0, len(inv.shopts), 2)
        setup += [f"shopt {shlex.join(inv.shopts[k : k + 2])}" for k in pairs]
        for line in setup:
            if shell.run_script(line) != 0:
                # Its own message is on stderr already; the hook did not run, so its status
                # is no answer (bash's `-o nosuch` exits 2, which would read as deny).
                shown = " ".join([*inv.options, *inv.shopts])
                message = (
                    f"{inv.program} {shown}: the in-process shell standing in "
                    f"for {inv.program} cannot set these options"
                )
                return Ran(USAGE_EXIT, route, message)
        # `$-` ends in "c" for -c STRING, "s" for a script on stdin, nothing for a file.
        invoked = "c" if inv.command is not None else ("" if inv.file is not None else "s")
        status = shell.run_script(
            text, argv0=inv.argv0 or inv.program, args=inv.args, invoked=invoked
        )
    finally:
        shell.release()
        if source is not stdin and isinstance(source, BufferSource):
            source.close()
    error = None
    if shell.unsupported is not None:
        error = unsupported_error(shell.unsupported, route)
    return Ran(status, shell.route or route, error, shell.unsupported)


def _syntax_check(text: str, route: str, stderr: ByteSink) -> Ran:
    try:
        parse(text)
    except ShellSyntaxError as exc:
        _say(stderr, f"syntax error: {exc}")
        return Ran(USAGE_EXIT, route, None)
    except Unsupported:
        pass  # valid shell that the interpreter would hand on: bash -n accepts it
    return Ran(0, route, None)


def _script(
    inv: Invocation,
    *,
    cwd: str,
    env: Mapping[str, str],
    platform: str,
    stdin: ByteSource,
) -> tuple[str, ByteSource] | FilePlan:
    """The script's text and the shell's stdin."""
    if inv.command is not None:
        return inv.command, stdin
    if inv.file is not None:
        text = read_script(inv.file, cwd=cwd, env=env, platform=platform)
        if isinstance(text, FilePlan):
            return text
        return text, stdin
    # No file: bash reads its script from stdin, which leaves the script nothing to read.
    return stdin.read().decode("utf-8", "replace"), BufferSource(b"")


def _say(stream: ByteSink, message: str) -> None:
    with contextlib.suppress(OSError):
        stream.write(f"hookrun: {message}\n".encode("utf-8", "replace"))
