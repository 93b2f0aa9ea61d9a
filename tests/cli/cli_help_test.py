"""`--help` on every command answers the question, with examples, and exits 0."""

from __future__ import annotations

import pytest

from hookrun.cli import main as cli

COMMANDS = [
    [],
    ["run"],
    ["check"],
    ["list"],
    ["test"],
    ["install"],
    ["uninstall"],
    ["doctor"],
    ["replay"],
    ["schema"],
    ["policy"],
    ["policies"],
    ["lockout"],
    ["lockout", "add"],
    ["lockout", "clear"],
    ["lockout", "list"],
]
NAMES = {c[0] for c in COMMANDS if c}


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c) or "hookrun")
def test_every_command_has_help_with_an_example(
    command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main([*command, "--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"Usage: hookrun {' '.join(command)}".rstrip())
    assert "Example" in out
    for line in out.splitlines():
        if line.strip().startswith("hookrun ") and line.startswith("    "):
            assert line.split()[1] in NAMES


@pytest.mark.parametrize("group", [[], ["lockout"]])
def test_every_command_a_group_lists_is_asked_for_its_help_above(
    group: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main([*group, "--help"]) == 0
    listed = capsys.readouterr().out.split("Commands:", 1)[1].splitlines()
    names = [line.split()[0] for line in listed if line.startswith("  ") and line.strip()]
    assert names and all([*group, name] in COMMANDS for name in names), names


def test_replay_help_names_every_source_it_reads(capsys: pytest.CaptureFixture[str]) -> None:
    # --source-kind takes five kinds; the help named three (no Gemini, no Copilot).
    assert cli.main(["replay", "--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    for where in ("audit_payload", "~/.claude/", "~/.codex/", "~/.gemini/", "~/.copilot/"):
        assert where in out, where


@pytest.mark.parametrize("command", [[], ["lockout"]])
def test_a_group_without_a_subcommand_prints_its_help(
    command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(command) == 0
    assert "Commands:" in capsys.readouterr().out


def test_an_internal_error_is_one_line_not_a_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from hookrun.cli.commands import schema as cli_inspect

    def broken(streams: object) -> int:
        raise RuntimeError("boom")

    monkeypatch.setattr(cli_inspect, "schema_command", broken)
    monkeypatch.delenv("HOOKRUN_DEBUG", raising=False)
    assert cli.main(["schema"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("hookrun: internal error: RuntimeError: boom — this is a bug")
    assert "Traceback" not in err and len(err.splitlines()) == 1


def test_hookrun_debug_adds_the_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from hookrun.cli.commands import schema as cli_inspect

    def broken(streams: object) -> int:
        raise RuntimeError("boom")

    monkeypatch.setattr(cli_inspect, "schema_command", broken)
    monkeypatch.setenv("HOOKRUN_DEBUG", "1")
    assert cli.main(["schema"]) == 1
    assert "Traceback" in capsys.readouterr().err
