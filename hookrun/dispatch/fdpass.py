"""Descriptors above 2 handed to a child at the numbers the script gave them, and the
shell's ``ulimit`` limits set in it (POSIX) — with no Python run in a forked child.

``cmd 3<<EOF``, ``exec 4>log; cmd``, ``cat <(…)`` (``/dev/fd/63``): bash's child
inherits those descriptors at those numbers. hookrun's in-process shell keeps them as
streams whose real descriptor has some other number, and ``subprocess`` can only keep a
descriptor at the number it already has (``pass_fds``).

Moving them in the child with ``preexec_fn`` (what this module did until s19) runs
Python in a fork of a process with threads: CPython then runs every at-fork handler
(``threading``'s, the sentinel's) in the child, and under coverage's tracer such a child
waited for ever on a lock another thread held at the fork (CI's coverage stage hung).
Python's docs call ``preexec_fn`` unsafe with threads. So, in order:

1. :func:`place`: a copy of each source at exactly its target number, made in this
   process: ``F_DUPFD`` gives the lowest free number from the target up, atomically,
   so it is the target when that is free (a psub's 63, usually) and nothing another
   thread holds is touched; then ``pass_fds``. No extra process; Popen may vfork.
2. Otherwise (a target taken here: 3-9 often are, by hookrun's own pipes; or limits to
   set) the child is started through :data:`HELPER`: a fresh ``python -I -S`` (no
   threads, no locks, nothing inherited but the sources), which moves the descriptors,
   sets the limits and execs the program in place (same pid, same process group). What
   it needs — moves, limits, program, argv and environment — comes through a pipe, not
   its command line (which any user may read in ``/proc``); an exec error comes back
   through another, in Popen's own format, so the caller reports it as Popen's.
   It costs a Python start (~10 ms) on this rare path only (bench in the s19 report).

Either way the child gets its three streams, the targets and nothing else
(``close_fds``). On Windows a child gets its three streams only.
"""

from __future__ import annotations

import fcntl
import os
import sys
import threading
from collections.abc import Mapping, Sequence

# The exec helper, run as `python -I -S -c HELPER SPEC_FD ERR_FD`. SPEC is NUL-separated
# bytes: the number of moves, each target and source; the number of limits, each
# resource, soft, hard; the number of environment entries, each NAME=value; the program;
# its argv. Kept to builtins and C modules: its start-up is the whole cost.
HELPER = """\
import os,sys,fcntl
i,e=int(sys.argv[1]),int(sys.argv[2])
b=b""
while 1:
 c=os.read(i,65536)
 if not c:break
 b+=c
os.close(i)
a=b.split(b"\\0");k=0
def n():
 global k
 k+=1
 return a[k-1]
try:
 mv=[(int(n()),int(n())) for _ in range(int(n()))]
 li=[(int(n()),int(n()),int(n())) for _ in range(int(n()))]
 env=dict(n().split(b"=",1) for _ in range(int(n())))
 exe=n();argv=a[k:]
 top=max([e]+[x for m in mv for x in m])+1
 e0,e=e,fcntl.fcntl(e,fcntl.F_DUPFD_CLOEXEC,top)
 os.close(e0)
 hi=[(t,fcntl.fcntl(s,fcntl.F_DUPFD,top)) for t,s in mv]
 for s in{s for t,s in mv}:
  os.close(s)
 for t,h in hi:
  os.dup2(h,t);os.close(h)
 if li:
  import resource
  for r,s,h in li:resource.setrlimit(r,(s,h))
 import _signal
 for x in("SIGPIPE","SIGXFZ","SIGXFSZ"):
  if hasattr(_signal,x):_signal.signal(getattr(_signal,x),_signal.SIG_DFL)
 if b"/" in exe:os.execve(exe,argv,env)
 else:os.execvpe(exe,argv,env)
except OSError as x:
 os.write(e,b"OSError:%x:"%(x.errno or 0))
except BaseException as x:
 os.write(e,b"SubprocessError:0:"+repr(x).encode()[:300])
os._exit(255)
"""


