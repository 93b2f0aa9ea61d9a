"""`--trace`: one row per hook in config order, then the final decision."""

from __future__ import annotations

from typing import Any

from hookrun.cli.trace import render, table


def _hook(name: str, **fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "name": name,
        "source": f".hookrun/hooks.json#PreToolUse[{name[-1]}]",
        "route": "inprocess",
        "exit_code": 0,
        "duration_ms": 1.0,
        "decision": None,
        "halt": False,
        "timed_out": False,
        "error": None,
        "reason": None,
    }
    base.update(fields)
    return base


def test_trace_lists_hooks_in_the_given_order_with_every_column() -> None:
    answer = {
        "event": "PreToolUse",
        "decision": "deny",
        "halt": False,
        "reason": "no rm",
        "hooks": [
            _hook("slow1", route="shebang:bash", exit_code=2, duration_ms=512.34,
                  decision="deny", reason="no rm"),
            _hook("fast2", decision="allow"),
            _hook("hang3", exit_code=None, timed_out=True, error="timed out after 1s"),
        ],
    }  # fmt: skip
    out = render(answer, exit_code=2)
    lines = out.splitlines()
    assert lines[0] == "hookrun trace: PreToolUse: 3 hooks ran"
    assert lines[1].split() == ["#", "hook", "route", "exit", "ms", "decision", "detail", "source"]
    assert lines[2].split()[:6] == ["0", "slow1", "shebang:bash", "2", "512.3", "deny"]
    assert lines[2].endswith(".hookrun/hooks.json#PreToolUse[1]")
    assert lines[3].split()[:6] == ["1", "fast2", "inprocess", "0", "1.0", "allow"]
    assert "timed out; error: timed out after 1s" in lines[4]
    assert lines[5] == "=> decision: deny  halt: no  exit: 2  reason: no rm"


def test_trace_shows_rewrites_and_context_under_the_decision() -> None:
    answer = {
        "event": "PreToolUse",
        "decision": None,
        "halt": False,
        "hooks": [_hook("h0")],
        "updated_input": {"command": "ls --dry-run"},
        "context": ["remember gofumpt"],
        "context_files": [],
    }
    out = render(answer, exit_code=0)
    assert '   updated_input: {"command": "ls --dry-run"}' in out
    assert '   context: ["remember gofumpt"]' in out
    assert "context_files" not in out
    assert "=> decision: -  halt: no  exit: 0" in out


def test_trace_of_no_hooks_still_states_the_result() -> None:
    out = render({"event": "Stop", "decision": None, "halt": False, "hooks": []}, exit_code=0)
    assert out == "hookrun trace: Stop: 0 hooks ran\n=> decision: -  halt: no  exit: 0\n"


def test_a_long_multiline_reason_stays_on_one_line() -> None:
    reason = "line one\nline two " + "x" * 200
    out = render(
        {"event": "PreToolUse", "hooks": [_hook("h0", reason=reason)], "halt": True},
        exit_code=49,
    )
    row = out.splitlines()[2]
    assert "line one line two" in row and "…" in row
    assert len(out.splitlines()) == 4


def test_table_pads_every_column_but_the_last() -> None:
    assert table([["a", "bb", "c"], ["ccc", "d", "eeee"]]) == "a    bb  c\nccc  d   eeee"
