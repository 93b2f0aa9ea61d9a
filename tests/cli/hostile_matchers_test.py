"""Issue 9 item 4, through the real ``hookrun`` command: no matcher can hang the host.

Each of these patterns took Python's backtracking ``re`` longer than 20 s on the
subject below; the subprocess timeout of each run is the assertion that none does now.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from conftest import Project

EVIL = "a" * 30 + "!"
ECHO = 'echo \'{"context": "ran"}\''

BACKTRACKING = [
    pytest.param({"matcher": "(a+)+$", "command": ECHO}, id="nested-plus"),
    pytest.param({"matcher": "(a|aa)+$", "command": ECHO}, id="overlapping-alternation"),
    pytest.param({"matcher": "^(a|a?)+$", "command": ECHO}, id="optional-alternation"),
    pytest.param(
        {"matcher": "(a+)+$", "hooks": [{"type": "command", "command": ECHO}]}, id="claude-shape"
    ),
]


@pytest.mark.parametrize("hook", BACKTRACKING)
def test_a_backtracking_matcher_answers_at_once(project: Project, hook: dict[str, Any]) -> None:
    project.hooks("PreToolUse", hook)
    ran = project.run("run", "PreToolUse", payload={"tool_name": EVIL}, timeout=20)
    assert (ran.code, ran.json["context"], ran.err) == (0, [], "")


@pytest.mark.parametrize("hook", BACKTRACKING)
def test_list_with_a_backtracking_matcher_answers_at_once(
    project: Project, hook: dict[str, Any]
) -> None:
    project.hooks("PreToolUse", hook)
    ran = project.run("list", "PreToolUse", "--tool", EVIL, timeout=20)
    assert ran.code == 0 and ran.out.startswith("no hooks would run"), ran.err


LOOKAROUND = "^(?!Bash)(a|aa)+\\1$"  # RE2 refuses it; backtracking blows up on EVIL


def test_a_matcher_re2_cannot_take_runs_the_hook_when_its_time_bound_runs_out(
    project: Project,
) -> None:
    project.hooks("PreToolUse", {"matcher": LOOKAROUND, "command": ECHO})
    ran = project.run("run", "PreToolUse", payload={"tool_name": "a" * 40 + "!"}, timeout=20)
    assert (ran.code, ran.json["context"]) == (0, ["ran"]), ran.err


@pytest.mark.parametrize(("tool", "context"), [("Bash", []), ("Read", ["ran"])])
def test_a_lookahead_matcher_keeps_its_meaning(
    project: Project, tool: str, context: list[str]
) -> None:
    project.hooks("PreToolUse", {"matcher": "^(?!Bash$)", "command": ECHO})
    ran = project.run("run", "PreToolUse", payload={"tool_name": tool})
    assert (ran.code, ran.json["context"]) == (0, context), ran.err


def test_check_warns_about_a_matcher_re2_cannot_take(project: Project) -> None:
    project.hooks("PreToolUse", {"matcher": "(?<=mcp__)github", "command": ECHO})
    ran = project.run("check")
    assert ran.code == 0, ran.err
    assert "uses what RE2 cannot take (lookaround or a backreference)" in ran.out
    assert "when that runs out the hook runs" in ran.out


def test_a_lone_surrogate_in_the_tool_name_is_matched_not_fatal(project: Project) -> None:
    project.hooks("PreToolUse", {"matcher": "^Ba.h$", "command": ECHO, "on_error": "deny"})
    ran = project.run("run", "PreToolUse", payload='{"tool_name": "Ba\\ud800h"}')
    assert (ran.code, ran.json["context"]) == (0, ["ran"]), ran.err
