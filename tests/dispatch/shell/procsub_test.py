"""Process substitution, ``<(cmd)`` and ``>(cmd)``, run in-process — each text run by
bash and by the in-process shell, the oracle being bash's status and stdout.

Until this ran in-process a script holding one went whole to bash (fb65382), and on a
machine without bash the hook failed and its ``on_error`` (allow by default) decided: a
guard reading its rules with ``done < <(…)`` failed open. Every text runs three ways:

- ``/dev/fd``: the path is ``/dev/fd/N`` and an external child inherits the pipe at N
  (Linux, macOS);
- ``files``: as where there is no ``/dev/fd`` (Windows, a minimal container): the path
  is a temporary file, drained from the substitution before an external child starts
  and fed to a ``>(…)`` after it ended — switched on here, not skipped;
- ``win32``: the platform switched to Windows, for the texts that run builtins only
  (``read``, ``mapfile``, ``source``, redirections take the pipe, no file, no process).

The cases of the Oils spec file ``spec/process-sub.test.sh`` (vendored unmodified in
``tests/conformance/oils/extra/``, Apache-2.0) run in ``oils_extra_test.py``.
"""

from __future__ import annotations

import contextlib
import gc
import os
import shutil
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from hookrun.dispatch import run as dispatch_run
from hookrun.dispatch.shell import procsub
from tests.dispatch.shell.shellrun import Runner, base_env, bash_result
from tests.timing import soon_after

BASH = shutil.which("bash")
pytestmark = [
    pytest.mark.skipif(
        BASH is None or sys.platform == "win32", reason="bash is the oracle; POSIX tools"
    ),
]
# In the coverage re-run again: a child given /dev/fd/N was forked with a preexec_fn
# while substitution threads ran, and coverage's tracer, entering the at-fork handler in
# that child, waited for ever on a lock another thread held at the fork (ci3). No child
# runs Python between fork and exec any more (hookrun.dispatch.fdpass; the fork probe in
# fds_to_children_test).

# Texts that start programs (cat, diff, tr, …): run with /dev/fd and with files.
EXTERNAL = [
    "cat <(echo a) <(echo b)",
    "echo <(:) <(:); cat <(echo after)",
    "diff <(printf 'a\\nb\\n') <(printf 'a\\nc\\n'); echo diff=$?",
    "diff <(echo x) <(echo x) && echo same",
    "paste <(printf '1\\n2\\n') <(printf '3\\n4\\n')",
    "comm -12 <(printf 'a\\nb\\nc\\n') <(printf 'b\\nc\\nd\\n')",
    "cat <(cat <(echo nested))",
    "cat <(echo a; exit 3); echo st=$?; wait $!; echo waited=$?",
    "cat <(echo one) | tr a-z A-Z",
    "( cat <(echo sub) ); x=$(cat <(echo cs)); echo $x",
    "cat <(echo bg) & wait; echo done",
    'f() { cat "$1" | tr a-z A-Z; }; f <(echo piped)',
    "x=<(echo a); cat $x 2>/dev/null; echo $?",
    "head -n 1 <(yes); echo $?",
    "echo hi > >(tr a-z A-Z); wait $!; echo after",
    "echo x | tee >(tr a-z A-Z) >/dev/null; wait $!",
    "printf 'q\\nr\\n' > >(sort -r); wait $!",
    "cat < <(echo redirected; echo err >&2) 2>/dev/null",
    "tr a-z A-Z < <(echo lower)",
    "wc -l < <(printf '1\\n2\\n3\\n') | tr -d ' '",
    'echo to-log > >(cat > "$D/log"); wait $!; cat "$D/log"',
    'for f in <(echo a) <(echo b); do cat "$f"; done; echo $?',
    "cat <(: nothing); echo empty=$?",
    ": <(sleep 5); kill $!; echo $?; wait $!; echo $?",
    # The logging idiom: the rest of the script's output through a substitution.
    'exec > >(tee "$D/log"); echo one; echo two',
    'exec > >(while read -r l; do echo "log: $l"; done) 2>&1; echo a; ls /nonexist-q; echo b',
    # `exec N>&-` closes the end `exec` holds: the reader sees EOF then (`wait $!` after
    # it waited for ever), and /dev/fd/63 is gone once exec moved it to 4.
    'exec 4> >(cat > "$D/o"); echo x >&4; exec 4>&-; wait $!; cat "$D/o"',
    "exec 4> >(cat); echo > /dev/fd/63; echo $?; ls /dev/fd/ | grep -c '^63$'",
    'exec 4>"$D/f"; ( sleep 0.2; echo late >&4 ) & exec 4>&-; wait; cat "$D/f"',
    # A job started while 4 is open holds a copy of its own (bash's child inherits one):
    # the reader sees EOF once both closed, the job's write is not lost.
    'exec 4> >(cat > "$D/o"); p=$!; (sleep 0.2; echo bg >&4) & exec 4>&-; wait $p; cat "$D/o"',
    "exec 3< <(echo a); exec 3<&-; ls /dev/fd/ | grep -c '^3$'",
]

