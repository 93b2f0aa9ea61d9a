"""`hookrun check`, `hookrun list`, `hookrun schema`: looking at a config without running it."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from conftest import Project


def test_check_of_a_clean_config_says_what_it_checked(project: Project) -> None:
    project.hooks("PreToolUse", {"matcher": "^bash$", "command": "echo hi"})
    ran = project.run("check")
    assert (ran.code, ran.out) == (0, "checked .hookrun/hooks.json: 0 errors, 0 warnings\n")


def test_check_without_any_config_says_where_it_looked(project: Project) -> None:
    ran = project.run("check")
    assert ran.code == 0
    assert ran.out.startswith("no config found (looked for ")
    assert "xdg-config/hookrun/hooks.json and " in ran.out
    assert f"{project.root}/.hookrun/hooks.json" in ran.out


def test_check_reports_errors_with_locations_and_exits_1(project: Project) -> None:
    project.config(
        '{\n  "hooks": {\n    "PreToolUse": [\n'
        '      {"matcher": "(bash", "command": "x"},\n'
        '      {"command": "y", "timeout": 5000}\n'
        "    ]\n  }\n}\n"
    )
    ran = project.run("check")
    assert ran.code == 1
    lines = ran.out.splitlines()
    assert lines[0].startswith(
        "config error: .hookrun/hooks.json:4:19: hooks.PreToolUse[0].matcher: invalid regex"
    )
    assert any(
        line.startswith("config warning: .hookrun/hooks.json:5:") and "did you mean 5?" in line
        for line in lines
    )
    assert lines[-1] == "checked .hookrun/hooks.json: 1 error, 1 warning"


def test_check_warns_about_a_misspelt_event(project: Project) -> None:
    project.hooks("PreToolUze", {"command": "true"})
    ran = project.run("check", "--config", ".hookrun/hooks.json")
    assert ran.code == 0
    assert 'did you mean "PreToolUse"?' in ran.out


def test_list_shows_every_hook_in_config_order_with_its_source(project: Project) -> None:
    project.config(
        {
            "hooks": {
                "PreToolUse": [
                    {"name": "a", "matcher": "^bash$", "command": "echo a"},
                    {"name": "b", "command": "echo b", "include_sub_agents": True},
                ],
                "UserPromptSubmit": [{"name": "c", "command": "echo c"}],
            }
        }
    )
    ran = project.run("list")
    assert ran.code == 0
    rows = [line.split() for line in ran.out.splitlines()]
    assert rows[0] == ["event", "#", "name", "matcher", "sub-agents", "runs", "source"]
    assert rows[1][:5] == ["PreToolUse", "0", "a", "^bash$", "no"]
    assert rows[1][-1] == ".hookrun/hooks.json#PreToolUse[0]"
    assert rows[2][:5] == ["PreToolUse", "1", "b", "*", "yes"]
    assert rows[3][:3] == ["UserPromptSubmit", "0", "c"]


def test_list_with_a_tool_shows_only_what_would_run(project: Project) -> None:
    project.hooks(
        "PreToolUse",
        {"name": "bash-only", "matcher": "^bash$", "command": "echo a"},
        {"name": "edit-only", "matcher": "^edit$", "command": "echo b"},
        {"name": "all", "command": "echo c", "include_sub_agents": True},
        {"name": "dup", "command": "echo c"},
    )
    ran = project.run("list", "pre_tool_use", "--tool", "edit")
    names = [line.split()[2] for line in ran.out.splitlines()[1:]]
    assert names == ["edit-only", "all"]  # dedupe by command keeps the first
    ran = project.run("list", "PreToolUse", "--tool", "edit", "--sub-agent")
    assert [line.split()[2] for line in ran.out.splitlines()[1:]] == ["all"]


def test_list_says_when_nothing_would_run(project: Project) -> None:
    project.hooks("PreToolUse", {"matcher": "^bash$", "command": "echo a"})
    ran = project.run("list", "PreToolUse", "--tool", "edit")
    assert (ran.code, ran.out) == (0, "no hooks would run for PreToolUse (.hookrun/hooks.json)\n")


def test_list_of_a_broken_config_exits_1(project: Project) -> None:
    project.config("{")
    ran = project.run("list")
    assert ran.code == 1 and ran.err.startswith("hookrun: config error: .hookrun/hooks.json:")


def test_schema_is_indented_json_describing_hooks(project: Project) -> None:
    ran = project.run("schema")
    assert ran.code == 0
    schema = json.loads(ran.out)
    assert isinstance(schema, dict) and "hooks" in schema["properties"]
    assert ran.out.startswith('{\n  "')


def test_no_arguments_prints_the_overview(project: Project) -> None:
    ran = project.run()
    assert ran.code == 0
    for command in ("run", "check", "list", "schema", "policy", "policies", "lockout"):
        assert f"\n  {command} " in ran.out
