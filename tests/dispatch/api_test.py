"""dispatch.run / arun with real files and real processes (the file routes).

Inline shell code is covered in api_inline_test.py.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import psutil
import pytest

from hookrun.dispatch import CancelToken, Completed, arun, run
from tests.dispatch.conftest import Route
from tests.timing import soon_after

REPO = Path(__file__).parents[2]


@pytest.fixture
def env(tmp_path: Path, route: Route) -> dict[str, str]:
    """The host env with a PATH whose python3 is this interpreter (no pyenv shim).

    Every test with it runs on both routes of starting a child (``route``)."""
    bindir = tmp_path / "pybin"
    bindir.mkdir()
    (bindir / "python3").symlink_to(sys.executable)
    env = {**os.environ, "PATH": f"{bindir}{os.pathsep}{os.environ.get('PATH', '')}"}
    env.pop("PYTHONUNBUFFERED", None)  # the -u cases must make the difference
    return env


def _hook(tmp_path: Path, name: str, text: str | bytes, mode: int = 0o755) -> Path:
    path = tmp_path / name
    if isinstance(text, str):
        text = text.encode()
    path.write_bytes(text)
    path.chmod(mode)
    return path


def _run(tmp_path: Path, command: str, env: dict[str, str], **kw: object) -> Completed:
    return run(command, cwd=str(tmp_path), env=env, **kw)  # type: ignore[arg-type]


def _dead(pid: int) -> bool:
    try:
        return bool(psutil.Process(pid).status() == psutil.STATUS_ZOMBIE)
    except psutil.NoSuchProcess:
        return True


PY_ARGS = "import sys; print(sys.argv[1:], int(sys.stdout.write_through), sys.stdin.read())"


@pytest.mark.parametrize(
    ("text", "command", "stdout", "route"),
    [
        ("#!/bin/bash\necho bash:$#:$1:$2\n", "./h a 'b c'", "bash:2:a:b c\n", "shebang:bash"),
        ("#!/usr/bin/env bash\necho $0\n", "./h", "./h\n", "shebang:bash"),
        ("#!env bash\necho bare\n", "./h", "bare\n", "shebang:bash"),
        ("#! /bin/sh\necho spaced\n", "./h", "spaced\n", "shebang:sh"),
        ("#!/bin/sh -e\nfalse\necho not reached\n", "./h", "", "shebang:sh"),
        (f"#!/usr/bin/env python3\n{PY_ARGS}\n", "./h x", "['x'] 0 payload\n", "shebang:python3"),
        (
            f"#!/usr/bin/env python3 -u\r\n{PY_ARGS}\r\n",
            "./h",
            "[] 1 payload\n",
            "shebang:python3",
        ),
        (
            f"#!/usr/bin/env -S python3 -u -X utf8\n{PY_ARGS}\n",
            "./h 1 2",
            "['1', '2'] 1 payload\n",
            "shebang:python3",
        ),
        # a literal interpreter path that does not exist: its base name on PATH
        ("#!/nonexistent/bin/bash\necho fallback\n", "./h", "fallback\n", "shebang:bash"),
        ("#!/bin/sh\ncat\n", "./h", "payload", "shebang:sh"),
    ],
)
def test_run_dispatches_scripts_to_their_shebang_interpreter(
    tmp_path: Path, env: dict[str, str], text: str, command: str, stdout: str, route: str
) -> None:
    _hook(tmp_path, "h", text)
    done = _run(tmp_path, command, env, stdin=b"payload")
    assert (done.stdout.decode(), done.route) == (stdout, route)
    assert done.error is None


def test_run_reports_the_exit_code_and_stderr_of_a_script(
    tmp_path: Path, env: dict[str, str]
) -> None:
    _hook(tmp_path, "h", "#!/bin/sh\necho 'no rm' >&2\nexit 2\n")
    done = _run(tmp_path, "./h", env)
    assert (done.exit_code, done.stderr, done.timed_out, done.truncated) == (
        2,
        b"no rm\n",
        False,
        False,
    )
    assert done.duration > 0


def test_run_reports_death_by_signal_as_128_plus_n(tmp_path: Path, env: dict[str, str]) -> None:
    _hook(tmp_path, "h", "#!/bin/sh\nkill -KILL $$\n")
    assert _run(tmp_path, "./h", env).exit_code == 137


def test_run_executes_a_real_binary_by_path(tmp_path: Path, env: dict[str, str]) -> None:
    shutil.copy("/bin/echo", tmp_path / "myecho")
    done = _run(tmp_path, "./myecho hi 'there you'", env)
    assert (done.exit_code, done.stdout, done.route) == (0, b"hi there you\n", "binary")


def test_run_expands_tilde_from_the_hook_env(tmp_path: Path, env: dict[str, str]) -> None:
    _hook(tmp_path, "h", "#!/bin/sh\necho home\n")
    done = run("~/h", cwd="/", env={**env, "HOME": str(tmp_path)})
    assert done.stdout == b"home\n"


@pytest.mark.parametrize(
    ("setup", "command", "exit_code", "problem"),
    [
        (None, "./missing.sh", 127, "./missing.sh: no such file"),
        ("dir", "./adir", 126, "./adir: is a directory"),
        ("#!\n", "./h", 126, "./h: empty #! line"),
        ("#!/usr/bin/env\n", "./h", 126, "./h: #!/usr/bin/env names no command"),
        ("#!/usr/bin/env -S\n", "./h", 126, "names no command"),
        ("#!/usr/bin/env -i sh\n", "./h", 126, "unsupported env option '-i'"),
        ("#!/usr/bin/env nosuch-interp-x\n", "./h", 127, "'nosuch-interp-x' not found"),
        ("#!/nonexistent/nosuch-interp-x\n", "./h", 127, "not found"),
        ("binary-noexec", "./prog", 126, "./prog"),
    ],
)
def test_run_reports_unrunnable_files_as_error_route_without_traceback(
    tmp_path: Path,
    env: dict[str, str],
    setup: str | None,
    command: str,
    exit_code: int,
    problem: str,
) -> None:
    if setup == "dir":
        (tmp_path / "adir").mkdir()
    elif setup == "binary-noexec":
        shutil.copy("/bin/true", tmp_path / "prog")
        (tmp_path / "prog").chmod(0o644)
    elif setup is not None:
        _hook(tmp_path, "h", setup)
    done = _run(tmp_path, command, env)
    assert (done.exit_code, done.route) == (exit_code, "error")
    assert done.error is not None and problem in done.error
    assert done.stderr.decode().startswith("hookrun: ")
    assert problem in done.stderr.decode()
    assert b"Traceback" not in done.stderr


def test_run_bounds_each_stream_and_counts_what_it_dropped(
    tmp_path: Path, env: dict[str, str]
) -> None:
    _hook(tmp_path, "h", "#!/bin/sh\nhead -c 5000 /dev/zero\nhead -c 3000 /dev/zero >&2\n")
    done = _run(tmp_path, "./h", env, max_output=1000)
    assert (len(done.stdout), len(done.stderr)) == (1000, 1000)
    assert (done.stdout_dropped, done.stderr_dropped, done.truncated) == (4000, 2000, True)


def test_run_bounds_memory_for_a_hook_printing_200_mb(tmp_path: Path) -> None:
    # The dispatch runs in a fresh interpreter so its peak RSS is its own.
    _hook(
        tmp_path,
        "big.py",
        f"#!{sys.executable}\nimport sys\nb = b'x' * (1 << 20)\n"
        "for _ in range(200):\n    sys.stdout.buffer.write(b)\n",
    )
    # Peak RSS as VmHWM, not ru_maxrss: Linux carries the forking parent's
    # high-water mark (pytest's, over 150 MB late in a full run) over exec into
    # the child's ru_maxrss; VmHWM belongs to the child's own address space.
    code = (
        "import json, os\n"
        "from hookrun.dispatch import run\n"
        f"done = run('./big.py', cwd={str(tmp_path)!r}, env=dict(os.environ))\n"
        "status = open('/proc/self/status').read()\n"
        "rss = int(status.split('VmHWM:')[1].split()[0])\n"
        "print(json.dumps([rss, len(done.stdout), done.stdout_dropped, done.truncated,"
        " done.exit_code]))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    ).stdout
    rss_kib, kept, dropped, truncated, code_ = json.loads(out)
    assert (kept, dropped, truncated, code_) == (1 << 20, 199 << 20, True, 0)
    assert rss_kib < 150 * 1024


def test_run_writes_a_10_mb_payload_to_a_child_that_never_reads_it(
    tmp_path: Path, env: dict[str, str]
) -> None:
    _hook(tmp_path, "h", "#!/bin/sh\necho ignored\n")
    done = _run(tmp_path, "./h", env, stdin=b"x" * (10 << 20), timeout=20)
    assert (done.exit_code, done.stdout, done.timed_out) == (0, b"ignored\n", False)


def test_run_feeds_a_child_that_reads_only_part_of_the_payload(
    tmp_path: Path, env: dict[str, str]
) -> None:
    _hook(tmp_path, "h", "#!/bin/sh\nhead -c 5\n")
    done = _run(tmp_path, "./h", env, stdin=b"0123456789" * (1 << 20), timeout=20)
    assert (done.exit_code, done.stdout) == (0, b"01234")


def test_run_survives_a_child_that_closes_stdout_early(tmp_path: Path, env: dict[str, str]) -> None:
    _hook(tmp_path, "h", "#!/bin/sh\necho first\nexec 1>&-\nsleep 0.2\necho still here >&2\n")
    done = _run(tmp_path, "./h", env, timeout=20)
    assert (done.exit_code, done.stdout, done.stderr) == (0, b"first\n", b"still here\n")


def test_timeout_holds_for_a_hook_that_closed_its_streams(
    tmp_path: Path, env: dict[str, str]
) -> None:
    """Nothing comes through the pipes any more and the hook goes on: its deadline
    still ends it (on Linux the pump's poll, woken by the pidfd or its own timeout)."""
    _hook(tmp_path, "h", "#!/bin/sh\necho before\nexec >&- 2>&- <&-\nsleep 300\n")
    started = time.monotonic()
    done = _run(tmp_path, "./h", env, timeout=1)
    soon_after(time.monotonic() - started, 1, idle_bound=2.5)
    assert (done.timed_out, done.exit_code, done.stdout) == (True, 124, b"before\n")


# --- process control ---------------------------------------------------------------------

TREE = """#!/bin/bash
# Ignores SIGTERM (and so do its children: SIG_IGN is inherited), keeps stdout
# open in every descendant, and hides one descendant in a session of its own
# whose parent is gone.
trap '' TERM
pids="$1"
echo $$ >> "$pids"
sleep 300 & echo $! >> "$pids"
bash -c 'sleep 300 & echo $! >> "$1"; sleep 300' _ "$pids" & echo $! >> "$pids"
(setsid sleep 300 & echo $! >> "$pids")
echo started
sleep 300
"""


def _tree_pids(pids: Path) -> list[int]:
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        if pids.exists() and len(pids.read_text().split()) == 5:
            break
        time.sleep(0.01)
    return [int(p) for p in pids.read_text().split()]


def test_timeout_ends_the_whole_tree_within_a_second_past_the_deadline(
    tmp_path: Path, env: dict[str, str]
) -> None:
    _hook(tmp_path, "tree", TREE)
    started = time.monotonic()
    # The tree (bash, four forks, a bash -c, a setsid) must be up and have said
    # "started" before the deadline: 3 s, not 1, so a loaded machine cannot make it
    # time out half-built.
    done = _run(tmp_path, f"./tree {tmp_path}/pids", env, timeout=3)
    elapsed = time.monotonic() - started
    pids = _tree_pids(tmp_path / "pids")
    assert (done.timed_out, done.cancelled, done.exit_code) == (True, False, 124)
    assert done.stdout == b"started\n"
    assert done.error is not None and "timed out after 3 s" in done.error
    # timeout + ~1 s: measured ~0.55 s past the deadline at idle (TERM is ignored, so
    # the 0.5 s grace runs out).
    soon_after(elapsed, 3, idle_bound=4.5)
    assert len(pids) == 5
    assert [p for p in pids if not _dead(p)] == []


def test_cancel_from_another_thread_ends_the_whole_tree(
    tmp_path: Path, env: dict[str, str]
) -> None:
    _hook(tmp_path, "tree", TREE)
    token = CancelToken()
    threading.Timer(0.5, token.cancel).start()
    started = time.monotonic()
    done = _run(tmp_path, f"./tree {tmp_path}/pids", env, timeout=60, cancel=token)
    elapsed = time.monotonic() - started
    assert (done.timed_out, done.cancelled, done.exit_code) == (False, True, 130)
    soon_after(elapsed, 0.5, idle_bound=2.0)  # cancel at 0.5 s + 0.5 s grace: ~1.05 s idle
    assert [p for p in _tree_pids(tmp_path / "pids") if not _dead(p)] == []


def test_asyncio_task_cancellation_ends_the_whole_tree_before_raising(
    tmp_path: Path, env: dict[str, str]
) -> None:
    _hook(tmp_path, "tree", TREE)

    async def scenario() -> float:
        task = asyncio.create_task(
            arun(f"./tree {tmp_path}/pids", cwd=str(tmp_path), env=env, timeout=60)
        )
        await asyncio.sleep(0.5)
        started = time.monotonic()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        # The tree is gone by the time the cancellation reaches the caller.
        assert [p for p in _tree_pids(tmp_path / "pids") if not _dead(p)] == []
        return time.monotonic() - started

    soon_after(asyncio.run(scenario()), 0, idle_bound=1.5)  # the 0.5 s grace: ~0.55 s idle


def test_arun_returns_the_result_and_leaves_the_callers_token_alone(
    tmp_path: Path, env: dict[str, str]
) -> None:
    _hook(tmp_path, "h", "#!/bin/sh\necho async\n")
    token = CancelToken()
    done = asyncio.run(arun("./h", cwd=str(tmp_path), env=env, cancel=token))
    assert (done.stdout, done.route) == (b"async\n", "shebang:sh")
    assert not token.cancelled


def test_arun_honours_the_callers_token(tmp_path: Path, env: dict[str, str]) -> None:
    _hook(tmp_path, "h", "#!/bin/sh\nsleep 300\n")
    token = CancelToken()

    async def scenario() -> Completed:
        asyncio.get_running_loop().call_later(0.3, token.cancel)
        return await arun("./h", cwd=str(tmp_path), env=env, cancel=token)

    done = asyncio.run(scenario())
    assert (done.cancelled, done.exit_code) == (True, 130)


def test_an_already_cancelled_token_runs_nothing(tmp_path: Path, env: dict[str, str]) -> None:
    _hook(tmp_path, "h", f"#!/bin/sh\ntouch {tmp_path}/ran\n")
    token = CancelToken()
    token.cancel()
    done = _run(tmp_path, "./h", env, cancel=token)
    assert (done.cancelled, done.exit_code) == (True, 130)
    assert not (tmp_path / "ran").exists()


def test_a_hook_that_exits_leaving_a_background_grandchild_returns_at_once(
    tmp_path: Path, env: dict[str, str]
) -> None:
    _hook(tmp_path, "h", f"#!/bin/sh\n(sleep 300 & echo $! > {tmp_path}/pid)\necho done\n")
    started = time.monotonic()
    done = _run(tmp_path, "./h", env, timeout=60)
    soon_after(time.monotonic() - started, 0, idle_bound=1.0)
    assert (done.exit_code, done.stdout, done.timed_out) == (0, b"done\n", False)
    assert _dead(int((tmp_path / "pid").read_text()))


def test_an_escaped_daemon_holding_stdout_is_found_and_ended(
    tmp_path: Path, env: dict[str, str]
) -> None:
    _hook(tmp_path, "h", f"#!/bin/sh\n(setsid sleep 300 & echo $! > {tmp_path}/pid)\necho done\n")
    started = time.monotonic()
    done = _run(tmp_path, "./h", env, timeout=60)
    soon_after(time.monotonic() - started, 0, idle_bound=2.0)
    assert (done.exit_code, done.stdout) == (0, b"done\n")
    assert _dead(int((tmp_path / "pid").read_text()))


@pytest.mark.parametrize(
    "script",
    [
        # the in-process shell's children: pipelines, redirections, /dev/null
        "printf 'b\\na\\nc\\n' | sort -r | head -2; echo $?",
        "cat > out.txt; wc -c < out.txt; ls out.txt",
        "ls out.txt /nonexistent-dir-x 2>/dev/null; echo $?; ls -d . </dev/null 2>&1 >&2",
        "f() { env | grep -c '^HOOKRUN_DISPATCH_ID='; }; f; (cd / && pwd && ls -d tmp)",
    ],
)
def test_shell_code_starts_its_children_as_bash_runs_them(
    tmp_path: Path, env: dict[str, str], script: str
) -> None:
    (tmp_path / "out.txt").write_text("")
    bash = shutil.which("bash")
    assert bash is not None
    expected = subprocess.run(
        [bash, "-c", script], input=b"payload", capture_output=True, cwd=tmp_path, env=env
    )
    (tmp_path / "out.txt").write_text("")
    done = _run(tmp_path, script, env, stdin=b"payload", timeout=30)
    # bash's children have no dispatch marker: it is hookrun's, one per child
    want = expected.stdout.replace(b"0\n/\n", b"1\n/\n", 1)
    assert (done.stdout, done.stderr, done.exit_code) == (
        want,
        expected.stderr,
        expected.returncode,
    )


def test_parallel_runs_keep_their_own_output(tmp_path: Path, env: dict[str, str]) -> None:
    _hook(tmp_path, "h", '#!/bin/sh\nsleep 0.1\necho "$1"\ncat\n')
    results: dict[int, Completed] = {}

    def one(i: int) -> None:
        results[i] = _run(tmp_path, f"./h {i}", env, stdin=f"in{i}".encode(), timeout=30)

    threads = [threading.Thread(target=one, args=(i,)) for i in range(10)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert {i: r.stdout for i, r in results.items()} == {
        i: f"{i}\nin{i}".encode() for i in range(10)
    }


def test_many_parallel_aruns_do_not_queue_behind_each_other(
    tmp_path: Path, env: dict[str, str]
) -> None:
    # One wave, not ceil(16 / executor size): every hook has started before any has
    # ended (each stamps its start and end; 2 s apart, so a loaded machine still starts
    # all 16 in time — an elapsed-time bound failed at 1.34 s under coverage and load).
    _hook(
        tmp_path,
        "h",
        "#!/bin/sh\ndate +%s.%N > start.$1\nsleep 2\ndate +%s.%N > end.$1\necho $1\n",
    )

    async def scenario() -> list[Completed]:
        return await asyncio.gather(
            *(arun(f"./h {i}", cwd=str(tmp_path), env=env, timeout=30) for i in range(16))
        )

    results = asyncio.run(scenario())
    assert [r.stdout for r in results] == [f"{i}\n".encode() for i in range(16)]
    starts = [float((tmp_path / f"start.{i}").read_text()) for i in range(16)]
    ends = [float((tmp_path / f"end.{i}").read_text()) for i in range(16)]
    assert max(starts) < min(ends), "a hook started only after another had ended: queued"


@pytest.fixture
def threaded_io(monkeypatch: pytest.MonkeyPatch) -> None:
    """The Windows way of moving a file hook's bytes (a thread per pipe), on this OS."""
    from hookrun.dispatch import api

    monkeypatch.setattr(api, "_THREADED_IO", True)


@pytest.mark.usefixtures("threaded_io")
def test_threaded_io_round_trips_payload_and_bounds_output(
    tmp_path: Path, env: dict[str, str]
) -> None:
    _hook(tmp_path, "h", "#!/bin/sh\ncat\nhead -c 3000 /dev/zero >&2\n")
    done = _run(tmp_path, "./h", env, stdin=b"p" * 300_000, max_output=200_000, timeout=30)
    assert (done.exit_code, len(done.stdout), done.stdout_dropped) == (0, 200_000, 100_000)
    assert (len(done.stderr), done.truncated) == (3000, True)


@pytest.mark.usefixtures("threaded_io")
def test_threaded_io_survives_a_child_that_never_reads_10_mb(
    tmp_path: Path, env: dict[str, str]
) -> None:
    _hook(tmp_path, "h", "#!/bin/sh\necho ignored\n")
    done = _run(tmp_path, "./h", env, stdin=b"x" * (10 << 20), timeout=20)
    assert (done.exit_code, done.stdout, done.timed_out) == (0, b"ignored\n", False)


@pytest.mark.usefixtures("threaded_io")
def test_threaded_io_timeout_ends_the_whole_tree(tmp_path: Path, env: dict[str, str]) -> None:
    _hook(tmp_path, "tree", TREE)
    started = time.monotonic()
    done = _run(tmp_path, f"./tree {tmp_path}/pids", env, timeout=3)  # built well before
    soon_after(time.monotonic() - started, 3, idle_bound=4.5)
    assert (done.timed_out, done.stdout) == (True, b"started\n")
    assert [p for p in _tree_pids(tmp_path / "pids") if not _dead(p)] == []