# Texts of builtins only (plus the field idioms): run three ways, win32 included.
BUILTIN = [
    "while read -r l; do echo \"[$l]\"; done < <(printf 'x\\ny\\n')",
    "n=0; while read -r l; do n=$((n+1)); done < <(printf '1\\n2\\n3\\n'); echo n=$n",
    "mapfile -t arr < <(echo 1; echo 2); echo ${#arr[@]} ${arr[1]}",
    "read -r x < <(echo hello); echo $x",
    "read -r -u 3 y 3< <(echo three); echo $y",
    "exec 3< <(echo fd3); read -r l <&3; echo $l",
    "source <(echo 'x=5; echo sourced'); echo $x",
    ". <(printf 'g() { echo fn $1; }'); g arg",
    "while IFS= read -r seg; do echo \"<$seg>\"; done < <(IFS=';'; for w in a b; do echo $w; done)",
    'echo q > >(while read -r l; do echo "got $l"; done); wait $!',
    '{ echo 1; echo 2; } > >(while read -r l; do echo "r$l"; done); wait $!; echo end',
    'f() { while read -r l; do echo "f:$l"; done; }; f < <(echo one)',
    "echo '<(x)' \">(y)\" <(:)",
    "true <(exit 7); echo st=$?; wait $!; echo $?",
    '[ -n "$(echo <(:))" ] && echo path',
    "set -e; read -r a < <(echo ok; exit 1); echo $a",
    "while read -r k v; do declare \"m_$k=$v\"; done < <(echo 'a 1'; echo 'b 2'); echo $m_a$m_b",
    "mapfile -t l < <(printf '%s\\n' c b a); printf '<%s>' \"${l[@]}\"; echo",
    'exec > >(while read -r l; do echo "log: $l"; done); echo a; echo b',
    'echo "FOO" > "$D/foo"; read -r w < <(<"$D/foo"); echo "[$w]"',
    'exec 4> >(while read -r l; do echo "got $l"; done; echo eof); echo x >&4; exec 4>&-; '
    "wait $!; echo after",
    'exec {fd}> >(while read -r l; do echo "got $l"; done); echo y >&$fd; exec {fd}>&-; '
    "wait $!; echo after",
    'exec > >(while read -r l; do echo "log: $l"; done); echo z; exec >&-; wait $!',
    "exec 3< <(echo a); read -r l <&3; echo $l; exec 3<&-; read -r m <&3; echo $?",
    'exec 4> >(while read -r l; do echo "r $l"; done); exec 5>&4; exec 4>&-; echo v >&5; '
    "exec 5>&-; wait $!; echo end",
    "x=; exec {x}>&-; echo $?; x=abc; exec {x}>&-; echo $?; x=-1; exec {x}>&-; echo $?",
]


@pytest.fixture(autouse=True)
def private_temp_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The substitutions' temporary files go to a directory of this test's own: the
    checks that none is left behind must not see another run's (two suites at once on
    one machine failed on each other's live files)."""
    own = tmp_path / "tmp"
    own.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(own))


