"""Crush's documented hook examples (docs/hooks/README.md), run unchanged through `hookrun run`.

The config is a real ``crush.json`` given with ``--config``; the scripts are the
docs' scripts, reading Crush's ``CRUSH_*`` variables.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from conftest import Project

NO_RM_RF = """#!/usr/bin/env bash
# Block rm -rf commands in the bash tool. Otherwise stay silent so the
# normal permission flow runs.

if echo "$CRUSH_TOOL_INPUT_COMMAND" | grep -qE 'rm\\s+-(rf|fr)\\s+/'; then
  echo "Refusing to run rm -rf against root" >&2
  exit 2
fi

exit 0
"""

GO_CONTEXT = """#!/usr/bin/env bash
# Remind the model about Go formatting when editing .go files.
if [[ "$CRUSH_TOOL_INPUT_FILE_PATH" == *.go ]]; then
  echo '{"context": "Remember: run gofumpt after editing Go files."}'
else
  echo '{}'
fi
"""

CRUSH_JSON = """{
  "$schema": "https://charm.land/crush.json",
  "options": {"debug": false},
  "lsp": {"go": {"command": "gopls"}},
  "hooks": {
    "PreToolUse": [
      {"matcher": "^bash$", "command": "./hooks/no-rm-rf.sh"},
      {"matcher": "^(view|ls|grep|glob)$", "command": "echo '{\\"decision\\":\\"allow\\"}'"},
      {"matcher": "^(edit|write|multiedit)$", "command": "./hooks/go-context.sh"},
      {"matcher": "^mcp_", "command": "echo 'MCP tools are disabled' >&2; exit 2"},
      {"command": "echo \\"$(date -Iseconds) $CRUSH_TOOL_NAME\\" >> ./tools.log"},
    ],
  },
}
"""


@pytest.fixture
def crush(project: Project) -> Project:
    project.write("crush.json", CRUSH_JSON)
    project.write("hooks/no-rm-rf.sh", NO_RM_RF, executable=True)
    project.write("hooks/go-context.sh", GO_CONTEXT, executable=True)
    return project


def run(project: Project, payload: dict[str, Any], *extra: str) -> tuple[int, Any, str]:
    ran = project.run("run", "PreToolUse", "--config", "crush.json", *extra, payload=payload)
    return ran.code, ran.json, ran.err


def test_block_by_exit_2_denies_rm_rf_root_with_the_scripts_reason(crush: Project) -> None:
    code, answer, err = run(crush, crush.tool("bash", command="rm -rf /"))
    assert code == 2
    assert answer["decision"] == "deny"
    assert answer["reason"] == "Refusing to run rm -rf against root"
    assert err.strip() == "Refusing to run rm -rf against root"
    script = next(h for h in answer["hooks"] if h["name"] == "no-rm-rf.sh")
    assert script["route"] == "shebang:bash" and script["exit_code"] == 2


def test_block_by_exit_2_stays_silent_for_a_harmless_command(crush: Project) -> None:
    code, answer, _ = run(crush, crush.tool("bash", command="ls -la"))
    assert (code, answer["decision"]) == (0, None)


@pytest.mark.parametrize("name", ["view", "ls", "grep", "glob"])
def test_inline_allow_pre_approves_read_only_tools(crush: Project, name: str) -> None:
    code, answer, _ = run(crush, crush.tool(name, file_path="README.md"))
    assert (code, answer["decision"]) == (0, "allow")


@pytest.mark.parametrize(
    ("path", "context"),
    [("main.go", ["Remember: run gofumpt after editing Go files."]), ("README.md", [])],
)
def test_context_is_added_on_go_file_writes_only(
    crush: Project, path: str, context: list[str]
) -> None:
    code, answer, _ = run(crush, crush.tool("write", file_path=path, content="x"))
    assert (code, answer["decision"], answer["context"]) == (0, None, context)


def test_mcp_tools_are_blocked_by_the_inline_one_liner(crush: Project) -> None:
    code, answer, err = run(crush, crush.tool("mcp_github_create_pull_request", title="x"))
    assert code == 2
    assert answer["reason"] == "MCP tools are disabled"
    assert err.strip() == "MCP tools are disabled"


def test_every_call_is_logged_by_the_inline_hook(crush: Project) -> None:
    for name in ("view", "mcp_fs_read", "glob"):
        run(crush, crush.tool(name))
    lines = (crush.root / "tools.log").read_text().splitlines()
    assert [line.split()[-1] for line in lines] == ["view", "mcp_fs_read", "glob"]
    assert all(line.split()[0][:4].isdigit() for line in lines)  # the date -Iseconds part


def test_format_crush_prints_crushs_envelope(crush: Project) -> None:
    code, answer, _ = run(crush, crush.tool("view"), "--format", "crush")
    assert (code, answer) == (0, {"version": 1, "decision": "allow"})


def test_hookrun_run_is_itself_a_crush_hook(project: Project) -> None:
    """crush.json calls `hookrun run PreToolUse --format crush`, which runs the project's hooks."""
    import json
    import sys

    project.hooks(
        "PreToolUse",
        {"matcher": "^bash$", "command": 'echo \'{"updated_input": {"command": "ls -1"}}\''},
        {"matcher": "^mcp_", "command": "echo 'MCP tools are disabled' >&2; exit 49"},
    )
    hook = f"{sys.executable} -m hookrun run PreToolUse --format crush"
    project.write("crush.json", json.dumps({"hooks": {"PreToolUse": [{"command": hook}]}}))
    rewrite = project.run(
        "run", "PreToolUse", "--config", "crush.json", payload=project.tool("bash", command="ls")
    )
    assert (rewrite.code, rewrite.json["updated_input"]) == (0, {"command": "ls -1"})
    halt = project.run("run", "PreToolUse", "--config", "crush.json", payload=project.tool("mcp_x"))
    assert (halt.code, halt.json["halt"], halt.err) == (49, True, "MCP tools are disabled\n")
