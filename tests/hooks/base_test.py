"""A built-in's verdict reaches the host as the same answer a command hook's envelope gives.

The runner turns a :class:`~hookrun.hooks.base.Verdict` into an envelope
(``Verdict.to_envelope``) and reads it with the parser every command hook's stdout goes
through, and takes the hook's exit code from ``Verdict.exit_code``. Each field must
survive that trip — a halt that came back as a plain deny, or a scrubbed output that
came back as "leave the output alone", would be a guard that does not guard.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from hookrun import Runner
from hookrun.config.spec import Config, HookSpec
from hookrun.hooks import lockout
from hookrun.hooks.base import ALLOW, Verdict
from hookrun.runner.envelope import HookAnswer, parse_envelope

# (verdict, the answer the runner reads from it, the hook's exit code)
ROUND_TRIPS: list[tuple[Verdict, HookAnswer, int]] = [
    (ALLOW, HookAnswer(), 0),
    (Verdict(decision="allow"), HookAnswer(decision="allow"), 0),
    (Verdict(decision="ask", reason="sure?"), HookAnswer(decision="ask", reason="sure?"), 0),
    (
        Verdict(decision="deny", reason="no", rule="x.y"),
        HookAnswer(decision="deny", reason="no"),
        2,
    ),
    (
        Verdict(decision="deny", halt=True, reason="stop"),
        HookAnswer(decision="deny", halt=True, reason="stop"),
        49,
    ),
    (Verdict(halt=True, reason="stop"), HookAnswer(halt=True, reason="stop"), 49),
    (Verdict(context=("a", "b")), HookAnswer(context=("a", "b")), 0),
    (
        Verdict(updated_input={"command": "ls -l"}),
        HookAnswer(patch_input={"command": "ls -l"}),
        0,
    ),
    # an output replaced by a falsy JSON value is still replaced
    (Verdict(updated_output=""), HookAnswer(updated_output="", has_updated_output=True), 0),
    # (null is "leave the output alone", as in a command hook's envelope)
    (Verdict(updated_output=None), HookAnswer(), 0),
    (
        Verdict(updated_output={"stdout": "[REDACTED:email]"}),
        HookAnswer(updated_output={"stdout": "[REDACTED:email]"}, has_updated_output=True),
        0,
    ),
    (Verdict(reason=""), HookAnswer(), 0),  # an empty reason says nothing
]


@pytest.mark.parametrize(("verdict", "answer", "code"), ROUND_TRIPS, ids=lambda v: repr(v)[:60])
def test_a_verdict_reads_back_as_the_same_answer(
    verdict: Verdict, answer: HookAnswer, code: int
) -> None:
    assert parse_envelope(verdict.to_envelope()) == answer
    assert verdict.exit_code == code


def test_no_opinion_is_an_envelope_with_only_its_version() -> None:
    assert ALLOW.to_envelope() == {"version": 1}
    assert not ALLOW.has_updated_output


def _runner(root: Path, spec: HookSpec) -> Runner:
    config = Config(hooks={spec.event: (spec,)})
    return Runner(config, cwd=root, project_dir=root, env={})


def _spec(builtin: str, event: str, options: dict[str, Any]) -> HookSpec:
    return HookSpec(
        event=event,
        source=f"hooks.json#{event}[0]",
        name=builtin,
        command=None,
        builtin=builtin,
        options=options,
        on_error="deny",
    )


def test_a_lockout_escalation_halts_the_turn_through_the_runner(tmp_path: Path) -> None:
    lockout.add(str(tmp_path / ".hookrun" / "state"), "src/auth.ts", "Backend")
    runner = _runner(tmp_path, _spec("reviewer-lockout", "PreToolUse", {"escalate_after": 0}))
    payload = {
        "tool_name": "Edit",
        "tool_input": {"file_path": "src/auth.ts"},
        "agent_name": "Backend",
    }
    result = runner.run("PreToolUse", payload)
    assert (result.decision, result.halt, result.exit_code) == ("deny", True, 49)
    assert result.hooks[0].exit_code == 49
    assert result.reason is not None and "src/auth.ts" in result.reason


def test_a_scrubbed_tool_output_replaces_the_output_through_the_runner(tmp_path: Path) -> None:
    runner = _runner(tmp_path, _spec("pii-scrubber", "PostToolUse", {}))
    address = "ada.lovelace@analytical-engines.co.uk"  # (example.org is a placeholder: kept)
    payload = {
        "tool_name": "Bash",
        "tool_input": {"command": "git log -1"},
        "tool_response": {"stdout": f"Author: Ada Lovelace <{address}>\n", "stderr": ""},
    }
    result = runner.run("PostToolUse", payload)
    assert result.decision is None and not result.halt
    assert result.updated_output is not None
    assert address not in str(result.updated_output)
    assert "[REDACTED:" in result.updated_output["stdout"]
    assert result.context  # the note that says what was redacted