@pytest.fixture
def no_dev_fd(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """As where /dev/fd is not (a minimal container; Windows has its own switch)."""
    monkeypatch.setattr(procsub, "_dev_fd", False)
    yield


def _env(tmp_path: Path) -> dict[str, str]:
    d = tmp_path / "d"
    d.mkdir(exist_ok=True)
    return base_env(D=str(d))


def _oracle(source: str, env: dict[str, str]) -> tuple[int, str]:
    code, out = bash_result(source, env)
    # bash prints the path /dev/fd/N; where there is none it is a file's.
    return code, out


@pytest.mark.parametrize("source", EXTERNAL + BUILTIN)
def test_as_bash_with_dev_fd(run: Runner, tmp_path: Path, source: str) -> None:
    env = _env(tmp_path)
    ran = run(source, env=env)
    assert (ran.code, ran.out, ran.route) == (*_oracle(source, env), None), ran.err


def _paths_out(text: str) -> str:
    # A printed path is /dev/fd/N in bash, a file where there is no /dev/fd.
    return " ".join(
        "PATH" if w.startswith("/dev/fd/") or "hookrun-psub-" in w else w for w in text.split(" ")
    )


# A producer without end cannot be put into a file: left to its own test below.
ENDLESS = [s for s in EXTERNAL if "yes" in s]


@pytest.mark.parametrize("source", [s for s in EXTERNAL if s not in ENDLESS] + BUILTIN)
def test_as_bash_with_files_where_dev_fd_is_not(
    run: Runner, tmp_path: Path, source: str, no_dev_fd: None
) -> None:
    env = _env(tmp_path)
    ran = run(source, env=env)
    code, out = _oracle(source, env)
    assert (ran.code, _paths_out(ran.out), ran.route) == (code, _paths_out(out), None), ran.err
    # The files are removed with the run.
    assert not list(Path(tempfile.gettempdir()).glob("hookrun-psub-*"))


def test_an_endless_producer_fills_its_file_up_to_a_bound_only(
    run: Runner, tmp_path: Path, no_dev_fd: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(procsub, "FILE_LIMIT", 1 << 16)
    source = "head -n 1 <(yes); wc -c <(yes) | sed 's/ .*//'; echo $?"
    ran = run(source, env=_env(tmp_path), timeout=20)
    assert (ran.code, ran.out) == (0, "y\n65536\n0\n"), ran.err


@pytest.mark.parametrize("source", BUILTIN)
def test_builtins_read_it_with_the_platform_switched_to_windows(
    run: Runner, tmp_path: Path, source: str
) -> None:
    env = _env(tmp_path)
    ran = run(source, env=env, platform="win32")
    code, out = _oracle(source, env)
    assert (ran.code, _paths_out(ran.out), ran.route) == (code, _paths_out(out), None), ran.err
    assert ran.procs == 0  # no process: the builtins took the pipe itself


def test_the_path_is_bashs_and_names_what_a_child_inherits(run: Runner, tmp_path: Path) -> None:
    env = _env(tmp_path)
    source = "echo <(:) >(:); ls -l <(:) | grep -c '63 -> pipe:'"
    ran = run(source, env=env)
    assert (ran.code, ran.out) == bash_result(source, env) == (0, "/dev/fd/63 /dev/fd/62\n1\n")


# -- nothing left behind ---------------------------------------------------------
_FD_DIR = "/proc/self/fd" if os.path.isdir("/proc/self/fd") else "/dev/fd"


def _children() -> set[int]:
    """Our child processes (Linux: /proc; elsewhere this check is not made)."""
    out: set[int] = set()
    for task in Path("/proc/self/task").glob("*/children"):
        with contextlib.suppress(OSError):  # (a thread that ended meanwhile)
            out.update(int(p) for p in task.read_text().split())
    return out


def _ours() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "hookrun-procsub"]


# How long what a run started may take to be gone once it has returned: at once on a
# quiet machine (the waits below end as soon as it is), seconds at load 20-30; a leak
# still fails, only later.
_SETTLE = 30.0


def _fds_back_to(before: int, deadline: float) -> None:
    """This process holds no more descriptors than ``before`` by ``deadline``."""
    gc.collect()
    while len(os.listdir(_FD_DIR)) > before and time.monotonic() < deadline:
        time.sleep(0.05)
        gc.collect()
    assert len(os.listdir(_FD_DIR)) <= before


def _all_given_back(fds: int, children: set[int]) -> None:
    """No substitution thread, no child but ``children`` and no more descriptors than
    ``fds`` are left once a run has returned (within _SETTLE)."""
    deadline = time.monotonic() + _SETTLE
    while (_ours() or _children() - children) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert (_ours(), _children() - children) == ([], set())
    _fds_back_to(fds, deadline)


@pytest.mark.parametrize(
    ("source", "timeout"),
    [
        ("cat <(while :; do :; done)", 0.5),  # a builtin loop feeding a program
        ("cat <(sleep 30); echo never", 0.5),  # a program feeding a program
        ("while read -r l; do :; done < <(sleep 30)", 0.5),  # a builtin reading
        (": > >(sleep 30)", 0.5),  # a writer no one reads, waited for at the end
        ("echo x > >(while :; do :; done)", 0.5),
        ("exec 3< <(sleep 30); read -r x <&3", 0.5),
        ("source <(sleep 30)", 0.5),
        ("exec 4> >(sleep 30); exec 4>&-; wait $!", 0.5),  # the reader, not the end
        ("exec 4> >(cat); (while :; do echo x >&4; done) & exec 4>&-; wait", 0.5),
        ("exec 4>/dev/null 5< <(sleep 30) 6> >(cat); sleep 30", 0.5),  # exec's, still open
    ],
)
@pytest.mark.parametrize("files", [False, True])
def test_a_timeout_leaves_no_thread_process_or_descriptor(
    tmp_path: Path, source: str, timeout: float, files: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    if files:
        monkeypatch.setattr(procsub, "_dev_fd", False)
    dispatch_run("sleep 0 | cat", cwd=str(tmp_path), env=base_env(), shell="inprocess", timeout=30)
    gc.collect()
    fds, children = len(os.listdir(_FD_DIR)), _children()
    started = time.monotonic()
    done = dispatch_run(
        source, cwd=str(tmp_path), env=base_env(), shell="inprocess", timeout=timeout
    )
    assert done.timed_out, done
    soon_after(time.monotonic() - started, timeout, idle_bound=10)
    _all_given_back(fds, children)
    assert not list(Path(tempfile.gettempdir()).glob("hookrun-psub-*"))


@pytest.mark.parametrize(
    "source",
    [
        "cat <(echo a) <(echo b); diff <(echo x) <(echo y); echo $?",
        "while read -r l; do :; done < <(seq 100); mapfile -t a < <(seq 3)",
        "echo x > >(cat); tee >(cat >/dev/null) </dev/null; x=<(:)",
        "exec 3< <(echo a); exec 4> >(cat); source <(echo :); head -1 <(echo 9)",
        "cat <(echo bg) & for f in <(:) <(:); do :; done; wait",
        # Two threads asked the hook's stdin for its pipe at once (head and seq), and two
        # pipes were made: one leaked (~1 in 60 runs; streams_edges_test pins the race).
        "exec 4> >(cat); head -1 <(seq 9)",
        "cat <(seq 9) <(seq 3) - </dev/null; seq 2 | cat <(seq 4) -",
        "exec 4> >(cat); echo x >&4; exec 4>&-; wait $!",
        "exec {fd}> >(cat >/dev/null); exec {fd}>&-; exec 3<<<x; exec 3<&-; exec 5>/dev/null",
        "exec 4>/dev/null; (echo bg >&4) & exec 4>&-; wait; exec 6> >(cat) 6>&-",
    ],
)
@pytest.mark.parametrize("files", [False, True])
def test_each_run_gives_back_every_descriptor(
    tmp_path: Path, source: str, files: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    if files:
        monkeypatch.setattr(procsub, "_dev_fd", False)
    # One warm-up run of the same text: what is made once per process is not a leak.
    dispatch_run(source, cwd=str(tmp_path), env=base_env(), shell="inprocess", timeout=30)
    gc.collect()
    before = len(os.listdir(_FD_DIR))
    for _ in range(10):
        done = dispatch_run(
            source, cwd=str(tmp_path), env=base_env(), shell="inprocess", timeout=30
        )
        assert done.exit_code == 0 and done.error is None, done
        assert _ours() == []  # every substitution was waited for before the run ended
    _fds_back_to(before, time.monotonic() + _SETTLE)


@pytest.mark.parametrize(
    "source",
    [
        "cat <(echo ${u?unset}); echo after",  # an expansion error inside the substitution
        "cat <(echo a) > /nonexistent-dir/f; echo $?",  # the command's redirection fails
        "exec 4> >(exit 3); echo x >&4 2>/dev/null; exec 4>&-; wait $!",  # reader gone
        "exec 3< <(echo a) 4>&3-; exec 4<&-; exec {x}>&-",  # a move, a bad close
        "set -e; cat <(echo a) <(false); false; echo never",  # set -e ends the script
        "f() { return 3; }; f <(echo a) >(cat); exit 7",
        "exec 5> >(cat); exec 5>&-; exec 5>&-; echo $?",
    ],
)
@pytest.mark.parametrize("files", [False, True])
def test_a_failing_run_gives_back_every_descriptor(
    tmp_path: Path, source: str, files: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    if files:
        monkeypatch.setattr(procsub, "_dev_fd", False)
    dispatch_run(source, cwd=str(tmp_path), env=base_env(), shell="inprocess", timeout=30)
    gc.collect()
    before, children = len(os.listdir(_FD_DIR)), _children()
    for _ in range(5):
        done = dispatch_run(
            source, cwd=str(tmp_path), env=base_env(), shell="inprocess", timeout=30
        )
        assert not done.timed_out and done.route != "error", done
    _all_given_back(before, children)


def test_cancelling_stops_every_substitution(tmp_path: Path) -> None:
    from hookrun.dispatch.cancel import CancelToken

    dispatch_run("sleep 0 | cat", cwd=str(tmp_path), env=base_env(), shell="inprocess", timeout=30)
    gc.collect()
    fds, children = len(os.listdir(_FD_DIR)), _children()
    token = CancelToken()
    timer = threading.Timer(0.3, token.cancel)
    timer.start()
    done = dispatch_run(
        "cat <(while :; do :; done) <(sleep 30) > >(while read -r l; do :; done)",
        cwd=str(tmp_path),
        env=base_env(),
        shell="inprocess",
        timeout=30,
        cancel=token,
    )
    assert done.cancelled, done
    _all_given_back(fds, children)
