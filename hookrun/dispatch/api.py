"""The one entry point: a command string in, a :class:`Completed` out.

Routing (argv[0] decides, DESIGN.md "Dispatch"):

1. ``split_simple`` — plain words only, no shell parse. If argv[0] names a
   file (``./``, ``/``, ``~/`` …): :func:`plan_file` says shebang / binary (spawn
   it), shell source (the in-process shell runs it with ``$0 $1 …``) or error.
2. Plain words naming a command: the in-process shell runs that one argv
   (builtins in-process, anything else as a child).
3. Anything else is shell code for the in-process shell.

Whatever happens, nothing the run started survives it, both output streams are
bounded, and the call returns within its timeout plus about a second.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Mapping, Sequence
from stat import S_ISREG

from hookrun import exitcodes
from hookrun.dispatch import standin
from hookrun.dispatch.cancel import (
    CancelToken,
    Guard,
    Interrupted,
    StatusUnknowable,
    finished,
    linked,
)
from hookrun.dispatch.procs import ProcessTracker, SpawnError
from hookrun.dispatch.resolve import (
    _BINARY_MAGIC,
    HEAD_SIZE,
    FilePlan,
    is_path_word,
    plan_file,
)
from hookrun.dispatch.result import Completed
from hookrun.dispatch.split import split_simple
from hookrun.dispatch.streams import BufferSource, CaptureSink
from hookrun.records import TYPE_CHECKING

if TYPE_CHECKING:
    import concurrent.futures
    from collections.abc import Callable

    from hookrun.dispatch.pump import Pumped
    from hookrun.dispatch.shell import Shell

# Exit statuses of an interrupted run, as timeout(1) and a shell's SIGINT report them.
# A bug in dispatch itself must not look like a hook's own "deny" (2) or "halt" (49).
DEFAULT_MAX_OUTPUT = 1 << 20
# How long the capture threads get to reach EOF once every tracked process has
# ended. Only a descendant that escaped the process group can hold a pipe longer;
# what it writes after that is abandoned (and it is hunted down).
_EOF_WAIT = 0.1
# A file hook's pipes are pumped on the calling thread (pump.py) where poll()
# works on pipes; Windows uses the streams' reader/writer threads instead.
_THREADED_IO = sys.platform == "win32"


def run(
    command: str,
    *,
    cwd: str,
    env: Mapping[str, str] | None,
    stdin: bytes = b"",
    timeout: float | None = None,
    cancel: CancelToken | None = None,
    max_output: int = DEFAULT_MAX_OUTPUT,
    platform: str = sys.platform,
    shell: str = "auto",
    refuse_processes: str | None = None,
) -> Completed:
    """Run ``command`` in ``cwd`` with exactly ``env`` (None: this process's env).

    ``stdin`` is the whole input; ``timeout`` is in seconds; ``cancel`` may be set
    from any thread. ``shell`` is the bash stand-in mode (:mod:`.standin`):
    ``"auto"`` runs ``bash …``/``sh …`` and bash/sh scripts in-process only when
    that shell is not on PATH, ``"inprocess"`` always. Never raises for any
    command: every failure is a :class:`Completed` whose ``error`` says what went
    wrong.
    With ``refuse_processes`` no process is started: builtins of the in-process
    shell run, every external command fails with exit 126 and that text.
    """
    started = time.monotonic()
    run_env = dict(os.environ) if env is None else env
    guard = Guard(timeout, cancel)
    # (In order: a keyword argument to a class costs a dict for its __init__.)
    tracker = ProcessTracker(None, guard, refuse_processes)
    out, err = CaptureSink(max_output), CaptureSink(max_output)
    source = BufferSource(stdin)
    step = _Step()
    try:
        guard.check()
        # (In order: a call with ten keywords cost every run ~1k instructions more.)
        _route(
            command, step, cwd, run_env, guard, tracker, (source, out, err), stdin, platform, shell
        )
    except StatusUnknowable as exc:
        step.code, step.route, step.error = exitcodes.INTERNAL_ERROR, "error", exc.message
        _note(err, exc.message)
    except Interrupted as exc:
        step.interrupted = exc.reason
        step.code = exitcodes.TIMEOUT if exc.reason == "timeout" else exitcodes.CANCELLED
        step.error = (
            f"timed out after {timeout:g} s; every process of the hook was ended"
            if exc.reason == "timeout"
            else "cancelled; every process of the hook was ended"
        )
    except Exception as exc:  # noqa: BLE001 - dispatch reports, never raises
        step.code = exitcodes.INTERNAL_ERROR
        step.route = "error"
        step.error = f"internal error in hookrun dispatch: {type(exc).__name__}: {exc}"
        _note(err, step.error)
    except BaseException:
        # KeyboardInterrupt (Ctrl-C in an embedding host) lands between any two
        # bytecodes of this thread, including inside Popen after the fork, before
        # the tracker got a handle on the child. Its marker still finds it.
        step.escaped = True
        raise
    finally:
        _end_run_to_the_end(tracker, step, (source, out, err))
    # Positional, in the fields' order (exit_code, stdout, stderr, route, duration,
    # timed_out, cancelled, truncated, stdout_dropped, stderr_dropped, error): a
    # NamedTuple's keyword call costs every run about twice as much.
    return Completed(
        step.code,
        out.data,
        err.data,
        step.route,
        time.monotonic() - started,
        step.interrupted == "timeout",
        step.interrupted == "cancelled",
        out.dropped > 0 or err.dropped > 0,
        out.dropped,
        err.dropped,
        step.error,
    )


def _end_run(
    tracker: ProcessTracker, step: _Step, io: tuple[BufferSource, CaptureSink, CaptureSink]
) -> None:
    """End what the run started and close its streams. Idempotent."""
    source, out, err = io
    if tracker.touched:  # a run of builtins only has nothing to disarm or end
        tracker.unwatch()
        tracker.end_all()
    # Every tracked process is gone now; only an escaped descendant (new
    # session, parent gone) can still hold a capture pipe. EOF normally comes
    # at once; if it does not, that is the evidence to hunt for the marker.
    out_eof = out.finish(_EOF_WAIT)
    err_eof = err.finish(_EOF_WAIT)
    if step.escaped or not (out_eof and err_eof):
        tracker.end_all(scan=True)
    source.close()


def _end_run_to_the_end(
    tracker: ProcessTracker, step: _Step, io: tuple[BufferSource, CaptureSink, CaptureSink]
) -> None:
    """:func:`_end_run` until it completes, then re-raise the first KeyboardInterrupt
    that cut it short, if any.

    A second Ctrl-C in an embedding host lands in this thread's cleanup as easily as
    the first landed in the run: stopping there would leave the hook's tree running.
    """
    interrupted: KeyboardInterrupt | None = None
    while True:
        try:
            _end_run(tracker, step, io)
            break
        except KeyboardInterrupt as exc:
            interrupted = interrupted or exc
            step.escaped = True  # cut short: search for the marker on the next pass
    if interrupted is not None:
        raise interrupted


def prepare_imports(commands: Sequence[str], platform: str = sys.platform) -> None:
    """Import now, in the calling thread, the modules that running ``commands`` imports.

    A KeyboardInterrupt (Ctrl-C in an embedding host) can land inside an import,
    where importlib's per-module lock (Python code) is held: the interrupted thread
    never releases it, and any other thread importing that module then waits
    forever. Called before the runner starts its worker threads, this leaves them
    nothing to import that the calling thread might be importing. (The shell front
    end itself is imported by whichever thread parses first; runs that parse no shell
    should not pay for it.)
    """
    for command in commands:
        argv = split_simple(command, platform)
        if argv and is_path_word(argv[0], platform):
            if not _THREADED_IO:
                import hookrun.dispatch.pump  # noqa: F401
        else:
            import hookrun.dispatch.shell  # noqa: F401


class _Step:
    """What a run has established so far; filled in as routing proceeds."""

    # Start values read from the class until a run sets its own (no __init__ to run:
    # every run makes one).
    code = 0
    route = "inprocess"
    error: str | None = None
    interrupted: str | None = None
    # A capture pipe was still held open after every tracked process ended.
    escaped = False


def _note(err: CaptureSink, message: str) -> None:
    err.write(f"hookrun: {message}\n".encode("utf-8", "replace"))


def _route(
    command: str,
    step: _Step,
    cwd: str,
    env: Mapping[str, str],
    guard: Guard,
    tracker: ProcessTracker,
    io: tuple[BufferSource, CaptureSink, CaptureSink],
    payload: bytes,
    platform: str,
    mode: str,
) -> None:
    source, out, err = io
    argv, shell_word = _split(command, platform)
    if (
        argv
        and shell_word
        and standin.applies(argv[0], mode=mode, env=env, cwd=cwd, platform=platform)
    ):
        _run_standin(
            argv,
            step,
            cwd=cwd,
            env=env,
            guard=guard,
            tracker=tracker,
            io=io,
            platform=platform,
            mode=mode,
        )
        return
    if argv and is_path_word(argv[0], platform):
        plan = _plan(argv[0], argv[1:], cwd, env, platform)
        step.route = plan.route
        if plan.kind == "shebang" and standin.applies(
            plan.argv[0], mode=mode, env=env, cwd=cwd, platform=platform
        ):
            _run_standin(
                plan.argv,
                step,
                cwd=cwd,
                env=env,
                guard=guard,
                tracker=tracker,
                io=io,
                platform=platform,
                mode=mode,
            )
        elif plan.kind in ("shebang", "binary"):
            _spawn_plan(
                plan, step, cwd=cwd, env=env, guard=guard, tracker=tracker, io=io, payload=payload
            )
        elif plan.kind == "script":
            shell = _shell(cwd, env, io, tracker, guard, platform, mode)
            try:
                # a file, as bash runs one (its `$-` has no "c"; errors end it as a script's)
                step.code = shell.run_script(
                    plan.source, argv0=argv[0], args=tuple(argv[1:]), invoked=""
                )
            finally:
                # "sh-fallback" when the file used a construct the shell hands on.
                step.route = shell.route or plan.route
                _unsupported(shell, step)
        else:
            step.code, step.error = plan.exit_code, plan.message
            _note(err, plan.message)
        return
    shell = _shell(cwd, env, io, tracker, guard, platform, mode)
    try:
        if argv:
            step.code = shell.run_argv(argv)
        else:
            # `$0` is what `bash -c COMMAND` makes it: the shell this one stands in for
            step.code = shell.run_script(command, argv0="bash")
    finally:
        # (_unsupported written out, with the notes read once: every inline hook's run)
        notes = shell.notes()
        step.route = notes.route or "inprocess"
        if notes.unsupported is not None and step.error is None:
            step.error = standin.unsupported_error(notes.unsupported, step.route)


# split_simple's answer for each command seen (a host runs the same few hooks call after
# call, and the split is pure), with whether argv[0] names bash or sh (standin.shell_name,
# pure too: the stand-in applies to no other word). Bounded: cleared when full.
_SPLITS: dict[tuple[str, str], tuple[tuple[str, ...] | None, bool]] = {}
_SPLITS_MAX = 512


def _split(command: str, platform: str) -> tuple[list[str] | None, bool]:
    """:func:`split_simple` (a copy), and whether its first word names a stand-in shell;
    remembered."""
    key = (command, platform)
    known = _SPLITS.get(key)
    if known is None:
        argv = split_simple(command, platform)
        if len(_SPLITS) >= _SPLITS_MAX:
            _SPLITS.clear()
        if argv:
            known = (tuple(argv), standin.shell_name(argv[0], platform) is not None)
        else:
            known = (None if argv is None else (), False)
        _SPLITS[key] = known
    words, shell_word = known
    return (None if words is None else list(words)), shell_word


def _plan(
    word: str, args: Sequence[str], cwd: str, env: Mapping[str, str], platform: str
) -> FilePlan:
    """:func:`plan_file`, with its commonest answer reached in fewer steps: a program
    (POSIX; a regular file whose head says binary, by a path without ``~``). Anything
    else, or any error, is plan_file's to decide and to word."""
    if platform != "win32" and word[0] != "~" and type(cwd) is str:
        # os.path.join(cwd, word), written out
        full = (
            word if word[0] == "/" or not cwd else cwd + word if cwd[-1] == "/" else f"{cwd}/{word}"
        )
        try:
            if S_ISREG(os.stat(full).st_mode):
                fd = os.open(full, os.O_RDONLY)
                try:
                    head = os.read(fd, HEAD_SIZE)
                finally:
                    os.close(fd)
                if not head.startswith(b"#!") and (b"\0" in head or head.startswith(_BINARY_MAGIC)):
                    return FilePlan("binary", (full, *args), "binary")
        except OSError:
            pass
    return plan_file(word, args, cwd=cwd, env=env, platform=platform)


def _unsupported(shell: Shell, step: _Step) -> None:
    """A construct nothing could interpret fails the hook: its exit 2 is no "deny"."""
    if shell.unsupported is not None and step.error is None:
        step.error = standin.unsupported_error(shell.unsupported, step.route)


def _run_standin(
    argv: Sequence[str],
    step: _Step,
    *,
    cwd: str,
    env: Mapping[str, str],
    guard: Guard,
    tracker: ProcessTracker,
    io: tuple[BufferSource, CaptureSink, CaptureSink],
    platform: str,
    mode: str,
) -> None:
    """``bash ARGS`` / ``sh ARGS`` run by the in-process shell (the bash stand-in)."""
    # Imported here, as the shell is: most hooks never need it.
    from hookrun.dispatch.standin_run import run_standin

    source, out, err = io
    step.route = f"inprocess:{standin.shell_name(argv[0], platform) or 'bash'}"
    ran = run_standin(
        argv,
        cwd=cwd,
        env=env,
        stdin=source,
        stdout=out,
        stderr=err,
        procs=tracker,
        guard=guard,
        platform=platform,
        mode=mode,
    )
    step.code, step.route, step.error = ran.status, ran.route, ran.error


def _spawn_plan(
    plan: FilePlan,
    step: _Step,
    *,
    cwd: str,
    env: Mapping[str, str],
    guard: Guard,
    tracker: ProcessTracker,
    io: tuple[BufferSource, CaptureSink, CaptureSink],
    payload: bytes,
) -> None:
    source, out, err = io
    try:
        if _THREADED_IO:
            proc = tracker.spawn(
                plan.argv,
                cwd=cwd,
                env=env,
                stdin=source.fileno(),
                stdout=out.fileno(),
                stderr=err.fileno(),
            )
            step.code = tracker.wait(proc, guard)
            return
        global _run_child
        if _run_child is None:
            from hookrun.dispatch.pump import run_child

            _run_child = run_child
        pumped = _run_child(
            tracker,
            plan.argv,
            cwd=cwd,
            env=env,
            payload=payload,
            stdout=out,
            stderr=err,
            guard=guard,
        )
    except SpawnError as exc:
        step.code, step.route, step.error = exc.exit_code, "error", exc.message
        _note(err, exc.message)
        return
    step.code = pumped.status
    step.escaped = not pumped.eof


# hookrun.dispatch.pump.run_child once a run needed it (kept, as _Shell below).
_run_child: Callable[..., Pumped] | None = None

# hookrun.dispatch.shell.Shell once a run needed it (kept: an import statement costs a
# few thousand instructions each time it runs).
_Shell: type[Shell] | None = None


def _shell(
    cwd: str,
    env: Mapping[str, str],
    io: tuple[BufferSource, CaptureSink, CaptureSink],
    tracker: ProcessTracker,
    guard: Guard,
    platform: str,
    mode: str,
) -> Shell:
    global _Shell
    if _Shell is None:
        # Imported here: a hook that is a plain file never needs the shell.
        from hookrun.dispatch.shell import Shell

        _Shell = Shell
    source, out, err = io
    # (cwd, env, stdin, stdout, stderr, procs, guard, platform, standin_mode)
    return _Shell(cwd, env, source, out, err, tracker, guard, platform, mode)


async def arun(
    command: str,
    *,
    cwd: str,
    env: Mapping[str, str] | None,
    stdin: bytes = b"",
    timeout: float | None = None,
    cancel: CancelToken | None = None,
    max_output: int = DEFAULT_MAX_OUTPUT,
    platform: str = sys.platform,
    shell: str = "auto",
) -> Completed:
    """:func:`run` in a worker thread, for asyncio hosts.

    Cancelling the awaiting task ends the whole process tree, waits until it is
    gone, then re-raises :class:`asyncio.CancelledError`. ``cancel`` (the
    caller's token, possibly shared by several runs) is honoured but never set
    by this function.
    """
    import asyncio
    import functools

    with linked(cancel) as token:
        call = functools.partial(
            run,
            command,
            cwd=cwd,
            env=env,
            stdin=stdin,
            timeout=timeout,
            cancel=token,
            max_output=max_output,
            platform=platform,
            shell=shell,
        )
        future = asyncio.get_running_loop().run_in_executor(_executor(), call)
        # On a cancel the thread returns once the tree is gone (grace + reap, about a
        # second at worst); the caller is told only then.
        return await finished(future, token)


# Not the loop's default executor: it has min(32, cpus + 4) threads, so on a
# small machine the seventh parallel hook would queue there, and its timeout,
# which starts inside run(), would start late. Threads are created on demand.
_ARUN_THREADS = 64
_EXECUTORS: list[concurrent.futures.ThreadPoolExecutor] = []


def _executor() -> concurrent.futures.ThreadPoolExecutor:
    if not _EXECUTORS:
        from concurrent.futures import ThreadPoolExecutor

        _EXECUTORS.append(
            ThreadPoolExecutor(max_workers=_ARUN_THREADS, thread_name_prefix="hookrun-arun")
        )
    return _EXECUTORS[0]
