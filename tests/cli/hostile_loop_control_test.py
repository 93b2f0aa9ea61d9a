"""Issue 9 item 7, through the real ``hookrun`` command: ``break`` / ``continue`` outside a
loop are what bash makes of them — a warning and status 0 — never an internal error
that blocks the prompt (exit 2)."""

from __future__ import annotations

import shutil
import subprocess
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from conftest import Project


@pytest.mark.parametrize("command", ["break", "continue", "break 2", "continue; true"])
def test_loop_control_outside_a_loop_is_a_warning_and_status_0_as_in_bash(
    project: Project, command: str
) -> None:
    bash = shutil.which("bash")
    if bash is not None:  # the oracle: bash's own status for the same line
        oracle = subprocess.run([bash, "-c", command], capture_output=True, text=True)
        assert oracle.returncode == 0 and "only meaningful in a" in oracle.stderr
    project.hooks(
        "UserPromptSubmit",
        {"name": "loop", "command": command + '; echo \'{"context": "went on"}\''},
    )
    ran = project.run("run", "UserPromptSubmit", payload={"prompt": "hi"})
    assert ran.code == 0, ran.err
    hook = ran.json["hooks"][0]
    assert (hook["exit_code"], hook["error"], ran.json["context"]) == (0, None, ["went on"])
