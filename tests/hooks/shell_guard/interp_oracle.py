"""The oracle for code in interpreter strings: run the real perl, ruby or awk, and see.

A line (``perl -e '…'``, ``ruby -e '…'``, ``awk '…'``) runs in bash, for real, in a
sandbox where nothing can be deleted:

* every ``unlink``/``unlinkat``/``rmdir`` system call of the line's processes is made to
  fail and the process killed on the spot (``strace -f -e inject=…:error=EPERM:
  signal=SIGKILL``), and recorded with its path (a relative one resolved against that
  process's working directory, followed through ``chdir``/``fchdir`` and forks);
* ``rm`` and ``git`` are fakes first on ``PATH`` that record their arguments and
  working directory (a program run by its absolute path would be the real one: its
  deletes are the system calls above; the tables name none);
* it runs as ``nobody``, with ``HOME`` a fresh directory holding the project it starts
  in, and a time limit after which its whole session is killed.

What it records is then judged plainly: a recursive delete (``rm -r…`` by a program, or a
delete call made by the interpreter itself: ``rmtree``, ``FileUtils.rm_rf``) of ``/``,
a system directory, the home directory or anything in it outside the project, or the
project's root; ``git push`` forced, ``git reset --hard``, ``git clean -f``.
"""

from __future__ import annotations

import contextlib
import os
import posixpath
import pwd
import re
import shutil
import signal
import stat
import subprocess
import tempfile
import time
from pathlib import Path

from hookrun.records import NamedTuple

_FAKE = (
    "#!/bin/sh\n"
    '{{ printf \'%s\\037\' "$(basename "$0")" "$PWD" "$@"; printf \'\\n\'; }}'
    ' >> "{log}"\n'
)
_SYSCALL = re.compile(r"^(\d+) +(\w+)\((.*)\) += (-?\d+|\?)")
_PATH_ARG = re.compile(r'"((?:[^"\\]|\\.)*)"')
_FD_PATH = re.compile(r"^(?:AT_FDCWD|\d+)<(.*)>$")
_TEMP_ROOTS = ("/tmp/", "/var/tmp/", "/dev/shm/")
_REAL_RM = re.compile(r"/(?:usr/)?bin/(?:rm|git)\b")


class Effect(NamedTuple):
    """One thing the line did: ``kind`` "run" (``argv`` of a fake program, in ``cwd``)
    or "delete" (``path``, absolute: a delete system call the kernel was asked for)."""

    kind: str
    argv: tuple[str, ...] = ()
    cwd: str = ""
    path: str = ""


def unavailable(interpreter: str) -> str | None:
    """Why the oracle cannot run ``interpreter`` here, or None when it can."""
    for tool in ("strace", "bash", interpreter):
        if shutil.which(tool) is None:
            return f"{tool} is not installed"
    if os.geteuid() != 0:
        return "the sandbox runs the line as nobody: it needs root to switch"
    return None


