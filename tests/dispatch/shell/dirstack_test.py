"""``pushd``, ``popd``, ``dirs``: the directory stack, its indexes, ``-n``, and its errors.

Every row was run through bash 5 (``bash -c SOURCE hookrun`` in an empty directory, the
shell tests' environment) and agrees with it; ``bash_confirm_test.py`` runs them through
bash again. stderr is hookrun's own wording and is not compared.
"""

from __future__ import annotations

import pytest

from tests.dispatch.shell.shellrun import Runner


@pytest.mark.parametrize(
    ("source", "code", "stdout"),
    [
        ("cd /; pushd /usr >/dev/null; dirs; popd >/dev/null; dirs", 0, "/usr /\n/\n"),
        (
            "cd /; pushd /usr; pushd /etc; dirs -v; dirs -p; dirs -l",
            0,
            "/usr /\n/etc /usr /\n 0  /etc\n 1  /usr\n 2  /\n/etc\n/usr\n/\n/etc /usr /\n",
        ),
        ("cd /; pushd /usr >/dev/null; pushd; dirs", 0, "/ /usr\n/ /usr\n"),
        ("cd /; pushd; echo $?", 0, "1\n"),
        ("cd /; popd; echo $?", 0, "1\n"),
        ("cd /; pushd /nonexistent-dir-x; echo $?", 0, "1\n"),
        (
            "cd /; pushd /usr >/dev/null; pushd /etc >/dev/null; "
            "dirs +1; dirs -0; dirs +0; dirs -1",
            0,
            "/usr\n/\n/etc\n/usr\n",
        ),
        ("cd /; pushd /usr >/dev/null; dirs +5; echo $?", 0, "1\n"),
        ("cd /; dirs x; echo $?", 0, "2\n"),
        ("cd /; dirs -q; echo $?", 0, "2\n"),
        (
            "cd /; pushd /usr >/dev/null; pushd /etc >/dev/null; pushd +1; dirs",
            0,
            "/usr / /etc\n/usr / /etc\n",
        ),
        (
            "cd /; pushd /usr >/dev/null; pushd /etc >/dev/null; pushd -0; dirs",
            0,
            "/ /etc /usr\n/ /etc /usr\n",
        ),
        ("cd /; pushd /usr >/dev/null; pushd +3; echo $?", 0, "1\n"),
        (
            "cd /; pushd /usr >/dev/null; pushd /etc >/dev/null; popd +1; dirs",
            0,
            "/etc /\n/etc /\n",
        ),
        (
            "cd /; pushd /usr >/dev/null; pushd /etc >/dev/null; popd -0; dirs",
            0,
            "/etc /usr\n/etc /usr\n",
        ),
        ("cd /; pushd /usr >/dev/null; pushd /etc >/dev/null; popd +0; pwd", 0, "/usr /\n/usr\n"),
        ("cd /; pushd /usr >/dev/null; popd +4; echo $?", 0, "1\n"),
        ("cd /; pushd /usr >/dev/null; popd x; echo $?", 0, "2\n"),
        ("cd /; pushd /usr >/dev/null; dirs -c; dirs; popd; echo $?", 0, "/usr\n1\n"),
        (
            "HOME=/usr; cd /usr/bin; pushd /usr/lib >/dev/null; dirs; dirs -l",
            0,
            "~/lib ~/bin\n/usr/lib /usr/bin\n",
        ),
        ("cd /; pushd -n /usr; dirs", 0, "/ /usr\n/ /usr\n"),
        (
            "cd /; pushd /usr >/dev/null; pushd /etc >/dev/null; popd -n; dirs; pwd",
            0,
            "/etc /\n/etc /\n/etc\n",
        ),
        ("cd /; pushd /etc/passwd; echo $?", 0, "1\n"),
        ("dirs 3; echo $?", 0, "2\n"),
        ("dirs +x; echo $?", 0, "2\n"),
        ("cd /; pushd -n; echo $?", 0, "0\n"),
        ("cd /; pushd -n /nonexist; echo $?", 0, "/ /nonexist\n0\n"),
        ("cd /; pushd /usr >/dev/null; popd -n; echo $?; pwd", 0, "/usr\n0\n/usr\n"),
        # Usage: -n and +N/-N until --; other -x is bash's "invalid number" (2).
        ("pushd -z; echo $?", 0, "2\n"),
        ("mkdir a; pushd -- a >/dev/null; echo $?; dirs | wc -w", 0, "0\n2\n"),
        ("pushd . . >/dev/null || echo too many", 0, "too many\n"),
        ("pushd / >/dev/null; popd zzz; echo $?", 0, "2\n"),
        ("pushd / >/dev/null; popd -- >/dev/null; echo $?; popd -z; echo $?", 0, "0\n2\n"),
        ("mkdir -- -1; pushd -- -1 >/dev/null; echo $? ${PWD##*/}", 0, "0 -1\n"),
        ("pushd / >/dev/null; pushd /tmp >/dev/null; popd -- -1 >/dev/null; echo $?", 0, "0\n"),
        ("pushd / >/dev/null; popd 1 2; echo $?", 0, "2\n"),
        ("pushd -n; echo $?", 0, "0\n"),
        ("pushd / >/dev/null; popd -n -- >/dev/null; echo $?; dirs | wc -w", 0, "0\n1\n"),
    ],
)
def test_the_directory_stack_agrees_with_bash(
    run: Runner, source: str, code: int, stdout: str
) -> None:
    got = run(source)
    assert (got.code, got.out) == (code, stdout), got.err
