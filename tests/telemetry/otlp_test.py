"""Spans and log records as a real OTLP/HTTP receiver decodes them, and the time budget."""

from __future__ import annotations

import time

import pytest

from hookrun.runner.envelope import HookAnswer
from hookrun.runner.result import HookResult, RunResult
from hookrun.telemetry import TelemetrySettings, otlp
from tests.telemetry.receiver import attributes, closed_port, otlp_receiver, silent_collector

DENY = HookResult(
    "guard",
    "c.json#PreToolUse[0]",
    "builtin:shell-guard",
    2,
    1.5,
    HookAnswer(decision="deny", reason="rm -rf / is destructive"),
)
ASK = HookResult("asker", "c.json#PreToolUse[1]", "inprocess", 0, 2.0, HookAnswer(decision="ask"))
HALT = HookResult("stopper", "c.json#PreToolUse[2]", "shebang:sh", 49, 3.0, HookAnswer(halt=True))
BROKEN = HookResult(
    "broken",
    "c.json#PreToolUse[3]",
    "shebang:python3",
    1,
    4.0,
    HookAnswer(error="exit 1: Traceback"),
    timed_out=False,
)
QUIET = HookResult("audit", "c.json#PreToolUse[4]", "inprocess", 0, 0.5, HookAnswer())
RESULT = RunResult(
    "PreToolUse",
    decision="deny",
    halt=True,
    reason="rm -rf / is destructive",
    tool_name="Bash",
    hooks=(DENY, ASK, HALT, BROKEN, QUIET),
)
PAYLOAD = {"session_id": "sess-1", "cwd": "/work/p", "tool_name": "Bash"}


def _settings(url: str, **changes: object) -> TelemetrySettings:
    settings = TelemetrySettings.create({"OTEL_EXPORTER_OTLP_ENDPOINT": url}, None)
    assert settings is not None
    return settings._replace(**changes)  # type: ignore[arg-type]


def test_an_event_is_one_span_with_a_child_span_per_hook_and_their_attributes() -> None:
    start = time.time_ns()
    with otlp_receiver() as (url, got):
        problems = otlp.export(
            RESULT,
            PAYLOAD,
            _settings(url, timeout_ms=5000),
            start_ns=start,
            end_ns=start + 9_000_000,
        )
        spans = {span.name: span for span in got.spans()}
        resources = got.resources()
    assert problems == []
    assert sorted(spans) == sorted(
        [
            "hookrun PreToolUse",
            "hook guard",
            "hook asker",
            "hook stopper",
            "hook broken",
            "hook audit",
        ]
    )
    root = spans["hookrun PreToolUse"]
    assert root.parent_span_id == b""
    assert attributes(root.attributes) == {
        "hookrun.event": "PreToolUse",
        "hookrun.decision": "deny",
        "hookrun.halt": True,
        "hookrun.reason": "rm -rf / is destructive",
        "hookrun.cancelled": False,
        "hookrun.hook_count": 5,
        "hookrun.exit_code": 49,
        "hookrun.tool_name": "Bash",
        "hookrun.session_id": "sess-1",
        "hookrun.cwd": "/work/p",
    }
    assert (root.start_time_unix_nano, root.end_time_unix_nano) == (start, start + 9_000_000)
    for name in ("guard", "asker", "stopper", "broken", "audit"):
        child = spans[f"hook {name}"]
        assert child.parent_span_id == root.span_id
        assert child.trace_id == root.trace_id
    guard = attributes(spans["hook guard"].attributes)
    assert guard == {
        "hookrun.hook.name": "guard",
        "hookrun.hook.source": "c.json#PreToolUse[0]",
        "hookrun.hook.route": "builtin:shell-guard",
        "hookrun.hook.exit_code": 2,
        "hookrun.hook.duration_ms": 1.5,
        "hookrun.hook.timed_out": False,
        "hookrun.hook.halt": False,
        "hookrun.hook.decision": "deny",
        "hookrun.hook.reason": "rm -rf / is destructive",
    }
    assert (
        spans["hook guard"].end_time_unix_nano - spans["hook guard"].start_time_unix_nano
        == 1_500_000
    )
    broken = spans["hook broken"]
    assert attributes(broken.attributes)["hookrun.hook.error"] == "exit 1: Traceback"
    assert broken.status.code == 2  # STATUS_CODE_ERROR
    assert resources[0]["service.name"] == "hookrun"


def test_every_deny_ask_and_halt_is_a_log_record_linked_to_its_hook_span() -> None:
    start = time.time_ns()
    with otlp_receiver() as (url, got):
        otlp.export(
            RESULT, PAYLOAD, _settings(url, timeout_ms=5000), start_ns=start, end_ns=start + 1
        )
        records = got.log_records()
        spans = {span.span_id: span.name for span in got.spans()}
    by_verdict = {attributes(r.attributes)["hookrun.verdict"]: r for r in records}
    assert sorted(by_verdict) == ["ask", "deny", "halt"]  # not for the error or the quiet hook
    deny = by_verdict["deny"]
    assert deny.body.string_value == "rm -rf / is destructive"
    assert deny.severity_text == "WARN"
    assert deny.event_name == "hookrun.deny"
    assert spans[deny.span_id] == "hook guard"
    assert attributes(deny.attributes)["hookrun.session_id"] == "sess-1"
    assert by_verdict["ask"].severity_text == "INFO"
    assert by_verdict["halt"].body.string_value == "halt by hook stopper"


def test_headers_from_the_settings_reach_the_collector() -> None:
    with otlp_receiver() as (url, got):
        otlp.export(
            RESULT,
            PAYLOAD,
            _settings(url, timeout_ms=5000, headers={"x-team": "infra"}),
            start_ns=1,
            end_ns=2,
        )
        headers = got.headers
    assert headers and all(h.get("x-team") == "infra" for h in headers)


@pytest.mark.parametrize("kind", ["silent", "refused"])
def test_a_collector_that_is_down_or_never_answers_costs_at_most_the_budget(kind: str) -> None:
    budget_ms = 100
    if kind == "refused":
        url = closed_port()
        started = time.monotonic()
        problems = otlp.export(RESULT, PAYLOAD, _settings(url), start_ns=1, end_ns=2)
        spent = time.monotonic() - started
    else:
        with silent_collector() as url:
            started = time.monotonic()
            problems = otlp.export(RESULT, PAYLOAD, _settings(url), start_ns=1, end_ns=2)
            spent = time.monotonic() - started
    # The budget itself is measured in bench/; here only that it holds, with room for
    # building the exporters on a loaded machine.
    assert spent < budget_ms / 1000 + 1.0
    assert problems and all(p.startswith("telemetry: ") for p in problems)


def test_nothing_is_sent_for_a_signal_that_is_off() -> None:
    with otlp_receiver() as (url, got):
        otlp.export(
            RESULT,
            PAYLOAD,
            _settings(url, timeout_ms=5000, logs_endpoint=None),
            start_ns=1,
            end_ns=2,
        )
        assert got.spans() and not got.log_records()
