"""``kill`` and signals between in-process shells (loaded on the first ``kill``).

A hook's shell runs inside hookrun's own process, so ``$$`` is hookrun's pid and a
background job run in-process has no pid at all. A real ``kill -USR1 $$`` would hit
hookrun itself — with SIGTERM, its whole run (issue 9's handling); with USR1, its death.
The kill builtin therefore delivers to in-process shells itself: a signal for ``$$``
or for an in-process job's ``$!`` is queued on that shell's
:class:`~hookrun.dispatch.shell.interp.ShellProcess`, and the shell acts on it between
two commands, as bash does: its trap runs (``$?`` kept), an ignored one is dropped,
and otherwise the default happens — nothing for CHLD/CONT/URG/WINCH (and the stop
signals, which have no meaning here), else the shell ends with 128+N after its EXIT
trap. Any other pid gets a real signal from ``os.kill``.

Who ``$$`` is: every in-process shell shares hookrun's pid, so a ``kill … $$`` goes to
the nearest shell up the chain (this one, the ``bash -c`` that started it, … the hook's
own) that traps the signal, else this shell's own — ``sh -c "kill -USR1 $$"`` reaches
the hook shell's USR1 trap, as in bash. A signal from another program (``/bin/kill``)
is a real one and is not routed to traps.
"""

from __future__ import annotations

import _signal  # type: ignore[import-not-found]  # C: no IntEnums built, unlike `signal`
import os

from hookrun.dispatch.shell.interp import ShellProcess
from hookrun.dispatch.shell.state import ExitShell
from hookrun.dispatch.shell.traps import _REALTIME, _SIGNALS, _signal_name, signal_table
from hookrun.records import TYPE_CHECKING

if TYPE_CHECKING:
    from hookrun.dispatch.shell.interp import IO, Interp

# Signals whose default action is to do nothing; the stop signals cannot stop an
# in-process shell (it would hang the hook), so they do nothing either.
_HARMLESS = frozenset({"CHLD", "CONT", "URG", "WINCH", "STOP", "TSTP", "TTIN", "TTOU"})
_UNCATCHABLE = frozenset({"KILL", "STOP"})
_USAGE = (
    "kill: usage: kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... or kill -l [sigspec]"
)


def number(name: str) -> int:
    """The signal's number on this system (bash's status after it is 128 + that)."""
    found = getattr(_signal, f"SIG{name}", None)
    if isinstance(found, int):
        return found
    if name in _SIGNALS:
        return _SIGNALS.index(name) + 1
    return next((k for k, n in _REALTIME.items() if n == name), 0)


def _trap_of(sh: Interp, name: str) -> str | None:
    """The shell's action for ``name``: its trap, "" if ignored (an ignore is inherited
    by subshells, a trap is not), None for the default."""
    if name in _UNCATCHABLE:
        return None
    if name in sh.traps:
        return sh.traps[name]
    if sh.inherited_traps.get(name) == "":
        return ""
    return None


def take(sh: Interp, io: IO) -> None:
    """Act on each signal queued for ``sh``'s process, in order."""
    pending = sh.process.pending
    while pending:
        name = pending.pop(0)
        if name in sh.process.ignored:
            continue
        action = _trap_of(sh, name)
        if action == "" or (action is None and name in _HARMLESS):
            continue
        if action is None:
            if name == "KILL":
                sh.traps.pop("EXIT", None)  # nothing runs after a SIGKILL
            raise ExitShell(128 + number(name))  # else the EXIT trap runs, as in bash
        saved = sh.state.status
        sh.run_source(action, io)
        sh.state.status = saved  # a trap does not change $?


def interrupts_wait(sh: Interp, io: IO) -> int:
    """While ``wait`` waits: 128+N if a trapped signal came (its trap then runs), else 0
    (the others were acted on and waiting goes on)."""
    trapped = next(
        (n for n in sh.process.pending if n not in sh.process.ignored and _trap_of(sh, n)),
        None,
    )
    take(sh, io)
    return 128 + number(trapped) if trapped else 0


def _for_self(sh: Interp, name: str) -> ShellProcess:
    """The in-process shell a ``kill`` of hookrun's own pid means (module docstring)."""
    chain: list[ShellProcess] = []
    p: ShellProcess | None = sh.process
    while p is not None:
        if p.shell:
            chain.append(p)
        p = p.parent
    for candidate in chain:
        owner = candidate.owner
        if owner is not None and name in owner:
            return candidate
    return chain[0] if chain else sh.process


