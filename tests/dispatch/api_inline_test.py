"""dispatch.run with inline shell code and shebang-less scripts (the in-process shell).

The shell's own semantics are tested in tests/dispatch/shell/; here: routing into
it, the same process control and bounds as the file routes, and that no ``sh``
is needed.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import psutil
import pytest

from hookrun.dispatch import CancelToken, Completed, run
from tests.timing import soon_after

REPO = Path(__file__).parents[2]


@pytest.fixture
def no_sh_env(tmp_path: Path) -> dict[str, str]:
    """An env whose PATH holds grep, date, sleep and cat, but no sh or bash."""
    bindir = tmp_path / "nosh-bin"
    bindir.mkdir()
    for tool in ("grep", "date", "sleep", "cat"):
        found = shutil.which(tool)
        assert found is not None
        (bindir / tool).symlink_to(found)
    return {"PATH": str(bindir), "HOME": str(tmp_path), "X": "ex"}


@pytest.fixture(autouse=True, scope="module")
def _parser_loaded() -> None:
    """Load the shell front end once up front: its first import (tree-sitter and the
    bash grammar; more on a loaded machine) would otherwise eat into the first timed
    hook's timeout."""
    run("true; true", cwd="/", env={"PATH": ""})


def _dead(pid: int) -> bool:
    try:
        return bool(psutil.Process(pid).status() == psutil.STATUS_ZOMBIE)
    except psutil.NoSuchProcess:
        return True


def _run(tmp_path: Path, command: str, env: dict[str, str], **kw: object) -> Completed:
    return run(command, cwd=str(tmp_path), env=env, **kw)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("command", "extra_env", "exit_code", "stdout", "stderr"),
    [
        ('echo \'{"decision":"allow"}\'', {}, 0, b'{"decision":"allow"}\n', b""),
        ("echo 'x' >&2; exit 2", {}, 2, b"", b"x\n"),
        (
            "if echo \"$HOOKRUN_TOOL_INPUT_COMMAND\" | grep -qE 'rm'; then exit 2; fi",
            {"HOOKRUN_TOOL_INPUT_COMMAND": "rm -rf /"},
            2,
            b"",
            b"",
        ),
        (
            "if echo \"$HOOKRUN_TOOL_INPUT_COMMAND\" | grep -qE 'rm'; then exit 2; fi",
            {"HOOKRUN_TOOL_INPUT_COMMAND": "ls -la"},
            0,
            b"",
            b"",
        ),
        ("cat", {}, 0, b"payload", b""),
        ("exit 49", {}, 49, b"", b""),
    ],
)
def test_inline_hooks_run_without_any_sh_on_path(
    tmp_path: Path,
    no_sh_env: dict[str, str],
    command: str,
    extra_env: dict[str, str],
    exit_code: int,
    stdout: bytes,
    stderr: bytes,
) -> None:
    done = _run(tmp_path, command, {**no_sh_env, **extra_env}, stdin=b"payload", timeout=30)
    assert (done.exit_code, done.stdout, done.stderr) == (exit_code, stdout, stderr)
    assert done.route == "inprocess"


def test_inline_command_substitution_and_append_redirect_work_without_sh(
    tmp_path: Path, no_sh_env: dict[str, str]
) -> None:
    for _ in range(2):
        done = _run(tmp_path, 'echo "$(date +%Y) $X" >> log.txt', no_sh_env, timeout=30)
        assert done.exit_code == 0
    year = time.strftime("%Y")
    assert (tmp_path / "log.txt").read_text() == f"{year} ex\n{year} ex\n"


def test_a_shebang_less_script_runs_in_process_with_its_arguments(
    tmp_path: Path, no_sh_env: dict[str, str]
) -> None:
    (tmp_path / "hook.sh").write_bytes(b'echo "$0|$1|$2|$#"\r\nexit 3\r\n')
    done = _run(tmp_path, "./hook.sh a 'b c'", no_sh_env)
    assert (done.exit_code, done.stdout, done.route) == (3, b"./hook.sh|a|b c|2\n", "script")


def test_an_empty_script_file_exits_0(tmp_path: Path, no_sh_env: dict[str, str]) -> None:
    (tmp_path / "empty.sh").write_bytes(b"")
    done = _run(tmp_path, "./empty.sh", no_sh_env)
    assert (done.exit_code, done.stdout, done.stderr, done.route) == (0, b"", b"", "script")


