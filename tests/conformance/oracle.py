"""Run Oils spec cases through bash and through hookrun, and judge hookrun against bash.

Each case runs the way Oils' own runner (test/sh_spec.py) runs it, so bash's results
are comparable with the spec file's expectations:

* its own empty directory as cwd (with ``_tmp/`` when the file asks for it);
* the environment is only ``PATH`` (the helpers' ``spec/bin`` first), ``LC_ALL=C.UTF-8``,
  ``REPO_ROOT`` (a copy of the few Oils fixtures the cases read), ``TMP`` (the case's
  directory) and ``SH`` (the shell under test);
* bash reads the case from stdin, as Oils runs it; so does hookrun: the command
  ``bash`` through its public entry point, ``hookrun.dispatch.run``, with the bash
  stand-in forced and the case as stdin (worker.py). Both run in script mode (``$-``
  has ``s``), like for like.

The expectation is bash's own stdout and exit status. A case whose bash result differs
from what the spec file says bash prints is *reported* (bash here is 5.2; the files
were written against 4.4 and 5.x) and not counted. When bash is not on PATH, the spec
file's expectation for bash stands in for it. Cases handed to a real shell
(``route == "sh-fallback"``) fail: that is bash passing, not hookrun.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import select
import shutil
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import NamedTuple

from tests.conformance import helpers
from tests.conformance.specfile import Case, parse_file

try:
    import fcntl
except ImportError:  # Windows: no bash cases with fixed paths run there
    fcntl = None  # type: ignore[assignment]

HERE = Path(__file__).resolve().parent
OILS = HERE / "oils"
SPEC_DIR = OILS / "spec"
XFAIL_FILE = HERE / "oils_xfail.txt"
CAPTURED_FILE = HERE / "oils_bash_captured.json"
WORKER = HERE / "worker.py"

# The files issue 11 names, in its order.
CORE = [
    *("quote", "word-split", "var-sub", "var-sub-quote", "var-op-test", "var-op-strip"),
    *("var-op-len", "here-doc", "case_", "if_", "loop", "arith", "command-sub", "redirect"),
    *("posix", "subshell", "pipeline", "sh-func", "exit-status", "tilde", "glob"),
    *("builtin-echo", "builtin-printf"),
]
EXTENDED = [
    *("brace-expansion", "dbracket", "array-basic", "array-assign", "array-assoc"),
    *("builtin-getopts", "builtin-read", "builtin-dirs", "builtin-cd", "builtin-trap"),
    *("errexit", "sh-options", "var-op-slice", "var-op-patsub", "assign", "command_"),
    *("comments", "whitespace", "extglob-match", "globstar", "redirect-multi"),
]

# Seconds. A case normally ends in milliseconds; these only bound a hang.
CASE_TIMEOUT = 10.0
_WORKER_GRACE = 20.0


class Outcome(NamedTuple):
    status: int
    stdout: bytes
    stderr: bytes
    route: str  # hookrun's Completed.route, or "bash"
    note: str  # "" or what went wrong around the run (timeout, worker died)


class Verdict(NamedTuple):
    case: Case
    bash: Outcome | None  # None: bash not on PATH, the spec file stands in
    hookrun: Outcome | None  # None: excluded, not run
    excluded: str  # the written reason, or ""
    disagreement: str  # how bash differs from the spec file ("" = agrees)

    @property
    def counted(self) -> bool:
        return not self.disagreement

    @property
    def expected(self) -> tuple[bytes | None, int]:
        """bash's (stdout, status); stdout None where the spec file asserts none (its
        output is a date, a pid, a listing of /: not the point of the case)."""
        want = self.case.bash
        if self.bash is not None:
            return (None if want.stdout is None else self.bash.stdout), self.bash.status
        return (None if want.stdout is None else want.stdout.encode()), want.status

    @property
    def passed(self) -> bool:
        if self.excluded or self.hookrun is None:
            return False
        stdout, status = self.expected
        got = self.hookrun
        return (
            got.route != "sh-fallback"
            and not got.note
            and got.status == status
            and (stdout is None or got.stdout == stdout)
        )

    def explain(self) -> str:
        """One paragraph saying how hookrun differs from bash."""
        if self.excluded:
            return f"excluded: {self.excluded}"
        got = self.hookrun
        assert got is not None
        stdout, status = self.expected
        lines = [f"{self.case.key} {self.case.name!r} (spec line {self.case.line})"]
        if got.note:
            lines.append(f"  {got.note}")
        if got.route == "sh-fallback":
            lines.append("  handed to a real shell (sh-fallback)")
        if got.status != status:
            lines.append(f"  status: bash {status}, hookrun {got.status}")
        if stdout is not None and got.stdout != stdout:
            lines.append(f"  stdout: bash {stdout!r}")
            lines.append(f"        hookrun {got.stdout!r}")
        if got.stderr:
            lines.append(f"  hookrun stderr: {got.stderr[:400]!r}")
        return "\n".join(lines)


def spec_files(names: Iterable[str] = (*CORE, *EXTENDED)) -> list[Path]:
    return [SPEC_DIR / f"{name}.test.sh" for name in names]


def all_cases(names: Iterable[str] = (*CORE, *EXTENDED)) -> list[Case]:
    return [case for path in spec_files(names) for case in parse_file(path)]


def read_xfail(path: Path = XFAIL_FILE) -> dict[str, str]:
    """``key → note`` from the expected-failures list (``key  # note`` per line)."""
    entries: dict[str, str] = {}
    if not path.exists():
        return entries
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        key, _, note = line.partition(" ")
        entries[key] = note.strip().removeprefix("#").strip()
    return entries


def find_bash() -> str | None:
    return shutil.which("bash")


# --- the sandbox every case runs in ---------------------------------------------------


class Sandbox:
    """Directories and environments for one kind of run (``"bash"`` or ``"hookrun"``).

    Each kind gets its own REPO_ROOT copy: cases write into it (``_tmp/spec-tmp``).
    """

    def __init__(self, base: Path, kind: str, sh: str) -> None:
        self.kind = kind
        self.root = base / kind / "repo"
        self.cases = base / kind / "cases"
        bin_dir = self.root / "spec" / "bin"
        shutil.copytree(SPEC_DIR / "testdata", self.root / "spec" / "testdata")
        shutil.copytree(SPEC_DIR / "bin", bin_dir)
        helpers.install(bin_dir)
        # Cases glob the Oils checkout's top level ("echo [b]in") and write under _tmp/.
        (self.root / "bin").mkdir()
        (self.root / "_tmp" / "spec-tmp").mkdir(parents=True)
        self.cases.mkdir(parents=True)
        if sh == "standin":
            # Named bash: a case's `$SH -c …` then runs in-process too (the worker forces
            # the bash stand-in), as a hook's `bash -c …` does with "shell": "inprocess".
            # Only a program that runs `$SH` itself (xargs, env) starts this file.
            sh = str(base / kind / "sh" / "bash")
            helpers.install_standin(Path(sh))
        self.sh = sh
        self.path = f"{bin_dir}{os.pathsep}{os.environ.get('PATH', os.defpath)}"

    def case_dir(self, case: Case) -> Path:
        where = self.cases / case.key.replace("#", "-")
        where.mkdir()
        if case.legacy_tmp_dir:
            (where / "_tmp").mkdir()
        return where

    def env(self, where: Path) -> dict[str, str]:
        return {
            "PATH": self.path,
            "LC_ALL": "C.UTF-8",
            "LOCALE_ARCHIVE": "",
            "OILS_GC_ON_EXIT": "",
            "REPO_ROOT": str(self.root),
            "TMP": str(where),
            "SH": self.sh,
        }


# --- bash -----------------------------------------------------------------------------


def run_bash(bash: str, case: Case, box: Sandbox) -> Outcome:
    where = box.case_dir(case)
    with subprocess.Popen(
        [bash],
        cwd=where,
        env=box.env(where),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    ) as proc:
        try:
            out, err = proc.communicate(case.code.encode(), timeout=CASE_TIMEOUT)
        except subprocess.TimeoutExpired:
            _kill_group(proc.pid)
            out, err = proc.communicate()
            return Outcome(proc.wait(), out, err, "bash", "bash timed out")
        finally:
            _kill_group(proc.pid)  # anything the case left in the background
    status = proc.returncode
    # A shell reports death by signal N as 128+N.
    return Outcome(128 - status if status < 0 else status, out, err, "bash", "")


def _kill_group(pid: int) -> None:
    with contextlib.suppress(OSError):
        os.killpg(pid, signal.SIGKILL)


# --- hookrun, in worker processes -------------------------------------------------------


class _Worker:
    def __init__(self, cwd: Path, number: int) -> None:
        # The worker's own stderr (a traceback if hookrun cannot even be imported) is
        # kept, and its end is quoted when the worker dies.
        self.log = cwd / f"worker-{number}.log"
        with open(self.log, "wb") as log:
            self.proc = subprocess.Popen(
                [sys.executable, str(WORKER)],
                cwd=cwd,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=log,
                start_new_session=True,
            )
        self.buffer = b""

    def ask(self, request: dict[str, object], deadline: float) -> dict[str, object] | str:
        """The worker's answer, or a string saying why there is none."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        try:
            self.proc.stdin.write(json.dumps(request).encode() + b"\n")
            self.proc.stdin.flush()
        except OSError:
            return self._died()
        fd = self.proc.stdout.fileno()
        while b"\n" not in self.buffer:
            ready, _, _ = select.select([fd], [], [], deadline)
            if not ready:
                self.stop()
                return f"no answer from hookrun within {deadline:g} s (worker killed)"
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                return self._died()
            self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        answer: dict[str, object] = json.loads(line)
        return answer

    def _died(self) -> str:
        code = self.proc.wait()
        tail = self.log.read_bytes()[-600:].decode("utf-8", "replace").strip()
        said = f"; its stderr ends: {tail}" if tail else ""
        return f"the case ended the process running hookrun (exit {code}){said}"

    def stop(self) -> None:
        _kill_group(self.proc.pid)
        self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()


class WorkerPool:
    def __init__(self, size: int, cwd: Path) -> None:
        self.cwd = cwd
        self.idle: queue.SimpleQueue[_Worker] = queue.SimpleQueue()
        self.all: list[_Worker] = []
        self.lock = threading.Lock()
        for _ in range(size):
            self.idle.put(self._start())

    def _start(self) -> _Worker:
        with self.lock:
            worker = _Worker(self.cwd, len(self.all))
            self.all.append(worker)
        return worker

    def run(self, code: str, cwd: Path, env: dict[str, str]) -> Outcome:
        worker = self.idle.get()
        request = {"code": code, "cwd": str(cwd), "env": env, "timeout": CASE_TIMEOUT}
        answer = worker.ask(request, CASE_TIMEOUT + _WORKER_GRACE)
        if isinstance(answer, str):
            worker.stop()
            self.idle.put(self._start())
            return Outcome(-1, b"", b"", "", answer)
        self.idle.put(worker)
        status = answer["status"]
        assert isinstance(status, int)
        note = ""
        if status == 124 and answer.get("error"):
            note = f"hookrun: {answer['error']}"
        return Outcome(
            status,
            str(answer["stdout"]).encode("latin-1"),
            str(answer["stderr"]).encode("latin-1"),
            str(answer["route"]),
            note,
        )

    def close(self) -> None:
        for worker in self.all:
            worker.stop()


def run_hookrun(pool: WorkerPool, case: Case, box: Sandbox) -> Outcome:
    where = box.case_dir(case)
    return pool.run(case.code, where, box.env(where))


# --- judging ----------------------------------------------------------------------------

# A few cases use fixed paths under /tmp (builtin-cd's /tmp/oil-spec-test/pwd, which one
# case removes while others make it and cd into it). One run keeps a file's cases in
# order on one thread, but two runs on one machine (CI beside an engineer's run) would
# race each other there: such a case holds this lock, machine-wide, around its bash and
# hookrun runs.
FIXED_PATHS_LOCK = "/tmp/hookrun-oils-fixed-paths.lock"


@contextlib.contextmanager
def fixed_paths_lock(case: Case, path: str = FIXED_PATHS_LOCK) -> Iterator[None]:
    if "/tmp/" not in case.code or fcntl is None:
        yield
        return
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # releases the lock


def disagreement(case: Case, bash: Outcome | None) -> str:
    """How bash's actual result differs from what the spec file says bash prints."""
    if bash is None:
        return ""
    want = case.bash
    parts = []
    if bash.note:
        parts.append(bash.note)
    if bash.status != want.status:
        parts.append(f"status {bash.status}, file says {want.status}")
    if want.stdout is not None and bash.stdout != want.stdout.encode():
        parts.append(f"stdout {bash.stdout!r}, file says {want.stdout.encode()!r}")
    return "; ".join(parts)


def judge(
    cases: Sequence[Case],
    base: Path,
    *,
    exclusions: dict[str, str],
    bash: str | None = None,
    jobs: int | None = None,
    progress: Callable[[Verdict], None] | None = None,
) -> list[Verdict]:
    """Run every case through bash and hookrun; the verdicts in case order.

    Without ``bash``, the results captured from bash (:data:`CAPTURED_FILE`) are the
    expectation, and for a case not captured, the spec file's.
    """
    captured = read_captured() if bash is None else {}
    jobs = jobs or max(2, min(4, os.cpu_count() or 2))
    bash_box = Sandbox(base, "bash", bash) if bash else None
    hook_box = Sandbox(base, "hookrun", "standin")
    (base / "workers").mkdir()
    pool = WorkerPool(jobs, base / "workers")

    def one(case: Case) -> Verdict:
        reason = exclusions.get(case.key, "")
        with fixed_paths_lock(case):
            bash_out = (
                run_bash(bash, case, bash_box) if bash and bash_box else captured.get(case.key)
            )
            got = None if reason else run_hookrun(pool, case, hook_box)
        verdict = Verdict(case, bash_out, got, reason, disagreement(case, bash_out))
        if progress is not None:
            progress(verdict)
        return verdict

    # One file's cases run in order on one thread: several cases of a file use the
    # same fixed paths (/tmp/oil-spec-test/…), which must not race each other.
    by_file: dict[str, list[Case]] = {}
    for case in cases:
        by_file.setdefault(case.file, []).append(case)
    try:
        with ThreadPoolExecutor(max_workers=jobs) as executor:
            done = executor.map(lambda group: [one(case) for case in group], by_file.values())
            found = {v.case.key: v for group in done for v in group}
    finally:
        pool.close()
    return [found[case.key] for case in cases]


def read_captured(path: Path | None = None) -> dict[str, Outcome]:
    """bash's results, captured where bash runs (``conformance_report.py --capture``)."""
    path = path or CAPTURED_FILE
    if not path.exists():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    return {
        key: Outcome(
            row["status"],
            row["stdout"].encode("utf-8", "surrogateescape"),
            b"",
            "bash (captured)",
            "",
        )
        for key, row in data["cases"].items()
    }


def write_captured(verdicts: Sequence[Verdict], version: str, path: Path | None = None) -> None:
    rows = {
        v.case.key: {
            "status": v.bash.status,
            "stdout": v.bash.stdout.decode("utf-8", "surrogateescape"),
        }
        for v in verdicts
        if v.bash is not None and not v.bash.note
    }
    doc = {"bash": version, "cases": rows}
    (path or CAPTURED_FILE).write_text(
        json.dumps(doc, indent=1, ensure_ascii=True, sort_keys=True) + "\n", encoding="utf-8"
    )
