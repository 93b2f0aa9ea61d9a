"""check(): load's issues plus the checks that look at files, PATH and the policy registry."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from hookrun.checks import check
from hookrun.hooks import registry


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project with hook scripts and a PATH holding one interpreter, ``myinterp``."""
    (tmp_path / "bin").mkdir()
    interp = tmp_path / "bin/myinterp"
    interp.write_text("#!/bin/sh\n")
    interp.chmod(0o755)
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    (hooks / "ok.sh").write_text("#!/usr/bin/env myinterp\necho ok\n")
    (hooks / "plain.sh").write_text("echo no shebang\n")
    (hooks / "no-interp.sh").write_text("#!/usr/bin/env nosuchinterp\n")
    (hooks / "literal.sh").write_text("#!/opt/nowhere/nosuchshell -e\n")
    (hooks / "broken.sh").write_text("# no shebang: the in-process shell runs it\nif true; then\n")
    return tmp_path


def run_check(
    project: Path, hooks: list[dict[str, object]], event: str = "PreToolUse"
) -> list[str]:
    text = json.dumps({"hooks": {event: hooks}})
    (project / "h.json").write_text(text)
    env = {"PATH": str(project / "bin"), "HOME": str(project)}
    issues = check(["h.json"], cwd=project, env=env)
    return [f"{i.severity} {i.json_path}: {i.message}" for i in issues]


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("./hooks/ok.sh", []),
        ("./hooks/ok.sh --flag | tee log", []),
        ("./hooks/plain.sh", []),
        ("echo hello", []),  # not a path: nothing to look at
        ("nosuchcommand --x", []),  # shell words are the shell's business at run time
        (
            "./hooks/missing.sh",
            ["error hooks.PreToolUse[0].command: ./hooks/missing.sh: no such file "
             "(looked for {p}/./hooks/missing.sh)"],
        ),
        (
            "./hooks/missing.sh && echo done",
            ["error hooks.PreToolUse[0].command: ./hooks/missing.sh: no such file "
             "(looked for {p}/./hooks/missing.sh)"],
        ),
        (
            "./hooks/no-interp.sh",
            ["error hooks.PreToolUse[0].command: ./hooks/no-interp.sh: interpreter "
             "'nosuchinterp' not found on PATH (named by the script's #! line): install it or "
             "fix the #! line"],
        ),
        (
            "./hooks",
            ["error hooks.PreToolUse[0].command: ./hooks: is a directory, not a script"],
        ),
        (
            'echo "unterminated',
            ["error hooks.PreToolUse[0].command: shell syntax error at line 1, column 19: "
             "unexpected EOF while looking for matching `\"'"],
        ),
        (
            "./hooks/broken.sh",
            ["error hooks.PreToolUse[0].command: ./hooks/broken.sh: shell syntax error at line "
             "3, column 1: unexpected end of file"],
        ),
        (
            "select x in a b; do echo $x; done",
            ["error hooks.PreToolUse[0].command: 'select' is not supported by hookrun's "
             "in-process shell and no POSIX shell (sh) is on PATH: put this hook in a script "
             "file whose first line is a shebang (#!/bin/bash)"],
        ),
        ("jq -r .tool_input.command | grep -q rm && exit 2", []),
    ],
)  # fmt: skip
def test_check_looks_at_the_script_a_command_names(
    project: Path, command: str, expected: list[str]
) -> None:
    got = run_check(project, [{"command": command}])
    assert got == [e.format(p=project) for e in expected]


def test_check_reports_a_literal_interpreter_missing_from_disk_and_path(project: Path) -> None:
    (issue,) = run_check(project, [{"command": "./hooks/literal.sh"}])
    assert issue.startswith("error hooks.PreToolUse[0].command: ./hooks/literal.sh:")
    assert "nosuchshell" in issue


def test_check_on_windows_rules_treats_drive_paths_as_files(project: Path) -> None:
    (project / "h.json").write_text(json.dumps({"hooks": {"Stop": [{"command": "C:\\h\\x.exe"}]}}))
    issues = check(["h.json"], cwd=project, env={"PATH": ""}, platform="win32")
    assert [(i.severity, i.json_path) for i in issues] == [("error", "hooks.Stop[0].command")]
    assert "C:\\h\\x.exe" in issues[0].message
    # the same command under POSIX rules is shell code, not a file
    assert check(["h.json"], cwd=project, env={"PATH": ""}, platform="linux") == []


