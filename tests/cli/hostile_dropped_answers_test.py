"""A hook answer that is dropped is said on stderr, and a printed deny is not lost —
through the real ``hookrun run``, real hook scripts, in every host format.

Before: with the default ``on_error: allow``, a hook that printed a complete deny and was
then killed by a signal, or that wrote anything after its JSON (a NUL, text, a second
object), ran as "no opinion": exit 0 and nothing on stderr — a guard that failed open
without a word. Now the complete deny printed first stands (the most restrictive reading
of the output), and any answer dropped or replaced says so on stderr with the hook's
config location.
"""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from conftest import Project

FORMATS = ["hookrun", "claude", "gemini", "codex", "copilot", "cursor", "crush"]
RM = {"tool_name": "bash", "tool_input": {"command": "rm -rf /"}}
DENY = '{"decision": "deny", "reason": "no rm here"}'
CLAUDE_DENY = (
    '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",'
    ' "permissionDecisionReason": "no rm here"}}'
)

# A hook script body (Python, run through its shebang): what it writes, then how it ends.
DENY_STANDS = {
    "killed-after-deny": f"out.write({DENY!r}.encode() + b'\\n'); out.flush(); die()",
    "claude-shape-killed": f"out.write({CLAUDE_DENY!r}.encode()); out.flush(); die()",
    "nul-after": f"out.write({DENY!r}.encode() + b'\\n\\0')",
    "text-after": f"out.write({DENY!r}.encode() + b' done\\n')",
    "second-object-after": f'out.write({DENY!r}.encode() + b\'\\n{{"decision": "allow"}}\\n\')',
    "nul-then-killed": f"out.write({DENY!r}.encode() + b'\\0'); out.flush(); die()",
}
DROPPED = {
    "text-before": f"out.write(b'checking\\n' + {DENY!r}.encode())",
    "allow-then-text": 'out.write(b\'{"decision": "allow"} ok\')',
    "killed-mid-answer": 'out.write(b\'{"decision": "de\'); out.flush(); die()',
    "killed-silent": "die()",
    "exit-1": "sys.exit(1)",
}

PROLOGUE = """\
#!{py}
import os, signal, sys
out = sys.stdout.buffer
def die():
    os.kill(os.getpid(), signal.SIGKILL)
"""


def _hook(project: Project, body: str) -> None:
    project.write("guard.py", PROLOGUE.format(py=sys.executable) + body + "\n", executable=True)
    project.hooks("PreToolUse", {"name": "guard", "command": "./guard.py"})


@pytest.mark.parametrize("body", DENY_STANDS.values(), ids=DENY_STANDS.keys())
@pytest.mark.parametrize("fmt", FORMATS)
def test_a_complete_deny_stands_whatever_follows_it(project: Project, fmt: str, body: str) -> None:
    _hook(project, body)
    ran = project.run("run", "PreToolUse", "--format", fmt, payload=RM)
    assert ran.code == 2, ran.err
    assert "no rm here" in ran.err
    if fmt == "hookrun":
        out = ran.json
        assert (out["decision"], out["reason"]) == ("deny", "no rm here")
        assert out["hooks"][0]["error"].endswith("the complete deny printed before it stands")


@pytest.mark.parametrize("body", DROPPED.values(), ids=DROPPED.keys())
@pytest.mark.parametrize("fmt", FORMATS)
def test_a_dropped_answer_is_one_stderr_line_naming_the_hook(
    project: Project, fmt: str, body: str
) -> None:
    _hook(project, body)
    ran = project.run("run", "PreToolUse", "--format", fmt, payload=RM)
    assert ran.code == 0, ran.err
    lines = [line for line in ran.err.splitlines() if "guard" in line]
    assert len(lines) == 1, ran.err
    assert lines[0].startswith(
        'hookrun: warning: hook "guard" (.hookrun/hooks.json#PreToolUse[0]): '
    )
    assert lines[0].endswith("its answer was dropped (on_error: allow)")


def test_a_fail_closed_hook_killed_silently_still_denies_with_its_name(project: Project) -> None:
    project.write("guard.py", PROLOGUE.format(py=sys.executable) + "die()\n", executable=True)
    project.hooks("PreToolUse", {"name": "guard", "command": "./guard.py", "on_error": "deny"})
    ran = project.run("run", "PreToolUse", "--format", "hookrun", payload=RM)
    assert ran.code == 2, ran.err
    assert ran.err.strip() == "hook guard failed (exit 137) and is set to on_error: deny"


def test_an_allow_with_a_clean_answer_writes_nothing_on_stderr(project: Project) -> None:
    project.write(
        "guard.py",
        PROLOGUE.format(py=sys.executable) + 'out.write(b\'{"decision": "allow"}\\n\')\n',
        executable=True,
    )
    project.hooks("PreToolUse", {"name": "guard", "command": "./guard.py"})
    ran = project.run("run", "PreToolUse", "--format", "claude", payload=RM)
    assert (ran.code, ran.err) == (0, "")


def test_the_dropped_line_names_each_hook_at_its_place(project: Project) -> None:
    project.write("bad.py", PROLOGUE.format(py=sys.executable) + "sys.exit(3)\n", executable=True)
    project.hooks(
        "PreToolUse",
        {"name": "ok", "command": "echo '{}'"},
        {"name": "bad", "command": "./bad.py"},
    )
    ran = project.run("run", "PreToolUse", "--format", "hookrun", payload=RM)
    assert ran.code == 0
    assert ran.err.splitlines() == [
        'hookrun: warning: hook "bad" (.hookrun/hooks.json#PreToolUse[1]): exit 3'
        " — its answer was dropped (on_error: allow)"
    ]
    assert json.loads(ran.out)["hooks"][1]["error"] == "exit 3"
