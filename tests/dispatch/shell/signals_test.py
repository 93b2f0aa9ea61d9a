"""``kill`` and traps: signals sent by a hook's own in-process shell, delivered in-process.

Every row is what bash 5.2 does (``bash -c SOURCE`` in an empty directory): the test runs
bash too when it is on PATH. Where bash itself dies by the signal, its parent sees
128+N — the status hookrun's in-process shell ends with, since it is not a process.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from hookrun.dispatch import run as dispatch_run
from tests.dispatch.shell.shellrun import Runner, base_env

BASH = shutil.which("bash")

ROWS = [
    # A trapped signal runs its trap once the command that sent it is done; $? is kept.
    ("trap 'echo got $?' USR1; false; kill -USR1 $$; echo after=$?", 0, "got 0\nafter=0\n"),
    ("trap 'echo T' TERM; kill $$; echo after", 0, "T\nafter\n"),
    ("trap 'echo x' USR1; f() { kill -USR1 $$; echo in f; }; f; echo after", 0, "x\nin f\nafter\n"),
    (
        "trap 'echo got' USR1; kill -s usr1 $$; kill -n 10 $$; kill -SIGUSR1 $$; echo end",
        0,
        "got\ngot\ngot\nend\n",
    ),
    # Untrapped: the shell ends as the signal would end it (its EXIT trap runs, not after
    # SIGKILL); hookrun itself is never signalled.
    ("trap 'echo EXIT' EXIT; kill -USR1 $$; echo after", 138, "EXIT\n"),
    ("kill -TERM $$; echo after", 143, ""),
    ("trap 'echo EXIT' EXIT; kill -9 $$; echo after", 137, ""),
    ("kill -s USR1 -- $$ 2>/dev/null; echo unreached", 138, ""),
    # Ignored, or harmless by default.
    ("trap '' USR1; kill -USR1 $$; echo after", 0, "after\n"),
    ("kill -URG $$; kill -CHLD $$; kill -WINCH $$; echo alive", 0, "alive\n"),
    # From a subshell, $$ is still the parent: its trap runs after the subshell.
    ("trap 'echo x' USR2; (kill -USR2 $$; echo sub); echo after", 0, "sub\nx\nafter\n"),
    ("trap '' USR2; (kill -USR2 $$; echo sub); echo after", 0, "sub\nafter\n"),
    # $! of an in-process job names its subshell (URG does nothing there).
    ("{ sleep 0.2; echo job; } & kill -URG $!; wait; echo w=$?", 0, "job\nw=0\n"),
    # A trapped signal ends `wait` with 128+N, then the trap runs. (The waited-for job
    # outlives the signal by far: with `sleep 1` and the signal 0.3 s in, a loaded
    # machine could end the job first.)
    (
        "trap 'echo got' USR1; sleep 30 & p=$!; (sleep 1; kill -USR1 $$) & wait $p; echo w=$?; "
        "kill $p",
        0,
        "got\nw=138\n",
    ),
    # A real program's pid gets a real signal.
    ("sleep 5 & kill $!; wait $!; echo w=$?", 0, "w=143\n"),
    # Usage and errors.
    ("kill; echo $?", 0, "2\n"),
    ("kill -X $$; echo $?", 0, "1\n"),
    ("kill %3; echo $?", 0, "1\n"),
    ("kill abc; echo $?", 0, "1\n"),
    ("kill -0 $$; echo $?; kill -s 0 $$; echo $?; kill -n 0 $$; echo $?", 0, "0\n0\n0\n"),
    ("kill -l 15; kill -l TERM; kill -l 143", 0, "TERM\n15\nTERM\n"),
    ("command -v kill; type -t kill", 0, "kill\nbuiltin\n"),
    # Job specs: %N keeps its number while the table holds other jobs; %% and %-. (Each
    # job is still running when waited for: bash may drop a finished one from its table.)
    ("sleep 0.1 & wait %1; echo $?; wait %3; echo $?", 0, "0\n127\n"),
    ("(sleep 0.2; exit 3) & wait %%; echo $?", 0, "3\n"),
    # Job 2 ends only after `wait %1` returned (a file says so): bash drops a job that
    # finished meanwhile (`wait %2` then says 127), as `sleep 0.6` allowed under load.
    (
        "rm -f go; (sleep 0.2; exit 4) & (until [ -e go ]; do sleep 0.01; done; exit 5) & "
        "wait %1; echo $?; : > go; wait %2; echo $?",
        0,
        "4\n5\n",
    ),
    ("(sleep 0.2; exit 2) & (sleep 0.6; exit 3) & wait %-; echo $?", 0, "2\n"),
    ("sleep 5 & sleep 5 & kill %2; wait %2; echo $?; kill %1; wait %1; echo $?", 0, "143\n143\n"),
]


@pytest.mark.parametrize(("source", "code", "stdout"), ROWS)
def test_kill_and_traps_agree_with_bash(
    run: Runner, tmp_path: Path, source: str, code: int, stdout: str
) -> None:
    got = run(source)
    assert (got.code, got.out) == (code, stdout), got.err
    if BASH is not None:
        done = subprocess.run(
            [BASH, "-c", source, "hookrun"],
            cwd=tmp_path,
            env=base_env(),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=30,
            check=False,
        )
        status = 128 - done.returncode if done.returncode < 0 else done.returncode
        assert (status, done.stdout.decode()) == (code, stdout)


@pytest.mark.parametrize(
    ("source", "stdout"),
    [
        # $$ expanded by the hook's shell: the signal is for it, and its trap runs.
        ("trap 'echo got $?' USR1; sh -c \"kill -USR1 $$\"; echo after=$?", "got 0\nafter=0\n"),
        # A `bash -c` that traps the signal itself, as a background job signalled by $!,
        # once its trap is set (it says so with a file: `sleep 0.3` raced bash's start-up
        # on a loaded machine, and an untrapped USR1 ends bash with 138). The real bash
        # run that follows in the same directory must not find hookrun's file.
        (
            "rm -f ready; bash -c 'trap \"echo usr1\" USR1; : > ready; sleep 2' & "
            "until [ -e ready ]; do sleep 0.02; done; kill -USR1 $!; wait; echo status=$?",
            "usr1\nstatus=0\n",
        ),
        # A background job ignores INT (non-interactive bash): its trap cannot catch it.
        # Signalled once its trap is set (a file says so), as the USR1 row above.
        (
            "rm -f ready; bash -c 'trap \"echo int\" INT; : > ready; sleep 1' & "
            "until [ -e ready ]; do sleep 0.02; done; kill -INT $!; wait; echo status=$?",
            "status=0\n",
        ),
    ],
)
def test_in_process_bash_children_get_the_signals_bash_would_give_them(
    tmp_path: Path, source: str, stdout: str
) -> None:
    done = dispatch_run(source, cwd=str(tmp_path), env=base_env(), shell="inprocess", timeout=30)
    assert (done.exit_code, done.stdout.decode()) == (0, stdout), done.stderr
    assert done.route.startswith("inprocess:")
    if BASH is not None:
        real = subprocess.run(
            [BASH, "-c", source],
            cwd=tmp_path,
            env=base_env(),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=30,
            check=False,
        )
        assert (real.returncode, real.stdout.decode()) == (0, stdout)


def test_a_hook_killing_its_own_shell_does_not_signal_hookrun(tmp_path: Path) -> None:
    # Before the kill builtin, /usr/bin/kill sent these to hookrun's own pid.
    for sig, status in (("TERM", 143), ("INT", 130), ("HUP", 129), ("USR1", 138)):
        done = dispatch_run(f"kill -{sig} $$; echo no", cwd=str(tmp_path), env=base_env())
        assert (done.exit_code, done.stdout) == (status, b"")
    for group in ("0", "-1", f"-{os.getpgid(0)}"):
        done = dispatch_run(f"kill -USR2 -- {group}; echo no", cwd=str(tmp_path), env=base_env())
        assert (done.exit_code, done.stdout) == (140, b""), group


@pytest.mark.parametrize(
    ("script", "loads"),
    [
        ("trap 'echo t' USR1 EXIT; (echo sub); echo hi &", False),
        ("kill -0 $$", True),
    ],
)
def test_the_signals_module_loads_only_when_a_script_kills(script: str, loads: bool) -> None:
    # Keeps the shell path's import cost flat: traps alone need nothing from it.
    code = (
        "import os, sys\n"
        "from hookrun.dispatch import run\n"
        f"done = run({script!r}, cwd=os.getcwd(), env=dict(os.environ))\n"
        "assert done.exit_code == 0, done\n"
        "print('\\n'.join(sys.modules))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    ).stdout.split()
    assert ("hookrun.dispatch.shell.signals" in out) is loads
