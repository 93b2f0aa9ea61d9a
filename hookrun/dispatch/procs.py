"""Starting, waiting for and ending the external processes of one dispatch run.

Every child starts in a process group of its own (a new session on POSIX when
there is a terminal to leave: :func:`popen_options`; ``CREATE_NEW_PROCESS_GROUP`` on
Windows) and carries ``HOOKRUN_DISPATCH_ID`` in
its environment. Ending a run then finds everything the hook started:

- the group, with one ``killpg`` — background ``&`` jobs of a shell script stay
  in it, even after the script itself exited;
- the live descendants, for those that moved to a group of their own;
- every process whose environment holds this run's id, for those that also
  lost their parent (``setsid`` + double fork, daemons) — when the run timed out,
  was cancelled, or something still holds its output pipes. A daemon that left the
  group and let go of the pipes before a hook exited by itself is left running:
  the one stated exception to "no process left behind" (README "Hostile input").

Descendants and marker holders come from one pass over the process table
(``/proc`` read directly on Linux, psutil elsewhere); signals go through psutil
handles, which refuse to hit a process that merely inherited a pid. psutil is
imported (~25 ms) and the table read only on the kill path: after a timeout or
a cancellation, when a group was still populated when the run ended, or when a
capture pipe stayed open after it. A run whose processes all exited costs one
``killpg`` per child.

Waiting never polls: :meth:`ProcessTracker.wait` blocks in ``waitpid`` and the
shared watchdog (deadline) or the cancel token's callback ends the tree, which
is what makes that wait return. Polling would add up to milliseconds to every
child, which for a 1 ms ``/bin/true`` would be most of its cost.
"""

from __future__ import annotations

import _signal  # type: ignore[import-not-found]  # C: signal.getsignal builds an IntEnum
import contextlib
import errno
import itertools
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence

from hookrun import exitcodes
from hookrun.dispatch.cancel import Guard, Interrupted, StatusUnknowable, wait_bound
from hookrun.dispatch.sentinel import MARKER, SENTINEL
from hookrun.dispatch.watchdog import WATCHDOG
from hookrun.records import TYPE_CHECKING

if TYPE_CHECKING:
    # subprocess (with selectors and locale) is imported when a child is started, not
    # here: a run of in-process hooks (echo, printf, test…) starts none, and the
    # import is a third of a bare Python start-up. tests/cli/cold_start_test.py pins it.
    import subprocess
    from typing import Any, TypeAlias

    # A started child: Popen's, or one os.posix_spawn started (:class:`Spawned`).
    Child: TypeAlias = "subprocess.Popen[bytes] | Spawned"

# Time a process gets between the polite signal and the forced one: enough for
# a script's trap to remove a lock file, short enough that a hung hook costs
# its host well under a second past its timeout.
DEFAULT_GRACE = 0.5
_POLL = 0.02
# After SIGKILL, how long to wait for the kernel to finish the job. A process
# in uninterruptible sleep (a dead NFS mount) can outlive it; we do not hang.
_REAP = 1.0
_CREATE_NEW_PROCESS_GROUP = 0x00000200  # subprocess.CREATE_NEW_PROCESS_GROUP, on any OS


class SpawnError(Exception):
    """A child could not be started. ``exit_code`` is 127 (not found) or 126."""

    def __init__(self, exit_code: int, message: str) -> None:
        super().__init__(message)
        self.exit_code = exit_code
        self.message = message


def popen_options(
    platform: str = sys.platform, *, terminal: Callable[[], bool] | None = None
) -> dict[str, Any]:
    """The Popen arguments that give a child a process group of its own.

    POSIX: a new session while hookrun has a controlling terminal (the child must not
    have one: a hook reading /dev/tty would be stopped by SIGTTIN in a background group,
    where in a session of its own it fails at once). Without one — CI, an IDE's host, a
    service — a process group alone (Python 3.11+) gives the child exactly as much:
    a group that ``killpg`` ends, no terminal. A new session there would only cost: with
    the scheduler's autogroups (Linux), each session is a scheduling group of its own,
    and a child that makes one waited 1-3 ms for the CPU on a busy machine, more than
    running /bin/true costs. ``terminal``: whether this process has one (tests).
    """
    if platform == "win32":
        return {"creationflags": _CREATE_NEW_PROCESS_GROUP}
    if _GROUP_ONLY and not (terminal or has_terminal)():
        return {"process_group": 0}
    return {"start_new_session": True}


# Popen(process_group=) is new in 3.11; before, only preexec_fn could make a group, and
# it makes subprocess fork instead of vfork.
_GROUP_ONLY = sys.version_info >= (3, 11)
_TTY_FLAGS = os.O_RDONLY | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_NONBLOCK", 0)


def has_terminal() -> bool:
    """Whether this process has a controlling terminal (asked at each spawn: an
    embedding host may leave its session or get a terminal at any time)."""
    try:
        os.close(os.open("/dev/tty", _TTY_FLAGS | os.O_CLOEXEC))
    except OSError:  # ENXIO: none
        return False
    return True


_ID_PREFIX: list[str] = []
_ID_COUNTER = itertools.count(1)
_ID_LOCK = threading.Lock()


def new_dispatch_id() -> str:
    """An id no other run on this machine has: process-random prefix, pid, counter.

    Not a fresh UUID per run: os.urandom costs ~60 µs in some sandboxes, a tenth
    of a whole ``/bin/true``. 64 random bits drawn once per process keep ids of
    different processes apart; the pid keeps forked children apart.
    """
    if not _ID_PREFIX:
        _ID_PREFIX.append(os.urandom(8).hex())
    return f"{_ID_PREFIX[0]}-{os.getpid():x}-{next(_ID_COUNTER):x}"


def exit_status(returncode: int) -> int:
    """Popen's returncode as a shell reports it: -N (signal N) becomes 128+N."""
    return 128 - returncode if returncode < 0 else returncode


