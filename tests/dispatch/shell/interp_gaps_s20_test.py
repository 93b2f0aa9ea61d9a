"""Interpreter gaps found against bash in session 20, each text run by bash and by the
in-process shell in fresh directories (status, stdout, and whether anything went to
stderr):

- a file without an execute bit run as a command from a script file (``./f``, ``d/f``)
  was read as shell source (a shebang one run by its interpreter); bash refuses it,
  "Permission denied", 126. A hook's own command line still reads it whatever its mode,
  as a hook command that is a path does (``resolve.plan_file``: checkouts that lost their
  modes, Windows), so that a lost mode does not turn the hook's deny into a 126. One found
  on PATH with no runnable one was "command not found" (127) anywhere: bash's 126;
- an extended glob in the pattern of ``${v#…}``/``${v%…}``/``${v/…/…}`` was matched as
  one with extglob off (bash's default in a script): ``${x##+(a)}`` trimmed every ``a``
  where bash trims the text ``+(a)``. (``case`` patterns and ``[[ == ]]`` keep reading
  them: bash's ``[[`` does, and a ``case`` pattern written so is bash's syntax error.)
- ``$'a\\x00b'`` (and ``\\0``, ``\\u0000``, ``\\c@``, ``${x@E}``) kept the NUL and what
  follows; bash's strings end at the NUL: ``a``.
- ``jobs`` kept a finished job for ever (listed as Done at each call, ``%1`` still named
  it). bash (not interactive) drops it once it has waited for a foreground child (a
  program, a pipeline) or ``jobs`` has shown it; ``wait PID`` still reads its status.
  (Each job here ends long before the 1 s the shell waits after it, bash's and ours: a
  loaded machine is slow.)
- bash's own variables: ``unset RANDOM`` (``SECONDS``, ``BASH_VERSION``, ``BASHPID``…)
  left them special, ``local RANDOM`` too; ``unset PPID``/``EUID``/``BASH_VERSINFO``
  went through where bash refuses; ``${!BASH*}``/``${!R*}`` listed none of them; and
  ``OSTYPE`` (what cross-platform scripts branch on: ``darwin*``, ``linux*``, ``msys``),
  ``HOSTTYPE``, ``MACHTYPE``, ``HOSTNAME``, ``EPOCHSECONDS``, ``EPOCHREALTIME``,
  ``SRANDOM``, ``OPTERR``, ``PS4`` were empty.
- ``$LINENO`` across a line continuation: one inside or right after a word (``x=$LINENO\\⏎;``,
  ``echo $LINENO\\⏎ a``, ``ec\\⏎ho $LINENO``) moves bash's line on; only one after a blank
  does not.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.dispatch.shell.shellrun import Runner, agrees_in_fresh_dirs

BASH = shutil.which("bash")
pytestmark = pytest.mark.skipif(BASH is None, reason="bash is the oracle")


def _agree(run: Runner, tmp_path: Path, source: str) -> None:
    """Run ``source`` in two fresh directories, by bash (its ``$0`` hookrun) and
    in-process: the same."""
    agrees_in_fresh_dirs(run, tmp_path, source, args=("hookrun",))


NOT_EXECUTABLE = [
    "printf 'echo sourced\\n' > f; ./f; echo $?",
    "printf '#!/bin/sh\\necho shebang\\n' > f; ./f; echo $?",
    "printf 'echo sourced\\n' > f; ./f 2>/dev/null || echo failed $?",
    "mkdir d; printf 'echo sourced\\n' > d/f; ./d/f a; echo $?; \"$PWD/d/f\"; echo $?",
    "mkdir d; printf 'echo sourced\\n' > d/f; PATH=$PWD/d:$PATH; f; echo $?",
    "printf '' > f; ./f; echo $?",
    "printf 'echo sourced\\n' > f; chmod u=rw f; ./f; echo $?",
    "printf 'echo sourced\\n' > f; exec ./f; echo after $?",
    "printf 'echo sourced\\n' > f; command ./f; echo $?",
    "printf 'echo sourced\\n' > f; (./f); echo $?; ./f | cat; echo $?",
    "printf 'exit 2\\n' > guard.sh; ./guard.sh; echo $?",
    # and next to them, what still runs: the mode set, a directory, a missing file
    "printf 'echo sourced\\n' > f; chmod +x f; ./f; echo $?",
    "printf '' > f; chmod +x f; ./f; echo $?",
    "printf 'echo sourced\\n' > f; bash f; echo $?; sh f; echo $?; . ./f; source f",
    "mkdir d; printf 'echo x\\n' > d/f; chmod +x d/f; mkdir e; printf 'echo y\\n' > e/f; "
    "PATH=$PWD/e:$PWD/d:$PATH; f; echo $?",
    "mkdir d; ./d; echo $?; ./nope; echo $?",
]


def _as_script_file(source: str) -> str:
    """``source`` as the lines of an executable script file ``s.sh``, then run."""
    quoted = source.replace("'", "'\\''")
    return f"printf '%s\\n' '{quoted}' > s.sh; chmod +x s.sh; ./s.sh; echo status $?"


@pytest.mark.parametrize("source", NOT_EXECUTABLE)
def test_a_file_without_the_execute_bit_is_refused_in_a_script_as_bash_refuses_it(
    run: Runner, tmp_path: Path, source: str
) -> None:
    _agree(run, tmp_path, _as_script_file(source))


def test_the_hooks_own_command_line_reads_a_file_whatever_its_mode(
    run: Runner, tmp_path: Path
) -> None:
    # (as a hook command that is a path: a checkout that lost its modes keeps its hooks,
    # and `./guard.sh || exit 2` keeps its deny)
    (tmp_path / "guard.sh").write_text("echo denied >&2; exit 2\n")
    ran = run("./guard.sh; echo $?; printf '#!/bin/sh\\necho sh\\n' > f; ./f")
    assert (ran.code, ran.out, ran.err) == (0, "2\nsh\n", "denied\n")


@pytest.mark.parametrize("source", ["f; echo $?", "command f; echo $?"])
def test_a_file_on_path_without_the_execute_bit_is_refused_anywhere(
    run: Runner, tmp_path: Path, source: str
) -> None:
    _agree(run, tmp_path, "mkdir d; printf 'echo sourced\\n' > d/f; PATH=$PWD/d:$PATH; " + source)


def test_windows_has_no_execute_bit_and_reads_the_file(run: Runner, tmp_path: Path) -> None:
    # (the platform switched: on Windows a script file's lines read a file whatever its
    # mode)
    (tmp_path / "f").write_text("echo sourced\n")
    (tmp_path / "s.sh").write_text("./f; echo $?\n")
    ran = run("./s.sh", platform="win32")
    assert (ran.code, ran.out) == (0, "sourced\n0\n"), ran.err


EXTGLOB_OFF = [
    "x=aab; echo ${x##+(a)} ${x#+(a)} ${x%%+(b)}",
    "shopt -u extglob; x=aab; echo ${x##+(a)}",
    "shopt -s extglob; x=aab; echo ${x##+(a)}; shopt -u extglob; echo ${x##+(a)}",
    "x='+(a)b'; echo ${x##+(a)} ${x#?(a)} ${x/+(a)/Q}",
    "x='a(b)c'; echo ${x%?(b)c} ${x#*(} ${x//[(]/_} ${x//\\(/-}",
    "x=aXa; shopt -s extglob; echo ${x//+(a)/Q}; shopt -u extglob; echo ${x//+(a)/Q}",
    "x=a; echo ${x%%!(b)}; x='!(b)x'; echo ${x#!(b)}",
    "x='a|b'; echo ${x/a|b/Q} ${x/@(a|b)/Q}",
    "x='ab'; p='+(a)'; echo ${x#$p} \"${x#\"$p\"}\"",
    "f=src/a.py; echo ${f##*/} ${f%.*} ${f//\\//_}",
    # case conversion matches extended globs whatever extglob says (as bash)
    "x='!(b)x'; echo ${x^^!(b)} ${x^+(x)} ${x,,?(B)}",
    "x=aab; [[ $x == +(a)b ]] && echo m || echo n",
]


@pytest.mark.parametrize("source", EXTGLOB_OFF)
def test_a_trim_or_replace_pattern_reads_extended_globs_only_with_extglob(
    run: Runner, tmp_path: Path, source: str
) -> None:
    _agree(run, tmp_path, source)


NUL_IN_ANSI_C = [
    "echo $'a\\x00b'c | od -c | head -1",
    "echo $'a\\0b' | od -c | head -1",
    "x=$'a\\x00b'; echo ${#x}",
    "echo $'\\u0000z'x | od -c | head -1",
    "printf '%s|' $'a\\c@b' | od -c | head -1",
    "echo \"$'a\\x00b'\"",
    "echo $'a\\000b' | od -c | head -1",
    "echo $'a\\x0b' | od -c | head -1",
    "x=$'a\\\\x00b'; echo ${x@E} | od -c | head -1",
    "x='a\\0b'; echo ${x@E} | od -c | head -1",
    "f(){ :; }; echo $'a\\x00b'c | od -c | head -1",
    "echo $'\\x00' | od -c | head -1",
    "a=($'x\\0y' b); echo ${#a[0]}",
]


@pytest.mark.parametrize("source", NUL_IN_ANSI_C)
def test_an_ansi_c_string_ends_at_a_nul_as_in_bash(
    run: Runner, tmp_path: Path, source: str
) -> None:
    _agree(run, tmp_path, source)


FINISHED_JOBS = [
    "sleep 0.01 & sleep 1; jobs; echo ---; jobs -l | wc -l; jobs -p | wc -l; jobs %1; "
    "echo $?; wait %1; echo $?",
    "false & sleep 1; jobs; wait $!; echo $?; wait $!; echo $?",
    "sleep 3 & sleep 0.01 & sleep 1; jobs; kill %1",
    "(exit 3) & p=$!; sleep 1; true & q=$!; wait $p; echo $?; wait $q; echo $?",
    "sleep 0.01 & read -t 1 x </dev/zero; jobs; echo -; jobs; jobs %1; echo $?; wait %1; echo $?",
    "false & read -t 1 x </dev/zero; jobs >/dev/null; wait $!; echo $?",
    "false & read -t 1 x </dev/zero; jobs -p | wc -l; jobs; echo -; jobs; wait $!; echo $?",
    "sleep 0.01 & read -t 1 x </dev/zero; jobs -r; echo -; jobs -s; echo -; "
    "jobs -p >/dev/null; jobs; echo -; jobs -l | wc -l",
    "sleep 0.01 & x=$(sleep 1); jobs; echo c",
    "sleep 0.01 & sleep 1 | cat; jobs; echo g",
    "sleep 3 & jobs; kill %1; wait; jobs; echo end",
    "false & wait $!; echo $?; wait $!; echo $?; wait %1; echo $?",
]


@pytest.mark.parametrize("source", FINISHED_JOBS)
def test_a_finished_job_leaves_the_table_when_bash_drops_it(
    run: Runner, tmp_path: Path, source: str
) -> None:
    _agree(run, tmp_path, source)


BASH_VARIABLES = [
    'unset RANDOM; echo "[$RANDOM]"; RANDOM=5; echo $RANDOM',
    'unset -v RANDOM; echo "[$RANDOM]" ${RANDOM-unset}',
    'f(){ local RANDOM; echo "[$RANDOM]"; }; f; [ -n "$RANDOM" ] && echo set',
    'unset BASH_VERSION; echo "[$BASH_VERSION]"',
    'unset SECONDS; echo "[$SECONDS]"',
    'unset BASHPID; echo "[$BASHPID]"',
    'unset PPID UID; echo $?; [ -n "$PPID" ] && echo kept',
    "unset BASH BASH_VERSINFO FUNCNAME BASH_SOURCE BASH_LINENO BASH_SUBSHELL BASH_COMMAND "
    'SHELLOPTS BASHOPTS EUID; echo "$? [$BASH][${BASH_VERSINFO[0]}][$BASH_SUBSHELL]'
    '[$BASH_COMMAND]"; f(){ echo "[$FUNCNAME]"; }; f',
    "echo ${!R*}; echo ${!E*} ${!EPOCH*}; echo ${!L*}; echo ${!O*}; echo ${!M*}; echo ${!SECO*}",
    'f(){ echo ${!F*}; }; f; echo "[${!F*}]"',
    "unset RANDOM SECONDS; echo ${!R*} ${!SE*}",
    'case "$OSTYPE" in linux*) echo linux;; darwin*) echo mac;; msys|cygwin) echo win;; '
    "*) echo other;; esac",
    "[[ $OSTYPE == linux-gnu ]] && echo y; echo $HOSTTYPE $MACHTYPE",
    '[ "$HOSTNAME" = "$(hostname)" ] && echo same-host',
    't=$EPOCHSECONDS; [ "$t" -ge 1700000000 ] && echo epoch; '
    "[[ $EPOCHREALTIME =~ ^[0-9]+\\.[0-9]{6}$ ]] && echo real",
    '[[ $SRANDOM =~ ^[0-9]+$ ]] && echo srandom; echo $OPTERR "$PS4"',
    'OSTYPE=x; echo $OSTYPE; unset OSTYPE; echo "[$OSTYPE]"',
    "echo ${!BASH*}",  # (all 16 names since session 21: interp_gaps_s21_test)
]


@pytest.mark.parametrize("source", BASH_VARIABLES)
def test_bashs_own_variables_are_set_and_unset_as_in_bash(
    run: Runner, tmp_path: Path, source: str
) -> None:
    _agree(run, tmp_path, source)


@pytest.mark.parametrize(
    ("platform", "ostype"), [("linux", "linux-gnu"), ("darwin", "darwin"), ("win32", "msys")]
)
def test_ostype_is_what_bash_reports_on_each_platform(
    monkeypatch: pytest.MonkeyPatch, platform: str, ostype: str
) -> None:
    # (the platform switched: scripts branch on `darwin*`, `linux*`, `msys`)
    from hookrun.dispatch.shell import shellvars

    monkeypatch.setattr(shellvars.sys, "platform", platform)
    got = shellvars._ostype()
    assert got.startswith(ostype)
    if platform == "darwin":
        assert got[len("darwin") :].isdigit()  # the kernel's major version, as bash's


LINENO_CONTINUED = [
    "x=$LINENO\\\n; echo $x",
    "x=$LINENO \\\n; echo $x",
    "echo $LINENO\\\n a",
    "echo $LINENO \\\n a",
    "echo a\\\n $LINENO",
    "echo a \\\n $LINENO; echo a\t\\\n $LINENO",
    "x=1\\\n y=$LINENO; echo $y",
    "ec\\\nho $LINENO",
    "echo $LINENO\\\n",
    "x=1 \\\n y=2 echo $LINENO",
    "f() {\n  echo $LINENO\\\n   b\n}\nf",
    "trap 'echo err $LINENO' ERR\nfalse\\\n x",
    'echo "a\nb" $LINENO\\\n c',
]


@pytest.mark.parametrize("source", LINENO_CONTINUED)
def test_lineno_counts_a_continuation_in_a_word_as_bash_does(
    run: Runner, tmp_path: Path, source: str
) -> None:
    _agree(run, tmp_path, source)
