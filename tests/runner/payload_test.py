from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

from hookrun.runner import PayloadError
from hookrun.runner.payload import ENV_VALUE_LIMIT, prepare


def test_common_fields_are_filled_and_host_fields_kept(tmp_path: Path) -> None:
    raw = {
        "tool_name": "bash",
        "tool_input": {"command": "ls"},
        "session_id": "s1",
        "transcript_path": "/t",
        "hook_event_name": "pre_tool_use",
        "extra": {"nested": [1, 2]},
    }
    inp = prepare("PreToolUse", raw, cwd=str(tmp_path), project_dir=str(tmp_path))
    assert json.loads(inp.data) == {
        **raw,
        "event": "PreToolUse",
        "hook_event_name": "PreToolUse",
        "cwd": str(tmp_path),
        "project_dir": str(tmp_path),
        "is_sub_agent": False,
    }
    assert inp.payload == json.loads(inp.data)


def test_an_empty_payload_gets_the_common_fields_and_tool_events_get_a_tool_input(
    tmp_path: Path,
) -> None:
    inp = prepare("PreToolUse", None, cwd=str(tmp_path), project_dir=str(tmp_path))
    assert inp.payload == {
        "event": "PreToolUse",
        "hook_event_name": "PreToolUse",
        "session_id": "",
        "cwd": str(tmp_path),
        "project_dir": str(tmp_path),
        "is_sub_agent": False,
        "tool_input": {},
    }
    stop = prepare("Stop", {}, cwd=str(tmp_path), project_dir=str(tmp_path))
    assert "tool_input" not in stop.payload


def test_payload_cwd_wins_and_relative_cwd_is_taken_against_the_runners(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    inp = prepare("Stop", {"cwd": "sub"}, cwd=str(tmp_path), project_dir=str(tmp_path))
    assert inp.cwd == str(tmp_path / "sub")
    assert inp.payload["cwd"] == str(tmp_path / "sub")
    assert inp.project_dir == str(tmp_path)


def test_other_hosts_spellings_of_tool_fields_are_understood(tmp_path: Path) -> None:
    raw = {"toolName": "edit", "arguments": {"path": "a.py"}, "sessionId": "S"}
    inp = prepare("PreToolUse", raw, cwd=str(tmp_path), project_dir=str(tmp_path))
    assert (inp.tool_name, inp.session_id) == ("edit", "S")
    assert inp.payload["tool_name"] == "edit"
    assert inp.payload["tool_input"] == {"path": "a.py"}
    assert inp.env["HOOKRUN_TOOL_INPUT_FILE_PATH"] == "a.py"


def test_tool_input_may_be_a_json_string_of_an_object(tmp_path: Path) -> None:
    raw = {"tool_name": "bash", "tool_input": '{"command": "ls"}'}
    inp = prepare("PreToolUse", raw, cwd=str(tmp_path), project_dir=str(tmp_path))
    assert inp.payload["tool_input"] == {"command": "ls"}


def test_env_has_hookrun_crush_and_claude_names(tmp_path: Path) -> None:
    raw = {
        "tool_name": "bash",
        "tool_input": {"command": "rm -rf /", "file_path": "x.txt"},
        "session_id": "s1",
        "is_sub_agent": True,
    }
    inp = prepare("PreToolUse", raw, cwd=str(tmp_path), project_dir="/proj")
    values = {
        "EVENT": "PreToolUse",
        "TOOL_NAME": "bash",
        "SESSION_ID": "s1",
        "CWD": str(tmp_path),
        "PROJECT_DIR": os.path.abspath("/proj"),
        "TOOL_INPUT_COMMAND": "rm -rf /",
        "TOOL_INPUT_FILE_PATH": "x.txt",
    }
    expected = {"HOOKRUN": "1", "HOOKRUN_IS_SUB_AGENT": "true"}
    for key, value in values.items():
        expected[f"HOOKRUN_{key}"] = value
        expected[f"CRUSH_{key}"] = value
    expected["CLAUDE_PROJECT_DIR"] = os.path.abspath("/proj")
    expected["HOOKRUN_ENV_TRUNCATED"] = ""
    env = dict(inp.env)
    assert re.fullmatch("[0-9a-f]{16}", env.pop("HOOKRUN_RUN_ID"))
    assert env == expected


def test_each_run_gets_its_own_run_id(tmp_path: Path) -> None:
    ids = {
        prepare("Stop", {}, cwd=str(tmp_path), project_dir=".").env["HOOKRUN_RUN_ID"]
        for _ in range(20)
    }
    assert len(ids) == 20


def test_env_values_are_cut_at_the_documented_limit_and_named(tmp_path: Path) -> None:
    command = "rm -rf / #" + "x" * 200_000
    raw = {"tool_name": "bash", "tool_input": {"command": command, "file_path": "a.txt"}}
    inp = prepare("PreToolUse", raw, cwd=str(tmp_path), project_dir=str(tmp_path))
    assert inp.env["HOOKRUN_TOOL_INPUT_COMMAND"] == command[:ENV_VALUE_LIMIT]
    assert inp.env["CRUSH_TOOL_INPUT_COMMAND"] == command[:ENV_VALUE_LIMIT]
    assert inp.env["HOOKRUN_ENV_TRUNCATED"] == "HOOKRUN_TOOL_INPUT_COMMAND"
    assert json.loads(inp.data)["tool_input"]["command"] == command  # stdin keeps it all


def test_env_values_never_carry_a_nul_byte(tmp_path: Path) -> None:
    raw = {"tool_name": "b\0ash", "tool_input": {"command": "a\0b"}}
    inp = prepare("PreToolUse", raw, cwd=str(tmp_path), project_dir=str(tmp_path))
    assert inp.env["HOOKRUN_TOOL_NAME"] == "bash"
    assert inp.env["CRUSH_TOOL_INPUT_COMMAND"] == "ab"


def test_unknown_env_values_are_empty_not_inherited(tmp_path: Path) -> None:
    inp = prepare("Stop", {}, cwd=str(tmp_path), project_dir=str(tmp_path))
    assert inp.env["HOOKRUN_TOOL_NAME"] == ""
    assert inp.env["CRUSH_TOOL_INPUT_COMMAND"] == ""
    assert inp.env["HOOKRUN_IS_SUB_AGENT"] == "false"


def test_a_lone_surrogate_is_escaped_so_the_stdin_is_valid_utf8(tmp_path: Path) -> None:
    inp = prepare("UserPromptSubmit", {"prompt": "a\ud800b"}, cwd=str(tmp_path), project_dir=".")
    assert json.loads(inp.data.decode("utf-8"))["prompt"] == "a\ud800b"


def test_non_ascii_is_sent_as_utf8(tmp_path: Path) -> None:
    inp = prepare("UserPromptSubmit", {"prompt": "héllo ✓"}, cwd=str(tmp_path), project_dir=".")
    assert "héllo ✓".encode() in inp.data


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (
            [1, 2],
            'payload must be a JSON object, got an array: send e.g. {"tool_name": "bash", "tool_input": {"command": "ls"}}',  # noqa: E501
        ),
        ("text", "payload must be a JSON object, got a string"),
        ({"cwd": "/no/such/dir/x"}, 'payload field "cwd": directory /no/such/dir/x does not exist'),
        (
            {"x": object()},
            "payload cannot be encoded as JSON: Object of type object is not JSON serializable",
        ),
    ],
)
def test_broken_payloads_are_refused_with_a_clear_message(
    tmp_path: Path, raw: Any, message: str
) -> None:
    with pytest.raises(PayloadError) as info:
        prepare("PreToolUse", raw, cwd=str(tmp_path), project_dir=str(tmp_path))
    assert str(info.value).startswith(message)