def _spawn_error(exc: OSError, argv0: str, cwd: str) -> SpawnError:
    if exc.filename == cwd and exc.filename != argv0:
        return SpawnError(
            exitcodes.NOT_EXECUTABLE, f"{argv0}: cannot run in {cwd}: {exc.strerror or exc}"
        )
    if isinstance(exc, FileNotFoundError):
        return SpawnError(exitcodes.NOT_FOUND, f"{argv0}: command not found")
    if isinstance(exc, PermissionError):
        return SpawnError(
            exitcodes.NOT_EXECUTABLE, f"{argv0}: permission denied (is it executable?)"
        )
    if exc.errno == errno.ENOEXEC:
        return SpawnError(
            exitcodes.NOT_EXECUTABLE, f"{argv0}: cannot execute: not a program the OS can run"
        )
    return SpawnError(exitcodes.NOT_EXECUTABLE, f"{argv0}: cannot execute: {exc.strerror or exc}")


def spawn_route(
    program: str,
    argv0: str,
    cwd: str,
    stdio: tuple[int, int, int],
    fds: Mapping[int, int] | None,
    env: Mapping[str, str],
    platform: str = sys.platform,
    *,
    env_checked: bool = False,
) -> str:
    """``"posix_spawn"`` where :func:`os.posix_spawn` gives the child exactly what Popen
    would, else ``"popen"`` — the one place the route is decided.

    posix_spawn makes the child without Popen's Python bookkeeping (~270k instructions
    a child, a third of what running /bin/true costs: bench/dispatch_bench.py). It fits:

    - POSIX only (Windows has no posix_spawn: CreateProcess through Popen), and a C
      library whose posix_spawn reports why a child could not start
      (:func:`spawn_reports_errors`);
    - the program given by path (``/`` in it): posix_spawnp would search *this*
      process's PATH, where Popen searches the child's;
    - ``cwd`` is this process's working directory: posix_spawn cannot chdir;
    - each of the three streams a descriptor above 2 or the null device: no moves
      among 0–2, whose order Popen handles; no extra descriptors (``fds``: preexec);
    - an environment Popen and posix_spawn treat alike: no empty name, no ``=`` in a
      name (each refuses a different set of those; Popen then says why). ``env_checked``:
      the caller has checked that already (:func:`_known_env`).

    The descriptors the child must not inherit are closed by the spawn itself
    (:func:`_posix_spawn`), as Popen's ``close_fds``.
    """
    global _POSIX_SPAWN
    if platform == "win32" or fds:
        return "popen"
    if _POSIX_SPAWN is None:
        _POSIX_SPAWN = hasattr(os, "posix_spawn") and spawn_reports_errors()
    if not _POSIX_SPAWN:
        return "popen"
    if "/" not in program or not argv0:
        return "popen"
    for fd in stdio:
        if fd < 3 and fd != _DEVNULL:
            return "popen"
    if not env_checked and ("" in env or "=" in "".join(env)):
        return "popen"
    try:
        here = os.getcwd()
    except OSError:  # the working directory was removed
        return "popen"
    return "posix_spawn" if cwd == here else "popen"


# Whether this system's os.posix_spawn is used at all (None: not yet asked).
_POSIX_SPAWN: bool | None = None


def spawn_reports_errors(confstr: Callable[[str], str | None] = os.confstr) -> bool:
    """Whether posix_spawn says why a child could not start (ENOENT, EACCES, ENOEXEC).

    glibc before 2.24 started the child with fork or vfork and no way back: a failed
    exec showed only as the child's exit status 127, where Popen reports "permission
    denied" (126). Since 2.24 (clone + a pipe, as musl) and on macOS and the BSDs (a
    system call) the error comes back.
    """
    try:
        version = confstr("CS_GNU_LIBC_VERSION")
    except (ValueError, OSError):  # not glibc
        return True
    if not version:
        return True
    try:
        major, minor = version.split()[1].split(".")[:2]
        return (int(major), int(minor)) >= (2, 24)
    except (IndexError, ValueError):  # a version string never seen: do not guess
        return False


_DEVNULL = -3  # subprocess.DEVNULL
# Popen's restore_signals: Python ignores these at start-up; its children get the default.
_SIGDEF = tuple(
    getattr(signal, name) for name in ("SIGPIPE", "SIGXFZ", "SIGXFSZ") if hasattr(signal, name)
)
# Where this process's open descriptors are all listed: Linux, macOS. (On FreeBSD
# /dev/fd lists 0-2 only unless fdescfs is mounted: there, Popen closes them.)
_FD_DIRS = {"linux": "/proc/self/fd", "darwin": "/dev/fd"}
# Beyond this many open descriptors, the scan would cost more than Popen's bookkeeping
# that posix_spawn saves (~270k instructions): Popen then.
_FD_SCAN_MAX = 64


def _inheritable_fds(platform: str = sys.platform) -> list[int] | None:
    """This process's descriptors above 2 that a child would inherit (None: cannot tell).

    Python opens its own non-inheritable (PEP 446); what is listed here a host or a
    library marked inheritable. Popen's ``close_fds`` closes them in the child.
    """
    where = _FD_DIRS.get(platform)
    if where is None:
        return None
    try:
        names = os.listdir(where)
    except OSError:
        return None
    if len(names) > _FD_SCAN_MAX:
        return None  # a host holding many: each costs ~2k instructions here, Popen's none
    found = []
    for name in names:
        fd = int(name)
        if fd > 2:
            try:
                if os.get_inheritable(fd):
                    found.append(fd)
            except OSError:  # the listing's own descriptor, closed by now
                pass
    return found


