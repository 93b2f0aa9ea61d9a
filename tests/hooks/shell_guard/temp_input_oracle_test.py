"""A temp variable the line sets from what only the shell knows is unknown, not the temp dir.

``read TMPDIR; rm -rf "$TMPDIR"/x`` was allowed: ``$TMPDIR`` stood for the temp dir
whatever the line did to it, and a line that set it was only judged as if the environment
might not set it. Now a temp variable read from input (``read``, ``mapfile``, ``printf
-v``, a loop's name) or assigned an expansion (``TMPDIR=$HOME``, ``export TMP="$(pwd)"``;
not a one-command prefix, not text in quotes) is unknown: ``delete.unresolved``.

The oracle is bash, with ``TMPDIR``/``TMP`` set to /tmp in its environment, the row's
input on its stdin and a marker in ``rm``'s place: for a block row the marker is run
with a target that is not in /tmp; for a look-alike, only with targets in /tmp or the
project's own.
"""

from __future__ import annotations

import os
import stat
import subprocess
from pathlib import Path

import pytest

from hookrun.hooks.base import PolicyContext, Verdict
from hookrun.hooks.shell_guard import POLICY

from .redteam import HOME, MARK, PROJECT, judge

# (line, bash's stdin, extra env, the target bash hands rm)
BLOCKED = [
    ('read TMPDIR; {r} -rf "$TMPDIR"/x', "/\n", {}, "//x"),
    ('read -r TMPDIR; {r} -rf "$TMPDIR"', "/home\n", {}, "/home"),
    ('IFS= read -r TMP; {r} -rf "$TMP/build"', "/\n", {}, "//build"),
    ('read -r a TMPDIR; {r} -rf "$TMPDIR"', "x /etc\n", {}, "/etc"),
    ('mapfile -t TMPDIR; {r} -rf "$TMPDIR"', "/usr\n", {}, "/usr"),
    ('TMPDIR=$HOME; {r} -rf "$TMPDIR"', "", {}, "{home}"),
    ('TEMP=$X; {r} -rf "$TEMP/x"', "", {"X": "/"}, "//x"),
    ('read TMPDIR && {r} -rf "$TMPDIR/x"', "/\n", {}, "//x"),
    ('export TMPDIR="$X"; {r} -rf "$TMPDIR"', "", {"X": "/var"}, "/var"),
    ('read -p "dir? " TMPDIR; {r} -rf "$TMPDIR"', "/opt\n", {}, "/opt"),
]
# (line, bash's stdin): every target bash hands rm is in /tmp or relative
ALLOWED = [
    ('{r} -rf "$TMPDIR/build"', ""),
    ('TMPDIR=/tmp/x; {r} -rf "$TMPDIR/y"', ""),
    ('echo "TMPDIR=$TMPDIR"; {r} -rf "$TMPDIR/x"', ""),
    ('read name; {r} -rf "$TMPDIR/build"', "/\n"),
    ('TMPDIR=$D true; {r} -rf "$TMPDIR/x"', ""),
    ('read TMPDIR_BACKUP; {r} -rf "$TMPDIR/x"', "/\n"),
    ('cd "$TMPDIR" && {r} -rf build', ""),
    ('read -r n; {r} -rf "$TMP/cache-1"', "/\n"),
    ('echo TMPDIR is set; {r} -rf "$TMPDIR/out"', ""),
    ('export TMPDIR=/tmp/job; {r} -rf "$TMPDIR"', ""),
]


def _ran(tmp_path: Path, line: str, stdin: str, extra: dict[str, str]) -> list[list[str]]:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    marker = bin_dir / MARK
    marker.write_text(
        '#!/bin/sh\nprintf \'%s\\037\' "$@" >> "$HK_MARK_LOG"\necho >> "$HK_MARK_LOG"\n'
    )
    marker.chmod(marker.stat().st_mode | stat.S_IXUSR)
    work = tmp_path / "w"
    work.mkdir()
    log = tmp_path / "marks"
    env = {
        "PATH": f"{bin_dir}:{os.environ.get('PATH', '/usr/bin:/bin')}",
        "HOME": str(tmp_path),
        "TMPDIR": "/tmp",
        "TMP": "/tmp",
        "HK_MARK_LOG": str(log),
        **extra,
    }
    subprocess.run(
        ["bash", "-c", line.format(r=MARK)], cwd=work, env=env, input=stdin.encode(),
        capture_output=True, timeout=60, check=False,
    )  # fmt: skip
    return [r.split("\037")[:-1] for r in log.read_text().split("\n")[:-1]] if log.exists() else []


def _judge(line: str) -> Verdict:
    env = {"HOME": HOME, "TMPDIR": "/tmp", "TMP": "/tmp"}
    ctx = PolicyContext(PROJECT, PROJECT, PROJECT + "/.hookrun/state", env)
    payload = {"tool_input": {"command": line.format(r="rm")}, "cwd": PROJECT}
    return POLICY.decide(payload, POLICY.bind({}), ctx)


@pytest.mark.parametrize(("line", "stdin", "extra", "target"), BLOCKED, ids=[r[0] for r in BLOCKED])
def test_a_temp_variable_set_from_input_is_unknown(
    tmp_path: Path, line: str, stdin: str, extra: dict[str, str], target: str
) -> None:
    ran = _ran(tmp_path, line, stdin, extra)
    want = target.replace("{home}", str(tmp_path))
    assert any(run[-1] == want for run in ran), ran
    verdict = _judge(line)
    assert verdict.decision == "deny", line
    assert "[delete.unresolved]" in (verdict.reason or ""), verdict.reason


@pytest.mark.parametrize(("line", "stdin"), ALLOWED, ids=[r[0] for r in ALLOWED])
def test_a_temp_variable_the_line_does_not_set_from_input_is_the_temp_dir(
    tmp_path: Path, line: str, stdin: str
) -> None:
    ran = _ran(tmp_path, line, stdin, {})
    assert ran, "bash ran no rm"
    assert all(run[-1].startswith("/tmp/") or not run[-1].startswith("/") for run in ran), ran
    verdict = _judge(line)
    assert verdict.decision is None, verdict.reason


def test_the_default_judge_still_reads_the_environments_temp_dir() -> None:
    """(redteam.judge's environment sets no TMPDIR: there an unset one is empty)"""
    assert judge('rm -rf "$TMPDIR/x"').decision == "deny"