@pytest.mark.parametrize(
    ("raw", "unreadable"),
    [
        ({"tool_name": 5}, ("tool_name",)),
        ({"tool_input": [1]}, ("tool_input",)),
        ({"tool_input": "ls -la"}, ("tool_input",)),
        ({"tool_input": "[" * 100_000 + "]" * 100_000}, ("tool_input",)),  # too deep to decode
        ({"session_id": {"a": 1}}, ("session_id",)),
        ({"is_sub_agent": "yes"}, ("is_sub_agent",)),
        ({"prompt": 1}, ("prompt",)),
        ({"cwd": True, "project_dir": []}, ("cwd", "project_dir")),
        ({"source": 1.5, "trigger": {}}, ("source", "trigger")),
    ],
)
def test_wrong_typed_common_fields_count_as_absent_and_are_named(
    tmp_path: Path, raw: dict[str, Any], unreadable: tuple[str, ...]
) -> None:
    inp = prepare("PreToolUse", raw, cwd=str(tmp_path), project_dir=str(tmp_path))
    assert inp.unreadable == unreadable
    assert (inp.session_id, inp.tool_name, inp.tool_input, inp.is_sub_agent) == (
        "",
        None,
        None,
        False,
    )
    assert (inp.cwd, inp.project_dir) == (str(tmp_path), str(tmp_path))
    assert inp.env["HOOKRUN_TOOL_NAME"] == inp.env["HOOKRUN_TOOL_INPUT_COMMAND"] == ""
    # What the runner does not fill in itself reaches the hooks as the host sent it.
    sent = json.loads(inp.data)
    for key in set(raw) - {"cwd", "project_dir", "session_id", "is_sub_agent"}:
        assert sent[key] == raw[key]


def test_null_common_fields_count_as_absent(tmp_path: Path) -> None:
    raw = {"session_id": None, "tool_name": None, "is_sub_agent": None, "cwd": None}
    inp = prepare("PreToolUse", raw, cwd=str(tmp_path), project_dir=str(tmp_path))
    assert (inp.session_id, inp.tool_name, inp.is_sub_agent, inp.cwd) == (
        "",
        None,
        False,
        str(tmp_path),
    )


def test_a_lone_surrogate_in_an_env_value_is_replaced_not_fatal(tmp_path: Path) -> None:
    inp = prepare("PreToolUse", {"tool_name": "b\ud800"}, cwd=str(tmp_path), project_dir=".")
    assert inp.env["HOOKRUN_TOOL_NAME"] == "b?"
    os.environ.copy().update(inp.env)  # acceptable to the OS layer


def test_a_cwd_that_is_a_file_is_named_as_not_a_directory(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("a file")
    with pytest.raises(PayloadError) as info:
        prepare("PreToolUse", {"cwd": "notes.txt"}, cwd=str(tmp_path), project_dir=str(tmp_path))
    message = str(info.value)
    assert message.startswith(f'payload field "cwd": {tmp_path / "notes.txt"} is not a directory')
    assert "does not exist" not in message


def _deep_list(depth: int) -> Any:
    value: Any = []
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ({"tool_input": {"x": _deep_list(5000)}}, '"x": ' + "[" * 5001),
        (
            {"tool_input": {"x": float("inf"), "y": float("-inf"), "z": float("nan")}},
            '"x": null, "y": null, "z": null',
        ),
    ],
    ids=["deep", "non-finite-number"],
)
def test_a_payload_the_stdlib_cannot_encode_reaches_hooks_as_json_every_reader_takes(
    tmp_path: Path, raw: Any, expected: str
) -> None:
    inp = prepare("PreToolUse", raw, cwd=str(tmp_path), project_dir=str(tmp_path))
    text = inp.data.decode("utf-8")
    assert expected in text
