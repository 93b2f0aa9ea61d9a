"""secret-guard: fake secrets are assembled in code so no scanner flags this file."""

from __future__ import annotations

import json
from typing import Any

import pydantic
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hookrun.hooks.base import PolicyContext, Verdict
from hookrun.hooks.secret_guard import POLICY, SecretGuardOptions, judge

CTX = PolicyContext(cwd="/nonexistent-ws", project_dir="/nonexistent-ws", state_dir="", env={})
GH = "ghp_" + "Ab3De6Gh9Jk2" * 3
OPENAI = "sk-" + "Ab3Cd4Ef5Gh6" * 4
AWS_ID = "AKIA" + "Z7Q2" * 4
SLACK = "xox" + "b-" + "1234567890-0987654321-" + "AbCdEf" * 4


def vscode(env: dict[str, str]) -> str:
    """A .vscode/mcp.json as VS Code writes it: the token lands on line 10."""
    cfg = {
        "servers": {
            "github": {
                "command": "npx",
                "args": ["-y", "@modelcontextprotocol/server-github"],
                "env": env,
            }
        }
    }
    return json.dumps(cfg, indent=2)


def write(path: str, content: str, tool: str = "Write") -> dict[str, Any]:
    return {"tool_name": tool, "tool_input": {"file_path": path, "content": content}}


def decide(payload: dict[str, Any], opts: dict[str, Any] | None = None) -> Verdict:
    return POLICY.decide(payload, POLICY.bind(opts or {}), CTX)


def test_reason_names_file_line_json_path_and_the_variable_to_use() -> None:
    got = decide(write(".vscode/mcp.json", vscode({"GITHUB_TOKEN": GH})))
    assert got.decision == "deny" and got.rule == "secret.hardcoded"
    assert got.reason == (
        "secret-guard: .vscode/mcp.json line 10 holds what looks like a GitHub token in "
        '"servers.github.env.GITHUB_TOKEN" — use "${GITHUB_TOKEN}" instead and keep the value '
        "in the environment"
    )
    assert GH not in (got.reason or "")


CASES: list[tuple[str, str, str, str | None, str | None]] = [
    # (label, path, content, decision, expected substring of the reason)
    ("github token", ".mcp.json", vscode({"GITHUB_TOKEN": GH}), "deny", '"${GITHUB_TOKEN}"'),
    (
        "openai key, camelCase key",
        "mcp.json",
        json.dumps({"mcpServers": {"o": {"env": {"openaiKey": OPENAI}}}}),
        "deny",
        '"${OPENAI_API_KEY}"',
    ),
    (
        "aws id under its env name",
        "config/mcp-servers.json",
        json.dumps({"mcpServers": {"a": {"env": {"AWS_ACCESS_KEY_ID": AWS_ID}}}}),
        "deny",
        '"${AWS_ACCESS_KEY_ID}"',
    ),
    (
        "token in args",
        ".mcp.json",
        json.dumps({"mcpServers": {"s": {"args": ["--token", SLACK]}}}),
        "deny",
        '"mcpServers.s.args[1]"',
    ),
    (
        "secret-named key, unknown format",
        ".mcp.json",
        json.dumps({"mcpServers": {"x": {"env": {"API_KEY": "q8Zr2LmX0pW4vN7t"}}}}),
        "deny",
        "a hardcoded secret",
    ),
    (
        "authorization header keeps its scheme",
        ".vscode/mcp.json",
        json.dumps({"servers": {"x": {"headers": {"Authorization": "Bearer q8Zr2LmX0pW4vN7tY"}}}}),
        "deny",
        '"Bearer ${TOKEN}"',
    ),
    (
        "password in url",
        ".mcp.json",
        json.dumps({"mcpServers": {"db": {"args": ["postgres://u:" + "pa55word99" + "@db/x"]}}}),
        "deny",
        "a password in a URL",
    ),
    (
        "JSONC with comments",
        ".vscode/mcp.json",
        '{\n  // GitHub\n  "servers": {"gh": {"env": {\n    "GITHUB_TOKEN": "' + GH + '"}}}\n}',
        "deny",
        'line 4 holds what looks like a GitHub token in "GITHUB_TOKEN"',
    ),
    (
        "JSONC args array",
        ".vscode/mcp.json",
        '{\n  // x\n  "servers": {"gh": {"args": ["--key", "' + OPENAI + '"]}}\n}',
        "deny",
        '"${OPENAI_API_KEY}"',
    ),
    ("${VAR} passes", ".vscode/mcp.json", vscode({"GITHUB_TOKEN": "${GITHUB_TOKEN}"}), None, None),
    (
        "${env:VAR} passes",
        ".vscode/mcp.json",
        vscode({"GITHUB_TOKEN": "${env:GITHUB_TOKEN}"}),
        None,
        None,
    ),
    (
        "${input:id} passes",
        ".vscode/mcp.json",
        vscode({"GITHUB_TOKEN": "${input:github_token}"}),
        None,
        None,
    ),
    ("$VAR passes", ".mcp.json", vscode({"GITHUB_TOKEN": "$GITHUB_TOKEN"}), None, None),
    ("{env:VAR} passes", ".mcp.json", vscode({"GITHUB_TOKEN": "{env:GITHUB_TOKEN}"}), None, None),
    (
        "Bearer ${VAR} passes",
        ".mcp.json",
        json.dumps({"mcpServers": {"x": {"headers": {"Authorization": "Bearer ${API_TOKEN}"}}}}),
        None,
        None,
    ),
    ("short placeholder passes", ".mcp.json", vscode({"API_KEY": "changeme"}), None, None),
    (
        "prose passes",
        ".mcp.json",
        vscode({"TOKEN_HELP": "set this to your personal token"}),
        None,
        None,
    ),
    (
        "non-secret env passes",
        ".mcp.json",
        vscode({"LOG_LEVEL": "debug-verbose-mode-on"}),
        None,
        None,
    ),
    (
        "url under a token key passes",
        ".mcp.json",
        vscode({"TOKEN_URL": "https://auth.example.org/oauth/token"}),
        None,
        None,
    ),
    ("email is not a secret here", ".mcp.json", vscode({"AUTHOR": "jo@corp-mail.io"}), None, None),
    ("not an MCP config", "src/config.json", vscode({"GITHUB_TOKEN": GH}), None, None),
    ("package.json", "package.json", json.dumps({"token": GH}), None, None),
    ("nested mcp config", "tools/agents/mcp.json", vscode({"GITHUB_TOKEN": GH}), "deny", None),
    (
        "case-insensitive name on darwin is not assumed on linux",
        "MCP.JSON",
        vscode({"GITHUB_TOKEN": GH}),
        None,
        None,
    ),
]


