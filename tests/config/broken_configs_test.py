"""The broken-config corpus: each config with the exact messages and locations it gets.

Every case is a file a person could really write. The expectation is the whole
``str(ConfigError)`` (all issues, one per line, in position order), so a message
that loses its line:column, its JSON path or its "what was expected" fails here.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hookrun.config import ConfigError, load

E = "config error: hooks.json:"

CASES: list[tuple[str, str | bytes, list[str]]] = [
    # -- not JSON at all ---------------------------------------------------------------
    ("empty file", "", [E + "1:1: empty file: expected a JSON object"]),
    (
        "only comments",
        "// nothing yet\n/* later */\n",
        [E + "3:1: empty file: expected a JSON object"],
    ),
    ("top level is a list", "[]", [E + "1:1: expected a JSON object at the top level, got a list"]),
    (
        "top level is a string",
        '  "hooks"',
        [E + '1:3: expected a JSON object at the top level, got string "hooks"'],
    ),
    (
        "missing comma between members",
        '{\n  "version": 1\n  "hooks": {}\n}',
        [E + '3:3: expected "," or "}" after the value of "version", got \'"\''],
    ),
    (
        "missing colon",
        '{"hooks" {}}',
        [E + '1:10: expected ":" after property name "hooks", got "{"'],
    ),
    (
        "object never closed",
        '{\n  "hooks": {}\n',
        [
            E + '3:1: expected "," or "}" after the value of "hooks", got end of file '
            "(the object opened at 1:1 is never closed)"
        ],
    ),
    (
        "list never closed",
        '{"hooks": {"PreToolUse": [\n  {"command": "a"}\n}}',
        [E + '3:1: expected "," or "]" after an array element, got "}"'],
    ),
    (
        "single-quoted string",
        "{\"hooks\": {\"PreToolUse\": [{'command': 'x'}]}}",
        [
            E + '1:28: expected a property name in double quotes or "}", got "\'": '
            "strings need double quotes"
        ],
    ),
    (
        "unquoted key",
        "{\n  hooks: {}\n}",
        [E + '2:3: expected a property name in double quotes or "}", got "hooks"'],
    ),
    (
        "unterminated string",
        '{\n  "hooks": {"PreToolUse": [{"command": "echo hi}]}\n}',
        [E + "2:40: unterminated string: add the closing double quote"],
    ),
    (
        "unterminated block comment",
        '{\n  /* hooks go here\n  "hooks": {}\n}',
        [E + "2:3: unterminated /* comment: add */"],
    ),
    (
        "invalid escape in a string",
        '{"hooks": {"PreToolUse": [{"command": "C:\\hooks\\x.exe"}]}}',
        [E + '1:42: invalid escape "\\h" in string (a backslash is written "\\\\")'],
    ),
    (
        "raw tab inside a string",
        '{"hooks": {"PreToolUse": [{"command": "echo\tx"}]}}',
        [E + "1:44: control character U+0009 in string: write it escaped"],
    ),
    (
        "NaN is not JSON",
        '{\n  "timeout": NaN\n}',
        [E + '2:14: expected a value, got "NaN"'],
    ),
    (
        "two top-level objects",
        "{}\n{}",
        [E + '2:1: unexpected "{" after the end of the top-level value'],
    ),
    (
        "missing comma between hooks",
        '{"hooks": {"PreToolUse": [\n  {"command": "a"}\n  {"command": "b"}\n]}}',
        [E + '3:3: expected "," or "]" after an array element, got "{"'],
    ),
    (
        "Python literal",
        '{"include_sub_agents": True}',
        [E + '1:24: expected a value, got "True"'],
    ),
    (
        "leading comma",
        '{"hooks": {"PreToolUse": [, {"command": "a"}]}}',
        [E + '1:27: expected a value, got ","'],
    ),
    (
        "nesting too deep",
        '{"hooks": {"X": [{"with": ' + "[" * 100_000 + "]" * 100_000 + "}]}}",
        [E + "1:223: nested more than 200 levels deep"],
    ),
    # -- bytes ---------------------------------------------------------------------------
    (
        "Latin-1 byte in a command",
        b'{\n  "hooks": {"PreToolUse": [{"command": "echo caf\xe9"}]}\n}',
        [E + "2:49: invalid UTF-8 byte 0xe9: save the file as UTF-8"],
    ),
    (
        "UTF-16 file",
        '{"hooks": {}}'.encode("utf-16"),
        [E + "1:1: invalid UTF-8 byte 0xff: save the file as UTF-8"],
    ),
    # -- duplicate keys -------------------------------------------------------------------
    (
        "duplicate top-level key",
        '{\n  "timeout": 10,\n  "hooks": {},\n  "timeout": 20\n}',
        [E + '4:3: timeout: duplicate key "timeout" (first at 2:3)'],
    ),
    (
        "duplicate key inside a hook",
        '{"hooks": {"PreToolUse": [\n  {"command": "a",\n   "command": "b"}\n]}}',
        [E + '3:4: hooks.PreToolUse[0].command: duplicate key "command" (first at 2:4)'],
    ),
    # -- wrong shapes and types ----------------------------------------------------------------
    (
        "hooks is a list",
        '{"hooks": [{"command": "a"}]}',
        [E + "1:11: hooks: expected an object mapping event names to lists of hooks, got a list"],
    ),
    (
        "event holds one hook, not a list",
        '{"hooks": {"PreToolUse": {"command": "a"}}}',
        [E + "1:26: hooks.PreToolUse: expected a list of hooks, got an object"],
    ),
    (
        "hook is a string",
        '{"hooks": {"PreToolUse": ["./hook.sh"]}}',
        [E + '1:27: hooks.PreToolUse[0]: expected a hook object, got string "./hook.sh"'],
    ),
    (
        "command is a list",
        '{"hooks": {"PreToolUse": [{"command": ["./hook.sh", "-v"]}]}}',
        [E + "1:39: hooks.PreToolUse[0].command: expected a string, got a list"],
    ),
    (
        "timeout as a string",
        '{"hooks": {"PreToolUse": [{"command": "a", "timeout": "10"}]}}',
        [E + '1:55: hooks.PreToolUse[0].timeout: expected a number, got string "10"'],
    ),
    (
        "negative timeout",
        '{"hooks": {"PreToolUse": [{"command": "a", "timeout": -1}]}}',
        [
            E + "1:55: hooks.PreToolUse[0].timeout: expected a positive number of seconds, "
            "got number -1"
        ],
    ),
    (
        "zero default timeout",
        '{\n  "timeout": 0\n}',
        [E + "2:14: timeout: expected a positive number of seconds, got number 0"],
    ),
    (
        "timeout too big to be a number",
        '{"timeout": 1e999}',
        [E + "1:13: timeout: expected a positive number of seconds, got number Infinity"],
    ),
    (
        "include_sub_agents as a string",
        '{"include_sub_agents": "yes"}',
        [E + '1:24: include_sub_agents: expected true or false, got string "yes"'],
    ),
    (
        "include_sub_agents as 1",
        '{"hooks": {"PreToolUse": [{"command": "a", "include_sub_agents": 1}]}}',
        [E + "1:66: hooks.PreToolUse[0].include_sub_agents: expected true or false, got number 1"],
    ),
    (
        "unknown on_error",
        '{"hooks": {"PreToolUse": [{"command": "a", "on_error": "block"}]}}',
        [E + '1:56: hooks.PreToolUse[0].on_error: expected "allow" or "deny", got string "block"'],
    ),
    (
        "unknown shell",
        '{"hooks": {"PreToolUse": [{"command": "a", "shell": "bash"}]}}',
        [E + '1:53: hooks.PreToolUse[0].shell: expected "auto" or "inprocess", got string "bash"'],
    ),
    (
        "file-level shell of the wrong type",
        '{"shell": true, "hooks": {}}',
        [E + '1:11: shell: expected "auto" or "inprocess", got true'],
    ),
    (
        "env value is a number",
        '{"hooks": {"PreToolUse": [{"command": "a", "env": {"DEBUG": 1}}]}}',
        [E + "1:61: hooks.PreToolUse[0].env.DEBUG: expected a string, got number 1"],
    ),
    (
        "unsupported version",
        '{"version": 2}',
        [E + "1:13: version: expected 1, got number 2"],
    ),
    (
        "with is a list",
        '{"hooks": {"PreToolUse": [{"builtin": "write-guard", "with": ["src/"]}]}}',
        [E + "1:62: hooks.PreToolUse[0].with: expected an object, got a list"],
    ),
    (
        "audit_log is true",
        '{"audit_log": true}',
        [E + "1:15: audit_log: expected a string, got true"],
    ),
    (
        "empty audit_log",
        '{"audit_log": ""}',
        [E + '1:15: audit_log: empty "audit_log": give a file path, or leave it out'],
    ),
    (
        "matcher is a list",
        '{"hooks": {"PreToolUse": [{"matcher": ["bash"], "command": "a"}]}}',
        [E + "1:39: hooks.PreToolUse[0].matcher: expected a string, got a list"],
    ),
    # -- meaning -------------------------------------------------------------------------------
    (
        "invalid regex",
        '{\n  "hooks": {\n    "PreToolUse": [\n      {"matcher": "(bash", "command": "a"}\n'
        "    ]\n  }\n}",
        [
            E + '4:19: hooks.PreToolUse[0].matcher: invalid regex "(bash" — missing ), '
            "unterminated subpattern at position 0"
        ],
    ),
    (
        "invalid regex in a Claude matcher",
        '{"hooks": {"PreToolUse": [{"matcher": "mcp__(.*", "hooks": [{"type": "command", '
        '"command": "a"}]}]}}',
        [
            E + '1:39: hooks.PreToolUse[0].matcher: invalid regex "mcp__(.*" — missing ), '
            "unterminated subpattern at position 5"
        ],
    ),
    (
        "bad quantifier",
        '{"hooks": {"PreToolUse": [{"matcher": "*bash", "command": "a"}]}}',
        [
            E + '1:39: hooks.PreToolUse[0].matcher: invalid regex "*bash" — nothing to repeat '
            "at position 0"
        ],
    ),
    (
        "both command and builtin",
        '{"hooks": {"PreToolUse": [{"command": "a", "builtin": "write-guard"}]}}',
        [E + '1:27: hooks.PreToolUse[0]: hook has both "command" and "builtin": keep one'],
    ),
    (
        "neither command nor builtin",
        '{"hooks": {"PreToolUse": [{"name": "guard", "matcher": "^bash$"}]}}',
        [E + '1:27: hooks.PreToolUse[0]: hook needs "command" or "builtin"'],
    ),
    (
        "empty command",
        '{"hooks": {"PreToolUse": [{"command": "  "}]}}',
        [E + '1:39: hooks.PreToolUse[0].command: empty "command": give a shell command to run'],
    ),
    (
        "unknown builtin",
        '{"hooks": {"PreToolUse": [{"builtin": "write-gaurd"}]}}',
        [
            E + '1:39: hooks.PreToolUse[0].builtin: unknown builtin "write-gaurd" — did you mean '
            '"write-guard"? (`hookrun policies` lists them)'
        ],
    ),
    (
        "empty event name",
        '{"hooks": {"": [{"command": "a"}]}}',
        [E + '1:12: hooks[""]: empty event name: use an event such as "PreToolUse"'],
    ),
    (
        "Claude entry whose hooks is an object",
        '{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": {"type": "command"}}]}}',
        [E + "1:56: hooks.PreToolUse[0].hooks: expected a list, got an object"],
    ),
    (
        "Claude inner hook with a negative timeout",
        '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "a", "timeout": -5}]}]}}',
        [
            E + "1:79: hooks.Stop[0].hooks[0].timeout: expected a positive number of seconds, "
            "got number -5"
        ],
    ),
    (
        "Claude inner hook written as a bare string",
        '{"hooks": {"Stop": [{"hooks": ["./stop.sh"]}]}}',
        [E + '1:32: hooks.Stop[0].hooks[0]: expected an object, got string "./stop.sh"'],
    ),
    (
        "regex repetition too large",
        '{"hooks": {"PreToolUse": [{"matcher": "a{4294967296}", "command": "a"}]}}',
        [
            E + '1:39: hooks.PreToolUse[0].matcher: invalid regex "a{4294967296}" — too large '
            "or too deeply nested"
        ],
    ),
    (
        "Claude inner hook without a command",
        '{"hooks": {"Stop": [{"hooks": [{"type": "command"}]}]}}',
        [E + '1:32: hooks.Stop[0].hooks[0]: hook needs "command" or "builtin"'],
    ),
    (
        "several mistakes, reported together in file order",
        '{\n  "timeout": "30",\n  "hooks": {\n    "PreToolUse": [\n'
        '      {"matcher": "[", "command": "a"},\n      {"on_error": "deny"}\n    ]\n  }\n}',
        [
            E + '2:14: timeout: expected a number, got string "30"',
            E + '5:19: hooks.PreToolUse[0].matcher: invalid regex "[" — unterminated character '
            "set at position 0",
            E + '6:7: hooks.PreToolUse[1]: hook needs "command" or "builtin"',
        ],
    ),
    (
        "an error and a warning together",
        '{\n  "timout": 10,\n  "hooks": {"PreToolUse": [{"command": "a", "timeout": 0}]}\n}',
        [
            'config warning: hooks.json:2:3: timout: unknown key "timout" is ignored — did you '
            'mean "timeout"?',
            E + "3:56: hooks.PreToolUse[0].timeout: expected a positive number of seconds, "
            "got number 0",
        ],
    ),
]


@pytest.mark.parametrize(
    ("text", "expected"), [case[1:] for case in CASES], ids=[case[0] for case in CASES]
)
def test_broken_config_reports_exact_message_and_location(
    tmp_path: Path, text: str | bytes, expected: list[str]
) -> None:
    path = tmp_path / "hooks.json"
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load(["hooks.json"], cwd=tmp_path)
    assert str(info.value).splitlines() == expected
    assert info.value.errors, "a ConfigError always holds at least one error"


def test_corpus_has_at_least_forty_broken_configs() -> None:
    assert len(CASES) >= 40
    assert len({case[0] for case in CASES}) == len(CASES)


def test_missing_file_is_an_error_naming_where_it_looked(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as info:
        load(["nope/hooks.json"], cwd=tmp_path)
    assert str(info.value) == (
        f"config error: nope/hooks.json: file not found (looked for {tmp_path}/nope/hooks.json)"
    )


def test_directory_given_as_config_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "conf").mkdir()
    with pytest.raises(ConfigError) as info:
        load(["conf"], cwd=tmp_path)
    assert str(info.value) == "config error: conf: is a directory: expected a JSON config file"


def test_errors_from_several_files_are_all_reported_in_file_order(tmp_path: Path) -> None:
    (tmp_path / "a.json").write_text('{"timeout": -1}')
    (tmp_path / "b.json").write_text('{"hooks": []}')
    with pytest.raises(ConfigError) as info:
        load(["a.json", "b.json"], cwd=tmp_path)
    assert str(info.value).splitlines() == [
        "config error: a.json:1:13: timeout: expected a positive number of seconds, got number -1",
        "config error: b.json:1:11: hooks: expected an object mapping event names to lists of "
        "hooks, got a list",
    ]
