"""A here-document on CRLF lines: to bash the CR is a byte of the delimiter word.

``cat <<EOF⏎`` written with CRLF line ends has the delimiter ``EOF\\r`` (bash's word
ends at a blank, and a CR is not one), so the ``EOF\\r`` line ends the body and an
``EOF`` line does not. The grammar reads the CR as a blank: taken from it, the delimiter
was ``EOF``, the body ran on to a later ``EOF`` line, and what bash runs after its body
was read as text — shell-guard allowed an ``rm -rf /`` bash runs, and the in-process
shell refused ``for …; do cat <<EOF … done`` as a syntax error. bash is the oracle for
every row: its stdout and status, and whether it ran the ``rm`` (a shell function).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from hookrun.dispatch import run
from hookrun.hooks.base import PolicyContext
from hookrun.hooks.shell_guard import POLICY

BASH = shutil.which("bash")
needs_bash = pytest.mark.skipif(BASH is None, reason="no bash")

RUNS = [
    "cat <<EOF\r\nx\r\nEOF\r\n",
    "cat <<'EOF'\r\n$x\r\nEOF\r\necho after\n",
    'cat <<"EOF"\r\nx\r\nEOF\r\necho after\n',
    "cat <<EOF\r\nhi\r\nEOF\nstill\r\nEOF\r\n",  # an `EOF` line does not end it
    "cat <<-EOF\r\n\tx\r\n\tEOF\r\necho after\n",
    "for i in 1 2; do cat <<EOF\r\nx$i\r\nEOF\r\ndone\n",
    "for ((i=0;i<2;i++)); do cat <<E'O'F\r\n$i\r\nEOF\r\ndone\n",
    'x=$(cat <<EOF\r\nin\r\nEOF\r\n)\necho "[$x]"\n',
    "cat <<EOF\r\nEOF\n",  # never ended: the rest is the body
]


def _bash(text: str, cwd: Path) -> subprocess.CompletedProcess[bytes]:
    assert BASH is not None
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C"}
    return subprocess.run(
        [BASH, "-c", text], capture_output=True, cwd=cwd, env=env, timeout=20, check=False
    )


@needs_bash
@pytest.mark.parametrize("text", RUNS, ids=[repr(t[:30]) for t in RUNS])
def test_the_in_process_shell_reads_a_crlf_here_document_as_bash_does(
    text: str, tmp_path: Path
) -> None:
    want = _bash(text, tmp_path)
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C"}
    got = run(text, cwd=str(tmp_path), env=env, timeout=20, shell="inprocess")
    assert got.route == "inprocess"
    assert (got.exit_code, got.stdout) == (want.returncode, want.stdout)


PROJECT = "/home/user/project"

# (line, whether bash runs its `rm`): shell-guard must deny every line whose rm runs.
GUARDED = [
    ("cat <<EOF\r\nhi\r\nEOF\r\nrm -rf /\nEOF\n", True),
    ("cat <<EOF\r\nEOF\r\nrm -rf /\nEOF\n", True),
    ("cat > notes.txt <<'EOF'\r\nhi\r\nEOF\r\nrm -rf /\nEOF\n", True),
    ('cat <<"EOF"\r\nhi\r\nEOF\r\nrm -rf ~\nEOF\n', True),
    # a blank after the word: the delimiter is `EOF`, the rm is text (`cat\r` fails)
    ('cat <<"EOF" | cat\r\nhi\r\nEOF\r\nrm -rf ~\nEOF\n', False),
    # a line the front end refuses (`done` with no loop): shell-guard's fallback reader
    ("cat <<EOF\r\nhi\r\nEOF\nfor i in 1; do cat << EOF\nEOF\r\nrm -rf /\nEOF\ndone", True),
    ("cat <<'EOF'\r\nhi\r\nEOF\r\nrm -rf ~\nEOF\ndone\n", True),
    ("cat > notes.txt <<EOF\r\nrm -rf /\nEOF\nEOF\r\ndone\n", False),
    # bash's body runs on to the `EOF\r` line: the rm is text there
    ("cat > notes.txt <<EOF\r\nrm -rf /\nEOF\nEOF\r\n", False),
    ("cat > notes.txt <<EOF\nhi\nEOF\r\nrm -rf /\nEOF\n", False),
]


def _guard(command: str) -> str | None:
    payload = {"tool_name": "Bash", "tool_input": {"command": command}, "cwd": PROJECT}
    ctx = PolicyContext(PROJECT, PROJECT, "/nonexistent", {"HOME": "/home/user"})
    return POLICY.decide(payload, POLICY.bind({}), ctx).decision


@needs_bash
@pytest.mark.parametrize(("text", "runs"), GUARDED, ids=[repr(t[:40]) for t, _ in GUARDED])
def test_shell_guard_sees_the_rm_bash_runs_after_a_crlf_here_document(
    text: str, runs: bool, tmp_path: Path
) -> None:
    # bash with `rm` a function that only says so (nothing is deleted)
    ran = _bash("rm() { echo RAN-RM; }\n" + text.replace("> notes.txt", "> /dev/null"), tmp_path)
    assert (b"RAN-RM" in ran.stdout) == runs  # the row's label is bash's own
    if runs:
        assert _guard(text) == "deny"
    else:
        assert _guard(text) is None