def _posix_spawn(
    program: str,
    argv: Sequence[str],
    env: Mapping[str, str] | list[bytes],
    stdio: tuple[int, int, int],
    cwd: str,
) -> Spawned | None:
    """Start ``program`` with os.posix_spawn as Popen would (None: use Popen after all).

    The same group or session (:func:`popen_options`), the same signal defaults
    (``restore_signals``), the environment as given, the streams on 0–2 and no other
    inherited descriptor (``close_fds``).

    On Linux (:func:`_vfork_usable`) the direct route's primitive is Popen's own instead
    (:func:`_vfork_exec`): the same child, for less than os.posix_spawn costs there.
    """
    global _VFORK
    if _VFORK is None:
        _VFORK = _vfork_usable()
    if _VFORK:
        return _vfork_exec(program, argv, env, stdio, cwd)
    if isinstance(env, list):  # entries for the vfork primitive only (_known_env)
        return None
    actions: list[tuple[Any, ...]] = []
    for target, fd in enumerate(stdio):
        if fd == _DEVNULL:
            actions.append((os.POSIX_SPAWN_OPEN, target, os.devnull, os.O_RDWR, 0))
        else:  # dup2 onto 0–2 clears close-on-exec there
            actions.append((os.POSIX_SPAWN_DUP2, fd, target))
    inherited = _inheritable_fds()
    if inherited is None:
        return None
    for fd in inherited:
        actions.append((os.POSIX_SPAWN_CLOSE, fd))
    group = popen_options()
    try:
        if "process_group" in group:
            pid = os.posix_spawn(
                program, list(argv), env, file_actions=actions, setsigdef=_SIGDEF, setpgroup=0
            )
        else:
            pid = os.posix_spawn(
                program, list(argv), env, file_actions=actions, setsigdef=_SIGDEF, setsid=True
            )
    except NotImplementedError:  # a C library without POSIX_SPAWN_SETSID
        return None
    except OSError as exc:
        if exc.errno == errno.EBADF:
            return None  # a listed descriptor another thread closed meanwhile
        raise _spawn_error(exc, argv[0], cwd) from None
    except (ValueError, TypeError) as exc:  # NUL in an argument or the environment
        raise SpawnError(exitcodes.NOT_EXECUTABLE, f"{argv[0]}: {exc}") from None
    return Spawned(pid)


# Whether the direct route starts children with Popen's own primitive (None: not yet
# asked; tests set it to pin one primitive). See :func:`_vfork_usable`.
_VFORK: bool | None = None
# _posixsubprocess.fork_exec, once _vfork_exec has imported it.
_FORK_EXEC: Callable[..., int] | None = None
# CPython versions whose _posixsubprocess.fork_exec takes the 23 arguments below (the
# ones subprocess.Popen passes; a private function, checked against each version's
# subprocess.py): 3.11 (with its _USE_VFORK), 3.12, 3.13.
_FORK_EXEC_VERSIONS = ((3, 11), (3, 12), (3, 13))


def _vfork_usable(platform: str = sys.platform) -> bool:
    """Whether :func:`_vfork_exec` may start the direct route's children: Linux, where
    ``_posixsubprocess`` uses vfork (elsewhere it forks, which posix_spawn beats), on a
    CPython whose ``fork_exec`` arguments are known, with vfork not switched off
    (``subprocess._USE_VFORK``, as Popen honours it)."""
    if (
        not platform.startswith("linux")
        or sys.implementation.name != "cpython"  # (PyPy has its own _posixsubprocess)
        or sys.version_info[:2] not in _FORK_EXEC_VERSIONS
    ):
        return False
    import subprocess  # loaded already (pump): a child is about to start

    try:
        import _posixsubprocess  # noqa: F401
    except ImportError:
        return False
    return bool(getattr(subprocess, "_USE_VFORK", False))


# ``NAME=value`` as the child gets it, for each (name, value) a child was given: a host
# passes the same environment to run after run, and encoding it (os.fsencode, as Popen
# does) was a quarter of what starting /bin/true cost in hookrun. Bounded: cleared
# when full; the per-run marker is never kept.
_ENV_BYTES: dict[tuple[str, str], bytes] = {}
_ENV_BYTES_MAX = 4096


# The last environment encoded whole, without its marker (the tracker adds the marker
# last): (its items, their entries). Compared in C, it spares the loop below for a host
# that passes the same variables each time.
_ENV_LAST: tuple[tuple[tuple[str, str], ...], list[bytes]] = ((), [])


def _env_list(env: Mapping[str, str]) -> list[bytes]:
    """``env`` as Popen hands it to the child (``os.fsencode(name) + b"=" +
    os.fsencode(value)``, in order). Raises what os.fsencode raises."""
    global _ENV_LAST
    items = tuple(env.items())
    if items and items[-1][0] == MARKER:
        rest, (name, value) = items[:-1], items[-1]
        last = _ENV_LAST  # one read: another thread may replace it
        if last[0] == rest:
            return [*last[1], os.fsencode(name) + b"=" + os.fsencode(value)]
        entries = _env_entries(rest)
        _ENV_LAST = (rest, entries)
        return [*entries, os.fsencode(name) + b"=" + os.fsencode(value)]
    return _env_entries(items)


# The last plain environment a direct child was given, and its entries (the marker
# apart): compared whole, in C, it spares even _env_list's tuple of items. Replaced, never
# changed in place (another thread may be reading it).
_ENV_KNOWN: tuple[dict[str, str], list[bytes]] | None = None
_MARKER_EQ = os.fsencode(MARKER) + b"="
_FS_CODEC = (sys.getfilesystemencoding(), sys.getfilesystemencodeerrors())


def _known_env(env: Mapping[str, str]) -> list[bytes] | None:
    """``env``'s entries as :func:`_env_list` gives them, for a ``dict`` of ``str`` with
    no marker and names the direct route takes (none empty, no ``=``); None for anything
    else, which the general route handles (and reports) as before."""
    global _ENV_KNOWN
    if type(env) is not dict or MARKER in env:
        return None
    known = _ENV_KNOWN
    if known is not None and known[0] == env:
        return known[1]
    copy = dict(env)
    for name, value in copy.items():
        if type(name) is not str or type(value) is not str or not name or "=" in name:
            return None
    try:
        entries = [
            name.encode(*_FS_CODEC) + b"=" + value.encode(*_FS_CODEC)
            for name, value in copy.items()
        ]
    except UnicodeError:  # the general route reports it
        return None
    _ENV_KNOWN = (copy, entries)
    return entries


