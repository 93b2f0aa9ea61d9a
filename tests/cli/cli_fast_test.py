"""The typer-free reader of `hookrun run` / `hookrun policy`: typer's reading, or it steps aside."""

from __future__ import annotations

import pytest

from hookrun.cli import grammar
from hookrun.cli import grammar as cli_fast
from hookrun.cli import main as cli
from hookrun.cli.commands import policy as cli_policy
from hookrun.cli.commands import run as cli_run
from hookrun.cli.commands.policy import PolicyOptions
from hookrun.cli.commands.run import RunOptions, Streams
from hookrun.cli.payload import PayloadFlags

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
    ["PreToolUse", "--tool", "--trace"],  # an option's value may look like an option
    ["PreToolUse", '--input={"a": "b=c"}'],
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


POLICY_LINES = [
    ["shell-guard"],
    ["shell-guard", "--tool", "Bash", "--input", '{"command": "ls"}', "--format=claude"],
    ["--with", "a=1", "write-guard", "--with=b=[2]", "--with-json", '{"c": 3}'],
    ["ask-user-limit", "--event", "PostToolUse", "--trace", "--sub-agent", "--cwd", "/w"],
    ["phase-gate", "--event=pre_tool_use", "--event", "PreToolUse", "--session-id", "s"],
]


@pytest.mark.parametrize("argv", POLICY_LINES)
def test_fast_reader_and_typer_read_a_policy_line_the_same(
    argv: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[PolicyOptions] = []

    def fake_policy_command(opts: PolicyOptions, streams: Streams) -> int:
        seen.append(opts)
        return 0

    monkeypatch.setattr(cli_policy, "policy_command", fake_policy_command)
    assert cli_fast.parse_policy(argv) is not None
    assert cli.main(["policy", *argv]) == 0
    monkeypatch.setattr(cli_fast, "parse_policy", lambda argv: None)  # force typer
    assert cli.main(["policy", *argv]) == 0
    fast, slow = seen
    assert fast == slow


def test_fast_policy_reader_keeps_with_options_in_order() -> None:
    opts = cli_fast.parse_policy(["x", "--with", "a=1", "--with", "b=2", "--with-json", "{}"])
    assert opts == PolicyOptions(name="x", with_pairs=("a=1", "b=2"), with_json="{}")


@pytest.mark.parametrize(
    "argv",
    [[], ["--help"], ["x", "--config", "c.json"], ["x", "y"], ["x", "--with"], ["x", "-h"]],
)
def test_fast_policy_reader_leaves_anything_unusual_to_typer(argv: list[str]) -> None:
    assert cli_fast.parse_policy(argv) is None


@pytest.mark.parametrize(("command", "opts"), [("run", grammar.RUN), ("policy", grammar.POLICY)])
def test_the_typer_command_takes_exactly_the_options_of_the_grammar(
    command: str, opts: tuple[grammar.Opt, ...]
) -> None:
    """The fast path reads grammar.RUN/POLICY; typer's command must declare the same."""
    import typer

    from hookrun.cli.app import app

    group = typer.main.get_command(app)
    params = group.commands[command].params  # type: ignore[attr-defined]
    declared = {p.name: tuple(p.opts) for p in params if p.param_type_name == "option"}
    assert declared == {o.key: o.names for o in opts}
