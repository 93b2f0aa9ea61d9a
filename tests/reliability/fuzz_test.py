"""Fuzzing: arbitrary bytes and JSON as hook stdout, as payload and as config never end in a
traceback — always a valid aggregated answer, or a clear error and exit 1.

In-process properties (``Runner.run``, ``config.load``) take 100 examples × scale; the ones
that start a ``python -m hookrun`` per example take 30 × scale (about 0.3 s each).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hookrun.config import ConfigError, load
from hookrun.runner import PayloadError, Runner
from tests.reliability.helpers import (
    assert_answer,
    assert_clean_failure,
    hookrun,
    hookrun_env,
    scaled,
)

IN_PROCESS = settings(
    max_examples=scaled(100, 5),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
SUBPROCESS = settings(
    max_examples=scaled(30, 3),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)
# Envelope-shaped objects: the real keys with values of any type, plus noise.
ENVELOPE_KEYS = [
    "version", "decision", "halt", "reason", "context", "context_files", "updated_input",
    "updated_prompt", "updated_output", "system_message", "continue", "stopReason",
    "hookSpecificOutput", "systemMessage", "permissionDecision", "additionalContext",
]  # fmt: skip
envelopes = st.dictionaries(
    st.sampled_from(ENVELOPE_KEYS) | st.text(max_size=8),
    json_values
    | st.sampled_from(["allow", "deny", "ask", "block", "approve", None])
    | st.dictionaries(st.sampled_from(["permissionDecision", "updatedInput"]), json_values),
    max_size=6,
)
hook_stdout = (
    st.binary(max_size=2048)
    | json_values.map(lambda v: json.dumps(v).encode())
    | envelopes.map(lambda v: json.dumps(v).encode())
    | st.text(max_size=200).map(lambda t: t.encode("utf-8", "surrogatepass"))
)


def _printer_runner(root: Path, out_file: Path, code_file: Path) -> Runner:
    """A runner whose hooks print ``out_file`` and exit with the code in ``code_file``."""
    (root / "hooks.json").write_text(
        json.dumps(
            {
                "hooks": {
                    "PreToolUse": [
                        {"name": "cat", "command": f"cat {out_file}; exit $(cat {code_file})"},
                        {"name": "py", "command": f'{sys.executable} -c "{PY_CAT}" {out_file}'},
                        {"name": "guard", "builtin": "shell-guard"},
                    ]
                }
            }
        )
    )  # fmt: skip
    return Runner.from_paths([root / "hooks.json"], cwd=root)


PY_CAT = "import sys; sys.stdout.buffer.write(open(sys.argv[1], 'rb').read())"


@IN_PROCESS
@given(out=hook_stdout, code=st.sampled_from([0, 0, 0, 1, 2, 49, 127]))
def test_any_hook_stdout_gives_a_valid_aggregated_answer(
    tmp_path: Path, out: bytes, code: int
) -> None:
    out_file, code_file = tmp_path / "out.bin", tmp_path / "code"
    out_file.write_bytes(out)
    code_file.write_text(str(code))
    runner = _printer_runner(tmp_path, out_file, code_file)
    result = runner.run("PreToolUse", {"tool_name": "bash", "tool_input": {"command": "ls"}})
    answer = result.to_dict()
    assert_answer(answer)
    assert [h["name"] for h in answer["hooks"]] == ["cat", "py", "guard"]
    assert answer["hooks"][0]["exit_code"] == code
    if code == 2:
        assert answer["decision"] == "deny"
    if code == 49:
        assert answer["halt"] is True


payloads = st.dictionaries(
    st.sampled_from(
        ["tool_name", "tool_input", "session_id", "cwd", "is_sub_agent", "prompt", "source",
         "hook_event_name", "event", "tool_output", "project_dir", "agent", "transcript_path"]
    )
    | st.text(max_size=8),
    json_values
    | st.sampled_from(["bash", "Bash", "Write", "Edit", "ask_user", "Read"])
    | st.dictionaries(st.sampled_from(["command", "file_path", "content", "path"]), json_values),
    max_size=6,
)  # fmt: skip


@IN_PROCESS
@given(payload=payloads | json_values, event=st.sampled_from(["PreToolUse", "PostToolUse"]))
def test_any_payload_through_runner_is_an_answer_or_a_payload_error(
    tmp_path: Path, payload: Any, event: str
) -> None:
    (tmp_path / "hooks.json").write_text(
        json.dumps(
            {
                "hooks": {
                    event: [
                        {"command": "echo '{\"context\": \"seen\"}'"},
                        {"builtin": "shell-guard"},
                        {"builtin": "write-guard"},
                        {"builtin": "pii-scrubber"} if event == "PostToolUse" else
                        {"builtin": "secret-guard"},
                    ]
                }
            }
        )
    )  # fmt: skip
    runner = Runner.from_paths([tmp_path / "hooks.json"], cwd=tmp_path)
    try:
        result = runner.run(event, payload)
    except PayloadError as exc:
        assert str(exc).strip()
        return
    assert_answer(result.to_dict(), event)


@SUBPROCESS
@given(
    stdin=st.binary(max_size=512)
    | payloads.map(lambda p: json.dumps(p).encode())
    | json_values.map(lambda v: json.dumps(v).encode())
)
def test_any_stdin_bytes_to_hookrun_run_is_an_answer_or_exit_1(
    tmp_path: Path, stdin: bytes
) -> None:
    root = tmp_path / "proj"
    (root / ".hookrun").mkdir(parents=True, exist_ok=True)
    (root / ".hookrun" / "hooks.json").write_text(
        json.dumps(
            {"hooks": {"PreToolUse": [{"command": "echo '{}'"}, {"builtin": "shell-guard"}]}}
        )
    )
    # hookrun's own envelope (a host's shape may be empty for "no opinion": the
    # every-format test below covers those).
    ran = hookrun(
        "run", "PreToolUse", "--host", "hookrun", cwd=root, stdin=stdin, env=hookrun_env(tmp_path)
    )
    assert "Traceback" not in ran.err, ran.err
    if ran.code == 1:
        assert_clean_failure(ran)
        assert ran.err.startswith("hookrun: "), ran.err
        return
    assert ran.code in (0, 2, 49), ran
    assert_answer(ran.json)


config_bytes = (
    st.binary(max_size=1024)
    | json_values.map(lambda v: json.dumps(v).encode())
    | st.dictionaries(
        st.sampled_from(["version", "timeout", "hooks", "audit_log", "include_sub_agents"]),
        json_values
        | st.dictionaries(
            st.sampled_from(["PreToolUse", "Stop", "bogus"]) | st.text(max_size=6),
            st.lists(
                st.dictionaries(
                    st.sampled_from(
                        ["command", "builtin", "matcher", "timeout", "on_error", "env", "with",
                         "name", "hooks", "type", "include_sub_agents"]
                    ),
                    json_values | st.sampled_from(["true", "shell-guard", "^bash$", "(", 5]),
                    max_size=4,
                ),
                max_size=3,
            ),
            max_size=2,
        ),
        max_size=4,
    ).map(lambda v: json.dumps(v).encode())
)  # fmt: skip


@IN_PROCESS
@given(data=config_bytes)
def test_any_config_bytes_load_or_raise_config_error(tmp_path: Path, data: bytes) -> None:
    (tmp_path / "hooks.json").write_bytes(data)
    try:
        load(["hooks.json"], cwd=tmp_path)
    except ConfigError as exc:
        assert exc.errors
        # split on "\n" only: U+0085 / U+2028 inside a quoted value are pinned separately
        for line in str(exc).split("\n"):
            assert line.startswith(("config error: hooks.json", "config warning: hooks.json")), line


@SUBPROCESS
@given(data=config_bytes)
def test_any_config_bytes_to_hookrun_check_and_run_exit_cleanly(
    tmp_path: Path, data: bytes
) -> None:
    root = tmp_path / "proj"
    root.mkdir(exist_ok=True)
    (root / "hooks.json").write_bytes(data)
    env = hookrun_env(tmp_path)
    checked = hookrun("check", "--config", "hooks.json", cwd=root, env=env)
    assert "Traceback" not in checked.err, checked.err
    assert checked.code in (0, 1), checked
    ran = hookrun(
        "run", "Stop", "--config", "hooks.json", cwd=root, stdin=b"{}", env=env, timeout=60
    )
    assert "Traceback" not in ran.err, ran.err
    if ran.code == 1:
        assert_clean_failure(ran)
    else:
        assert ran.code in (0, 2, 49), ran
        assert_answer(ran.json, "Stop")


@pytest.mark.parametrize(
    "data",
    [
        b"\xff\xfe{\x00}\x00",  # UTF-16 with BOM
        b"\xef\xbb\xbf{}",  # UTF-8 BOM
        b'{"hooks": {"PreToolUse": [{"command": "\xff"}]}}',
        b"{" * 100_000,  # nesting deeper than any recursive parser allows
        b"[" * 100_000,
        b'{"a": ' * 5000 + b"1" + b"}" * 5000,
        b"\x00" * 1000,
    ],
    ids=[
        "utf16",
        "utf8-bom",
        "non-utf8-command",
        "deep-objects",
        "deep-lists",
        "deep-valid",
        "nul",
    ],  # fmt: skip
)
def test_hostile_config_files_never_give_a_traceback(tmp_path: Path, data: bytes) -> None:
    root = tmp_path / "proj"
    root.mkdir()
    (root / "hooks.json").write_bytes(data)
    ran = hookrun("check", "--config", "hooks.json", cwd=root, env=hookrun_env(tmp_path))
    assert "Traceback" not in ran.err, ran.err
    assert ran.code in (0, 1), ran


@SUBPROCESS
@given(
    out=hook_stdout,
    code=st.sampled_from([0, 1, 2, 49]),
    fmt=st.sampled_from(["hookrun", "claude", "crush", "gemini", "codex", "copilot", "cursor"]),
    event=st.sampled_from(["PreToolUse", "UserPromptSubmit", "Stop", "PostToolUse"]),
)
def test_any_hook_stdout_through_the_cli_in_every_format_is_json_and_a_host_exit_code(
    tmp_path: Path, out: bytes, code: int, fmt: str, event: str
) -> None:
    root = tmp_path / "proj"
    (root / ".hookrun").mkdir(parents=True, exist_ok=True)
    (tmp_path / "out.bin").write_bytes(out)
    (root / ".hookrun" / "hooks.json").write_text(
        json.dumps({"hooks": {event: [{"command": f"cat {tmp_path / 'out.bin'}; exit {code}"}]}})
    )
    payload = {"tool_name": "bash", "tool_input": {"command": "ls"}, "prompt": "hi"}
    ran = hookrun(
        "run", event, "--format", fmt,
        cwd=root, stdin=json.dumps(payload).encode(), env=hookrun_env(tmp_path),
    )  # fmt: skip
    assert "Traceback" not in ran.err, ran.err
    assert ran.code in (0, 2, 49), ran
    if fmt not in ("hookrun", "crush"):
        assert ran.code != 49, "only hookrun and Crush know exit 49"
    if ran.out.strip():
        assert isinstance(json.loads(ran.out), dict), ran.out
    if fmt == "hookrun":
        assert_answer(ran.json, event)


@pytest.mark.parametrize(
    "char",
    ["\n", "\t", "\x01", "u\n", "u12\t"],
    ids=["newline", "tab", "soh", "u-newline", "u12-tab"],
)
def test_an_invalid_escape_of_a_control_character_is_one_printable_line(
    tmp_path: Path, char: str
) -> None:
    (tmp_path / "hooks.json").write_text('{"": "\\' + char + '"}', encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load(["hooks.json"], cwd=tmp_path)
    message = str(info.value)
    assert len(message.splitlines()) == 1, message
    assert message.isprintable(), repr(message)


@pytest.mark.parametrize("char", ["\\u0085", "\\u2028", "\\u009b"])
def test_a_quoted_config_value_with_a_c1_control_or_separator_is_one_printable_line(
    tmp_path: Path, char: str
) -> None:
    (tmp_path / "hooks.json").write_text('{"version": "a' + char + 'b"}', encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load(["hooks.json"], cwd=tmp_path)
    message = str(info.value)
    assert len(message.splitlines()) == 1, repr(message)
    assert message.isprintable(), repr(message)
