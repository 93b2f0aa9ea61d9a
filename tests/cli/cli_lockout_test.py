"""`hookrun lockout add|clear|list`: the project's reviewer-lockout registry, end to end."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from conftest import Project


def test_add_list_clear_round_trip(project: Project) -> None:
    assert project.run("lockout", "list").out == f"no lockouts ({project.root}/.hookrun/state)\n"
    added = project.run("lockout", "add", "./src/auth.py", "coder", "--reason", "rejected")
    assert (added.code, added.out) == (0, "locked out coder from src/auth.py\n")
    project.run("lockout", "add", "docs/**", "writer")
    rows = [line.split() for line in project.run("lockout", "list").out.splitlines()]
    assert rows[0] == ["artifact", "agent", "since", "denials", "reason"]
    assert [(r[0], r[1], r[3], r[4]) for r in rows[1:]] == [
        ("src/auth.py", "coder", "0", "rejected"),
        ("docs/**", "writer", "0", "-"),
    ]
    cleared = project.run("lockout", "clear", "--agent", "writer")
    assert (cleared.code, cleared.out) == (0, "cleared 1 lockout\n")
    assert project.run("lockout", "clear").out == "cleared 1 lockout\n"
    assert project.run("lockout", "clear").out == "cleared 0 lockouts\n"


def test_a_lockout_added_here_is_enforced_by_the_policy(project: Project) -> None:
    project.run("lockout", "add", "src/auth.py", "coder")
    payload = {
        "tool_name": "Write",
        "agent_name": "coder",
        "tool_input": {"file_path": "src/auth.py", "content": "x"},
    }
    ran = project.run("policy", "reviewer-lockout", payload=payload)
    assert ran.code == 2 and "coder" in ran.err
    other = project.run("policy", "reviewer-lockout", payload={**payload, "agent_name": "fixer"})
    assert other.code == 0


def test_an_artifact_outside_the_project_exits_1(project: Project) -> None:
    ran = project.run("lockout", "add", "../elsewhere.py", "coder")
    assert ran.code == 1
    assert ran.err.startswith("hookrun: lockout add: ../elsewhere.py leaves the project")


def test_a_corrupt_registry_is_a_clear_error(project: Project) -> None:
    project.write(".hookrun/state/lockout.json", json.dumps({"entries": "oops"}))
    ran = project.run("lockout", "list")
    assert ran.code == 1 and ran.err.startswith("hookrun: lockout list: ")
    assert "corrupt" in ran.err and "Traceback" not in ran.err


def test_lockout_help_has_examples(project: Project) -> None:
    ran = project.run("lockout", "add", "--help")
    assert ran.code == 0 and "hookrun lockout add src/auth.py coder" in ran.out
