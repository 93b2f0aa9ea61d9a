"""The typer-free reader of `hookrun run`: same options as typer's, or it steps aside."""

from __future__ import annotations

import pytest

from hookrun import cli, cli_fast, cli_run
from hookrun.cli_payload import PayloadFlags
from hookrun.cli_run import RunOptions, Streams

PLAIN_LINES = [
    ["PreToolUse"],
    ["PreToolUse", "--tool", "bash", "--input", '{"command": "ls"}'],
    ["--tool=bash", "PreToolUse", "--input={}"],
    ["PreToolUse", "--config", "a.json", "--config=b.json", "--config", "c.json"],
    ["PreToolUse", "--format", "claude", "--trace", "--sub-agent"],
    ["pre_tool_use", "--format=crush"],
    ["UserPromptSubmit", "--prompt", "-x starts with a dash"],
    ["UserPromptSubmit", "--prompt="],
    ["Stop", "--session-id", "s1", "--session-id", "s2"],
    ["SessionStart", "--cwd", "/tmp", "--session-id", "=odd"],
    ["-"],
]


def _capture(monkeypatch: pytest.MonkeyPatch) -> list[RunOptions]:
    seen: list[RunOptions] = []

    def fake_run_command(opts: RunOptions, streams: Streams) -> int:
        seen.append(opts)
        return 0

    monkeypatch.setattr(cli_run, "run_command", fake_run_command)
    return seen


@pytest.mark.parametrize("argv", PLAIN_LINES)
def test_fast_reader_and_typer_read_a_run_line_the_same(
    argv: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    seen = _capture(monkeypatch)
    assert cli_fast.parse_run(argv) is not None
    assert cli.main(["run", *argv]) == 0
    monkeypatch.setattr(cli_fast, "parse_run", lambda argv: None)  # force typer
    assert cli.main(["run", *argv]) == 0
    fast, slow = seen
    assert fast == slow


def test_fast_reader_fills_every_field() -> None:
    argv = [
        "PreToolUse", "--tool", "bash", "--input", "{}", "--prompt", "p", "--session-id", "s",
        "--cwd", "/w", "--sub-agent", "--config", "a", "--config", "b", "--format", "claude",
        "--trace",
    ]  # fmt: skip
    assert cli_fast.parse_run(argv) == RunOptions(
        event="PreToolUse",
        flags=PayloadFlags(
            tool="bash", tool_input="{}", prompt="p", session_id="s", cwd="/w", sub_agent=True
        ),
        configs=("a", "b"),
        format="claude",
        trace=True,
    )


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["--help"],
        ["PreToolUse", "--help"],
        ["PreToolUse", "-h"],
        ["PreToolUse", "-c", "a.json"],
        ["PreToolUse", "--bogus"],
        ["PreToolUse", "--tool"],
        ["PreToolUse", "Extra"],
        ["PreToolUse", "--format", "xml"],
        ["PreToolUse", "--trace=1"],
        ["--", "PreToolUse"],
    ],
)
def test_fast_reader_leaves_anything_unusual_to_typer(argv: list[str]) -> None:
    assert cli_fast.parse_run(argv) is None
