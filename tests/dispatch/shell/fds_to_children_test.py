"""Descriptors above 2 reach external programs at the script's numbers, and ``1>&file``.

Every row was run through bash 5 (``bash -c SOURCE hookrun`` in an empty directory, the
shell tests' environment) and agrees with it; ``bash_confirm_test.py`` runs them through
bash again. The programs are real (``cat /dev/fd/N`` opens the descriptor it inherited).
stderr is hookrun's own wording and is not compared.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from hookrun.dispatch import fdpass
from tests.dispatch.shell.shellrun import Runner

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


@posix_only
def test_descriptors_that_swap_numbers_reach_the_child_swapped() -> None:
    # The parent holds "one" at A and "two" at B; the child must get them the other way
    # round: each target is also the other move's source. A and B are free numbers from
    # 40 up (a fixed 40 could be taken by then: dup2 over it fails, or closes another
    # test's descriptor).
    import fcntl  # (POSIX only)

    held = []
    for text in (b"one", b"two"):
        r, w = os.pipe()
        os.write(w, text)
        os.close(w)
        held.append(fcntl.fcntl(r, fcntl.F_DUPFD_CLOEXEC, 40))
        os.close(r)
    a, b = held
    code = f"import os; print(os.read({a}, 9).decode(), os.read({b}, 9).decode())"
    try:
        done = subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            check=False,
            **fdpass.popen_args({a: b, b: a}),
        )
    finally:
        os.close(a)
        os.close(b)
    assert done.stdout == b"two one\n", done.stderr


def test_a_source_among_0_to_2_is_copied_in_the_parent() -> None:
    moved, copies = fdpass.parent_sources({3: 1, 4: 9})
    try:
        assert moved[4] == 9 and moved[3] == copies[0] and copies[0] > 2
    finally:
        for c in copies:
            os.close(c)