@pytest.mark.parametrize(
    ("path", "content", "decision", "part"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_secret_guard_decides(
    path: str, content: str, decision: str | None, part: str | None
) -> None:
    got = decide(write(path, content))
    assert got.decision == decision
    if part:
        assert part in (got.reason or "")


def test_edit_new_string_fragment_is_checked_with_its_own_line() -> None:
    payload = {
        "tool_name": "Edit",
        "tool_input": {
            "file_path": ".vscode/mcp.json",
            "old_string": '"GITHUB_TOKEN": "${GITHUB_TOKEN}"',
            "new_string": f'"LOG": "1",\n"GITHUB_TOKEN": "{GH}"',
        },
    }
    got = decide(payload)
    assert got.reason is not None
    assert got.reason.startswith(
        "secret-guard: .vscode/mcp.json (new_string line 2) holds what looks like a GitHub token "
        'in "GITHUB_TOKEN"'
    )


def test_multiedit_each_edit_is_checked() -> None:
    payload = {
        "tool_name": "MultiEdit",
        "tool_input": {
            "file_path": ".mcp.json",
            "edits": [
                {"old_string": "a", "new_string": "b"},
                {"old_string": "c", "new_string": f'"OPENAI_API_KEY": "{OPENAI}"'},
            ],
        },
    }
    assert "edits[1].new_string" in (decide(payload).reason or "")


def test_user_home_mcp_config_outside_workspace_is_still_guarded() -> None:
    got = decide(write("/home/u/.cursor/mcp.json", vscode({"GITHUB_TOKEN": GH})))
    assert got.decision == "deny"


def test_more_than_one_secret_is_counted() -> None:
    got = decide(write(".mcp.json", vscode({"GITHUB_TOKEN": GH, "OPENAI_API_KEY": OPENAI})))
    assert "(and 1 more)" in (got.reason or "")


def test_non_write_tools_and_missing_content_have_no_opinion() -> None:
    assert decide({"tool_name": "Read", "tool_input": {"file_path": ".mcp.json"}}) == Verdict()
    assert decide({"tool_name": "Write", "tool_input": {"file_path": ".mcp.json"}}) == Verdict()


def test_paths_are_configurable() -> None:
    got = decide(
        write("claude_desktop_config.json", vscode({"GITHUB_TOKEN": GH})),
        {"paths": ["**/claude_desktop_config.json"]},
    )
    assert got.decision == "deny"


def test_windows_paths_match_without_case() -> None:
    got = judge(
        write("C:\\Repo\\.VSCode\\MCP.json", vscode({"GITHUB_TOKEN": GH})),
        SecretGuardOptions(),
        PolicyContext(cwd="C:\\Repo", project_dir="C:\\Repo", state_dir="", env={}),
        platform="win32",
    )
    assert got.decision == "deny"


def test_bad_secret_keys_regex_is_rejected() -> None:
    with pytest.raises(pydantic.ValidationError):
        POLICY.bind({"secret_keys": "(token"})


# --- never raises, whatever the host sends


@settings(max_examples=300, deadline=None)
@given(
    content=st.one_of(
        st.text(max_size=200),
        st.recursive(
            st.none() | st.text(max_size=30),
            lambda i: st.lists(i, max_size=3) | st.dictionaries(st.text(max_size=8), i, max_size=3),
            max_leaves=10,
        ).map(json.dumps),
    ),
    tool=st.sampled_from(["Write", "Edit", "MultiEdit"]),
)
def test_secret_guard_never_raises(content: str, tool: str) -> None:
    got = decide(write(".mcp.json", content, tool))
    assert got.decision in (None, "deny")


def test_deeply_nested_json_is_read_as_text_not_a_crash() -> None:
    content = "[" * 5000 + json.dumps({"GITHUB_TOKEN": GH}) + "]" * 5000
    assert decide(write(".mcp.json", content)).decision == "deny"