def _env_entries(items: Sequence[tuple[str, str]]) -> list[bytes]:
    known = _ENV_BYTES
    if len(known) > _ENV_BYTES_MAX:
        known.clear()
    entries = []
    for item in items:
        entry = known.get(item)
        if entry is None:
            name, value = item
            entry = os.fsencode(name) + b"=" + os.fsencode(value)
            if name != MARKER:
                known[item] = entry
        entries.append(entry)
    return entries


def _vfork_exec(
    program: str,
    argv: Sequence[str],
    env: Mapping[str, str] | list[bytes],
    stdio: tuple[int, int, int],
    cwd: str,
) -> Spawned | None:
    """Start ``program`` with the primitive Popen itself calls, given what Popen gives it.

    ``_posixsubprocess.fork_exec`` with Popen's arguments for this child (close_fds, the
    same group or session, ``restore_signals``, the streams on 0-2, ``cwd``) gives the
    child exactly what a Popen child gets — signals included (glibc's posix_spawn sets
    its two internal ones to ignored) — without Popen's Python bookkeeping, and without
    what os.posix_spawn costs on Linux: the scan of this process's descriptors (the
    child closes them with close_range, as Popen's does) and glibc's two sigaction calls
    for each of the 64 signals in the child while hookrun waits (vfork). An exec error
    comes back through a pipe, as in Popen, and is reported as Popen's. ``env`` may be
    the entries already encoded (:func:`_known_env` and the marker's).
    """
    fork_exec = _FORK_EXEC
    if fork_exec is None:  # (an import statement costs thousands of instructions a run)
        fork_exec = _load_fork_exec()

    err_r, err_w = os.pipe()
    if err_w < 3:  # 0-2 closed in hookrun: Popen moves it up first
        os.close(err_r)
        os.close(err_w)
        return None
    devnull = -1
    stdin, stdout, stderr = stdio
    # popen_options(), written out: a new session only with a terminal to leave.
    setsid = not _GROUP_ONLY or has_terminal()
    try:
        try:
            env_list = env if type(env) is list else _env_list(env)  # type: ignore[arg-type]
            if _DEVNULL in stdio:
                devnull = os.open(os.devnull, os.O_RDWR | os.O_CLOEXEC)
                stdin, stdout, stderr = (devnull if fd == _DEVNULL else fd for fd in stdio)
            # (args, executable_list, close_fds, fds_to_keep, cwd, env_list, p2cread,
            # p2cwrite, c2pread, c2pwrite, errread, errwrite, errpipe_read, errpipe_write,
            # restore_signals, call_setsid, pgid_to_set, gid, extra_groups, uid,
            # child_umask, preexec_fn, allow_vfork): subprocess.Popen._execute_child's call.
            pid = fork_exec(
                list(argv),
                (program.encode(*_FS_CODEC) if type(program) is str else os.fsencode(program),),
                True,
                (err_w,),
                cwd,
                env_list,
                stdin,
                -1,
                -1,
                stdout,
                -1,
                stderr,
                err_r,
                err_w,
                True,
                setsid,
                -1 if setsid else 0,
                None,
                None,
                None,
                -1,
                None,  # no preexec_fn
                True,
            )
        except OSError as exc:  # no process could be made (EAGAIN, ENOMEM)
            raise _spawn_error(exc, argv[0], cwd) from None
        except (ValueError, TypeError) as exc:  # NUL in an argument or the environment
            raise SpawnError(exitcodes.NOT_EXECUTABLE, f"{argv[0]}: {exc}") from None
        finally:
            os.close(err_w)
            if devnull >= 0:
                os.close(devnull)
        # EOF at once: the exec closed the pipe before vfork returned.
        report = b""
        while part := os.read(err_r, 50000):
            report += part
    finally:  # a Ctrl-C included: the child, if any, is found by its marker
        os.close(err_r)
    if not report:
        return Spawned(pid)
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, 0)  # it exited 255 after reporting
    raise _exec_error(report, argv[0], program, cwd)


def _load_fork_exec() -> Callable[..., int]:
    global _FORK_EXEC
    from _posixsubprocess import fork_exec

    _FORK_EXEC = fork_exec
    return fork_exec


def _exec_error(report: bytes, argv0: str, program: str, cwd: str) -> SpawnError:
    """The SpawnError for a child's exec report (``Name:hex errno:message``), read as
    Popen reads it: ``noexec`` means the chdir to ``cwd`` failed."""
    try:
        name, hex_errno, message = report.split(b":", 2)
        number = int(hex_errno, 16)
    except ValueError:
        return SpawnError(exitcodes.NOT_EXECUTABLE, f"{argv0}: cannot execute: {report!r}")
    if name != b"OSError" or not number:
        text = message.decode(errors="replace")
        return SpawnError(exitcodes.NOT_EXECUTABLE, f"{argv0}: cannot execute: {text}")
    where = cwd if message == b"noexec" else program
    return _spawn_error(OSError(number, os.strerror(number), where), argv0, cwd)


