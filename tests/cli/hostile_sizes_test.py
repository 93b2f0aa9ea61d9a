"""Issue 9 item 2, through the real ``hookrun`` command: padding a command can no longer
stop a script guard from starting, nor make shell-guard slow enough to give up."""

from __future__ import annotations

import json
import sys
import time
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from conftest import Project

# A script guard as people write them: it reads the payload on stdin.
GUARD = f"""#!{sys.executable}
import json, os, sys
command = json.load(sys.stdin)["tool_input"]["command"]
if command.startswith("rm -rf /"):
    env = os.environ
    print(
        "no rm -rf / (stdin has %d chars; env has %d, cut: %s)"
        % (len(command), len(env["HOOKRUN_TOOL_INPUT_COMMAND"]), env["HOOKRUN_ENV_TRUNCATED"]),
        file=sys.stderr,
    )
    sys.exit(2)
"""


@pytest.mark.parametrize("size", [200_000, 1 << 20])
def test_a_padded_command_against_a_script_guard_is_still_denied(
    project: Project, size: int
) -> None:
    project.write("hooks/guard.py", GUARD, executable=True)
    project.hooks("PreToolUse", {"name": "guard", "command": "./hooks/guard.py"})
    command = "rm -rf / #" + "x" * size
    ran = project.run("run", "PreToolUse", payload=project.tool("Bash", command=command))
    assert ran.code == 2, ran.err
    assert ran.err.strip() == (
        f"no rm -rf / (stdin has {len(command)} chars; env has 8192, cut: "
        "HOOKRUN_TOOL_INPUT_COMMAND)"
    )
    hook = ran.json["hooks"][0]
    assert (hook["exit_code"], hook["error"]) == (2, None)


def test_shell_guard_denies_a_command_over_its_size_limit_unread(project: Project) -> None:
    command = "rm -rf / #" + "x" * (1 << 20)
    started = time.monotonic()
    ran = project.run("policy", "shell-guard", payload=project.tool("Bash", command=command))
    assert time.monotonic() - started < 30
    assert ran.code == 2, ran.err
    assert ran.err.startswith('shell-guard [misc.too-long]: "rm -rf / #xxx')
    assert "the command is 1024 KiB, over the 256 KiB shell-guard judges" in ran.err


@pytest.mark.parametrize(
    ("command", "code", "rule"),
    [
        (
            "rm -rf / #" + "x" * 200_000,
            2,
            "delete.catastrophic",
        ),  # judged on its words, not by its size
        ("echo " + "x" * 200_000, 0, None),
        ("x" * 200_000 + "() { :; }", 0, None),
    ],
    ids=["padded-rm", "long-word", "long-function-name"],
)
def test_shell_guard_judges_long_commands_under_its_limit_in_bounded_time(
    project: Project, command: str, code: int, rule: str | None
) -> None:
    started = time.monotonic()
    ran = project.run("policy", "shell-guard", payload=project.tool("Bash", command=command))
    # Before: minutes (a backtracking fork-bomb pattern); a 30 s host timeout fails open.
    assert time.monotonic() - started < 30
    assert ran.code == code, ran.err
    if rule is not None:
        assert ran.err.startswith(f"shell-guard [{rule}"), ran.err[:200]
    json.loads(ran.out)
