"""`hookrun run EVENT` end to end: real processes, real hook scripts, real exit codes."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from conftest import Project

PY = sys.executable


def py_hook(project: Project, name: str, body: str) -> str:
    """A Python hook script with a shebang naming this interpreter; returns its command."""
    project.write(f"hooks/{name}", f"#!{PY}\n{body}", executable=True)
    return f"./hooks/{name}"


def test_no_config_answers_no_opinion(project: Project) -> None:
    ran = project.run("run", "PreToolUse", payload=project.tool("bash", command="ls"))
    assert ran.code == 0
    assert ran.json["decision"] is None and ran.json["hooks"] == []
    assert ran.json["event"] == "PreToolUse"


@pytest.mark.parametrize("event", ["PreToolUse", "pre_tool_use", "pre-tool-use", "PRETOOLUSE"])
def test_event_names_are_normalised(project: Project, event: str) -> None:
    project.hooks("PreToolUse", {"command": 'echo \'{"decision": "allow"}\''})
    ran = project.run("run", event, payload=project.tool("bash"))
    assert (ran.code, ran.json["decision"], ran.json["event"]) == (0, "allow", "PreToolUse")


def test_flags_alone_make_the_payload(project: Project) -> None:
    hook = py_hook(
        project,
        "echo.py",
        "import json, sys\n"
        "p = json.load(sys.stdin)\n"
        "print(json.dumps({'context': [p['tool_name'], p['tool_input']['command'],"
        " p['session_id'], str(p['is_sub_agent'])]}))\n",
    )
    project.hooks("PreToolUse", {"command": hook, "include_sub_agents": True})
    ran = project.run(
        "run", "PreToolUse", "--tool", "bash", "--input", '{"command": "ls"}',
        "--session-id", "s9", "--sub-agent",
    )  # fmt: skip
    assert ran.code == 0, ran.err
    assert ran.json["context"] == ["bash", "ls", "s9", "True"]


def test_the_payload_from_stdin_reaches_the_hook_with_flags_over_it(project: Project) -> None:
    hook = py_hook(
        project,
        "echo.py",
        "import json, sys\n"
        "p = json.load(sys.stdin)\n"
        "print(json.dumps({'context': [p['tool_name'], p['extra']['kept']]}))\n",
    )
    project.hooks("PreToolUse", {"command": hook})
    payload = {"tool_name": "bash", "tool_input": {}, "extra": {"kept": "yes"}}
    ran = project.run("run", "PreToolUse", "--tool", "edit", payload=payload)
    assert ran.json["context"] == ["edit", "yes"]


def test_deny_exits_2_with_the_reason_alone_on_stderr(project: Project) -> None:
    project.hooks("PreToolUse", {"command": "echo 'no way' >&2; exit 2"})
    ran = project.run("run", "PreToolUse", payload=project.tool("bash"))
    assert (ran.code, ran.json["decision"], ran.err) == (2, "deny", "no way\n")


def test_halt_exits_49_with_the_reason_on_stderr(project: Project) -> None:
    project.hooks("PreToolUse", {"command": "echo 'stop everything' >&2; exit 49"})
    ran = project.run("run", "PreToolUse", payload=project.tool("bash"))
    assert (ran.code, ran.json["halt"], ran.err) == (49, True, "stop everything\n")


@pytest.mark.parametrize(
    ("fmt", "hook", "code"),
    [
        ("hookrun", "exit 49", 49),
        ("crush", "exit 49", 49),
        ("claude", "exit 49", 0),  # Claude Code reads "continue": false only on exit 0
        ("hookrun", "exit 2", 2),
        ("crush", "exit 2", 2),
        ("claude", "exit 2", 2),
        ("claude", 'echo \'{"decision": "allow"}\'', 0),
    ],
)
def test_exit_code_per_format(project: Project, fmt: str, hook: str, code: int) -> None:
    project.hooks("PreToolUse", {"command": f"echo why >&2; {hook}"})
    ran = project.run("run", "PreToolUse", "--format", fmt, payload=project.tool("bash"))
    assert ran.code == code


def test_a_deny_without_reason_names_the_hook_on_stderr(project: Project) -> None:
    project.hooks("PreToolUse", {"name": "quiet", "command": 'echo \'{"decision":"deny"}\''})
    ran = project.run("run", "PreToolUse", payload=project.tool("bash"))
    assert ran.code == 2
    assert "quiet" in ran.err


def test_ask_and_allow_exit_0(project: Project) -> None:
    project.hooks(
        "PreToolUse",
        {"command": 'echo \'{"decision":"allow"}\''},
        {"command": 'echo \'{"decision":"ask", "reason": "sure?"}\''},
    )
    ran = project.run("run", "PreToolUse", payload=project.tool("bash"))
    assert (ran.code, ran.json["decision"]) == (0, "ask")


@pytest.mark.parametrize(
    ("stdin", "message"),
    [
        (b"not json", "hookrun: payload on stdin is not valid JSON: Expecting value at line 1 "
         "column 1\n"),
        (b'{"tool_name": "bash",', "hookrun: payload on stdin is not valid JSON: Expecting "
         "property name enclosed in double quotes at line 1 column 22\n"),
        (b"[1, 2, 3]", "hookrun: payload on stdin must be a JSON object, got an array\n"),
        (b'"rm -rf /"', "hookrun: payload on stdin must be a JSON object, got a string\n"),
        (b"\xff\xfe{}", "hookrun: payload on stdin is not UTF-8 (bad byte at offset 0); send the "
         "event as UTF-8 JSON\n"),
    ],
)  # fmt: skip
def test_a_broken_payload_exits_1_with_one_clear_line(
    project: Project, stdin: bytes, message: str
) -> None:
    project.hooks("PreToolUse", {"command": "exit 2"})
    ran = project.run("run", "PreToolUse", payload=stdin)
    assert (ran.code, ran.out, ran.err) == (1, "", message)


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ({"tool_name": 5}, "tool_name"),
        ({"tool_name": "bash", "tool_input": "ls"}, "tool_input"),
        ({"session_id": ["s"]}, "session_id"),
        ({"is_sub_agent": "yes"}, "is_sub_agent"),
    ],
)
def test_payload_fields_of_the_wrong_type_count_as_absent_and_the_hooks_decide(
    project: Project, payload: dict[str, object], field: str
) -> None:
    project.hooks("PreToolUse", {"command": "exit 2"})
    ran = project.run("run", "PreToolUse", payload=payload)
    assert ran.code == 2 and ran.json["decision"] == "deny", (field, ran.err)
    assert "bad payload" not in ran.err and "Traceback" not in ran.err


def test_input_flag_that_is_not_an_object_exits_1(project: Project) -> None:
    ran = project.run("run", "PreToolUse", "--input", "ls -la")
    assert (ran.code, ran.err) == (
        1,
        "hookrun: --input is not valid JSON: Expecting value at line 1 column 1\n",
    )


def test_a_broken_config_exits_1_with_file_line_and_column(project: Project) -> None:
    project.config(
        '{\n  "hooks": {\n    "PreToolUse": [\n      {"command": "x",, }\n    ]\n  }\n}\n'
    )
    ran = project.run("run", "PreToolUse", payload=project.tool("bash"))
    assert ran.code == 1 and ran.out == ""
    assert ran.err.startswith("hookrun: config error: .hookrun/hooks.json:4:")
    assert "Traceback" not in ran.err


def test_an_invalid_regex_names_the_hook_and_the_regex_error(project: Project) -> None:
    project.hooks("PreToolUse", {"matcher": "(bash", "command": "true"})
    ran = project.run("run", "PreToolUse", payload=project.tool("bash"))
    assert ran.code == 1
    assert ran.err.startswith("hookrun: config error: .hookrun/hooks.json:")
    assert "hooks.PreToolUse[0].matcher" in ran.err and "(bash" in ran.err


def test_a_missing_config_file_given_with_config_exits_1(project: Project) -> None:
    ran = project.run("run", "PreToolUse", "--config", "nope.json", payload={})
    assert ran.code == 1 and "nope.json" in ran.err and ran.err.startswith("hookrun: ")


def test_a_crashing_hook_leaves_the_run_answering(project: Project) -> None:
    crash = py_hook(project, "crash.py", "raise SystemExit(1 / 0)\n")
    project.hooks(
        "PreToolUse", {"name": "crash", "command": crash}, {"command": 'echo \'{"context": "ok"}\''}
    )
    ran = project.run("run", "PreToolUse", payload=project.tool("bash"))
    assert (ran.code, ran.json["decision"], ran.json["context"]) == (0, None, ["ok"])
    crashed = ran.json["hooks"][0]
    assert crashed["exit_code"] == 1 and crashed["decision"] is None


def test_a_hanging_hook_times_out_and_the_run_still_answers(project: Project) -> None:
    hang = py_hook(project, "hang.py", "import time\ntime.sleep(300)\n")
    project.hooks(
        "PreToolUse",
        {"name": "hang", "command": hang, "timeout": 1},
        {"command": 'echo \'{"decision": "allow"}\''},
    )
    start = time.monotonic()
    ran = project.run("run", "PreToolUse", payload=project.tool("bash"))
    assert time.monotonic() - start < 10  # 1 s timeout + grace + interpreter start-up
    assert (ran.code, ran.json["decision"]) == (0, "allow")
    assert ran.json["hooks"][0]["timed_out"] is True


def test_a_hanging_fail_closed_hook_denies(project: Project) -> None:
    hang = py_hook(project, "hang.py", "import time\ntime.sleep(300)\n")
    project.hooks("PreToolUse", {"name": "hang", "command": hang, "timeout": 1, "on_error": "deny"})
    ran = project.run("run", "PreToolUse", payload=project.tool("bash"))
    assert (ran.code, ran.json["decision"]) == (2, "deny")
    assert "hang" in ran.err


def test_a_flooding_hook_is_cut_and_the_run_still_answers(project: Project) -> None:
    flood = py_hook(
        project,
        "flood.py",
        "import sys\nfor _ in range(40):\n    sys.stdout.write('x' * (1 << 20))\n"
        "sys.stderr.write('e' * (8 << 20))\n",
    )
    project.hooks("PreToolUse", {"name": "flood", "command": flood})
    ran = project.run("run", "PreToolUse", payload=project.tool("bash"))
    assert ran.code == 0 and ran.json["decision"] is None
    assert len(ran.out) < 1 << 20  # the answer does not carry the flood
    assert ran.json["hooks"][0]["error"]


def test_a_missing_hook_script_leaves_the_run_answering(project: Project) -> None:
    project.hooks(
        "PreToolUse",
        {"name": "ghost", "command": "./hooks/not-there.sh"},
        {"command": 'echo \'{"decision": "allow"}\''},
    )
    ran = project.run("run", "PreToolUse", payload=project.tool("bash"))
    assert (ran.code, ran.json["decision"]) == (0, "allow")
    assert "not-there.sh" in ran.json["hooks"][0]["error"]


def test_trace_goes_to_stderr_and_stdout_stays_pure_json(project: Project) -> None:
    project.hooks(
        "PreToolUse",
        {"name": "first", "matcher": "^bash$", "command": "echo no >&2; exit 2"},
        {"name": "second", "command": 'echo \'{"context": "c"}\''},
    )
    ran = project.run("run", "PreToolUse", "--trace", payload=project.tool("bash"))
    assert ran.code == 2
    assert ran.json["decision"] == "deny"  # stdout parses as one JSON document
    lines = ran.err.splitlines()
    assert lines[0] == "hookrun trace: PreToolUse: 2 hooks ran"
    assert lines[2].split()[:2] == ["0", "first"] and "deny" in lines[2]
    assert ".hookrun/hooks.json#PreToolUse[0]" in lines[2]
    assert lines[3].split()[:2] == ["1", "second"]
    assert lines[4].startswith("=> decision: deny")
    assert lines[-1] == "no"  # the reason, last, for hosts that read stderr


def test_config_flag_is_repeatable_and_keeps_order(project: Project) -> None:
    project.config({"hooks": {"PreToolUse": [{"command": 'echo \'{"context": "a"}\''}]}}, "a.json")
    project.config({"hooks": {"PreToolUse": [{"command": 'echo \'{"context": "b"}\''}]}}, "b.json")
    ran = project.run("run", "PreToolUse", "--config", "b.json", "-c", "a.json", payload={})
    assert ran.json["context"] == ["b", "a"]


def test_cwd_flag_moves_discovery_and_the_hooks(
    project: Project, make_project: Callable[[str], Project]
) -> None:
    other = make_project("other")
    other.hooks("PreToolUse", {"command": "pwd"})
    other.hooks("UserPromptSubmit", {"command": "pwd"})
    ran = project.run("run", "UserPromptSubmit", "--cwd", str(other.root), "--prompt", "hi")
    assert ran.code == 0, ran.err
    assert ran.json["context"] == [str(other.root)]


def test_a_cwd_that_does_not_exist_exits_1(project: Project) -> None:
    ran = project.run("run", "PreToolUse", "--cwd", "/no/such/dir")
    assert ran.code == 1
    assert ran.err.startswith("hookrun: working directory '/no/such/dir' does not exist")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["run"], "hookrun: Missing argument 'EVENT' — see `hookrun run --help`\n"),
        (["run", "PreToolUse", "--format", "xml"], "hookrun: unknown --host 'xml': use one of "
         "hookrun, claude, gemini, codex, copilot, cursor, crush, auto\n"),
        (["run", "PreToolUse", "--zzz"], "hookrun: No such option: --zzz — see `hookrun run "
         "--help`\n"),
        (["frobnicate"], "hookrun: No such command 'frobnicate' — see `hookrun --help`\n"),
    ],
)  # fmt: skip
def test_command_line_mistakes_exit_1_never_2(
    project: Project, args: list[str], message: str
) -> None:
    ran = project.run(*args)
    assert (ran.code, ran.err) == (1, message)


def test_help_answers_with_examples(project: Project) -> None:
    ran = project.run("run", "--help")
    assert ran.code == 0
    assert "Examples:" in ran.out and "hookrun run PreToolUse --tool bash" in ran.out


def test_version(project: Project) -> None:
    from hookrun import __version__

    assert project.run("--version").out == f"hookrun {__version__}\n"


def test_an_audit_log_that_cannot_be_written_is_a_warning_not_a_failure(project: Project) -> None:
    (project.root / ".hookrun" / "a-dir").mkdir()
    project.hooks("PreToolUse", {"command": "exit 2"}, audit_log=".hookrun/a-dir")
    ran = project.run("run", "PreToolUse", payload=project.tool("bash"))
    assert ran.code == 2 and ran.json["decision"] == "deny"
    assert "hookrun: warning: audit log not written: " in ran.err


def test_the_audit_log_gets_one_line_per_run(project: Project) -> None:
    project.hooks("PreToolUse", {"command": "exit 2"}, audit_log=".hookrun/audit.jsonl")
    for _ in range(3):
        project.run("run", "PreToolUse", payload=project.tool("bash"))
    lines = (project.root / ".hookrun" / "audit.jsonl").read_text().splitlines()
    assert [json.loads(line)["decision"] for line in lines] == ["deny"] * 3


@pytest.mark.parametrize("closed", [">&-", "2>&-", "<&-"])
def test_a_closed_standard_stream_still_answers_with_the_exit_code(
    project: Project, closed: str
) -> None:
    project.hooks("PreToolUse", {"command": "echo no >&2; exit 2"})
    ran = project.sh(f"$HOOKRUN run PreToolUse --tool bash {closed}")
    assert ran.code == 2, ran.err
    assert "Traceback" not in ran.err


def test_a_deleted_working_directory_is_a_clear_error(project: Project) -> None:
    ran = project.sh("mkdir gone && cd gone && rmdir ../gone && $HOOKRUN run PreToolUse </dev/null")
    assert (ran.code, ran.err) == (
        1,
        "hookrun: cannot read the current directory (No such file or directory); pass --cwd DIR\n",
    )