def _popen(
    argv: Sequence[str],
    executable: str | None,
    cwd: str,
    env: Mapping[str, str],
    stdio: tuple[int, int, int],
    fds: Mapping[int, int] | None,
    limits: Sequence[tuple[int, int, int]] | None = None,
    umask: int | None = None,
) -> subprocess.Popen[bytes]:
    import subprocess  # see the TYPE_CHECKING import above

    extra: dict[str, Any] = {}
    held: list[int] = []  # this process's copies for the child, closed once it started
    helper = None
    told = ("", "")  # the program an exec error through the helper names
    if (fds or limits) and sys.platform != "win32":
        # Loaded with subprocess, for the same reason: few runs start a child. Never a
        # preexec_fn: it runs Python in a fork of this threaded process (fdpass).
        from hookrun.dispatch import fdpass

        placed = fdpass.place(fds) if fds and not limits else None
        if placed is not None:
            handed, held = placed
            extra = {"pass_fds": tuple(handed)}
        else:
            moved, held = fdpass.parent_sources(fds or {})
            try:
                data = fdpass.spec(moved, limits or (), executable or argv[0], argv, env)
            except (ValueError, IndexError) as exc:  # NUL in an argument, empty argv
                for fd in held:
                    os.close(fd)
                raise SpawnError(
                    exitcodes.NOT_EXECUTABLE, f"{argv[0] if argv else '?'}: {exc}"
                ) from None
            helper = fdpass.Helper(data, sorted(set(moved.values())))
            held += helper.parent_ends
            told = (argv[0], executable or argv[0])  # what an exec error names
            argv, executable, env = helper.argv, None, {}
            extra = {"pass_fds": helper.pass_fds}
    if umask is not None:  # (set in the child by _posixsubprocess: no preexec_fn)
        extra["umask"] = umask
    stdin, stdout, stderr = stdio
    try:
        proc = subprocess.Popen(
            list(argv),
            executable=executable,
            cwd=cwd,
            env=env,
            stdin=stdin,
            stdout=stdout,
            stderr=stderr,
            **popen_options(),
            **extra,
        )
    except OSError as exc:
        if helper is not None:
            helper.abandon()
            why = exc.strerror or exc
            raise SpawnError(
                exitcodes.NOT_EXECUTABLE,
                f"{told[0]}: cannot execute: the descriptor hand-over ({argv[0]}) did not "
                f"start: {why}",
            ) from None
        raise _spawn_error(exc, argv[0] if argv else "", cwd) from None
    except (ValueError, TypeError) as exc:  # NUL in an argument, empty argv
        if helper is not None:
            helper.abandon()
        raise SpawnError(exitcodes.NOT_EXECUTABLE, f"{argv[0] if argv else '?'}: {exc}") from None
    finally:
        for fd in held:
            os.close(fd)
    if helper is not None:
        report = helper.finish()
        if report:
            with contextlib.suppress(ChildProcessError):
                proc.wait()  # it exited 255 after reporting
            raise _exec_error(report, told[0], told[1], cwd)
    return proc


class Spawned:
    """A child os.posix_spawn started, with what the tracker uses of Popen's interface:
    ``pid``, ``returncode``, ``poll()``, ``wait(timeout)``, ``kill()``, ``send_signal()``.

    Reaped as Popen reaps: one thread at a time in ``waitpid`` (``poll`` answers None
    while another thread waits), ECHILD (someone else reaped it) read as 0.
    """

    __slots__ = ("_lock", "pid", "returncode")

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.returncode: int | None = None
        self._lock = threading.Lock()

    def poll(self) -> int | None:
        if self.returncode is None and self._lock.acquire(False):
            try:
                if self.returncode is None:
                    self._reap(os.WNOHANG)
            finally:
                self._lock.release()
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        if timeout is None:
            while self.returncode is None:
                with self._lock:
                    if self.returncode is None:
                        self._reap(0)
            return self.returncode
        deadline = time.monotonic() + timeout
        delay = 0.0005
        while self.poll() is None:
            left = deadline - time.monotonic()
            if left <= 0:
                import subprocess  # the kill path only

                raise subprocess.TimeoutExpired([str(self.pid)], timeout)
            time.sleep(min(delay, left, 0.05))
            delay *= 2
        assert self.returncode is not None
        return self.returncode

    def send_signal(self, sig: int) -> None:
        # As Popen: never signal a pid already reaped (it may name another process).
        if self.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, sig)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def _reap(self, flags: int) -> None:
        try:
            pid, status = os.waitpid(self.pid, flags)
        except ChildProcessError:
            self.returncode = 0
            return
        if pid == self.pid:
            self.returncode = os.waitstatus_to_exitcode(status)


def wait_awake(proc: Child) -> int:
    """``proc.wait()``; on the main thread, in waits of at most ``MAIN_WAIT`` each, so
    that a signal's handler gets its turn (:func:`hookrun.dispatch.cancel.wait_bound`):
    a blocking waitpid there would sleep through a Ctrl-C another thread received."""
    bound = wait_bound(None)
    if bound is None or proc.poll() is not None:
        return proc.wait()
    pidfd = pidfd_of(proc.pid)
    if pidfd < 0:  # no pidfd (not Linux, an old kernel): waitpid, polled
        import subprocess  # loaded already: proc was started

        while True:
            try:
                return proc.wait(bound)
            except subprocess.TimeoutExpired:
                continue
    try:
        import select  # loaded already with subprocess

        poller = select.poll()
        poller.register(pidfd, select.POLLIN)
        # The returncode too: another thread (the kill path) may reap it first, and the
        # pid be given to a stranger the pidfd would then wait for.
        while not poller.poll(bound * 1000) and proc.returncode is None:
            pass
    finally:
        os.close(pidfd)
    return proc.wait()


def pidfd_of(pid: int) -> int:
    """A pidfd for ``pid`` (Linux 5.3+), or -1 where there is none."""
    if _PIDFD_OPEN is None:
        return -1
    try:
        return _PIDFD_OPEN(pid)
    except OSError:  # ENOSYS (an old kernel, a sandbox), EMFILE, ESRCH
        return -1


_PIDFD_OPEN: Callable[[int], int] | None = getattr(os, "pidfd_open", None)


# With SIGCHLD ignored (SIG_IGN, inherited across exec; some hosts set it to avoid
# zombies) the system reaps every child at once and its exit status is lost: waitpid
# gives ECHILD, which Popen reads as 0 — a hook's "exit 2" (deny) would read as allow.
# `hookrun` as a command takes the default back at start (hookrun/__init__.py); a host
# embedding the dispatcher gets this error instead of a status nobody could know.
_SIGCHLD: int | None = getattr(signal, "SIGCHLD", None)
SIGCHLD_IGNORED = (
    "cannot run a program: SIGCHLD is ignored (SIG_IGN) in this process, so the "
    "system discards every child's exit status and a hook's deny would read as success "
    "— restore it with signal.signal(signal.SIGCHLD, signal.SIG_DFL) before dispatching"
)


