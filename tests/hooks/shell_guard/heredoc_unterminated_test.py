"""A line with here-documents whose last one has no end line: bash reads the rest of the
text as that body, and the ones before it are still bodies. The guard reads the rest as
commands (the reading that misses nothing) — but it read the earlier, ended bodies as
commands too, and a quote in one of them hid what bash runs: ``bash <<'A' <<B⏎'⏎A⏎git
push --force …`` (bash feeds the B body to a shell, which pushes) was allowed. bash is
the oracle for each row: ``git`` is an exported shell function that only says it ran.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from hookrun.hooks.base import PolicyContext
from hookrun.hooks.shell_guard import POLICY

BASH = shutil.which("bash")
PROJECT = "/home/user/project"
PUSH = "git push --force origin main"

ROWS = [
    (f"bash <<'A' <<B\n'\nA\n{PUSH}\n", True),
    (f"bash <<'A' <<B\n\"\nA\n{PUSH}\n", True),
    (f"bash <<A <<-B\n'\nA\n\t{PUSH}\n", True),
    (f"cat > /dev/null <<'A' && bash <<B\n'\nA\n{PUSH}\n", True),
    (f"bash <<'A' <<B\nx\nA\n{PUSH}\n", True),
    # the push is text: the B body goes to cat
    (f"cat <<'A' <<B\n'\nA\n{PUSH}\n", False),
]


def _guard(command: str) -> str | None:
    payload = {"tool_name": "Bash", "tool_input": {"command": command}, "cwd": PROJECT}
    ctx = PolicyContext(PROJECT, PROJECT, "/nonexistent", {"HOME": "/home/user"})
    return POLICY.decide(payload, POLICY.bind({}), ctx).decision


@pytest.mark.skipif(BASH is None, reason="no bash")
@pytest.mark.parametrize(("text", "runs"), ROWS, ids=[repr(t[:24]) for t, _ in ROWS])
def test_an_ended_body_before_an_unended_one_hides_nothing(
    text: str, runs: bool, tmp_path: Path
) -> None:
    assert BASH is not None
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C"}
    ran = subprocess.run(
        [BASH, "-c", "git() { echo RAN-GIT; }; export -f git\n" + text],
        capture_output=True,
        cwd=tmp_path,
        env=env,
        timeout=20,
    )
    assert (b"RAN-GIT" in ran.stdout) == runs  # the row's label is bash's own
    if runs:
        assert _guard(text) == "deny"
