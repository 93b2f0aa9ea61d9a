"""``$(mktemp …)`` is read as the path mktemp prints (where it lies, the X's as written),
so a line that makes a temp dir and deletes it is judged by where that dir is.

The oracle is the real GNU mktemp (``-u``: it prints a name and makes nothing), run
with ``TMPDIR`` unset in a scratch working directory: the directory of what it prints
must be the directory shell-guard reads, and the name must have the template's shape.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from hookrun.hooks.shell_guard.parse import _mktemp

from .redteam import judge

_ARGS = [
    [],
    ["-d"],
    ["-q", "-d"],
    ["-dt"],
    ["-t"],
    ["-t", "foo.XXXX"],
    ["-d", "-t", "build.XXXXXX"],
    ["-d", "-p", "/var/tmp"],
    ["-p", "/var/tmp", "x.XXXXX"],
    ["-p/var/tmp"],
    ["--tmpdir=/var/tmp", "x.XXXX"],
    ["--tmpdir", "x.XXX"],
    ["--directory", "--suffix=.x"],
    ["-d", "--suffix=.tmp", "w.XXXX"],
    ["./b.XXXX"],
    ["b.XXXX"],
    ["sub/c.XXXXXX"],
]


@pytest.mark.skipif(shutil.which("mktemp") is None, reason="mktemp is not installed")
@pytest.mark.parametrize("args", _ARGS, ids=[" ".join(a) or "(none)" for a in _ARGS])
def test_the_directory_is_the_one_mktemp_prints(args: list[str], tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    env = {k: v for k, v in os.environ.items() if k != "TMPDIR"}
    out = subprocess.run(
        ["mktemp", "-u", *args], cwd=tmp_path, env=env, capture_output=True, text=True, check=True
    ).stdout.strip()
    read = _mktemp(args)
    assert read is not None
    assert os.path.dirname(read) == os.path.dirname(out), (read, out)
    base_read, base_out = os.path.basename(read), os.path.basename(out)
    assert len(base_read) == len(base_out), (read, out)
    fixed = [a == b for a, b in zip(base_read, base_out, strict=True) if a != "X"]
    assert all(fixed), (read, out)


@pytest.mark.parametrize(
    "args", [["-x"], ["-d", "x.XX"], ["a.XXX", "b.XXX"], ["--weird"], ["-dp", "/var/tmp"]]
)
def test_what_it_cannot_tell_is_left_to_the_shell(args: list[str]) -> None:
    assert _mktemp(args) is None


@pytest.mark.parametrize(
    "line",
    [
        'rm -rf "$(mktemp -d)"',
        'tmp=$(mktemp -d); echo work > "$tmp/f"; rm -rf "$tmp"',
        'tmp=$(mktemp -d -t ci.XXXXXX) && rm -rf "$tmp"',
        "d=`mktemp -d`; rm -rf $d",
        # a trap's action runs at exit with the value the line left (never changed after)
        'd=$(mktemp -d); trap \'rm -rf "$d"\' EXIT; echo work > "$d/f"',
        'd=$(mktemp -d) && trap \'rm -rf -- "${d}"\' EXIT INT TERM && ls "$d"',
        'd=$(mktemp -d); trap "rm -rf $d" EXIT',
    ],
)
def test_a_temp_dir_the_line_makes_may_go(line: str) -> None:
    assert judge(line).decision is None, judge(line).reason


@pytest.mark.parametrize(
    "line",
    [
        'tmp=$(mktemp -d); tmp=/; rm -rf "$tmp"',
        'tmp=$(mktemp -d); rm -rf "$tmp"/../..',
        'tmp=$(mktemp -d); tmp=$(cat f); rm -rf "$tmp"',
        'tmp=$(mktemp -d); rm -rf "$tmp" /',
        'tmp=$(mktemp -d "$D"); rm -rf "$tmp"',
        'TMPDIR=/ mktemp -d; rm -rf "$(TMPDIR=/ mktemp -d)"/..',
        "d=$(mktemp -d); trap 'rm -rf \"$d\"' EXIT; d=/",
        "d=$(mktemp -d); trap 'rm -rf \"$d\"' EXIT; d=$(cat f)",
        'd=$(mktemp -d); trap \'rm -rf "$d"\' EXIT; [ -n "$X" ] && d=~',
        "d=$(mktemp -d); trap 'rm -rf \"$d\" ~' EXIT",
    ],
)
def test_what_else_the_line_deletes_is_still_judged(line: str) -> None:
    assert judge(line).decision == "deny", line