class ProcessTracker:
    """Every process started for one dispatch run, so all can be ended together.

    Thread-safe: the shell spawns and waits on its thread while the watchdog or a
    cancelling thread may end everything at any moment.
    """

    # Start values that are only ever replaced, read from the class until a tracker
    # assigns its own: every run makes a tracker, and most start nothing.
    _marked = False  # a spawn registered the marker with the sentinel
    _stopped: str | None = None
    _killer: threading.Thread | None = None

    def __init__(
        self,
        dispatch_id: str | None = None,
        guard: Guard | None = None,
        refuse: str | None = None,
    ) -> None:
        """``guard``: the run's stop conditions, armed (:meth:`watch`) at the first
        spawn — a run made only of builtins never pays for the watchdog.
        ``refuse``: when set, no process is started at all; each spawn fails with
        exit 126 and this text (``hookrun replay`` re-decides the past and must not
        act: every external command, a script's or the in-process shell's, comes here)."""
        # Drawn on first use: a run of builtins only never marks a child with it.
        self._dispatch_id = dispatch_id or None
        self._guard = guard
        self._refuse = refuse
        self.procs: list[Child] = []
        self._lock = threading.Lock()  # procs, _stopped, _watched
        self._end_lock = threading.Lock()  # one teardown at a time
        self._watched: dict[tuple[int, bool], Guard] = {}
        self._disarm: list[Callable[[], None]] = []

    @property
    def dispatch_id(self) -> str:
        """The run's marker: every child gets it in its environment (``MARKER``)."""
        if self._dispatch_id is None:
            with _ID_LOCK:  # pipeline stages spawn from threads of their own
                if self._dispatch_id is None:
                    self._dispatch_id = new_dispatch_id()
        return self._dispatch_id

    @property
    def touched(self) -> bool:
        """Whether anything was started, marked, watched or stopped: False for a run of
        builtins only, whose end then has nothing to disarm or end (what another thread
        appended before this read is seen, as under the locks)."""
        return bool(self.procs or self._disarm or self._watched or self._marked or self._stopped)

    # -- starting --------------------------------------------------------------------

    def spawn(
        self,
        argv: Sequence[str],
        *,
        cwd: str,
        env: Mapping[str, str],
        stdin: int,
        stdout: int,
        stderr: int,
        executable: str | None = None,
        fds: Mapping[int, int] | None = None,
        watch: bool = True,
        limits: Sequence[tuple[int, int, int]] | None = None,
        umask: int | None = None,
    ) -> Child:
        """Start ``argv`` (argv[0] already resolved to a path or a PATH name; or
        ``executable`` is the file to run, argv[0] then only what the child sees).

        ``watch``: arm the tracker's guard (:meth:`watch`) once the child exists. False
        only for a caller that enforces the guard itself (:mod:`.pump`'s pidfd loop).

        ``fds`` (target: source descriptor) are more descriptors the child gets at the
        target numbers (POSIX; see :mod:`hookrun.dispatch.fdpass`).

        ``limits`` ((resource, soft, hard) each) are set in the child before it runs
        the program: the shell's ``ulimit`` (POSIX; :mod:`hookrun.dispatch.shell.ulimit`).
        ``umask``: the file mode mask set in the child (the shell's ``umask MODE``);
        None: this process's, inherited. (os.posix_spawn cannot set one: Popen then.)

        Raises :class:`SpawnError` for not-found (127) / not-executable (126), and
        :class:`Interrupted` once the run is being torn down (a child started
        then would escape the kill that is under way).
        """
        if _SIGCHLD is not None and _signal.getsignal(_SIGCHLD) == _signal.SIG_IGN:
            raise StatusUnknowable(SIGCHLD_IGNORED)
        if self._refuse is not None:
            raise SpawnError(
                exitcodes.NOT_EXECUTABLE, f"{argv[0] if argv else '?'}: {self._refuse}"
            )
        dispatch_id = self.dispatch_id
        argv0 = argv[0] if argv else ""
        program = executable or argv0
        stdio = (stdin, stdout, stderr)
        # The environment as encoded for an earlier child, when it is the same (the
        # vfork primitive only; None: the general route, with a copy that has the marker).
        known = _known_env(env) if _VFORK else None
        child_env: dict[str, str] | None = None
        if known is not None:
            try:
                known = [*known, _MARKER_EQ + dispatch_id.encode(*_FS_CODEC)]
            except UnicodeError:  # (an id given by the caller) the general route says why
                known = None
        if known is None:
            child_env = dict(env)
            child_env[MARKER] = dispatch_id
        direct = (
            not limits
            and umask is None
            and spawn_route(
                program, argv0, cwd, stdio, fds, child_env or env, env_checked=known is not None
            )
            == ("posix_spawn")
        )
        with self._lock:
            if self._stopped is not None:
                raise Interrupted(self._stopped)
            # Before the child exists: were hookrun killed right after the fork, the
            # sentinel would already be there to end it (once it is registered).
            SENTINEL.ready()
            self._marked = True
            SENTINEL.mark(dispatch_id)
            proc: Child | None = None
            if direct:
                proc = _posix_spawn(program, argv, known or child_env, stdio, cwd)  # type: ignore[arg-type]
            if proc is None:
                if child_env is None:
                    child_env = dict(env)
                    child_env[MARKER] = dispatch_id
                proc = _popen(argv, executable, cwd, child_env, stdio, fds, limits, umask)
            SENTINEL.watch(proc)
            self.procs.append(proc)
        if watch and self._guard is not None:
            self.watch(self._guard)
        return proc

    # -- waiting ---------------------------------------------------------------------

    def wait(self, proc: Child, guard: Guard) -> int:
        """Wait for ``proc``; raise Interrupted when ``guard`` says stop.

        Returns the POSIX-style status: the exit code, or 128+N for signal N.
        """
        guard.check()
        self.watch(guard)
        code = wait_awake(proc)
        guard.check()
        return exit_status(code)

    def watch(self, guard: Guard, *, deadline: bool = True) -> None:
        """Make ``guard`` end this tracker's processes when it trips. Idempotent.

        Called by :meth:`wait` itself, so that any caller's deadline and token are
        honoured even while a wait is blocked. ``deadline`` False: the token only, for
        a caller that enforces the deadline itself and must not wait on the watchdog.
        """
        if (guard.deadline is None or not deadline) and guard.token is None:
            return
        key = (id(guard), deadline)
        with self._lock:
            if key in self._watched:
                return
            self._watched[key] = guard
        if deadline and guard.deadline is not None:
            self._disarm.append(
                WATCHDOG.schedule(guard.deadline, lambda: self.interrupt("timeout"))
            )
        if guard.token is not None:
            self._disarm.append(guard.token.add_callback(lambda: self.interrupt("cancelled")))

    def unwatch(self) -> None:
        """Disarm every deadline and token callback (the run is over)."""
        if not (self._disarm or self._watched):  # nothing armed (read as `touched` reads)
            return
        with self._lock:
            disarm, self._disarm = self._disarm, []
            self._watched.clear()
        for fn in disarm:
            fn()

    # -- ending ----------------------------------------------------------------------

    @property
    def stopped(self) -> str | None:
        """``"timeout"`` / ``"cancelled"`` once :meth:`interrupt` ran, else None."""
        return self._stopped

    def interrupt(self, reason: str, grace: float = DEFAULT_GRACE) -> None:
        """Refuse new children and end every tree, on a thread of its own.

        Returns at once: it is called from the watchdog thread and from whatever
        thread cancels a token, neither of which may block for ``grace``.
        """
        with self._lock:
            if self._stopped is not None:
                return
            self._stopped = reason
            self._killer = threading.Thread(
                target=self.end_all, args=(grace,), name="hookrun-kill", daemon=True
            )
        self._killer.start()

    def end_all(self, grace: float = DEFAULT_GRACE, *, scan: bool = False) -> None:
        """End every tracked process tree: politely, then by force after ``grace``.

        ``scan`` forces the search for this run's marker even when every group is
        already empty: the caller has evidence (a capture pipe still held open)
        that something escaped.
        """
        with self._end_lock:
            with self._lock:
                procs = list(self.procs)
            if not procs and not scan:
                if self._marked:
                    SENTINEL.forget(marker=self.dispatch_id)  # a spawn that failed marked it
                return
            # The marker hunt is for a run being torn down (a timeout, a cancel, a child
            # still running when its run ends) or one whose pipes something still holds;
            # after a hook whose processes all exited by themselves, only their groups
            # and the descendants of what is left there are ended.
            thorough = self._stopped is not None or scan
            for proc in procs:
                if proc.poll() is None:
                    thorough = True  # ended early: still running as its run ends
                    break
            busy = _signal_groups(procs, force=False)
            if busy or thorough:
                _end_trees(procs, self.dispatch_id if thorough else None, grace)
            with self._lock:
                # Everything is gone: forget it, so a late call cannot signal a
                # process group id the system has since given to someone else.
                self.procs = [p for p in self.procs if p not in procs]
            # Nor the sentinel, should hookrun be killed later (the marker with the last
            # group: one write for both).
            for proc in procs[:-1]:
                SENTINEL.forget(proc)
            SENTINEL.forget(procs[-1] if procs else None, marker=self.dispatch_id)


