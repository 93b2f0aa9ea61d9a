"""``hookrun run EVENT`` (and ``hookrun policy``): one event in, one answer out.

The answer goes to stdout as JSON; the exit code carries the decision so that
``hookrun run`` can itself be the one hook a Claude Code or Crush config calls:
0 allow / ask / no opinion, 2 deny (reason on stderr), 49 halt (reason on
stderr), 1 hookrun's own error, 130 / 143 interrupted by SIGINT / SIGTERM after
every hook's process tree ended.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Mapping

from hookrun import exitcodes
from hookrun.boundedio import STDIN_TIMEOUT
from hookrun.cli import CliError
from hookrun.cli.payload import PayloadFlags, build_payload, payload_str, read_stdin
from hookrun.hosts import NAMES
from hookrun.records import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from typing import Any, BinaryIO, TextIO

    from hookrun.config.spec import Config
    from hookrun.runner.result import RunResult

Format = str  # a host name (hookrun.hosts.NAMES) or "auto"
FORMATS: tuple[str, ...] = NAMES


class RunOptions(NamedTuple):
    """Everything ``hookrun run`` was asked, whichever parser read the command line."""

    event: str
    flags: PayloadFlags = PayloadFlags()
    configs: tuple[str, ...] = ()
    format: Format = "auto"
    trace: bool = False
    stdin_timeout: float = STDIN_TIMEOUT  # seconds to wait for the payload (hookrun.boundedio)
    fail_closed: bool = False  # no answer at all on a blocking event = deny


class Streams(NamedTuple):
    """Where a command reads and writes; tests and embedders pass their own."""

    stdin: BinaryIO | None
    stdin_isatty: bool
    stdout: TextIO
    stderr: TextIO

    @classmethod
    def system(cls) -> Streams:
        stdin = sys.stdin.buffer if sys.stdin is not None else None
        try:
            isatty = sys.stdin is not None and sys.stdin.isatty()
        except (OSError, ValueError):  # closed stdin
            isatty = False
        # A host may start us with stdout or stderr closed: the exit code still carries
        # the decision, so write what cannot be delivered into the void, not a crash.
        stdout = sys.stdout if sys.stdout is not None else _devnull()
        stderr = sys.stderr if sys.stderr is not None else _devnull()
        return cls(stdin=stdin, stdin_isatty=isatty, stdout=stdout, stderr=stderr)


def _devnull() -> TextIO:
    import os

    return open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - lives as long as the process


def check_format(value: str) -> Format:
    if value in FORMATS:
        return value
    raise CliError(f"unknown --host {value!r}: use one of {', '.join(FORMATS)}")


def write_json(stream: TextIO, value: Mapping[str, Any]) -> None:
    """Write the answer; a host that cannot take it (gone, disk full) gets one clear line."""
    from hookrun.runner import wire

    try:
        wire.write(stream, value)
    except OSError as exc:
        _discard_pending(stream)
        raise CliError(f"could not write the answer to stdout: {exc.strerror or exc}") from None


def _discard_pending(stream: TextIO) -> None:
    # What is still buffered would fail again at exit, as an "Exception ignored"
    # traceback-like message: send it to the null device instead.
    import os

    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, stream.fileno())
        os.close(null)
    except (OSError, ValueError):
        pass


def read_payload(
    flags: PayloadFlags, streams: Streams, *, timeout: float = STDIN_TIMEOUT
) -> dict[str, Any]:
    text = read_stdin(streams.stdin, isatty=streams.stdin_isatty, timeout=timeout)
    return build_payload(text, flags)


def parse_seconds(value: str, option: str) -> float:
    """A positive number of seconds for ``option``, or a CliError saying what is wrong."""
    try:
        seconds = float(value)
    except ValueError:
        seconds = float("nan")
    if not seconds > 0 or seconds == float("inf"):
        raise CliError(f"{option} {value!r}: expected a positive number of seconds, e.g. 10")
    return seconds


def execute(
    config: Config,
    event: str,
    payload: Mapping[str, Any],
    *,
    cwd: str,
    fmt: Format,
    trace: bool,
    streams: Streams,
    fail_closed: bool = False,
) -> int:
    """Run ``event`` through ``config``; print the answer in the host's shape; return the
    exit code. ``event`` and ``payload`` are the host's own (``fmt`` names the host, or
    ``auto``): :mod:`hookrun.hosts.bridge` maps them in and the answer out.

    Interrupted (SIGINT/SIGTERM/SIGHUP), the run exits 128 + N — unless a hook had
    denied or halted by then (that answer stands, in the host's shape and exit code),
    or a hook that fails closed (``on_error: deny``, or ``fail_closed``) was stopped
    before it answered on an event that can block (a deny, as when no answer can be
    computed: :mod:`hookrun.cli.noanswer`). Given a deny on stdout and exit 143, Codex
    CLI runs the tool (tests/e2e/codex_contract_test.py)."""
    from hookrun.cli.signals import cancel_on_signals
    from hookrun.config.discovery import project_root
    from hookrun.dispatch.cancel import CancelToken
    from hookrun.hosts import bridge
    from hookrun.runner import PayloadError, Runner

    inbound = bridge.map_in(fmt, event, payload, os.environ)
    payload = inbound.payload
    # The project root found here, not by Runner: its find_project_root imports pathlib.
    project_dir = payload_str(payload, "project_dir") or project_root(cwd)
    runner = Runner(config, cwd=cwd, project_dir=project_dir)
    token = CancelToken()
    started_ns = time.time_ns()
    # The handlers stay until the answer is out: a signal while it is written (the
    # hooks have all ended by then) still exits 128 + N, never by the signal.
    with cancel_on_signals(token) as received:
        try:
            result = runner.run(inbound.event, payload, cancel=token)
        except PayloadError as exc:
            raise CliError(f"bad payload: {exc}") from None
        interrupted = received.signum is not None or result.cancelled
        if interrupted and not (result.halt or result.decision == "deny"):
            result = _closed_on_interrupt(config, result, received.signum, fail_closed)
        stands = result.halt or result.decision == "deny"
        answer = bridge.map_out(inbound, result)
        code = answer.exit_code
        if received.exit_code is not None and not stands:
            code = received.exit_code
        if trace:
            from hookrun.cli.trace import render as render_trace

            streams.stderr.write(render_trace(result.to_dict(), exit_code=code))
            streams.stderr.write(f"hookrun: answered as {inbound.answer_as} ({inbound.why})\n")
        if answer.stdout is not None:
            try:
                write_json(streams.stdout, answer.stdout)
            except CliError as exc:
                # A deny or a halt still reaches a host that cannot read stdout: by the
                # exit code, and the reason on stderr below. Anything else it would have
                # read there (context, a rewritten input) is lost: say so with exit 1.
                streams.stderr.write(f"hookrun: {exc.message}\n")
                if code == exitcodes.OK:
                    streams.stderr.flush()
                    return exitcodes.ERROR
        note = inbound.note(len(config.for_event(inbound.event)))
        if note:
            streams.stderr.write(note + "\n")
        audit_error = getattr(result, "audit_error", None)
        if audit_error:
            streams.stderr.write(f"hookrun: warning: audit log not written: {audit_error}\n")
        if stands and answer.stderr:
            streams.stderr.write(answer.stderr + "\n")
        if interrupted:
            what = (
                ("; the halt given before it stands" if result.halt else "; the deny stands")
                if stands
                else ""
            )
            streams.stderr.write(f"hookrun: interrupted: every hook was stopped{what}\n")
        elif answer.stderr and not stands:
            streams.stderr.write(answer.stderr + "\n")
        if code == exitcodes.OK and not interrupted:
            # On a deny or a halt stderr is the reason the host shows the model (an
            # on_error: deny stand-in's reason names its hook); on exit 0 nothing else
            # would tell anyone that a hook's answer was not taken.
            for line in dropped_answers(result):
                streams.stderr.write(line + "\n")
        streams.stderr.flush()
    _export_telemetry(config, result, payload, started_ns, code=code, trace=trace, streams=streams)
    return code


def _closed_on_interrupt(
    config: Config, result: RunResult, signum: int | None, fail_closed: bool
) -> RunResult:
    """``result`` of an interrupted run with no deny or halt in it: a deny if the event
    can block and ``fail_closed`` is set or a hook that fails closed was stopped
    before it answered; else ``result`` as it is."""
    from hookrun.cli.noanswer import fail_closed_hooks
    from hookrun.config.events import BLOCKING_EVENTS

    if result.event not in BLOCKING_EVENTS:
        return result
    stopped = {hook.name for hook in result.hooks if hook.error == "cancelled"}
    guards = [name for name in fail_closed_hooks(config, result.event) if name in stopped]
    if not guards and not (fail_closed and stopped):
        return result
    import signal

    by = f" by {signal.Signals(signum).name}" if signum is not None else ""
    why = f"hook {', '.join(guards)}, which fails closed," if guards else "a hook (--fail-closed)"
    reason = f"hookrun was interrupted{by} before {why} answered: denied"
    return result._replace(decision="deny", reason=reason)


def dropped_answers(result: RunResult) -> list[str]:
    """One line per hook whose answer was not taken as it came: dropped as "no opinion"
    (``on_error: allow``), replaced by ``on_error: deny``, or a deny kept though what
    followed it was not clean — naming the hook, where it is configured, and why."""
    lines = []
    for hook in result.hooks:
        if hook.error is None or hook.cancelled:
            continue
        if hook.decision is None and not hook.halt:
            what = "its answer was dropped (on_error: allow)"
        elif hook.error.endswith(" stands"):
            what = "its answer was kept"
        else:
            what = "on_error: deny answered for it"
        lines.append(f'hookrun: warning: hook "{hook.name}" ({hook.source}): {hook.error} — {what}')
    return lines


def _export_telemetry(
    config: Config,
    result: RunResult,
    payload: Mapping[str, Any],
    started_ns: int,
    *,
    code: int,
    trace: bool,
    streams: Streams,
) -> None:
    """Send the run to the OpenTelemetry collector when OTEL_* or the config say so.

    After the answer is written: the host has it, whatever the collector does. What
    went wrong goes to stderr only with --trace or on exit 0 — on a deny or a halt
    stderr is the reason the host shows the model, and must stay exactly that.
    """
    # Off unless the config's key or an OTEL_* variable may turn it on (TelemetrySettings
    # decides exactly): without either, not even hookrun.telemetry is imported (~1% of a
    # bare Python start on every run).
    if config.telemetry is False or (
        config.telemetry is None and not any(name.startswith("OTEL_") for name in os.environ)
    ):
        return
    from hookrun.telemetry import TelemetrySettings

    settings = TelemetrySettings.create(os.environ, config.telemetry)
    if settings is None:
        return
    ended_ns = time.time_ns()
    problems = list(settings.warnings)
    try:
        from hookrun.telemetry import otlp  # OpenTelemetry loads only when telemetry is on
    except ImportError as exc:
        problems.append(
            f"telemetry is on but OpenTelemetry cannot be imported ({exc}): "
            "pip install 'hookrun[otel]'"
        )
    else:
        problems += otlp.export(result, payload, settings, start_ns=started_ns, end_ns=ended_ns)
    if problems and (trace or code == 0):
        for problem in problems:
            streams.stderr.write(f"hookrun: warning: {problem}\n")
        streams.stderr.flush()


def run_command(opts: RunOptions, streams: Streams) -> int:
    """``hookrun run``: payload from stdin + flags, config from --config or discovery.

    When no answer can be computed, :func:`hookrun.cli.noanswer.answer_without_hooks`
    decides between a deny (a fail-closed guard, or --fail-closed) and exit 1.
    """
    from hookrun.cli.configfiles import load_config, resolve_cwd

    loaded: list[Config] = []

    def config_for_the_verdict() -> Config | None:
        if loaded:
            return loaded[0]
        try:  # the payload failed: the config from --cwd / our cwd, if it loads
            return load_config(opts.configs, resolve_cwd(opts.flags.cwd))
        except CliError:
            return None

    try:
        payload = read_payload(opts.flags, streams, timeout=opts.stdin_timeout)
        cwd = resolve_cwd(opts.flags.cwd, payload_str(payload, "cwd"))
        loaded.append(load_config(opts.configs, cwd))
        return execute(
            loaded[0],
            opts.event,
            payload,
            cwd=cwd,
            fmt=opts.format,
            trace=opts.trace,
            streams=streams,
            fail_closed=opts.fail_closed,
        )
    except Exception as exc:  # noqa: BLE001 — every failure gets the same verdict rule
        from hookrun.cli.noanswer import answer_without_hooks

        return answer_without_hooks(
            as_cli_error(exc),
            event=opts.event,
            config=config_for_the_verdict,
            fail_closed=opts.fail_closed,
            fmt=opts.format,
            streams=streams,
        )


def as_cli_error(exc: Exception) -> CliError:
    """``exc`` as the CliError main() prints: an unexpected one says it is a bug."""
    if isinstance(exc, CliError):
        return exc
    if os.environ.get("HOOKRUN_DEBUG"):
        import traceback

        traceback.print_exc()
    return CliError(
        f"internal error: {type(exc).__name__}: {exc} — this is a bug in hookrun; "
        "rerun with HOOKRUN_DEBUG=1 for the traceback and report it"
    )
