"""``RSYNC_RSH`` exported earlier on the line: rsync runs it as its remote shell.

The prefix form (``RSYNC_RSH='…' rsync …``) was read as ``-e``; a value the line gave it
before (``export RSYNC_RSH='rm -rf /'; rsync -a src/ host:dst``) was not. Now a static
value the line assigns to ``RSYNC_RSH`` is the remote shell of each rsync on it that has
a remote operand and no ``-e``/``--rsh`` (a local copy runs none).

The oracle is real rsync in a temp dir, run by bash with a marker (``redteam.MARK``) in
``rm``'s place: for a block row rsync runs the marker with ``-rf /`` first; for a
look-alike it never runs it. Runs when rsync is on PATH.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

from .redteam import MARK, judge

RSYNC = shutil.which("rsync")

# (line, rule)
BLOCKED = [
    ("export RSYNC_RSH='{r} -rf /'; rsync -a src/ host:dst", "delete.catastrophic"),
    ("RSYNC_RSH='{r} -rf /'; export RSYNC_RSH; rsync -a src/ host:dst", "delete.catastrophic"),
    ('export RSYNC_RSH="{r} -rf /"; rsync -az src/ user@host:/srv/app', "delete.catastrophic"),
    ("export RSYNC_RSH='{r} -rf /'; rsync -a host:src/ dst", "delete.catastrophic"),
    ("export RSYNC_RSH='{r} -rf /' && rsync -a src/ host:dst", "delete.catastrophic"),
    ("declare -x RSYNC_RSH='{r} -rf /'; rsync -a src/ host:dst", "delete.catastrophic"),
    ("export RSYNC_RSH='{r} -rf /'\nrsync -a --delete src/ host:dst", "delete.catastrophic"),
    ("export RSYNC_RSH='{r} -rf /'; env rsync -a src/ host:dst", "delete.catastrophic"),
    ("export RSYNC_RSH='{r} -rf /'; timeout 30 rsync -a src/ host:dst", "delete.catastrophic"),
    ("export RSYNC_RSH='sh -c \"{r} -rf /\"'; rsync -a src/ host:dst", "delete.catastrophic"),
]
# bash and rsync never run the marker
ALLOWED = [
    "export RSYNC_RSH='{r} -rf /'; rsync -a src/ dst/",
    "export RSYNC_RSH='{r} -rf /'; rsync -e true -a src/ host:dst",
    "export RSYNC_RSH='{r} -rf /'; rsync --rsh=true -a src/ host:dst",
    "export RSYNC_RSH='{r} -rf /'; rsync --version",
    "export RSYNC_RSH='{r} -rf /'; rsync -a src/ ./host:dst",
    "export RSYNC_RSH=true; rsync -a src/ host:dst",
    "echo \"export RSYNC_RSH='{r} -rf /'\"; rsync -a src/ dst/",
    "export RSYNC_RSH='{r} -rf /'; rsync -a src/ /tmp/x/",
    "export RSYNC_RSH='{r} -rf /'; cp -r src dst",
    "export RSYNC_RSH='{r} -v'; rsync -a src/ dst",
]
# (judged only: bash would reach a real ssh)
ALLOWED_JUDGED = [
    "export RSYNC_RSH='ssh -p 2222'; rsync -a src/ host:dst",
    'export RSYNC_RSH="ssh -i ~/.ssh/id_ed25519"; rsync -az build/ user@host:/srv/app',
]


def _runs(tmp_path: Path, line: str) -> list[list[str]]:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    marker = bin_dir / MARK
    marker.write_text(
        '#!/bin/sh\nprintf \'%s\\037\' "$@" >> "$HK_MARK_LOG"\necho >> "$HK_MARK_LOG"\n'
    )
    marker.chmod(marker.stat().st_mode | stat.S_IXUSR)
    work = tmp_path / "w"
    (work / "src").mkdir(parents=True)
    (work / "src" / "f").write_text("data")
    log = tmp_path / "marks"
    env = {
        "PATH": f"{bin_dir}:{os.environ.get('PATH', '/usr/bin:/bin')}",
        "HOME": str(tmp_path),
        "HK_MARK_LOG": str(log),
    }
    subprocess.run(
        ["bash", "-c", line.format(r=MARK).replace("/tmp/x/", f"{tmp_path}/x/")],
        cwd=work,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=60,
        check=False,
    )
    return [r.split("\037")[:-1] for r in log.read_text().split("\n")[:-1]] if log.exists() else []


@pytest.mark.skipif(RSYNC is None, reason="rsync is not installed")
@pytest.mark.parametrize(("line", "rule"), BLOCKED, ids=[r[0] for r in BLOCKED])
def test_rsync_runs_the_exported_remote_shell(tmp_path: Path, line: str, rule: str) -> None:
    assert any(run[:2] == ["-rf", "/"] for run in _runs(tmp_path, line))


@pytest.mark.parametrize(("line", "rule"), BLOCKED, ids=[r[0] for r in BLOCKED])
def test_an_exported_remote_shell_is_judged(line: str, rule: str) -> None:
    verdict = judge(line.format(r="rm"))
    assert verdict.decision == "deny", line
    assert f"[{rule}]" in (verdict.reason or ""), verdict.reason


@pytest.mark.skipif(RSYNC is None, reason="rsync is not installed")
@pytest.mark.parametrize("line", ALLOWED)
def test_rsync_runs_no_such_shell_here(tmp_path: Path, line: str) -> None:
    assert not any(run[:2] == ["-rf", "/"] for run in _runs(tmp_path, line))


@pytest.mark.parametrize("line", ALLOWED + ALLOWED_JUDGED)
def test_a_remote_shell_rsync_does_not_run_passes(line: str) -> None:
    verdict = judge(line.format(r="rm"))
    assert verdict.decision is None, verdict.reason
