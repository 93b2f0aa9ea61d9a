"""Export one finished run over OTLP/HTTP: a span per event, a child span per hook,
a log record per deny, ask and halt — within a hard time budget.

Imported only when telemetry is on (:mod:`hookrun.telemetry` decides); it needs the
``otel`` extra. The spans are built with the official SDK and collected in memory,
then each signal is sent in one request from a daemon thread that the caller waits
for at most ``timeout_ms``: a collector that refuses the connection, or accepts it
and never answers, costs the host that long and no more (the thread is abandoned,
and a process about to exit does not wait for daemon threads).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Mapping, Sequence
from typing import Any

from opentelemetry import trace
from opentelemetry._logs import SeverityNumber
from opentelemetry.exporter.otlp.proto.http._log_exporter import OTLPLogExporter
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk._logs import LoggerProvider
from opentelemetry.sdk._logs.export import InMemoryLogRecordExporter, SimpleLogRecordProcessor
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from hookrun import __version__
from hookrun.runner.result import HookResult, RunResult
from hookrun.telemetry import TelemetrySettings

SCOPE = "hookrun"

# The SDK reports export failures through `logging`, which would print to the host's
# stderr in its own words; hookrun reports them itself, once, in its own format.
logging.getLogger("opentelemetry").addHandler(logging.NullHandler())
logging.getLogger("opentelemetry").propagate = False
_SEVERITY = {
    "deny": (SeverityNumber.WARN, "WARN"),
    "halt": (SeverityNumber.WARN, "WARN"),
    "ask": (SeverityNumber.INFO, "INFO"),
}


def event_attributes(result: RunResult, payload: Mapping[str, Any]) -> dict[str, Any]:
    """The event span's attributes. Pure; absent values are left out (OTel has no null)."""
    attrs: dict[str, Any] = {
        "hookrun.event": result.event,
        "hookrun.halt": result.halt,
        "hookrun.cancelled": result.cancelled,
        "hookrun.hook_count": len(result.hooks),
        "hookrun.exit_code": result.exit_code,
    }
    optional = {
        "hookrun.decision": result.decision,
        "hookrun.reason": result.reason,
        "hookrun.tool_name": result.tool_name,
        "hookrun.session_id": _str(payload.get("session_id")),
        "hookrun.cwd": _str(payload.get("cwd")),
    }
    attrs.update({k: v for k, v in optional.items() if v is not None})
    return attrs


def hook_attributes(hook: HookResult) -> dict[str, Any]:
    """One hook span's attributes. Pure."""
    attrs: dict[str, Any] = {
        "hookrun.hook.name": hook.name,
        "hookrun.hook.source": hook.source,
        "hookrun.hook.route": hook.route,
        "hookrun.hook.exit_code": hook.exit_code,
        "hookrun.hook.duration_ms": hook.duration_ms,
        "hookrun.hook.timed_out": hook.timed_out,
        "hookrun.hook.halt": hook.halt,
    }
    optional = {
        "hookrun.hook.decision": hook.decision,
        "hookrun.hook.error": hook.error,
        "hookrun.hook.reason": hook.reason,
    }
    attrs.update({k: v for k, v in optional.items() if v is not None})
    return attrs