def place(fds: Mapping[int, int]) -> tuple[list[int], list[int]] | None:
    """``(pass_fds, copies)``: each ``target: source`` descriptor at exactly ``target`` in
    this process — the source itself when it has that number, else a close-on-exec copy
    made there (``copies``, for the caller to close once the child started) — or None
    when a target is taken here (then nothing was left open)."""
    keep: list[int] = []
    made: list[int] = []
    for target, source in sorted(fds.items()):
        if source == target:
            keep.append(target)
            continue
        try:
            copy = fcntl.fcntl(source, fcntl.F_DUPFD_CLOEXEC, target)
        except OSError:
            copy = -1
        if copy != target:
            for fd in (*made, copy):
                if fd >= 0:
                    os.close(fd)
            return None
        made.append(copy)
    return keep + made, made


def parent_sources(fds: Mapping[int, int]) -> tuple[dict[int, int], list[int]]:
    """``fds`` with each source among 0–2 replaced by a copy, and the copies (for the
    parent to close once the child started): in the helper, 0–2 are already the child's
    own streams when the moves run."""
    copies: list[int] = []
    out: dict[int, int] = {}
    for target, source in fds.items():
        if source < 3:
            source = os.dup(source)
            copies.append(source)
        out[target] = source
    return out, copies


def spec(
    fds: Mapping[int, int],
    limits: Sequence[tuple[int, int, int]],
    program: str,
    argv: Sequence[str],
    env: Mapping[str, str],
) -> bytes:
    """What :data:`HELPER` reads (raises ValueError for a NUL byte, as Popen does)."""
    fields: list[bytes] = [b"%d" % len(fds)]
    for target, source in sorted(fds.items()):
        fields += [b"%d" % target, b"%d" % source]
    fields.append(b"%d" % len(limits))
    for number, soft, hard in limits:
        fields += [b"%d" % number, b"%d" % soft, b"%d" % hard]
    fields.append(b"%d" % len(env))
    fields += [os.fsencode(k) + b"=" + os.fsencode(v) for k, v in env.items()]
    fields.append(os.fsencode(program))
    fields += [os.fsencode(a) for a in argv]
    if any(b"\0" in f for f in fields):
        raise ValueError("embedded null byte")
    return b"\0".join(fields)


class Helper:
    """One child started through :data:`HELPER`: its Popen arguments, then (after the
    start) :meth:`finish` hands it the spec and reads back whether the exec worked."""

    def __init__(self, data: bytes, sources: Sequence[int]) -> None:
        self._data = data
        spec_r, self._spec_w = os.pipe()
        self._err_r, err_w = os.pipe()
        self.parent_ends = [spec_r, err_w]  # closed by the caller once the child started
        self.argv = [sys.executable, "-I", "-S", "-c", HELPER, str(spec_r), str(err_w)]
        self.pass_fds = (spec_r, err_w, *sources)

    def finish(self) -> bytes:
        """Write the spec (from a thread: it may be more than a pipe holds, and the
        helper may die before reading it all) and return the helper's error report
        (b"": the program runs)."""
        writer = threading.Thread(target=_write_spec, args=(self._spec_w, self._data))
        writer.start()
        report = b""
        try:
            while part := os.read(self._err_r, 50000):
                report += part
        finally:
            os.close(self._err_r)
            writer.join()
        return report

    def abandon(self) -> None:
        """The helper never started: close what only it would have closed."""
        for fd in (self._spec_w, self._err_r):
            os.close(fd)


def _write_spec(fd: int, data: bytes) -> None:
    view = memoryview(data)
    try:
        while view:
            view = view[os.write(fd, view) :]
    except OSError:  # EPIPE: the helper died; its exit says so
        pass
    finally:
        os.close(fd)


def helper_usable() -> bool:
    """Whether this process can start :data:`HELPER` (an interpreter to run it)."""
    return bool(sys.executable) and os.access(sys.executable, os.X_OK)