@pytest.mark.parametrize(
    ("event", "matcher", "expected"),
    [
        ("PreToolUse", "^bash$", []),
        ("PreToolUse", "Bash", []),
        ("PreToolUse", "^mcp_", []),
        ("PreToolUse", "^mcp__github__", []),  # MCP tools are open-ended: not flagged
        (
            "PreToolUse",
            "^Bahs$",
            ['warning hooks.PreToolUse[0].matcher: matcher "^Bahs$" can never match a known '
             "tool name (Bash, BashOutput, KillShell, Read, Write, Edit, …)"],
        ),
        (
            "PostToolUse",
            "^BASH$",
            ['warning hooks.PostToolUse[0].matcher: matcher "^BASH$" matches no known tool name: '
             "matching is case-sensitive, and ignoring case it would match Bash, bash"],
        ),
        ("SessionStart", "startup|resume", []),
        (
            "SessionStart",
            "^Bash$",
            ['warning hooks.SessionStart[0].matcher: matcher "^Bash$" can never match a known '
             "session source (startup, resume, clear, compact, …)"],
        ),
        ("PreCompact", "auto", []),
        ("Notification", "idle_prompt", []),
        (
            "UserPromptSubmit",
            "x",
            ["warning hooks.UserPromptSubmit[0].matcher: the matcher has no effect on "
             "UserPromptSubmit hooks: only tool events, SessionStart, PreCompact and "
             "Notification are matched"],
        ),
    ],
)  # fmt: skip
def test_check_flags_matchers_that_can_never_match(
    project: Path, event: str, matcher: str, expected: list[str]
) -> None:
    assert run_check(project, [{"matcher": matcher, "command": "echo"}], event) == expected


def test_check_points_at_the_claude_entry_matcher_once(project: Path) -> None:
    inner = [{"type": "command", "command": "echo"}, {"type": "command", "command": "true"}]
    hooks: list[dict[str, object]] = [{"matcher": "Bsh", "hooks": inner}]
    assert run_check(project, hooks) == [
        'warning hooks.PreToolUse[0].matcher: matcher "Bsh" can never match a known tool name '
        "(Bash, BashOutput, KillShell, Read, Write, Edit, …)"
    ]


