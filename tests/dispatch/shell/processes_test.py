"""The shell with real child processes: PATH without sh, pipelines, isolation, limits."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from hookrun.dispatch.cancel import CancelToken, Guard, Interrupted
from hookrun.dispatch.procs import ProcessTracker
from hookrun.dispatch.shell import Shell
from hookrun.dispatch.streams import BufferSource, CaptureSink
from tests.dispatch.shell.shellrun import Runner, base_env, make_shell, make_shell_and_input
from tests.timing import soon_after

TOOLS = ("grep", "date", "cat", "sleep", "env", "head", "wc", "yes", "tr", "true", "ls")


@pytest.fixture
def no_sh_env(tmp_path: Path) -> dict[str, str]:
    """A PATH holding a few tools and no sh/bash at all."""
    bindir = tmp_path / "bin"
    bindir.mkdir()
    for tool in TOOLS:
        found = shutil.which(tool)
        assert found is not None, tool
        (bindir / tool).symlink_to(found)
    return {"PATH": str(bindir), "HOME": str(tmp_path)}


def test_no_sh_on_path_fixture_really_has_no_shell(no_sh_env: dict[str, str]) -> None:
    for name in ("sh", "bash", "dash"):
        assert shutil.which(name, path=no_sh_env["PATH"]) is None


def test_stderr_and_exit_2_without_sh(run: Runner, no_sh_env: dict[str, str]) -> None:
    ran = run("echo 'x' >&2; exit 2", env=no_sh_env)
    assert (ran.code, ran.out, ran.err, ran.procs) == (2, "", "x\n", 0)


@pytest.mark.parametrize(
    ("command", "status"),
    [("rm -rf /", 2), ("ls -la", 0)],
)
def test_grep_guard_hook_without_sh(
    run: Runner, no_sh_env: dict[str, str], command: str, status: int
) -> None:
    env = dict(no_sh_env, HOOKRUN_TOOL_INPUT_COMMAND=command)
    script = "if echo \"$HOOKRUN_TOOL_INPUT_COMMAND\" | grep -qE 'rm'; then exit 2; fi"
    ran = run(script, env=env)
    assert (ran.code, ran.err) == (status, "")


def test_date_into_an_appended_log_without_sh(
    run: Runner, no_sh_env: dict[str, str], tmp_path: Path
) -> None:
    env = dict(no_sh_env, X="marker")
    for _ in range(2):
        ran = run('echo "$(date) $X" >> log.txt', env=env)
        assert (ran.code, ran.err) == (0, "")
    lines = (tmp_path / "log.txt").read_text().splitlines()
    assert len(lines) == 2
    assert all(line.endswith(" marker") and len(line) > len(" marker") + 10 for line in lines)


def test_builtin_only_hook_starts_no_process_pipe_or_thread(tmp_path: Path) -> None:
    shell, out, err, procs = make_shell(cwd=str(tmp_path), env=base_env())
    threads = threading.active_count()
    code = shell.run_script('echo \'{"decision":"allow"}\'; X=1; [ "$X" = 1 ] && printf "%s\\n" ok')
    assert code == 0
    assert threading.active_count() == threads
    assert out._w is None and err._w is None  # no pipe was ever asked for
    assert procs.procs == []
    assert out.data == b'{"decision":"allow"}\nok\n'


def test_run_argv_runs_a_builtin_without_processes_or_parsing(tmp_path: Path) -> None:
    shell, out, _, procs = make_shell(cwd=str(tmp_path), env=base_env())
    assert shell.run_argv(["echo", "-n", "x y"]) == 0
    assert (out.data, procs.procs, out._w) == (b"x y", [], None)


def test_run_argv_imports_neither_the_parser_nor_the_expander() -> None:
    code = textwrap.dedent(
        """
        import sys
        from hookrun.dispatch.cancel import Guard
        from hookrun.dispatch.procs import ProcessTracker
        from hookrun.dispatch.shell import Shell
        from hookrun.dispatch.streams import BufferSource, CaptureSink
        sh = Shell(cwd=".", env={}, stdin=BufferSource(b""), stdout=CaptureSink(99),
                   stderr=CaptureSink(99), procs=ProcessTracker(), guard=Guard())
        assert sh.run_argv(["echo", "hi"]) == 0
        assert sh.run_argv(["true"]) == 0
        lazy = ("tree_sitter", "hookrun.dispatch.shell.expand", "hookrun.shellsyntax.parser")
        print([name for name in lazy if name in sys.modules])
        """
    )
    root = Path(__file__).resolve().parents[3]
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=root, check=True
    )
    assert result.stdout.strip() == "[]"


def test_run_argv_keeps_windows_backslashes(tmp_path: Path) -> None:
    shell, out, _, _ = make_shell(cwd=str(tmp_path), env=base_env(), platform="win32")
    assert shell.run_argv(["echo", "C:\\Users\\me\\x.txt"]) == 0
    assert out.data == b"C:\\Users\\me\\x.txt\n"


def test_dev_null_redirection_works_under_windows_rules(run: Runner) -> None:
    ran = run("echo gone >/dev/null; echo e 2>/dev/null >&2; echo kept", platform="win32")
    assert (ran.code, ran.out, ran.err) == (0, "kept\n", "")


def test_run_argv_external_command_and_not_found(tmp_path: Path) -> None:
    shell, out, err, procs = make_shell(cwd=str(tmp_path), env=base_env())
    assert shell.run_argv(["ls", "-d", "."]) == 0
    assert shell.run_argv(["no-such-cmd-xyz"]) == 127
    out.finish(5)
    err.finish(5)
    assert out.data == b".\n"
    assert err.data == b"hookrun: no-such-cmd-xyz: command not found\n"


def test_ten_parallel_shells_see_only_their_own_cwd_and_env(tmp_path: Path) -> None:
    cwd_before, env_before = os.getcwd(), dict(os.environ)
    results: dict[int, tuple[int, bytes]] = {}
    barrier = threading.Barrier(10)

    def hook(n: int) -> None:
        d = tmp_path / f"d{n}"
        d.mkdir()
        source = BufferSource(b"")
        shell, out, err, procs = make_shell_and_input(
            cwd=str(tmp_path), env=base_env(), stdin=source
        )
        barrier.wait()
        code = shell.run_script(
            f"cd d{n}; export MINE={n}; sleep 0.05; pwd; echo $MINE; "
            "env | grep '^MINE='; ls -d \"$PWD\"",
        )
        procs.end_all()
        source.close()  # the children's stdin pipe and err's capture pipe, left open otherwise
        err.finish(5)
        out.finish(5)
        results[n] = (code, out.data)

    threads = [threading.Thread(target=hook, args=(n,)) for n in range(10)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    for n in range(10):
        d = tmp_path / f"d{n}"
        assert results[n] == (0, f"{d}\n{n}\nMINE={n}\n{d}\n".encode())
    assert os.getcwd() == cwd_before
    assert dict(os.environ) == env_before


def test_fifty_megabyte_pipeline_streams_between_children(run: Runner) -> None:
    ran = run("yes | head -c 50000000 | wc -c")
    assert (ran.code, ran.out.strip(), ran.err) == (0, "50000000", "")


def test_fifty_megabytes_from_a_builtin_stream_with_bounded_memory(tmp_path: Path) -> None:
    # Peak RSS is per process, so the measurement runs in a fresh interpreter: a 5 MB
    # string echoed ten times into `wc` must not grow the peak by the 50 MB it wrote.
    code = textwrap.dedent(
        """
        import os, resource
        from hookrun.dispatch.cancel import Guard
        from hookrun.dispatch.procs import ProcessTracker
        from hookrun.dispatch.shell import Shell
        from hookrun.dispatch.streams import BufferSource, CaptureSink
        out = CaptureSink(1000)
        sh = Shell(cwd=".", env={"PATH": os.environ["PATH"]}, stdin=BufferSource(b""),
                   stdout=out, stderr=CaptureSink(1000), procs=ProcessTracker(), guard=Guard(60))
        sh.run_script("echo warm | cat >/dev/null")
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        status = sh.run_script(
            "chunk=$(head -c 5000000 /dev/zero | tr '\\\\0' x); "
            "for i in 1 2 3 4 5 6 7 8 9 10; do echo \\"$chunk\\"; done | wc -c")
        after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        out.finish(10)
        print(status, out.data.decode().strip(), (after - before) // 1024)
        """
    )
    root = Path(__file__).resolve().parents[3]
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=root, timeout=100
    )
    status, count, grown_mb = result.stdout.split()
    assert (status, count) == ("0", "50000010"), result.stderr
    # The chunk itself (str + bytes copies) is ~20 MB; holding the 50 MB would exceed this.
    assert int(grown_mb) < 45


def test_builtin_writing_into_a_closed_pipe_ends_with_141(run: Runner) -> None:
    ran = run("set -o pipefail; while :; do echo y; done | head -n 2; echo $?")
    assert (ran.code, ran.out, ran.err) == (0, "y\ny\n141\n", "")


def test_external_stage_killed_by_sigpipe_reports_141(run: Runner) -> None:
    ran = run("set -o pipefail; yes | head -n 1; echo $?")
    assert ran.out == "y\n141\n"


def test_infinite_builtin_loop_stops_at_the_deadline(tmp_path: Path) -> None:
    shell, _, _, _ = make_shell(cwd=str(tmp_path), env=base_env(), timeout=0.5)
    started = time.monotonic()
    with pytest.raises(Interrupted) as info:
        shell.run_script("while true; do :; done")
    assert info.value.reason == "timeout"
    soon_after(time.monotonic() - started, 0.5, idle_bound=3)  # the loop never ends


def test_cancel_from_another_thread_interrupts_a_waiting_child(tmp_path: Path) -> None:
    token = CancelToken()
    out, err = CaptureSink(100), CaptureSink(100)
    procs, source = ProcessTracker(), BufferSource(b"")
    shell = Shell(
        cwd=str(tmp_path),
        env=base_env(),
        stdin=source,
        stdout=out,
        stderr=err,
        procs=procs,
        guard=Guard(None, token),
    )
    threading.Timer(0.3, token.cancel).start()
    started = time.monotonic()
    try:
        with pytest.raises(Interrupted) as info:
            shell.run_script("echo start; sleep 30; echo never")
    finally:
        procs.end_all()
        source.close()
        out.finish(5)
        err.finish(5)
    assert info.value.reason == "cancelled"
    soon_after(time.monotonic() - started, 0.3, idle_bound=3)  # not the 30 s sleep


def test_interrupted_inside_a_pipeline_propagates(tmp_path: Path) -> None:
    shell, out, err, procs = make_shell(cwd=str(tmp_path), env=base_env(), timeout=0.5)
    try:
        with pytest.raises(Interrupted):
            shell.run_script("while :; do echo y; done | while read -r l; do :; done")
    finally:
        procs.end_all()
        out.finish(5)
        err.finish(5)


def test_background_job_starts_without_waiting_and_wait_collects_it(run: Runner) -> None:
    ran = run(
        'sleep 0.3 & pid=$!; echo started; wait $pid; echo "done $?"; [ "$pid" -gt 0 ] && echo pid'
    )
    assert (ran.code, ran.out, ran.procs) == (0, "started\ndone 0\npid\n", 1)


def test_background_children_are_left_to_the_caller(tmp_path: Path) -> None:
    shell, out, err, procs = make_shell(cwd=str(tmp_path), env=base_env())
    assert shell.run_script("sleep 30 & echo bg") == 0
    # Not waited for: the sleep is still running when the script has returned (a
    # clock-free form of "returned at once"; waiting would have ended it after 30 s).
    live = [p for p in procs.procs if p.poll() is None]
    assert len(live) == 1
    procs.end_all()
    assert live[0].poll() is not None
    out.finish(5)
    err.finish(5)


def test_not_executable_binary_is_126(run: Runner, tmp_path: Path) -> None:
    exe = tmp_path / "notexec"
    shutil.copy(shutil.which("true") or "/bin/true", exe)
    exe.chmod(0o644)
    ran = run("./notexec; echo $?")
    assert ran.out == "126\n"
    assert "notexec" in ran.err


def test_shebangless_script_file_runs_in_process_with_arguments(
    run: Runner, tmp_path: Path
) -> None:
    (tmp_path / "hook.sh").write_text('echo "$0 $1 $#"\nexit 3\n')
    ran = run('./hook.sh "a b" c; echo "status $?"')
    assert (ran.code, ran.out, ran.procs) == (0, "./hook.sh a b 2\nstatus 3\n", 0)


def test_shebang_script_runs_its_interpreter(run: Runner, tmp_path: Path) -> None:
    script = tmp_path / "hook.py"
    script.write_text(f"#!{sys.executable}\nimport sys\nprint('py', sys.argv[1:])\n")
    ran = run("./hook.py x")
    assert (ran.code, ran.out, ran.procs) == (0, "py ['x']\n", 1)


def test_missing_script_file_is_a_clear_error(run: Runner) -> None:
    ran = run("./missing.sh; echo $?")
    assert ran.out == "127\n"
    assert "missing.sh" in ran.err and "Traceback" not in ran.err


def test_exec_runs_the_command_and_ends_the_script(run: Runner) -> None:
    ran = run("exec ls -d /; echo never")
    assert (ran.code, ran.out) == (0, "/\n")


def test_unsupported_construct_falls_back_to_a_real_shell(run: Runner) -> None:
    if shutil.which("bash") is None and shutil.which("sh") is None:  # pragma: no cover
        pytest.fail("this machine has no sh; the fallback cannot be shown")
    ran = run("coproc true; echo y $1", args=("arg",))
    assert (ran.code, ran.out, ran.route) == (0, "y arg\n", "sh-fallback")


def test_process_substitution_runs_in_process_without_any_shell(
    run: Runner, tmp_path: Path, no_sh_env: dict[str, str]
) -> None:
    # It went whole to bash (fb65382), and without bash the hook failed and its on_error
    # (allow by default) decided: now the in-process shell runs it, with or without one.
    for env in (None, no_sh_env):
        ran = run(
            "mapfile -t l < <(printf 'a\\nb\\n'); echo ${#l[@]} ${l[1]}; cat <(echo x)",
            env=env,
        )
        assert (ran.code, ran.out, ran.route) == (0, "2 b\nx\n", None)
    (tmp_path / "ps.sh").write_text('while read -r w; do echo "[$w] $1"; done < <(echo a)\n')
    ran = run("./ps.sh one", env=no_sh_env)
    assert (ran.code, ran.out, ran.route) == (0, "[a] one\n", None)
    # `<(` in a quoted word is text: no substitution.
    ran = run("echo '<(x)' \">(y)\"")
    assert (ran.code, ran.out, ran.route) == (0, "<(x) >(y)\n", None)


def test_script_file_with_an_unsupported_construct_falls_back_too(
    run: Runner, tmp_path: Path
) -> None:
    (tmp_path / "arr.sh").write_text('coproc true; echo "q $1"\n')
    ran = run("./arr.sh one; echo after $?")
    assert (ran.code, ran.out, ran.route) == (0, "q one\nafter 0\n", "sh-fallback")


@pytest.mark.parametrize(
    ("source", "construct"),
    [
        ("select x in a b; do echo; done", "'select'"),
        ("time { sleep 0; }", "'time'"),
        ("coproc true", "'coproc'"),
    ],
)
def test_unsupported_construct_without_sh_names_it_and_suggests_a_shebang(
    run: Runner, no_sh_env: dict[str, str], source: str, construct: str
) -> None:
    ran = run(source, env=no_sh_env)
    assert ran.code == 2
    assert ran.route is None
    assert construct in ran.err
    assert "#!/bin/bash" in ran.err and "no POSIX shell" in ran.err


@pytest.mark.parametrize(
    "source",
    [
        "{ " * 400 + "true; " + "} " * 400,  # parses; too deep to interpret
        "if true; then " * 1000 + "true; " + "fi; " * 1000,  # too deep for bashlex
        "echo " + "$(" * 300 + "echo x" + ")" * 300,  # too deep at run time
        "f() { f; }; f",  # endless recursion
    ],
)
def test_deep_nesting_is_an_error_not_a_traceback(
    run: Runner, no_sh_env: dict[str, str], source: str
) -> None:
    ran = run(source, env=no_sh_env)
    assert ran.code == 2
    assert ran.err.startswith("hookrun: ") and "Traceback" not in ran.err


def test_background_builtin_loop_stops_when_the_script_ends(tmp_path: Path) -> None:
    shell, out, err, procs = make_shell(cwd=str(tmp_path), env=base_env(), timeout=None)

    def jobs() -> int:
        return sum(t.name == "hookrun-background" for t in threading.enumerate())

    before = jobs()
    assert shell.run_script("while :; do :; done & echo started") == 0
    deadline = time.monotonic() + 10
    while jobs() > before and time.monotonic() < deadline:
        time.sleep(0.05)
    assert jobs() == before
    procs.end_all()
    out.finish(5)  # the job's capture pipes, left open otherwise
    err.finish(5)


def test_background_function_does_not_delay_the_script(run: Runner) -> None:
    # `$!` must not wait for a spawn that never comes (a wait of up to 5 s, once).
    # Counted in the job's own steps, not in seconds: the function polls for ./go,
    # which the script makes right after `&`, and gives up after 20,000 polls. The two
    # share one process, so load slows both alike: the script got there within 163
    # polls in 5 runs (0.8 s for 20,000 at load 12). A script held at the `&` lets
    # the job give up first and print "starved".
    ran = run(
        "f() { i=0; until [ -e go ]; do i=$((i+1)); [ $i -lt 20000 ] || { echo starved; return; }; "
        "done; }; f & : >go; : $!; echo quick"
    )
    assert (ran.code, ran.out) == (0, "quick\n")


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="counts fds through /proc")
def test_every_pipe_and_file_the_shell_opens_is_closed(run: Runner, tmp_path: Path) -> None:
    script = (
        "echo a | cat | wc -c >/dev/null; x=$(echo sub | cat); cat <<EOF >out.txt\n$x\nEOF\n"
        "read v <<< here; cat < out.txt >> out.txt 2>/dev/null; { echo e >&2; } 2>err.txt; "
        "while :; do echo y; done | head -n 1 >/dev/null; (exec >/dev/null; echo gone); "
        "nosuch-cmd 2>/dev/null; true"
    )
    run(script)  # warm-up: lazily created module state is not a leak
    before = len(os.listdir("/proc/self/fd"))
    for _ in range(5):
        assert run(script).code == 0
    # A here-document's feeder thread closes its pipe end a moment after the command.
    deadline = time.monotonic() + 5
    while len(os.listdir("/proc/self/fd")) > before and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(os.listdir("/proc/self/fd")) == before


def test_an_and_or_list_goes_to_the_background_as_a_whole(run: Runner) -> None:
    # The list's first part ends only once the script has printed "first" (a file says
    # so; `sleep 0.3` raced it on a loaded machine). Were only `echo late` put in the
    # background, the loop would run in the foreground until the run's timeout.
    ran = run(
        "rm -f go; until [ -e go ]; do sleep 0.01; done && echo late & echo first; : > go; "
        "wait; echo end"
    )
    assert (ran.code, ran.out) == (0, "first\nlate\nend\n")
