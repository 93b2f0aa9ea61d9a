"""hookrun inside the real Gemini CLI: each scenario, and its positive control.

Gemini CLI's ``BeforeTool``, ``AfterTool`` and ``BeforeAgent`` are wired to
``hookrun run <Event> --host gemini``; the fake model calls ``run_shell_command`` once,
then answers. The control run (every hook a pass-through recorder) shows that each
effect the scenarios prevent really happens without them. All runs of the module are
played up front, a few at a time; each test reads its run's outcome.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e import gemini_host
from tests.e2e.scenarios import (
    CONTEXT_AFTER_TOOL,
    CONTEXT_ON_PROMPT,
    FINAL_TEXT,
    HUNG_RUN_LIMIT,
    REDACTED,
    SECRET,
    Outcome,
    play_all,
)

pytestmark = [pytest.mark.nocov, pytest.mark.timeout(960)]

AWAITING_HOST = pytest.mark.xfail(
    strict=True, reason="issue 10: awaiting `hookrun run <GeminiEvent> --host gemini` (i10-hosts)"
)
NAMES = ("control", "deny", "allow", "rewrite", "context", "redact", "halt", "hang")


@pytest.fixture(scope="module")
def runs(
    host_programs: dict[str, Path], hookrun_exe: Path, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, Outcome]:
    host = gemini_host.host(host_programs["gemini"])
    return play_all(host, hookrun_exe, NAMES, tmp_path_factory.mktemp("gemini"))


# -- positive control: with pass-through hooks behind hookrun, every effect happens -------


@AWAITING_HOST
def test_control_hookrun_runs_the_config_and_the_turn_finishes(runs: dict[str, Outcome]) -> None:
    out = runs["control"]
    for event in ("PreToolUse", "PostToolUse", "UserPromptSubmit"):
        assert out.hookrun_ran(event), out.why()
    assert out.run.returncode == 0 and FINAL_TEXT in out.run.stdout, out.why()
    assert out.requests_after_tool() and out.run.seconds < HUNG_RUN_LIMIT, out.why()


@AWAITING_HOST
def test_control_the_destructive_command_deletes_the_victim(runs: dict[str, Outcome]) -> None:
    out = runs["control"]
    assert out.hookrun_ran("PreToolUse"), out.why()
    assert not out.world.victim_intact(), out.why()
    assert (out.world.project / "ran-original").exists(), out.why()


@AWAITING_HOST
def test_control_the_model_sees_the_raw_output_and_no_context(runs: dict[str, Outcome]) -> None:
    out = runs["control"]
    assert out.hookrun_ran("PostToolUse"), out.why()
    assert SECRET in out.tool_results(), out.why()
    assert CONTEXT_AFTER_TOOL not in out.model.seen_text()
    assert CONTEXT_ON_PROMPT not in out.model.seen_text()


@AWAITING_HOST
def test_hooks_get_the_canonical_payload_from_gemini(runs: dict[str, Outcome]) -> None:
    out = runs["control"]
    by_event = {p.get("hook_event_name") or p.get("event"): p for p in out.recorded}
    pre, post = by_event["PreToolUse"], by_event["PostToolUse"]
    assert pre["tool_name"] == gemini_host.SHELL_TOOL
    assert pre["tool_input"]["command"].startswith("rm -rf ")
    assert SECRET in str(post["tool_output"])
    assert "run the command" in by_event["UserPromptSubmit"]["prompt"]


# -- scenarios ----------------------------------------------------------------------------


@AWAITING_HOST
def test_shell_guard_keeps_the_destructive_command_from_running(runs: dict[str, Outcome]) -> None:
    out = runs["deny"]
    assert out.hookrun_ran("PreToolUse"), out.why()
    assert out.world.victim_intact(), out.why()
    assert not (out.world.project / "ran-original").exists(), out.why()
    assert "shell-guard" in out.tool_results(), out.why()  # the reason reached the model


@AWAITING_HOST
def test_an_allowed_command_runs_under_shell_guard(runs: dict[str, Outcome]) -> None:
    out = runs["allow"]
    assert out.hookrun_ran("PreToolUse"), out.why()
    assert (out.world.project / "allowed").exists(), out.why()


@AWAITING_HOST
def test_the_rewritten_input_is_what_ran(runs: dict[str, Outcome]) -> None:
    out = runs["rewrite"]
    assert (out.world.project / "rewritten").exists(), out.why()
    assert not (out.world.project / "ran-original").exists(), out.why()
    assert out.world.victim_intact(), out.why()


@AWAITING_HOST
def test_context_reaches_the_model_after_the_tool_and_with_the_prompt(
    runs: dict[str, Outcome],
) -> None:
    out = runs["context"]
    assert CONTEXT_AFTER_TOOL in out.seen_after_tool(), out.why()
    assert CONTEXT_ON_PROMPT in str(out.model.turns()[0]), out.why()


@AWAITING_HOST
def test_a_redacted_output_is_what_the_model_saw(runs: dict[str, Outcome]) -> None:
    # Gemini CLI cannot rewrite a tool's output (AfterTool reads no output field); it can
    # replace the result with a block reason, which is where the redacted text travels.
    out = runs["redact"]
    assert out.tool_results(), out.why()
    assert SECRET not in out.seen_after_tool(), out.why()
    assert REDACTED in out.tool_results(), out.why()


@AWAITING_HOST
def test_a_halt_stops_the_tool_and_the_turn(runs: dict[str, Outcome]) -> None:
    out = runs["halt"]
    assert out.hookrun_ran("PreToolUse"), out.why()
    assert out.world.victim_intact(), out.why()
    assert not out.requests_after_tool(), out.why()  # no model turn after the tool


@AWAITING_HOST
def test_a_hung_hook_does_not_hang_the_host(runs: dict[str, Outcome]) -> None:
    out = runs["hang"]
    assert out.hookrun_ran("PreToolUse"), out.why()
    assert out.run.returncode == 0 and out.run.seconds < HUNG_RUN_LIMIT, out.why()
    assert out.requests_after_tool(), out.why()  # a timeout is no opinion: the turn goes on