def _signal_groups(procs: Sequence[Child], *, force: bool) -> bool:
    """TERM (or KILL) each child's group; True if any group still had a member.

    Reaps children that already exited first, so that a leader's own zombie does
    not count as a member.
    """
    busy = False
    for proc in procs:
        running = proc.poll() is None
        if sys.platform == "win32":  # pragma: no cover - no process groups to signal
            if running:
                busy = True
                proc.kill() if force else _windows_break(proc)
            continue
        try:
            os.killpg(proc.pid, signal.SIGKILL if force else signal.SIGTERM)
        except ProcessLookupError:
            continue
        except PermissionError:  # a member changed credentials (setuid helper)
            pass
        busy = True
    return busy


def _windows_break(proc: Child) -> None:  # pragma: no cover
    # CTRL_BREAK reaches a console process group created with
    # CREATE_NEW_PROCESS_GROUP; it is Windows' closest thing to SIGTERM.
    with contextlib.suppress(OSError):
        os.kill(proc.pid, signal.CTRL_BREAK_EVENT)  # type: ignore[attr-defined,unused-ignore]


def _groups_alive(procs: Sequence[Child], platform: str = sys.platform) -> bool:
    """Does any process of these children's groups still run (zombies do not count)?"""
    if platform == "win32":  # pragma: no cover
        return any(p.poll() is None for p in procs)
    for proc in procs:
        proc.poll()  # reap our own child: its zombie would count below
    if platform.startswith("linux"):
        # killpg(pgid, 0) also succeeds for a group of zombies, and a killed
        # grandchild stays a zombie until init reaps it (some container inits
        # are slow to): polling on it would always wait out the whole grace.
        return _live_in_groups({p.pid for p in procs})
    alive = False
    for proc in procs:  # pragma: no cover - macOS
        try:
            os.killpg(proc.pid, 0)
            alive = True
        except ProcessLookupError:
            pass
        except PermissionError:
            alive = True
    return alive


def _live_in_groups(pgids: set[int]) -> bool:
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            stat = _read(f"/proc/{name}/stat")
            # "pid (comm) state ppid pgrp …"
            state, _, pgrp = stat[stat.rindex(b")") + 2 :].split()[:3]
        except (OSError, ValueError):
            continue
        if int(pgrp) in pgids and state not in (b"Z", b"X"):
            return True
    return False


def _end_trees(procs: Sequence[Child], dispatch_id: str | None, grace: float) -> None:
    """The kill path: TERM the trees, wait up to ``grace``, KILL what is left, reap.

    ``dispatch_id`` None: the marker holders outside the trees are left alone.
    """
    import psutil  # only here: ~25 ms to import

    own = {p.pid for p in procs}
    targets = _snapshot(psutil, procs, dispatch_id, own)
    _send(targets, force=False)
    deadline = time.monotonic() + grace
    while time.monotonic() < deadline:
        if not _groups_alive(procs) and not _living(psutil, targets):
            break
        time.sleep(_POLL)
    # Forks made while we waited are caught by scanning again before each KILL.
    for _ in range(2):
        targets = _merge(_living(psutil, targets), _snapshot(psutil, procs, dispatch_id, own))
        _signal_groups(procs, force=True)
        _send(targets, force=True)
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
    _reap(psutil, procs, targets)


