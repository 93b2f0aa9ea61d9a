"""load(): what each written hook becomes, per dialect, and how files merge."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from hookrun.config import ConfigError, load
from hookrun.config.loader import command_name, detect_dialect, ms_hint
from hookrun.hooks import registry


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


HOOKRUN_CONFIG = """\
{
  "version": 1,
  "include_sub_agents": false,          // global default, per-hook overrides it
  "timeout": 20,                        // default seconds per hook
  "audit_log": ".hookrun/audit.jsonl",
  "hooks": {
    "PreToolUse": [
      { "name": "no-rm", "matcher": "^bash$", "command": "./hooks/no-rm.sh",
        "timeout": 10, "on_error": "deny", "env": {"K": "V"} },
      { "matcher": "^(bash|shell)$", "builtin": "file-restriction",
        "with": { "allow": ["src/**"] } },
      { "command": "./audit.sh --all", "include_sub_agents": true },
    ],
    "user-prompt-submit": [ { "command": "echo hi" } ],
  },
}
"""


def test_hookrun_dialect_hooks_get_every_field_resolved(tmp_path: Path) -> None:
    write(tmp_path / ".hookrun/hooks.json", HOOKRUN_CONFIG)
    config = load([".hookrun/hooks.json"], cwd=tmp_path)
    assert config.warnings == ()
    assert config.paths == (".hookrun/hooks.json",)
    assert config.audit_log == str(tmp_path / ".hookrun/audit.jsonl")
    no_rm, guard, audit = config.for_event("PreToolUse")
    assert (no_rm.name, no_rm.source) == ("no-rm", ".hookrun/hooks.json#PreToolUse[0]")
    assert (no_rm.command, no_rm.builtin, no_rm.timeout, no_rm.on_error) == (
        "./hooks/no-rm.sh", None, 10.0, "deny"
    )  # fmt: skip
    assert no_rm.env == {"K": "V"}
    assert no_rm.matches("bash") and not no_rm.matches("bash2") and not no_rm.matches(None)
    assert no_rm.config_path == str(tmp_path / ".hookrun/hooks.json")
    assert no_rm.dialect == "hookrun"
    # an alias resolves to the canonical name; the policy's own fail mode is the default
    assert (guard.name, guard.builtin, guard.on_error) == ("write-guard", "write-guard", "deny")
    assert guard.options == {"allow": ["src/**"]}
    # a built-in runs for sub-agent calls unless its entry says include_sub_agents: false
    assert guard.timeout == 20.0 and guard.include_sub_agents is True
    assert (audit.name, audit.on_error, audit.include_sub_agents) == ("audit.sh", "allow", True)
    assert audit.matcher is None and audit.matches("anything") and audit.matches(None)
    (prompt,) = config.for_event("UserPromptSubmit")
    assert prompt.source == ".hookrun/hooks.json#user-prompt-submit[0]"
    assert prompt.timeout == 20.0 and prompt.name == "echo"


CLAUDE_SETTINGS = """\
{
  "$schema": "https://json.schemastore.org/claude-code-settings.json",
  "permissions": {"allow": ["Bash(npm run lint)"], "deny": ["Read(./.env)"]},
  "env": {"FOO": "bar"},
  "model": "claude-sonnet-4",
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [
          {"type": "command", "timeout": 60,
           "command": "\\"$CLAUDE_PROJECT_DIR\\"/.claude/hooks/check.sh"},
          {"type": "command", "command": "jq -r .tool_input.command >> ~/bash.log"}
        ]
      },
      {"matcher": "Edit|MultiEdit|Write",
       "hooks": [{"type": "command", "command": "npx prettier --write"}]}
    ],
    "SessionStart": [
      {"matcher": "startup", "hooks": [{"type": "command", "command": "cat NOTES.md"}]}
    ],
    "UserPromptSubmit": [
      {"hooks": [{"type": "prompt", "prompt": "Is this safe?"}]}
    ]
  }
}
"""


def test_claude_settings_file_loads_with_claude_matcher_meaning(tmp_path: Path) -> None:
    write(tmp_path / ".claude/settings.json", CLAUDE_SETTINGS)
    config = load([".claude/settings.json"], cwd=tmp_path)
    check, log, fmt = config.for_event("PreToolUse")
    assert check.source == ".claude/settings.json#PreToolUse[0].hooks[0]"
    assert log.source == ".claude/settings.json#PreToolUse[0].hooks[1]"
    assert fmt.source == ".claude/settings.json#PreToolUse[1].hooks[0]"
    assert check.name == "check.sh" and check.timeout == 60.0 and log.timeout == 30.0
    assert check.dialect == "claude" and check.matcher == "Bash"
    assert check.matches("Bash") and not check.matches("BashOutput")
    assert fmt.matches("Edit") and fmt.matches("Write") and not fmt.matches("NotebookEdit")
    (start,) = config.for_event("SessionStart")
    assert start.matches("startup") and not start.matches("resume")
    # permissions/env/model are Claude's own settings: ignored silently; the prompt hook is
    # not runnable by hookrun, and that is said, not skipped silently
    assert [str(w) for w in config.warnings] == [
        "config warning: .claude/settings.json:23:27: hooks.UserPromptSubmit[0].hooks[0].type: "
        'hook type "prompt" is not run by hookrun (only "command" hooks are): skipped'
    ]
    assert config.for_event("UserPromptSubmit") == ()


CRUSH_JSON = """\
{
  "$schema": "https://charm.land/crush.json",
  "options": {"debug": false},
  "lsp": {"go": {"command": "gopls"}},
  "mcp": {"github": {"type": "http", "url": "https://example.com/mcp"}},
  "providers": {},
  "hooks": {
    "PreToolUse": [
      {
        // What tool do we want to hook into?
        "matcher": "^bash$",
        "command": "./no-haskell.sh",
      },
      { "name": "no-rm-rf", "matcher": "bash", "command": "./hooks/my-hot-hook.sh", "timeout": 10 },
      { "matcher": "^mcp_", "command": "echo blocked >&2; exit 2" },
    ],
  },
}
"""


def test_crush_json_loads_and_ignores_crush_settings(tmp_path: Path) -> None:
    write(tmp_path / "crush.json", CRUSH_JSON)
    config = load(["crush.json"], cwd=tmp_path)
    assert config.warnings == ()
    haskell, hot, mcp = config.for_event("PreToolUse")
    assert (haskell.name, haskell.dialect, haskell.timeout) == ("no-haskell.sh", "crush", 30.0)
    assert (hot.name, hot.timeout) == ("no-rm-rf", 10.0)
    assert mcp.matches("mcp_github_create_pull_request") and not mcp.matches("bash")
    assert mcp.name == "echo"


@pytest.mark.parametrize(
    ("name", "top", "dialect"),
    [
        ("crush.json", {}, "crush"),
        (".crush.json", {}, "crush"),
        (".claude/settings.json", {}, "claude"),
        (".claude/settings.local.json", {}, "claude"),
        ("x.json", {"lsp": {}}, "crush"),
        ("x.json", {"$schema": "https://charm.land/crush.json"}, "crush"),
        ("x.json", {"permissions": {}}, "claude"),
        ("x.json", {"hooks": {}}, "hookrun"),
        (".hookrun/hooks.json", {"version": 1}, "hookrun"),
    ],
)
def test_detect_dialect_by_file_name_then_by_keys(
    name: str, top: dict[str, object], dialect: str
) -> None:
    assert detect_dialect(Path("/p") / name, top) == dialect


def test_unknown_top_level_keys_are_warned_only_in_hookrun_files(tmp_path: Path) -> None:
    write(tmp_path / "a.json", '{"providers": {}, "model": "x"}')  # crush + claude keys
    write(tmp_path / "b.json", '{"modle": "x"}')
    assert load(["a.json"], cwd=tmp_path).warnings == ()
    assert [str(w) for w in load(["b.json"], cwd=tmp_path).warnings] == [
        'config warning: b.json:1:2: modle: unknown key "modle" is ignored'
    ]


WARNINGS: list[tuple[str, str, list[str]]] = [
    (
        "unknown top-level key with a suggestion",
        '{"hook": {}}',
        ['1:2: hook: unknown key "hook" is ignored — did you mean "hooks"?'],
    ),
    (
        "unknown hook key with a suggestion",
        '{"hooks": {"Stop": [{"command": "a", "on-error": "deny"}]}}',
        [
            '1:38: hooks.Stop[0].on-error: unknown key "on-error" is ignored — '
            'did you mean "on_error"?'
        ],
    ),
    (
        "unknown Claude entry key",
        '{"hooks": {"Stop": [{"hooks": [], "comment": "x"}]}}',
        ['1:35: hooks.Stop[0].comment: unknown key "comment" is ignored'],
    ),
    (
        "custom event close to a known one",
        '{"hooks": {"PreTooluse2": []}}',
        ['1:12: hooks.PreTooluse2: custom event "PreTooluse2" — did you mean "PreToolUse"?'],
    ),
    (
        "custom event far from any known one",
        '{"hooks": {"DeployFinished": []}}',
        [
            '1:12: hooks.DeployFinished: custom event "DeployFinished": hooks run only for a host '
            "that sends this exact event name"
        ],
    ),
    (
        "millisecond-looking hook timeout",
        '{"hooks": {"Stop": [{"command": "a", "timeout": 5000}]}}',
        ["1:49: hooks.Stop[0].timeout: timeout 5000 is in seconds — did you mean 5?"],
    ),
    (
        "millisecond-looking default timeout",
        '{"timeout": 30000}',
        ["1:13: timeout: timeout 30000 is in seconds — did you mean 30?"],
    ),
    (
        "with on a command hook",
        '{"hooks": {"Stop": [{"command": "a", "with": {}}]}}',
        ['1:38: hooks.Stop[0].with: "with" is ignored: it holds the options of a "builtin"'],
    ),
]


@pytest.mark.parametrize(
    ("text", "expected"), [case[1:] for case in WARNINGS], ids=[case[0] for case in WARNINGS]
)
def test_non_fatal_issues_become_warnings_with_positions(
    tmp_path: Path, text: str, expected: list[str]
) -> None:
    write(tmp_path / "h.json", text)
    config = load(["h.json"], cwd=tmp_path)
    assert [str(w) for w in config.warnings] == [f"config warning: h.json:{e}" for e in expected]


def test_lists_concatenate_in_file_order_and_last_audit_log_wins(tmp_path: Path) -> None:
    user = write(tmp_path / "user/hooks.json", """\
        {"audit_log": "user-audit.jsonl", "include_sub_agents": true, "timeout": 5,
         "hooks": {"PreToolUse": [{"command": "u1"}, {"command": "u2"}],
                   "Stop": [{"command": "s"}]}}
    """)  # fmt: skip
    project = write(tmp_path / "proj/.hookrun/hooks.json", """\
        {"audit_log": "logs/audit.jsonl",
         "hooks": {"pre_tool_use": [{"command": "p1"}]}}
    """)  # fmt: skip
    config = load([user, project], cwd=tmp_path / "proj")
    assert [h.command for h in config.for_event("PreToolUse")] == ["u1", "u2", "p1"]
    assert [h.command for h in config.for_event("Stop")] == ["s"]
    # file defaults stay with their file
    assert [h.include_sub_agents for h in config.for_event("PreToolUse")] == [True, True, False]
    assert [h.timeout for h in config.for_event("PreToolUse")] == [5.0, 5.0, 30.0]
    # relative to the project directory (the one holding .hookrun/), not to .hookrun/ itself
    assert config.audit_log == str(tmp_path / "proj/logs/audit.jsonl")
    assert load([user], cwd=tmp_path).audit_log == str(tmp_path / "user/user-audit.jsonl")


def test_per_hook_include_sub_agents_overrides_the_file_default(tmp_path: Path) -> None:
    write(tmp_path / "h.json", """\
        {"include_sub_agents": true,
         "hooks": {"Stop": [{"command": "a"}, {"command": "b", "include_sub_agents": false}]}}
    """)  # fmt: skip
    assert [h.include_sub_agents for h in load(["h.json"], cwd=tmp_path).for_event("Stop")] == [
        True,
        False,
    ]


def test_shell_mode_defaults_to_auto_and_a_hook_overrides_the_files_default(
    tmp_path: Path,
) -> None:
    write(tmp_path / "plain.json", '{"hooks": {"Stop": [{"command": "bash a.sh"}]}}')
    assert [h.shell for h in load(["plain.json"], cwd=tmp_path).for_event("Stop")] == ["auto"]
    write(tmp_path / "h.json", """\
        {"shell": "inprocess",
         "hooks": {"Stop": [{"command": "bash a.sh"}, {"command": "b", "shell": "auto"}]}}
    """)  # fmt: skip
    config = load(["h.json"], cwd=tmp_path)
    assert [h.shell for h in config.for_event("Stop")] == ["inprocess", "auto"]
    assert config.warnings == ()


def test_shell_on_a_builtin_hook_is_warned_as_ignored(tmp_path: Path) -> None:
    write(tmp_path / "h.json", """\
        {"hooks": {"PreToolUse": [{"builtin": "shell-guard", "shell": "inprocess"}]}}
    """)  # fmt: skip
    config = load(["h.json"], cwd=tmp_path)
    assert [str(w) for w in config.warnings] == [
        'config warning: h.json:1:54: hooks.PreToolUse[0].shell: "shell" is ignored: it says '
        'how a "command" runs, and a builtin runs none'
    ]
    assert config.for_event("PreToolUse")[0].shell == "auto"


def test_builtin_without_on_error_takes_the_policys_fail_mode(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "fake_policy_mod.py").write_text(textwrap.dedent("""\
        from typing import NamedTuple
        from hookrun.hooks.base import ALLOW, Policy
        class Opts(NamedTuple):
            pass
        POLICY = Policy(name="fake-closed", options=Opts,
                        decide=lambda payload, options, ctx: ALLOW)
    """))  # fmt: skip
    monkeypatch.syspath_prepend(str(tmp_path))
    fake = registry.Entry("fake-closed", "fake_policy_mod:POLICY", "s", "p", on_error="deny")
    missing = registry.Entry("fake-missing", "no_such_policy_module:POLICY", "s", "p")
    monkeypatch.setitem(registry.ENTRIES, "fake-closed", fake)
    monkeypatch.setitem(registry.ENTRIES, "fake-missing", missing)
    write(tmp_path / "h.json", """\
        {"hooks": {"PreToolUse": [
          {"builtin": "fake-closed"},
          {"builtin": "fake-closed", "on_error": "allow"},
          {"builtin": "fake-missing"}
        ]}}
    """)  # fmt: skip
    hooks = load(["h.json"], cwd=tmp_path).for_event("PreToolUse")
    assert [h.on_error for h in hooks] == ["deny", "allow", "allow"]


@pytest.mark.parametrize(
    ("command", "name"),
    [
        ("./hooks/no-rm.sh", "no-rm.sh"),
        ("/usr/local/bin/guard --strict", "guard"),
        ("python3 ./hooks/check.py", "python3"),
        ("FOO=1 BAR=2 ./x.sh", "x.sh"),
        ('"./my hooks/x.sh" arg', "x.sh"),
        ("C:\\hooks\\check.exe", "check.exe"),
        ('echo \'{"decision": "allow"}\'', "echo"),
        ("echo 'unbalanced", "echo"),
        ("~/bin/audit", "audit"),
        ("FOO=1", "FOO=1"),  # only an assignment: the whole command names it
    ],
)
def test_hook_name_defaults_to_the_basename_of_the_first_word(command: str, name: str) -> None:
    assert command_name(command) == name


@pytest.mark.parametrize(
    ("seconds", "hint"),
    [
        (5000, "timeout 5000 is in seconds — did you mean 5?"),
        (1500, "timeout 1500 is in seconds — did you mean 1.5?"),
        (60000, "timeout 60000 is in seconds — did you mean 60?"),
        (3601, "timeout 3601 is in seconds — did you mean 3.601?"),
        (1e10, "timeout 10000000000 is in seconds — did you mean 10000000?"),
    ],
)
def test_ms_hint_divides_by_a_thousand(seconds: float, hint: str) -> None:
    assert ms_hint(seconds) == hint


def test_config_is_immutable_and_source_keeps_the_path_as_given(tmp_path: Path) -> None:
    write(tmp_path / "sub/h.json", '{"hooks": {"Stop": [{"command": "a"}]}}')
    config = load([str(tmp_path / "sub/h.json")])
    (hook,) = config.for_event("Stop")
    assert hook.source == f"{tmp_path}/sub/h.json#Stop[0]"
    with pytest.raises(AttributeError):
        hook.timeout = 1  # type: ignore[misc]


def test_empty_object_and_no_paths_give_an_empty_config(tmp_path: Path) -> None:
    write(tmp_path / "h.json", "{}")
    assert load(["h.json"], cwd=tmp_path).hooks == {}
    assert load([], cwd=tmp_path).hooks == {}


def test_bom_and_crlf_are_tolerated(tmp_path: Path) -> None:
    (tmp_path / "h.json").write_bytes(
        b'\xef\xbb\xbf{\r\n  "hooks": {"Stop": [{"command": "a",}]},\r\n  "x": 1\r\n}'
    )
    config = load(["h.json"], cwd=tmp_path)
    assert [h.command for h in config.for_event("Stop")] == ["a"]
    assert [str(w) for w in config.warnings] == [
        'config warning: h.json:3:3: x: unknown key "x" is ignored'
    ]


def test_huge_file_of_five_megabytes_loads(tmp_path: Path) -> None:
    # Decision: no size limit. A plain-JSON file of any size takes the C parser's fast path;
    # 5 MB of hooks (50k entries) loads, in order, in a few seconds at most.
    entries = [
        {"name": f"h{i}", "matcher": f"^tool{i % 97}$", "command": f"./hooks/h{i}.sh --n {i}"}
        for i in range(50_000)
    ]
    text = json.dumps({"hooks": {"PreToolUse": entries}}, indent=2)
    assert len(text) > 5_000_000
    (tmp_path / "h.json").write_text(text)
    hooks = load(["h.json"], cwd=tmp_path).for_event("PreToolUse")
    assert len(hooks) == 50_000
    assert hooks[-1].source == "h.json#PreToolUse[49999]" and hooks[-1].name == "h49999"


def test_huge_jsonc_file_reports_an_error_at_its_exact_position(tmp_path: Path) -> None:
    lines = ['{"hooks": {"PreToolUse": [  // generated']
    lines += [f'  {{"command": "./h{i}.sh"}},' for i in range(60_000)]
    lines += ['  {"command": "./last.sh" "timeout": 5}', "]}}"]
    (tmp_path / "h.json").write_text("\n".join(lines))
    with pytest.raises(ConfigError) as info:
        load(["h.json"], cwd=tmp_path)
    assert str(info.value) == (
        'config error: h.json:60002:27: expected "," or "}" after the value of "command", got \'"\''
    )


def test_importing_hookrun_config_keeps_heavy_modules_off_the_start_up_path() -> None:
    heavy = ("pydantic", "pathlib", "difflib", "platformdirs", "typer", "tree_sitter")
    code = f"import sys, hookrun.config; print([m for m in {heavy!r} if m in sys.modules])"
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
    )
    assert out.stdout.strip() == "[]"


def test_timeouts_beyond_the_fast_path_still_load_through_the_models(tmp_path: Path) -> None:
    write(tmp_path / "h.json", """\
        {"timeout": 10000000000,
         "hooks": {"Stop": [{"command": "a", "timeout": 20000000000},
                            {"hooks": [{"command": "b", "timeout": 30000000000}]}]}}
    """)  # fmt: skip
    config = load(["h.json"], cwd=tmp_path)
    assert [h.timeout for h in config.for_event("Stop")] == [2e10, 3e10]
    assert [w.location for w in config.warnings] == ["1:13", "2:49", "3:60"]


def test_positions_degrade_to_json_paths_for_valid_json_nested_too_deep(tmp_path: Path) -> None:
    deep = "[" * 300 + "]" * 300
    write(tmp_path / "h.json", '{"deep": ' + deep + ', "hooks": {"Custom": []}}')
    config = load(["h.json"], cwd=tmp_path)
    assert [str(w) for w in config.warnings] == [
        'config warning: h.json: deep: unknown key "deep" is ignored',
        'config warning: h.json: hooks.Custom: custom event "Custom": hooks run only for a host '
        "that sends this exact event name",
    ]


def test_unreadable_path_is_an_error_with_the_reason(tmp_path: Path) -> None:
    write(tmp_path / "file.json", "{}")
    with pytest.raises(ConfigError) as info:
        load(["file.json/hooks.json"], cwd=tmp_path)
    assert (
        str(info.value)
        == "config error: file.json/hooks.json: cannot read the file: Not a directory"
    )


def test_relative_config_in_a_deleted_working_directory_is_reported_not_raised(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    gone = tmp_path / "gone"
    gone.mkdir()
    monkeypatch.chdir(gone)
    gone.rmdir()
    with pytest.raises(ConfigError) as info:
        load(["h.json"])
    assert [i.message.split(" (")[0] for i in info.value.issues] == ["file not found"]


def test_path_with_a_nul_byte_is_reported_not_raised(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as info:
        load(["h\0.json"], cwd=tmp_path)
    assert info.value.issues[0].message == "file not found (the path contains a NUL character)"


def test_lone_surrogates_in_names_do_not_make_messages_unprintable(tmp_path: Path) -> None:
    write(tmp_path / "h.json", '{"k\\ud800": 1, "hooks": {"Ev\\udfff": [{"command": "a"}]}}')
    warnings = [str(w) for w in load(["h.json"], cwd=tmp_path).warnings]
    assert warnings == [
        'config warning: h.json:1:2: ["k\\ud800"]: unknown key "k\\ud800" is ignored',
        'config warning: h.json:1:26: hooks["Ev\\udfff"]: custom event "Ev\\udfff": hooks run '
        "only for a host that sends this exact event name",
    ]
    for line in warnings:
        line.encode("utf-8")
