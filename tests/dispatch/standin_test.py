"""The bash stand-in: which command words it takes, bash's command line, and the route.

Command lines are read as bash 5 reads them (``bash -ec 'false; echo no'`` exits 1,
``bash -c CODE NAME A B`` makes NAME ``$0``); the end-to-end behaviour with bash
hidden from PATH is in standin_hooks_test.py.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from hookrun.dispatch import run
from hookrun.dispatch.standin import (
    Invocation,
    StandInError,
    applies,
    parse_invocation,
    shell_name,
)


@pytest.mark.parametrize(
    ("word", "platform", "name"),
    [
        ("bash", "linux", "bash"),
        ("sh", "linux", "sh"),
        ("/bin/bash", "linux", "bash"),
        ("/usr/local/bin/sh", "linux", "sh"),
        ("zsh", "linux", None),
        ("bash5", "linux", None),
        ("Bash", "linux", None),
        ("C:\\Program Files\\Git\\bin\\bash.exe", "win32", "bash"),
        ("BASH.EXE", "win32", "bash"),
        ("sh.exe", "win32", "sh"),
        ("bash.exe", "linux", None),
        ("dash.exe", "win32", None),
    ],
)
def test_shell_name_recognises_bash_and_sh_in_each_platforms_spelling(
    word: str, platform: str, name: str | None
) -> None:
    assert shell_name(word, platform) == name


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["x.sh"], Invocation("bash", file="x.sh", argv0="x.sh")),
        (["x.sh", "a", "b"], Invocation("bash", file="x.sh", argv0="x.sh", args=("a", "b"))),
        (["-c", "echo hi"], Invocation("bash", command="echo hi")),
        (
            ["-c", "echo $0", "nm", "a"],
            Invocation("bash", command="echo $0", argv0="nm", args=("a",)),
        ),
        (["-ec", "false"], Invocation("bash", ("-e",), command="false")),
        (
            ["-euo", "pipefail", "x.sh"],
            Invocation("bash", ("-e", "-u", "-o", "pipefail"), file="x.sh", argv0="x.sh"),
        ),
        (["+o", "posix", "-o", "posix", "-c", ":"], Invocation("bash", command=":")),
        (["--norc", "--noprofile", "-l", "x.sh"], Invocation("bash", file="x.sh", argv0="x.sh")),
        (
            ["-x", "--", "-weird.sh"],
            Invocation("bash", ("-x",), file="-weird.sh", argv0="-weird.sh"),
        ),
        (
            ["-O", "nullglob", "+O", "dotglob", "-c", ":"],
            Invocation("bash", command=":", shopts=("-s", "nullglob", "-u", "dotglob")),
        ),
        (["-O"], StandInError("bash -O: option requires an argument")),
        (["-"], Invocation("bash")),
        ([], Invocation("bash")),
        (["-s", "a", "b"], Invocation("bash", args=("a", "b"))),
        (["-i"], StandInError("bash -i: an interactive shell cannot stand in for bash")),
        (
            ["--rcfile", "x"],
            StandInError("bash --rcfile: option not supported by the in-process shell"),
        ),
        (["-c"], StandInError("bash: -c: option requires an argument")),
        (["-o"], StandInError("bash -o: option requires an argument")),
        (["-Q", "x.sh"], StandInError("bash: -Q: invalid option")),
    ],
)
def test_parse_invocation_reads_bashs_command_line(
    args: list[str], expected: Invocation | StandInError
) -> None:
    assert parse_invocation("bash", args) == expected


def _bin_without_shells(tmp_path: Path) -> str:
    """A PATH directory holding real programs, but no bash and no sh."""
    bindir = tmp_path / "bin"
    bindir.mkdir()
    for tool in ("cat", "env"):
        found = _which(tool)
        if found:
            (bindir / tool).symlink_to(found)
    return str(bindir)


def _which(tool: str) -> str | None:
    for entry in os.environ.get("PATH", "").split(os.pathsep):
        cand = os.path.join(entry, tool)
        if os.path.isfile(cand) and os.access(cand, os.X_OK):
            return cand
    return None


@pytest.mark.skipif(sys.platform == "win32", reason="PATH layout of a POSIX machine")
def test_applies_only_to_a_shell_missing_from_path_unless_forced(tmp_path: Path) -> None:
    no_shells = {"PATH": _bin_without_shells(tmp_path)}
    system = {"PATH": os.environ.get("PATH", "")}
    cwd = str(tmp_path)
    assert applies("bash", mode="auto", env=no_shells, cwd=cwd)
    assert applies("/bin/bash-not-here/bash", mode="auto", env=no_shells, cwd=cwd)
    assert not applies("python3", mode="inprocess", env=no_shells, cwd=cwd)
    if _which("bash"):
        assert not applies("bash", mode="auto", env=system, cwd=cwd)
        assert not applies(_which("bash") or "", mode="auto", env=no_shells, cwd=cwd)
        assert applies("bash", mode="inprocess", env=system, cwd=cwd)


def _standin(tmp_path: Path, command: str, stdin: bytes = b"") -> tuple[int, str, str, str]:
    done = run(
        command,
        cwd=str(tmp_path),
        env={"PATH": os.environ.get("PATH", ""), "HOME": str(tmp_path)},
        stdin=stdin,
        shell="inprocess",
    )
    return done.exit_code, done.stdout.decode(), done.stderr.decode(), done.route


# (command, stdin, (exit code, stdout, hookrun's stderr or None: any hookrun message,
# route)). Exit code and stdout are what bash 5 gives (confirmed below when bash is here).
STANDIN_ROWS: list[tuple[str, bytes, tuple[int, str, str | None, str]]] = [
    ("bash -c 'echo $0 $1 $#' nm a", b"", (0, "nm a 1\n", "", "inprocess:bash")),
    ("sh -c 'echo $0'", b"", (0, "sh\n", "", "inprocess:sh")),
    ("bash -ec 'false; echo no'", b"", (1, "", "", "inprocess:bash")),
    ("bash -uc 'echo ${nope}x'", b"", (127, "", None, "inprocess:bash")),
    ("bash -c 'cat'", b"payload", (0, "payload", "", "inprocess:bash")),
    # set -u ends a -c string with 127 but a script (stdin, a file) with 1.
    ("bash", b"set -u; echo $nope; echo no", (1, "", None, "inprocess:bash")),
    # $- ends in c for a command string, s for stdin, nothing for a file.
    ("bash -c 'echo $-'", b"", (0, "hBc\n", "", "inprocess:bash")),
    ("bash", b"echo $-", (0, "hBs\n", "", "inprocess:bash")),
    ("bash dash.sh", b"", (0, "hB\n", "", "inprocess:bash")),
    ("bash -O nullglob -c 'echo a *.none b'", b"", (0, "a b\n", "", "inprocess:bash")),
    ("bash +O nullglob -c 'echo a *.none b'", b"", (0, "a *.none b\n", "", "inprocess:bash")),
    ("bash", b"echo from-stdin; cat", (0, "from-stdin\n", "", "inprocess:bash")),
    (
        "bash script.sh one 'two words'",
        b"",
        (3, "script.sh one two words\n", "", "inprocess:bash"),
    ),
    (
        "bash missing.sh",
        b"",
        (
            127,
            "",
            "hookrun: missing.sh: no such file (looked for {tmp}/missing.sh)\n",
            "inprocess:bash",
        ),
    ),
    (
        "bash -i",
        b"",
        (
            2,
            "",
            "hookrun: bash -i: an interactive shell cannot stand in for bash\n",
            "inprocess:bash",
        ),
    ),
    ("bash -o nosuchopt -c :", b"", (2, "", None, "inprocess:bash")),
    ("bash -n -c 'echo ran'", b"", (0, "", "", "inprocess:bash")),
    ("bash -n script.sh", b"", (0, "", "", "inprocess:bash")),
    ("bash -n -c 'if true; then'", b"", (2, "", None, "inprocess:bash")),
]


@pytest.mark.parametrize(("command", "stdin", "expected"), STANDIN_ROWS)
def test_forced_standin_runs_bash_command_lines_in_process(
    tmp_path: Path, command: str, stdin: bytes, expected: tuple[int, str, str | None, str]
) -> None:
    (tmp_path / "script.sh").write_text('echo "$0 $1 $2"\nexit 3\n')
    (tmp_path / "dash.sh").write_text("echo $-\n")
    code, out, err, route = _standin(tmp_path, command, stdin)
    want_code, want_out, want_err, want_route = expected
    assert (code, out, route) == (want_code, want_out, want_route)
    if want_err is None:
        assert err.startswith("hookrun: ")
    else:
        assert err == want_err.format(tmp=tmp_path)


@pytest.mark.skipif(_which("bash") is None, reason="bash is the oracle; not on PATH here")
@pytest.mark.parametrize(
    ("command", "stdin"),
    [
        (command, stdin)
        for command, stdin, _ in STANDIN_ROWS
        if command != "bash -i"  # a real interactive bash: nothing to compare
    ],
)
def test_the_standin_rows_are_what_real_bash_does(
    tmp_path: Path, command: str, stdin: bytes
) -> None:
    (tmp_path / "script.sh").write_text('echo "$0 $1 $2"\nexit 3\n')
    (tmp_path / "dash.sh").write_text("echo $-\n")
    real = run(
        command,
        cwd=str(tmp_path),
        env={"PATH": os.environ.get("PATH", ""), "HOME": str(tmp_path)},
        stdin=stdin,
    )
    assert real.route == "inprocess"  # split into argv; bash itself is the child
    expected = next(want for c, s, want in STANDIN_ROWS if (c, s) == (command, stdin))
    assert (real.exit_code, real.stdout.decode()) == expected[:2]


@pytest.mark.skipif(sys.platform == "win32", reason="PATH layout of a POSIX machine")
@pytest.mark.parametrize(
    ("command", "route", "error_end"),
    [
        (
            "coproc cat; echo no",
            "inprocess",
            ": run the hook as a script file with a #! line naming its shell",
        ),
        (
            "bash -c 'coproc cat; echo no'",
            "inprocess:bash",
            ' (it stood in for bash, which is not on PATH or the hook asked for "shell": '
            '"inprocess"): install bash, or rewrite that part of the hook',
        ),
        (
            "x=1; sh -c 'coproc cat'",
            "inprocess:sh",
            ' (it stood in for sh, which is not on PATH or the hook asked for "shell": '
            '"inprocess"): install sh, or rewrite that part of the hook',
        ),
    ],
)
def test_a_construct_nothing_can_run_is_a_failed_run_not_an_exit_2_answer(
    tmp_path: Path, command: str, route: str, error_end: str
) -> None:
    # No sh on PATH either, so nothing can take the construct over (no sh-fallback).
    done = run(command, cwd=str(tmp_path), env={"PATH": _bin_without_shells(tmp_path)})
    assert (done.exit_code, done.stdout, done.route) == (2, b"", route)
    assert done.error is not None
    assert done.error.startswith("the in-process shell does not support ")
    assert done.error.endswith(error_end)


def test_on_windows_the_wsl_launcher_in_system32_is_no_bash_but_git_bash_is(
    tmp_path: Path,
) -> None:
    windows = tmp_path / "Windows"
    (windows / "System32").mkdir(parents=True)
    (windows / "System32" / "bash.exe").write_bytes(b"MZ")
    git = tmp_path / "Git" / "bin"
    git.mkdir(parents=True)
    (git / "bash.exe").write_bytes(b"MZ")
    wsl_only = {"PATH": str(windows / "System32"), "PATHEXT": ".exe", "SystemRoot": str(windows)}
    both = {**wsl_only, "PATH": f"{git};{windows / 'System32'}"}
    cwd = str(tmp_path)
    assert applies("bash", mode="auto", env=wsl_only, cwd=cwd, platform="win32")
    assert applies(
        str(windows / "System32" / "bash.exe"), mode="auto", env=wsl_only, cwd=cwd, platform="win32"
    )
    assert not applies("bash", mode="auto", env=both, cwd=cwd, platform="win32")
    assert not applies(str(git / "bash.exe"), mode="auto", env=both, cwd=cwd, platform="win32")
    # Only Windows has such a launcher; elsewhere a bash in a folder of that name is bash.
    assert not applies(
        str(windows / "System32" / "bash.exe"), mode="auto", env=wsl_only, cwd=cwd, platform="linux"
    )


@pytest.mark.parametrize("options", ["-o nosuchopt", "-o nosuchopt -e"])
def test_options_the_in_process_shell_cannot_set_fail_the_run_rather_than_answer(
    tmp_path: Path, options: str
) -> None:
    # bash itself exits 2 for `-o nosuchopt`; as a hook's status that would be a deny.
    done = run(
        f"bash {options} -c 'echo ran'",
        cwd=str(tmp_path),
        env={"PATH": os.environ.get("PATH", "")},
        shell="inprocess",
    )
    assert (done.exit_code, done.stdout, done.route) == (2, b"", "inprocess:bash")
    assert done.error == (
        f"bash {options}: the in-process shell standing in for bash cannot set these options"
    )


@pytest.mark.skipif(sys.platform == "win32", reason="symlinks to directories need privileges")
def test_a_standin_bash_without_pwd_starts_in_the_physical_directory(tmp_path: Path) -> None:
    # As bash: with $PWD to trust it keeps the logical path (a symlink), without it
    # getcwd() gives the physical one (Oils builtin-cd#14, checked with bash 5.2).
    (tmp_path / "target").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "target")
    env = {"PATH": os.environ.get("PATH", os.defpath)}
    script = "cd link; bash -c 'basename $(pwd)'; unset PWD; bash -c 'basename $(pwd)'"
    done = run(script, cwd=str(tmp_path), env=env, shell="inprocess")
    assert (done.exit_code, done.stdout) == (0, b"link\ntarget\n"), done.stderr


GUARD = """\
[ -n "$BASH_VERSION" ] || { echo "this hook needs bash" >&2; exit 1; }
(( BASH_VERSINFO[0] >= 4 )) || { echo "this hook needs bash 4" >&2; exit 1; }
declare -A seen=([rm]=1)
cmd=$(cat)
[[ -n ${seen[${cmd%% *}]} ]] && { echo "blocked: $cmd" >&2; exit 2; }
exit 0
"""


@pytest.mark.skipif(sys.platform == "win32", reason="PATH layout of a POSIX machine")
@pytest.mark.parametrize("command", ["bash guard.sh", "./guard.sh"])
def test_a_guard_that_checks_it_runs_under_bash_blocks_without_bash(
    tmp_path: Path, command: str
) -> None:
    # The stand-in says it is bash 5.2: the script's "not bash" exit 1 (a non-blocking
    # error, so the guard failed open) is not taken and its exit 2 blocks.
    guard = tmp_path / "guard.sh"
    guard.write_text("#!/usr/bin/env bash\n" + GUARD)
    guard.chmod(0o755)
    done = run(
        command,
        cwd=str(tmp_path),
        env={"PATH": _bin_without_shells(tmp_path)},
        stdin=b"rm -rf /",
    )
    assert done.route == "inprocess:bash"
    assert (done.exit_code, done.stderr.decode()) == (2, "blocked: rm -rf /\n")