def _str(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _verdict(hook: HookResult) -> str | None:
    """What a log record is written for: a halt, a deny or an ask of this hook."""
    if hook.halt:
        return "halt"
    if hook.decision in ("deny", "ask"):
        return hook.decision
    return None


def build(
    result: RunResult,
    payload: Mapping[str, Any],
    settings: TelemetrySettings,
    *,
    start_ns: int,
    end_ns: int,
) -> tuple[Sequence[Any], Sequence[Any]]:
    """The finished spans and log records of one run, built with the SDK, exported nowhere.

    Hooks run in parallel from the moment the event starts, so each hook's span starts
    with the event's and lasts its measured duration.
    """
    resource = Resource.create(
        {
            **settings.resource_attributes,
            "service.name": settings.service_name,
            "service.version": __version__,
        }
    )
    spans = InMemorySpanExporter()
    tracer_provider = TracerProvider(resource=resource, shutdown_on_exit=False)
    tracer_provider.add_span_processor(SimpleSpanProcessor(spans))
    records = InMemoryLogRecordExporter()  # type: ignore[no-untyped-call]
    logger_provider = LoggerProvider(resource=resource, shutdown_on_exit=False)
    logger_provider.add_log_record_processor(SimpleLogRecordProcessor(records))
    tracer = tracer_provider.get_tracer(SCOPE, __version__)
    logger = logger_provider.get_logger(SCOPE, __version__)

    root = tracer.start_span(
        f"hookrun {result.event}",
        kind=trace.SpanKind.INTERNAL,
        start_time=start_ns,
        attributes=event_attributes(result, payload),
    )
    root_ctx = trace.set_span_in_context(root)
    for hook in result.hooks:
        span = tracer.start_span(
            f"hook {hook.name}",
            context=root_ctx,
            start_time=start_ns,
            attributes=hook_attributes(hook),
        )
        if hook.error:
            span.set_status(trace.Status(trace.StatusCode.ERROR, hook.error))
        hook_end = start_ns + int(hook.duration_ms * 1_000_000)
        verdict = _verdict(hook)
        if verdict is not None:
            severity, text = _SEVERITY[verdict]
            logger.emit(
                timestamp=hook_end,
                context=trace.set_span_in_context(span),
                severity_number=severity,
                severity_text=text,
                body=hook.reason or f"{verdict} by hook {hook.name}",
                attributes={
                    "hookrun.verdict": verdict,
                    "hookrun.event": result.event,
                    **{k: v for k, v in event_attributes(result, payload).items() if k in _KEEP},
                    **hook_attributes(hook),
                },
                event_name=f"hookrun.{verdict}",
            )
        span.end(end_time=min(max(hook_end, start_ns), end_ns))
    root.end(end_time=end_ns)
    return spans.get_finished_spans(), records.get_finished_logs()


_KEEP = frozenset({"hookrun.tool_name", "hookrun.session_id", "hookrun.decision"})


def export(
    result: RunResult,
    payload: Mapping[str, Any],
    settings: TelemetrySettings,
    *,
    start_ns: int,
    end_ns: int,
) -> list[str]:
    """Send the run's spans and log records; return what went wrong (never raises).

    Both requests go out at once, each from its own daemon thread; the caller waits
    for them until the budget is spent and then goes on without them.
    """
    try:
        spans, records = build(result, payload, settings, start_ns=start_ns, end_ns=end_ns)
    except Exception as exc:  # a bug in building must not cost the answer
        return [f"telemetry: could not build spans: {type(exc).__name__}: {exc}"]
    timeout_s = settings.timeout_ms / 1000
    problems: list[str] = []
    sends: list[tuple[str, Any, Sequence[Any]]] = []
    # The exporters are made before the clock starts: their first construction sets up
    # an HTTP session (tens of ms of CPU), which is the cost of telemetry being on,
    # not of the collector being slow.
    if settings.traces_endpoint and spans:
        span_exporter = OTLPSpanExporter(
            endpoint=settings.traces_endpoint, headers=dict(settings.headers), timeout=timeout_s
        )
        sends.append(("traces", span_exporter.export, spans))
    if settings.logs_endpoint and records:
        log_exporter = OTLPLogExporter(
            endpoint=settings.logs_endpoint, headers=dict(settings.headers), timeout=timeout_s
        )
        sends.append(("logs", log_exporter.export, records))
    deadline = time.monotonic() + timeout_s
    threads = [(signal, _start(send, batch, problems, signal)) for signal, send, batch in sends]
    for signal, thread in threads:
        thread.join(max(0.0, deadline - time.monotonic()))
        if thread.is_alive():
            problems.append(
                f"telemetry: {signal} not sent within {settings.timeout_ms} ms "
                "(collector slow or silent)"
            )
    return problems


def _start(send: Any, batch: Sequence[Any], problems: list[str], signal: str) -> threading.Thread:
    def work() -> None:
        try:
            outcome = send(batch)
        except Exception as exc:  # requests' errors, a refused connection…
            problems.append(f"telemetry: {signal} not sent: {type(exc).__name__}: {exc}")
            return
        if getattr(outcome, "name", "SUCCESS") != "SUCCESS":
            problems.append(f"telemetry: {signal} not sent: collector answered {outcome.name}")

    thread = threading.Thread(target=work, name=f"hookrun-otlp-{signal}", daemon=True)
    thread.start()
    return thread
