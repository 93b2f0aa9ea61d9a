"""`hookrun policy NAME` standalone and `hookrun policies`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hookrun.hooks import registry

if TYPE_CHECKING:
    from conftest import Project


def test_policy_denies_like_hookrun_run_with_exit_2(project: Project) -> None:
    ran = project.run(
        "policy", "shell-guard", "--tool", "Bash", "--input", '{"command": "rm -rf /"}'
    )
    assert ran.code == 2
    assert ran.json["decision"] == "deny"
    assert ran.json["hooks"][0]["route"] == "builtin:shell-guard"
    assert ran.err.strip() == ran.json["reason"]


def test_policy_reads_the_payload_from_stdin(project: Project) -> None:
    ran = project.run("policy", "shell-guard", payload=project.tool("Bash", command="ls -la"))
    assert (ran.code, ran.json["decision"]) == (0, None)


def test_policy_event_comes_from_the_payload_when_not_given(project: Project) -> None:
    payload = {"hook_event_name": "PostToolUse", "tool_name": "Bash", "tool_input": {}}
    ran = project.run("policy", "ask-user-limit", payload=payload)
    assert ran.code == 0 and ran.json["event"] == "PostToolUse"


def test_policy_with_options_changes_its_decision(project: Project) -> None:
    question = {"session_id": "q1", "tool_name": "ask_user", "tool_input": {"question": "ok?"}}
    first = project.run("policy", "ask-user-limit", "--with", "max_per_session=1", payload=question)
    second = project.run("policy", "ask-user-limit", "--with-json", '{"max_per_session": 1}',
                         payload=question)  # fmt: skip
    assert first.code == 0
    assert second.code == 2 and "best judgment" in second.err


def test_policy_with_a_bad_option_exits_1_with_the_validation_message(project: Project) -> None:
    ran = project.run("policy", "ask-user-limit", "--with", "max_per_sesion=3", payload={})
    assert ran.code == 1 and ran.out == ""
    assert ran.err.startswith('hookrun: policy ask-user-limit: option "max_per_sesion": ')
    assert len(ran.err.splitlines()) == 1


def test_an_unknown_policy_exits_1_with_a_suggestion(project: Project) -> None:
    ran = project.run("policy", "shell-gaurd", payload={})
    assert (ran.code, ran.err) == (
        1,
        "hookrun: unknown policy 'shell-gaurd': did you mean 'shell-guard'? "
        "`hookrun policies` lists them\n",
    )


def test_policy_accepts_an_alias(project: Project) -> None:
    ran = project.run(
        "policy", "file-restriction", "--with", 'allow=["src/**"]', "--tool", "Write",
        "--input", '{"file_path": "etc/passwd", "content": "x"}',
    )  # fmt: skip
    assert ran.code == 2 and ran.json["hooks"][0]["name"] == "write-guard"


def test_policies_lists_every_builtin_on_one_line(project: Project) -> None:
    ran = project.run("policies")
    assert ran.code == 0
    lines = ran.out.splitlines()
    assert lines[0].split() == ["policy", "aliases", "events", "summary"]
    assert [line.split()[0] for line in lines[1:]] == registry.names()
    write_guard = next(line for line in lines if line.startswith("write-guard "))
    assert "file-restriction" in write_guard and "PreToolUse" in write_guard


def test_policies_prompt_prints_reminders_of_the_active_policies_only(project: Project) -> None:
    project.hooks(
        "PreToolUse",
        {"builtin": "shell-guard"},
        {"builtin": "ask-user-limit", "with": {"max_per_session": 2}},
        {"builtin": "shell-guard", "matcher": "^sh$"},
        {"command": "true"},
    )
    ran = project.run("policies", "--prompt")
    assert ran.code == 0
    expected = [registry.entry("shell-guard").prompt, registry.entry("ask-user-limit").prompt]
    assert ran.out.splitlines() == [line.strip() for line in expected]


def test_policies_prompt_without_builtins_prints_nothing(project: Project) -> None:
    project.hooks("PreToolUse", {"command": "true"})
    ran = project.run("policies", "--prompt")
    assert (ran.code, ran.out) == (0, "")
    assert "no built-in policy is used" in ran.err
