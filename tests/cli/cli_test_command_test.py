"""`hookrun test` through the real command, on the demo project and on hand-made files."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import xmlschema

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"
SCHEMA = xmlschema.XMLSchema(str(REPO / "tests" / "configtests" / "junit_schema" / "JUnit.xsd"))


def _demo(project: Any) -> None:
    shutil.copy(EXAMPLES / "hooks.json", project.root / ".hookrun" / "hooks.json")
    shutil.copytree(EXAMPLES / "hooks", project.root / "hooks")
    shutil.copytree(EXAMPLES / "tests", project.root / ".hookrun" / "tests")


def test_the_demo_projects_own_cases_pass(project: Any) -> None:
    _demo(project)
    ran = project.run("test", "--junit", "report.xml")
    assert ran.code == 0, ran.out + ran.err
    assert ran.out.count("PASS  demo.yaml: ") == 5
    assert ran.out.rstrip().endswith("5 cases: 5 passed, 0 failed")
    SCHEMA.validate(str(project.root / "report.xml"))


def test_a_failing_case_shows_the_difference_and_the_trace_and_exits_1(project: Any) -> None:
    _demo(project)
    project.write(
        ".hookrun/tests/wrong.yaml",
        "cases:\n"
        "  - name: force push is allowed (it is not)\n"
        "    event: PreToolUse\n"
        "    tool: bash\n"
        "    input: {command: git push --force origin main}\n"
        "    expect: {decision: allow}\n",
    )
    ran = project.run("test", "--junit", "report.xml")
    assert ran.code == 1
    assert "FAIL  wrong.yaml: force push is allowed (it is not)" in ran.out
    assert "decision: expected allow, got deny" in ran.out
    assert "| hookrun trace: PreToolUse:" in ran.out  # the event's trace follows
    assert "shell-guard" in ran.out
    assert ran.out.rstrip().endswith("6 cases: 5 passed, 1 failed")
    report = project.root / "report.xml"
    SCHEMA.validate(str(report))
    suites = SCHEMA.to_dict(str(report))["testsuite"]
    wrong = next(s for s in suites if s["@name"] == "wrong.yaml")
    assert wrong["@failures"] == 1
    assert "expected allow, got deny" in wrong["testcase"][0]["failure"]["@message"]


def test_policy_state_goes_to_a_scratch_dir_and_no_audit_line_is_written(project: Any) -> None:
    project.config(
        {
            "audit_log": ".hookrun/audit.jsonl",
            "hooks": {
                "PreToolUse": [{"builtin": "ask-user-limit", "with": {"max_per_session": 1}}]
            },
        }
    )
    ask = {"event": "PreToolUse", "tool": "AskUserQuestion", "payload": {"session_id": "s"}}
    project.write(
        ".hookrun/tests/asks.json",
        json.dumps(
            {
                "cases": [
                    {**ask, "name": "first ask", "expect": {"decision": "none"}},
                    {**ask, "name": "second ask", "expect": {"decision": "deny"}},
                ]
            }
        ),
    )
    first = project.run("test")
    second = project.run("test")  # the same counts again: nothing was remembered
    assert (first.code, second.code) == (0, 0), first.out + second.out
    assert not (project.root / ".hookrun" / "state").exists()
    assert not (project.root / ".hookrun" / "audit.jsonl").exists()


def test_a_broken_test_file_fails_the_run_naming_the_field(project: Any) -> None:
    project.config({"hooks": {}})
    project.write(".hookrun/tests/t.yaml", "cases: [{event: Stop, expect: {decison: deny}}]\n")
    ran = project.run("test")
    assert ran.code == 1
    assert 'unknown key "decison" — did you mean "decision"?' in ran.out


def test_no_test_folder_is_one_clear_line(project: Any) -> None:
    ran = project.run("test")
    assert ran.code == 1
    assert "hookrun: no test files:" in ran.err and "create it with" in ran.err