def _merge(a: list[Any], b: list[Any]) -> list[Any]:
    seen = {p.pid for p in a}
    return a + [p for p in b if p.pid not in seen]


def _snapshot(
    psutil: Any, procs: Sequence[Child], dispatch_id: str | None, own: set[int]
) -> list[Any]:
    """psutil handles for the live descendants and the marker holders of this run.

    One pass over the process table, whatever the tree's size: psutil's
    ``children(recursive=True)`` rescans the whole table for every root.
    """
    ppids, marked = _scan(psutil, dispatch_id)
    kids: dict[int, list[int]] = {}
    for pid, ppid in ppids.items():
        kids.setdefault(ppid, []).append(pid)
    todo = [p.pid for p in procs if p.poll() is None] + sorted(marked)
    found: set[int] = set()
    while todo:
        pid = todo.pop()
        if pid in found:
            continue
        found.add(pid)
        todo.extend(kids.get(pid, ()))
    # Our own children are handled through Popen: psutil would reap them and
    # leave Popen with a wrong exit status.
    found -= own
    found.discard(os.getpid())
    handles = []
    for pid in sorted(found):
        # The handle remembers the process's start time, so a signal sent later
        # cannot hit a new process that inherited the pid.
        with contextlib.suppress(psutil.Error):
            handles.append(psutil.Process(pid))
    return handles


def _scan(
    psutil: Any, dispatch_id: str | None, platform: str = sys.platform
) -> tuple[dict[int, int], set[int]]:
    """The parent of every process, and the pids whose environment holds ``dispatch_id``
    (none when it is None: no environment is read then)."""
    if platform.startswith("linux"):
        return _scan_proc(dispatch_id)
    return _scan_psutil(psutil, dispatch_id)


def _scan_proc(dispatch_id: str | None) -> tuple[dict[int, int], set[int]]:
    # Read /proc directly: psutil reads the same files, but its per-process
    # objects and error paths made one pass cost 40-120 ms here against ~2 ms
    # raw, on a machine where processes come and go by the dozen.
    entry = f"{MARKER}={dispatch_id}\0".encode() if dispatch_id is not None else None
    me, uid = os.getpid(), os.getuid()
    ppids: dict[int, int] = {}
    marked: set[int] = set()
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        pid = int(name)
        try:
            stat = _read(f"/proc/{name}/stat")
            # "pid (comm) state ppid …": comm may hold spaces and parentheses.
            ppids[pid] = int(stat[stat.rindex(b")") + 2 :].split()[1])
            if entry is None or pid == me or (uid != 0 and os.stat(f"/proc/{name}").st_uid != uid):
                continue
            env = _read(f"/proc/{name}/environ")
        except (OSError, ValueError, IndexError):
            continue
        if env.startswith(entry) or b"\0" + entry in env:
            marked.add(pid)
    return ppids, marked


def _read(path: str) -> bytes:
    fd = os.open(path, os.O_RDONLY)
    try:
        parts = []
        while chunk := os.read(fd, 65536):
            parts.append(chunk)
        return b"".join(parts)
    finally:
        os.close(fd)


def _scan_psutil(psutil: Any, dispatch_id: str | None) -> tuple[dict[int, int], set[int]]:
    me = os.getpid()
    uid = os.getuid() if hasattr(os, "getuid") else None
    ppids: dict[int, int] = {}
    marked: set[int] = set()
    for proc in psutil.process_iter(["ppid"]):
        ppids[proc.pid] = proc.info["ppid"]
        try:
            if proc.pid == me or dispatch_id is None:
                continue
            # Others' processes cannot be ours and would only cost an AccessDenied.
            if uid is not None and uid != 0 and proc.uids().real != uid:
                continue
            if proc.environ().get(MARKER) == dispatch_id:
                marked.add(proc.pid)
        except psutil.Error:
            continue
    return ppids, marked


def _send(targets: Sequence[Any], *, force: bool) -> None:
    import psutil

    for proc in targets:
        # psutil checks the pid still names the process it snapshotted.
        with contextlib.suppress(psutil.Error):
            proc.kill() if force else proc.terminate()


def _living(psutil: Any, targets: Sequence[Any]) -> list[Any]:
    alive = []
    for proc in targets:
        try:
            if proc.is_running() and proc.status() != psutil.STATUS_ZOMBIE:
                alive.append(proc)
        except psutil.Error:
            pass
    return alive


def _reap(psutil: Any, procs: Sequence[Child], targets: Sequence[Any]) -> None:
    import subprocess  # loaded already: procs were started

    deadline = time.monotonic() + _REAP
    for proc in procs:
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(max(0.0, deadline - time.monotonic()))
    while _living(psutil, targets) and time.monotonic() < deadline:
        time.sleep(_POLL)
    _reap_orphaned_children(targets)


def _reap_orphaned_children(targets: Sequence[Any], platform: str = sys.platform) -> None:
    """Collect the exit status of our own children found by marker, not through Popen.

    Such a child was forked by a Popen that a KeyboardInterrupt cut short before it
    returned: no Popen object will ever wait for it, and a host that goes on after
    Ctrl-C would keep its zombie. Only this run's marker holders are targets, so no
    other Popen's child is reaped behind its back.
    """
    if platform == "win32":  # pragma: no cover - no zombies to collect
        return
    me = os.getpid()
    for proc in targets:
        try:
            if proc.ppid() != me:
                continue
        except Exception:  # noqa: BLE001 - psutil.Error: gone, and reaped by someone
            continue
        with contextlib.suppress(ChildProcessError, OSError):
            os.waitpid(proc.pid, os.WNOHANG)


def default_env() -> dict[str, str]:
    return dict(os.environ)