def _spec(sh: Interp, io: IO, text: str) -> str | int | None:
    """A signal given by name or number → its name; 0 for ``0``; None if invalid."""
    if text == "0":  # (SIG0 is no signal to bash)
        return 0
    name = _signal_name(text)
    if name is None or name in ("EXIT", "ERR", "DEBUG", "RETURN"):
        sh.error(f"kill: {text}: invalid signal specification", io)
        return None
    return name


# bash's numbers for its trap-only names (``kill -l ERR``): NSIG, NSIG + 1, NSIG + 2
# (65, 66, 67 on Linux).
_PSEUDO = ("DEBUG", "ERR", "RETURN")
_NSIG: int = getattr(_signal, "NSIG", 65)


def _list(sh: Interp, io: IO, args: list[str]) -> int:
    if not args:
        io.stdout.write(signal_table().encode())
        return 0
    status = 0
    for arg in args:
        if arg.isdigit():
            k = int(arg)
            k = k - 128 if k > 128 else k
            name = _signal_name(str(k))  # (0: EXIT, as bash names it)
            if name is None:
                sh.error(f"kill: {arg}: invalid signal specification", io)
                status = 1
                continue
            io.stdout.write(f"{name}\n".encode())
        else:
            spec = _signal_name(arg)
            if spec is None:
                sh.error(f"kill: {arg}: invalid signal specification", io)
                status = 1
                continue
            if spec in _PSEUDO:  # bash numbers its trap-only names past the signals
                k = _NSIG + _PSEUDO.index(spec)
            else:
                k = 0 if spec == "EXIT" else number(spec)
            io.stdout.write(f"{k}\n".encode())
    return status


def b_kill(sh: Interp, argv: list[str], io: IO) -> int:
    args = argv[1:]
    sig: str | int = "TERM"
    if args and args[0] in ("-l", "-L"):
        return _list(sh, io, args[1:])
    if args and args[0] in ("-s", "-n"):
        if len(args) < 2:
            sh.error(f"kill: {args[0]}: option requires an argument", io)
            return 1  # (bash's status here, not a usage 2)
        found = _spec(sh, io, args[1])
        if found is None:
            return 1
        sig, args = found, args[2:]
    elif args and args[0] == "--":
        args = args[1:]
    elif args and len(args[0]) > 1 and args[0][0] == "-":
        found = _spec(sh, io, args[0][1:])
        if found is None:
            return 1
        sig, args = found, args[1:]
        if args and args[0] == "--":
            args = args[1:]
    if not args:
        sh.error_plain(_USAGE, io)
        return 2
    status = 0
    for target in args:
        if not _send(sh, io, target, sig):
            status = 1
    return status


def _send(sh: Interp, io: IO, target: str, sig: str | int) -> bool:
    job = None
    if target.startswith("%"):
        job = sh.job_by_spec(target)
        if job is None:
            sh.error(f"kill: {target}: no such job", io)
            return False
        pid = job.pid
    else:
        try:
            pid = int(target)
        except ValueError:
            sh.error(f"kill: {target}: arguments must be process or job IDs", io)
            return False
        job = next((j for j in sh.jobs if j.pid == pid), None)
        if job is None and sh.psub_jobs:  # $! of a <(…) or >(…)
            job = next((j for j in sh.psub_jobs if j.pid == pid), None)
            if job is not None and job.proc is not None:
                pid = job.proc.pid  # its one program ($! names the substitution)
    if job is not None and job.proc is None and job.process is not None:
        # An in-process job: $! names its subshell, which has no pid of its own.
        if job.thread is not None and job.thread.is_alive():
            if sig != 0:
                job.process.pending.append(str(sig))
            return True
        sh.error(f"kill: ({pid}) - No such process", io)
        return False
    if pid == os.getpid() or pid in (0, -1) or pid == -_own_group():
        # $$, or "my process group" / "every process I may signal": all of them would
        # reach hookrun itself (and its host), so they mean this shell, as $$ does.
        if sig != 0:
            name = str(sig)
            _for_self(sh, name).pending.append(name)
        return True
    try:
        os.kill(pid, 0 if sig == 0 else number(str(sig)))
    except ProcessLookupError:
        sh.error(f"kill: ({pid}) - No such process", io)
        return False
    except PermissionError:
        sh.error(f"kill: ({pid}) - Operation not permitted", io)
        return False
    except (OSError, OverflowError, ValueError) as exc:
        sh.error(f"kill: ({pid}) - {getattr(exc, 'strerror', None) or exc}", io)
        return False
    return True


def _own_group() -> int:
    try:
        return os.getpgid(0)
    except (AttributeError, OSError):  # pragma: win32 no cover - no process groups
        return 0