@pytest.fixture
def fake_policy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A real policy module on sys.path, registered under a test-only name."""
    (tmp_path / "fake_check_policy.py").write_text(textwrap.dedent("""\
        from typing import NamedTuple
        from hookrun.hooks.base import ALLOW, Policy
        class Opts(NamedTuple):
            allow: list[str] = []
            limit: int = 3
        POLICY = Policy(name="fake-guard", options=Opts,
                        decide=lambda payload, options, ctx: ALLOW)
    """))  # fmt: skip
    (tmp_path / "broken_check_policy.py").write_text("raise RuntimeError('half written')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    for name, target in (
        ("fake-guard", "fake_check_policy:POLICY"),
        ("broken-guard", "broken_check_policy:POLICY"),
    ):
        monkeypatch.setitem(registry.ENTRIES, name, registry.Entry(name, target, "s", "p"))
    return "fake-guard"


@pytest.mark.parametrize(
    ("hook", "expected"),
    [
        ({"builtin": "fake-guard"}, []),
        ({"builtin": "fake-guard", "with": {"allow": ["src/**"], "limit": 5}}, []),
        (
            {"builtin": "fake-guard", "with": {"alow": ["src/**"]}},
            ['error hooks.PreToolUse[0].with.alow: unknown option "alow"'],
        ),
        (
            {"builtin": "fake-guard", "with": {"limit": "five"}},
            ['error hooks.PreToolUse[0].with.limit: expected a whole number, got string "five"'],
        ),
        (
            {"builtin": "fake-guard", "with": {"limit": 2.5}},
            ["error hooks.PreToolUse[0].with.limit: expected a whole number, got number 2.5"],
        ),
        (
            {"builtin": "fake-guard", "with": {"allow": "src/**"}},
            ['error hooks.PreToolUse[0].with.allow: expected a list, got string "src/**"'],
        ),
        (
            {"builtin": "fake-guard", "with": {"allow": ["a", 7]}},
            ["error hooks.PreToolUse[0].with.allow[1]: expected a string, got number 7"],
        ),
        (
            {"builtin": "broken-guard"},
            ["error hooks.PreToolUse[0].builtin: builtin \"broken-guard\" cannot be loaded: "
             "RuntimeError: half written"],
        ),
    ],
)  # fmt: skip
def test_check_validates_builtin_options_with_the_policy_model(
    project: Path, fake_policy: str, hook: dict[str, object], expected: list[str]
) -> None:
    assert run_check(project, [hook]) == expected


def test_check_warns_when_a_builtin_cannot_act_on_the_event(
    project: Path, fake_policy: str
) -> None:
    assert run_check(project, [{"builtin": "fake-guard"}], "SessionEnd") == [
        'warning hooks.SessionEnd[0]: builtin "fake-guard" acts on PreToolUse: on SessionEnd it '
        "has no effect"
    ]


def test_check_includes_every_load_issue_in_position_order(project: Path) -> None:
    (project / "h.json").write_text(
        '{\n "hooks": {\n  "PreToolUze": [{"command": "./hooks/missing.sh", "timeout": 9000}],\n'
        '  "Stop": [{"command": "a", "builtin": "fake"}]\n }\n}'
    )
    issues = check(["h.json"], cwd=project, env={"PATH": ""})
    assert [str(i) for i in issues] == [
        'config warning: h.json:3:3: hooks.PreToolUze: custom event "PreToolUze" — did you mean '
        '"PreToolUse"?',
        f"config error: h.json:3:30: hooks.PreToolUze[0].command: ./hooks/missing.sh: no such "
        f"file (looked for {project}/./hooks/missing.sh)",
        "config warning: h.json:3:63: hooks.PreToolUze[0].timeout: timeout 9000 is in seconds "
        "— did you mean 9?",
        'config error: h.json:4:12: hooks.Stop[0]: hook has both "command" and "builtin": keep one',
    ]


def test_check_of_an_unparsable_file_reports_the_syntax_error_only(project: Path) -> None:
    (project / "h.json").write_text('{"hooks": }')
    assert [str(i) for i in check(["h.json"], cwd=project)] == [
        'config error: h.json:1:11: expected a value, got "}"'
    ]


def test_check_of_a_clean_config_and_of_no_files_is_empty(project: Path) -> None:
    assert run_check(project, [{"matcher": "^bash$", "command": "./hooks/ok.sh"}]) == []
    assert check([], cwd=project) == []


STANDIN_WARNING = (
    "warning hooks.PreToolUse[0].command: bash is not on PATH: hookrun's in-process shell "
    'stands in for it (route inprocess:bash); set "shell": "inprocess" to say that is intended'
)


@pytest.mark.parametrize(
    ("hook", "expected"),
    [
        ({"command": "bash hooks/plain.sh"}, [STANDIN_WARNING]),
        ({"command": 'bash "$CLAUDE_PROJECT_DIR/hooks/plain.sh"'}, []),  # a path only at run time
        ({"command": "bash hooks/plain.sh", "shell": "inprocess"}, []),
        ({"command": "bash -c 'echo hi'"}, [STANDIN_WARNING]),
        ({"command": "./hooks/bash.sh"}, [STANDIN_WARNING]),
        (
            {"command": "bash hooks/missing.sh", "shell": "inprocess"},
            ["error hooks.PreToolUse[0].command: hooks/missing.sh: no such file "
             "(looked for {p}/hooks/missing.sh)"],
        ),
        (
            {"command": "bash -i hooks/plain.sh", "shell": "inprocess"},
            ["error hooks.PreToolUse[0].command: bash -i: an interactive shell cannot "
             "stand in for bash"],
        ),
        (
            {"command": "bash hooks/broken.sh", "shell": "inprocess"},
            ["error hooks.PreToolUse[0].command: hooks/broken.sh: shell syntax error at line "
             "3, column 1: unexpected end of file"],
        ),
        (
            {"command": "bash -c 'echo \"open'", "shell": "inprocess"},
            ["error hooks.PreToolUse[0].command: bash -c: shell syntax error at line 1, "
             "column 11: unexpected EOF while looking for matching `\"'"],
        ),
    ],
)  # fmt: skip
def test_check_reads_what_the_bash_stand_in_will_run(
    project: Path, hook: dict[str, object], expected: list[str]
) -> None:
    # The project's PATH holds no bash: `bash …` and bash scripts run in-process.
    (project / "hooks/bash.sh").write_text("#!/usr/bin/env bash\necho hi\n")
    assert run_check(project, [hook]) == [e.format(p=project) for e in expected]


def test_unsupported_shell_construct_is_fine_when_a_real_shell_is_on_path(project: Path) -> None:
    sh = project / "bin/sh"
    sh.write_text("#!/bin/true\n")
    sh.chmod(0o755)
    assert run_check(project, [{"command": "cat <(ls)"}]) == []
