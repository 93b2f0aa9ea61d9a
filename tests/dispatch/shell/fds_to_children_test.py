"""Descriptors above 2 reach external programs at the script's numbers, and ``1>&file``.

Every row was run through bash 5 (``bash -c SOURCE hookrun`` in an empty directory, the
shell tests' environment) and agrees with it; ``bash_confirm_test.py`` runs them through
bash again. The programs are real (``cat /dev/fd/N`` opens the descriptor it inherited).
stderr is hookrun's own wording and is not compared.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from hookrun.dispatch import fdpass
from tests.dispatch.forkprobe import ForkProbe
from tests.dispatch.shell.shellrun import Runner, base_env, bash_result

posix_only = pytest.mark.skipif(os.name != "posix", reason="/dev/fd/N and fd passing: POSIX")


@posix_only
@pytest.mark.parametrize(
    ("source", "code", "stdout"),
    [
        ("cat /dev/fd/3 3<<EOF\nfd3\nEOF", 0, "fd3\n"),
        ("cat /dev/fd/3 /dev/fd/5 3<<A 5<<B\nthree\nA\nfive\nB", 0, "three\nfive\n"),
        ("exec 4>out; sh -c 'echo to4 >&4'; exec 4>&-; cat out", 0, "to4\n"),
        ("echo piped | cat /dev/fd/3 3<&0", 0, "piped\n"),
        ("sh -c 'echo via3 >&3' 3>&1", 0, "via3\n"),
        ("cat /dev/fd/3 3<<A | cat - /dev/fd/5 5<<B\nthree\nA\nfive\nB", 0, "three\nfive\n"),
        # 3 becomes B, then 5 becomes the new 3 (B): one pipe at two numbers.
        ("exec 3<<A 5<<B\nthree\nA\nfive\nB\ncat /dev/fd/3 /dev/fd/5 3<&5 5<&3", 0, "five\n"),
        ("exec 3<&-; cat /dev/fd/3 2>/dev/null; echo $?", 0, "1\n"),
        ("exec 7<<A\nseven\nA\nf() { cat /dev/fd/7; }; f", 0, "seven\n"),
        # `1>&word` with a word that is no descriptor is `&>word`; other numbers are not.
        ("echo one 1>&f; cat f", 0, "one\n"),
        ("{ echo out; echo err >&2; } 1>&f; cat f", 0, "out\nerr\n"),
        ("echo a 2>&f; echo $?", 0, "1\n"),
    ],
)
def test_descriptors_reach_children_as_in_bash(
    run: Runner, source: str, code: int, stdout: str
) -> None:
    got = run(source)
    assert (got.code, got.out) == (code, stdout), got.err


def test_a_source_among_0_to_2_is_copied_in_the_parent() -> None:
    moved, copies = fdpass.parent_sources({3: 1, 4: 9})
    try:
        assert moved[4] == 9 and moved[3] == copies[0] and copies[0] > 2
    finally:
        for c in copies:
            os.close(c)


@pytest.fixture
def fork_probe() -> Iterator[ForkProbe]:
    probe = ForkProbe()
    yield probe
    probe.close()


SCRIPTS = [
    "cat <(echo psub) /dev/fd/3 3<<<three",
    "exec 4>f; sh -c 'echo to4 >&4'; exec 4>&-; cat f",
    "exec 3<<A 5<<B\nthree\nA\nfive\nB\ncat /dev/fd/3 /dev/fd/5 3<&5 5<&3",
    "ulimit -n 64; sh -c 'ulimit -n'; cat <(echo limited)",
    "ulimit -c 0; exec 7<<<seven; cat /dev/fd/7; sh -c 'ulimit -c'",
]


@posix_only
@pytest.mark.parametrize("source", SCRIPTS)
def test_no_python_runs_in_a_forked_child(
    run: Runner, tmp_path: Path, source: str, fork_probe: ForkProbe
) -> None:
    env = base_env()
    ran = run(source, env=env)
    (tmp_path / "b").mkdir()
    assert (ran.code, ran.out) == bash_result(source, env, cwd=tmp_path / "b"), ran.err
    assert fork_probe.written() == b""


@posix_only
@pytest.mark.parametrize(
    "source",
    [
        # SIGPIPE back to its default in the child, as Popen's restore_signals does:
        # `yes` dies of it (141), where an ignored SIGPIPE makes it exit 1.
        "ulimit -c 0; yes | head -1; echo ${PIPESTATUS[0]}",
        "ulimit -c 0; exec 9<<<x; yes | head -1; echo ${PIPESTATUS[0]}",
        # The environment is the hook's exactly (no locale variable the helper's own
        # Python start-up may add).
        "ulimit -c 0; env | grep -c '^LC_'; env | grep -c '^X=1$'",
        "exec 9<<<x; env | grep -c '^LC_'; echo $(cat /dev/fd/9)",
        # The descriptors the child has: 0-2, the script's, and what ls opens itself.
        "ulimit -c 0; exec 5</dev/null; ls /dev/fd/ | wc -l",
    ],
)
def test_the_child_is_as_bashs(run: Runner, tmp_path: Path, source: str) -> None:
    env = base_env(X="1")
    ran = run(source, env=env)
    assert (ran.code, ran.out) == bash_result(source, env, cwd=tmp_path), ran.err