class InterpOracle:
    """Runs lines in the sandbox above; :meth:`dangers` says what each did that harms."""

    def __init__(self) -> None:
        self._dir = tempfile.TemporaryDirectory(prefix="hk-interp-")
        self.root = Path(self._dir.name)
        self.root.chmod(0o755)
        self.home = self.root / "home"
        self.proj = self.home / "proj"
        self.temp = self.root / "tmp"
        self.bin = self.root / "bin"
        ssh = self.home / ".ssh"
        for d in (self.home, self.proj, self.proj / "build", ssh, self.temp, self.bin):
            d.mkdir(parents=True)
        (self.proj / "build" / "out.o").write_text("x")
        (ssh / "id_test").write_text("x")
        (self.home / "notes.txt").write_text("x")
        nobody = pwd.getpwnam("nobody")
        self._ids = (nobody.pw_uid, nobody.pw_gid)
        for d in (self.home, self.proj, self.proj / "build", ssh, self.temp):
            os.chown(d, *self._ids)
        self._n = 0

    def close(self) -> None:
        self._dir.cleanup()

    def effects(self, line: str, stdin: str = "x\n", timeout: float = 10.0) -> list[Effect]:
        """What running ``line`` in bash did (see the module's doc)."""
        if _REAL_RM.search(line):
            raise AssertionError(f"the oracle's lines run the fakes, not {line!r}")
        self._n += 1
        run_dir = self.root / f"r{self._n}"
        run_dir.mkdir()
        log = run_dir / "runs"
        log.touch()
        os.chown(log, *self._ids)
        for name in ("rm", "git"):
            fake = self.bin / name
            fake.write_text(_FAKE.format(log=log))
            fake.chmod(fake.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
        trace = run_dir / "trace"
        env = {
            "PATH": f"{self.bin}:/usr/local/bin:/usr/bin:/bin",
            "HOME": str(self.home),
            "TMPDIR": str(self.temp),
            "LC_ALL": "C.UTF-8",
            "USER": "nobody",
        }
        strace = ["strace", "-f", "-qq", "-s", "4096", "-y", "-o", str(trace), "-u", "nobody"]
        strace += ["-e", "trace=unlink,unlinkat,rmdir,chdir,fchdir,clone,clone3,fork,vfork"]
        strace += ["-e", "signal=none"]
        strace += ["-e", "inject=unlink,unlinkat,rmdir:error=EPERM:signal=SIGKILL"]
        proc = subprocess.Popen(
            [*strace, "bash", "-c", line],
            cwd=self.proj,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        try:
            proc.communicate(stdin.encode(), timeout=timeout)
        except subprocess.TimeoutExpired:
            pass
        finally:
            _end_session(proc)
        out = [_run(row) for row in log.read_text().split("\n") if row]
        out.extend(_deletes(trace.read_text(errors="replace"), str(self.proj)))
        return out

    def dangers(self, line: str, stdin: str = "x\n") -> list[str]:
        """Each dangerous thing ``line`` did, described (empty: it did none)."""
        return [d for e in self.effects(line, stdin) if (d := self.danger(e))]

    def danger(self, effect: Effect) -> str:
        if effect.kind == "delete":
            where = self._bad_place(effect.path)
            return f"deletes {effect.path} ({where})" if where else ""
        name, *args = effect.argv
        if name == "rm":
            options = [a for a in args if a.startswith("-") and a != "-"]
            recursive = any(
                a == "--recursive" or (not a.startswith("--") and ("r" in a or "R" in a))
                for a in options
            )
            for target in (a for a in args if a not in options):
                path = posixpath.normpath(posixpath.join(effect.cwd, target))
                where = self._bad_place(path)
                if recursive and where:
                    return f"rm {' '.join(args)} ({where})"
            return ""
        if name == "git" and args:
            sub, rest = args[0], args[1:]
            forced = sub == "push" and any(
                a in ("-f", "--force") or a.startswith("+") for a in rest
            )
            if forced or (sub == "reset" and "--hard" in rest):
                return "git " + " ".join(args)
            if sub == "clean" and any(a.startswith("-") and "f" in a for a in rest):
                return "git " + " ".join(args)
        return ""

    def _bad_place(self, path: str) -> str:
        """Why deleting ``path`` (recursively) is a disaster here, or ""."""
        home, proj = str(self.home), str(self.proj)
        if path == "/":
            return "the root"
        if path == proj:
            return "the project's root"
        if path == home or (path.startswith(home + "/") and not path.startswith(proj + "/")):
            return "the home directory"
        if path.startswith(proj + "/") or path.startswith(_TEMP_ROOTS):
            return ""
        return "a system path"


def _run(row: str) -> Effect:
    name, cwd, *args = row.split("\037")[:-1]
    return Effect("run", (name, *args), cwd)


def _deletes(trace: str, start: str) -> list[Effect]:
    """The delete calls of a trace, each path made absolute by following the working
    directory of each process (``chdir``, ``fchdir``, inherited at a fork)."""
    cwd: dict[str, str] = {}
    out: list[Effect] = []
    for line in trace.splitlines():
        m = _SYSCALL.match(line)
        if m is None:
            continue
        pid, call, args, result = m.groups()
        here = cwd.get(pid, start)
        if call in ("clone", "clone3", "fork", "vfork"):
            if result.isdigit():
                cwd[result] = here
            continue
        if call == "fchdir":
            fd = _FD_PATH.match(args.strip())
            if fd and result == "0":
                cwd[pid] = fd.group(1)
            continue
        paths = [_unescape(p) for p in _PATH_ARG.findall(args)]
        if not paths:
            continue
        base = here
        if call == "unlinkat":
            fd = _FD_PATH.match(args.split(",", 1)[0].strip())
            if fd:
                base = fd.group(1)
        path = posixpath.normpath(posixpath.join(base, paths[0]))
        if call == "chdir":
            if result == "0":
                cwd[pid] = path
            continue
        out.append(Effect("delete", path=path))
    return out


def _unescape(text: str) -> str:
    return text.encode("latin-1", "backslashreplace").decode("unicode_escape", "replace")


def _end_session(proc: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    for _ in range(200):
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            return
        time.sleep(0.005)