def test_an_inline_builtin_hook_spawns_no_process_and_skips_the_parser(tmp_path: Path) -> None:
    # run_argv needs no parser: the plain-words path must not import tree-sitter.
    code = (
        "import os, sys\n"
        "from hookrun.dispatch import run\n"
        "d = run('echo hi', cwd='/', env={'PATH': ''})\n"
        "print(d.stdout == b'hi\\n', d.route, 'tree_sitter' in sys.modules,"
        " 'psutil' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    ).stdout
    assert out.split() == ["True", "inprocess", "False", "False"]


def test_inline_background_children_are_ended_on_timeout(
    tmp_path: Path, no_sh_env: dict[str, str]
) -> None:
    command = "sleep 300 & echo $! > pid1; sleep 301 & echo $! > pid2; sleep 302"
    started = time.monotonic()
    done = _run(tmp_path, command, no_sh_env, timeout=1)
    soon_after(time.monotonic() - started, 1, idle_bound=2.5)  # timeout + ~1 s
    assert (done.timed_out, done.exit_code) == (True, 124)
    pids = [int((tmp_path / f"pid{i}").read_text()) for i in (1, 2)]
    assert [p for p in pids if not _dead(p)] == []


def test_an_inline_busy_loop_stops_at_the_timeout(
    tmp_path: Path, no_sh_env: dict[str, str]
) -> None:
    started = time.monotonic()
    done = _run(tmp_path, "while true; do :; done", no_sh_env, timeout=0.5)
    soon_after(time.monotonic() - started, 0.5, idle_bound=2.0)
    assert (done.timed_out, done.exit_code) == (True, 124)


def test_inline_hooks_are_cancellable_from_another_thread(
    tmp_path: Path, no_sh_env: dict[str, str]
) -> None:
    token = CancelToken()
    threading.Timer(0.3, token.cancel).start()
    started = time.monotonic()
    done = _run(tmp_path, "sleep 300 | cat", no_sh_env, timeout=60, cancel=token)
    soon_after(time.monotonic() - started, 0.3, idle_bound=2.0)
    assert (done.cancelled, done.exit_code) == (True, 130)


def test_an_inline_hook_printing_a_lot_is_truncated_and_flagged(
    tmp_path: Path, no_sh_env: dict[str, str]
) -> None:
    command = "i=0; while [ $i -lt 3000 ]; do echo 0123456789; i=$((i+1)); done"
    done = _run(tmp_path, command, no_sh_env, max_output=1000, timeout=60)
    assert (len(done.stdout), done.stdout_dropped, done.truncated) == (1000, 32000, True)


def test_ten_parallel_inline_hooks_see_only_their_own_cd_and_export(
    tmp_path: Path, no_sh_env: dict[str, str]
) -> None:
    for i in range(10):
        (tmp_path / f"d{i}").mkdir()
    results: dict[int, Completed] = {}

    def one(i: int) -> None:
        command = f'cd d{i}; export MINE={i}; sleep 0.05; echo "$(pwd) $MINE"'
        results[i] = _run(tmp_path, command, no_sh_env, timeout=30)

    threads = [threading.Thread(target=one, args=(i,)) for i in range(10)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert {i: r.stdout.decode() for i, r in results.items()} == {
        i: f"{tmp_path}/d{i} {i}\n" for i in range(10)
    }
    assert os.getcwd() != str(tmp_path / "d0")
    assert "MINE" not in os.environ


def test_an_unknown_command_is_127_with_a_message(
    tmp_path: Path, no_sh_env: dict[str, str]
) -> None:
    done = _run(tmp_path, "no-such-tool-xyz --flag", no_sh_env)
    assert done.exit_code == 127
    assert b"no-such-tool-xyz" in done.stderr


@pytest.mark.parametrize(
    "command",
    [
        # a builtin blocked writing into a pipe nobody reads
        "while true; do echo xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx; done | sleep 300",
        "cat /dev/zero | sleep 300",
        # a builtin blocked reading from a child that never writes
        "sleep 300 | while read l; do :; done",
        # the shell blocked in a command substitution
        "echo $(sleep 300)",
    ],
)
def test_inline_hooks_blocked_on_pipes_return_soon_after_the_timeout(
    tmp_path: Path, no_sh_env: dict[str, str], command: str
) -> None:
    started = time.monotonic()
    done = _run(tmp_path, command, no_sh_env, timeout=1)
    soon_after(time.monotonic() - started, 1, idle_bound=2.5)  # timeout + ~1 s
    assert (done.timed_out, done.exit_code) == (True, 124)


def test_inline_child_that_never_reads_a_10_mb_payload_does_not_block(
    tmp_path: Path, no_sh_env: dict[str, str]
) -> None:
    done = _run(tmp_path, "sleep 0.1; echo ok", no_sh_env, stdin=b"x" * (10 << 20), timeout=20)
    assert (done.exit_code, done.stdout, done.timed_out) == (0, b"ok\n", False)


def test_a_script_file_with_an_unsupported_construct_reports_the_fallback_route(
    tmp_path: Path,
) -> None:
    (tmp_path / "arr.sh").write_text("coproc true; echo y $1\n")
    env = {"PATH": os.environ.get("PATH", "")}
    assert shutil.which("bash", path=env["PATH"]) or shutil.which("sh", path=env["PATH"])
    done = _run(tmp_path, "./arr.sh arg", env, timeout=30)
    assert (done.exit_code, done.stdout, done.route) == (0, b"y arg\n", "sh-fallback")


def test_a_script_file_with_an_unsupported_construct_and_no_sh_fails_with_2(
    tmp_path: Path, no_sh_env: dict[str, str]
) -> None:
    (tmp_path / "arr.sh").write_text("coproc true; echo y\n")
    done = _run(tmp_path, "./arr.sh", no_sh_env, timeout=30)
    assert (done.exit_code, done.route) == (2, "script")
    assert b"shebang" in done.stderr


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is the oracle")
@pytest.mark.parametrize(
    "command",
    [
        'echo "$0"',
        'echo "${0##*/}" "${@:0:1}" $#',
        'f() { echo "$0"; }; f',
        'getopts x o -y 2>&1 | sed "s/:.*//"',
    ],
)
def test_an_inline_commands_dollar_zero_is_bash_cs(tmp_path: Path, command: str) -> None:
    # (as `bash -c COMMAND`; error prefixes stay hookrun's, getopts' carries $0)
    bash = shutil.which("bash")
    assert bash is not None
    env = {"PATH": os.environ["PATH"], "HOME": str(tmp_path), "LC_ALL": "C"}
    want = subprocess.run(
        ["bash", "-c", command], executable=bash, env=env, capture_output=True, check=False
    )
    got = run(command, cwd=str(tmp_path), env=env, timeout=30)
    assert (got.exit_code, got.stdout) == (want.returncode, want.stdout)
