"""When ``hookrun run`` / ``hookrun policy`` cannot compute an answer at all.

A bad config, a payload that is not a JSON object, a stdin that timed out, an
internal error: no hook decided anything. A host reads exit 1 as "hook failed,
carry on" — fail-open. That is right for hooks that fail open, and wrong where a
guard said it must fail closed. So (issue 9, DESIGN "The aggregated answer"):

* on an event that can block, if ``--fail-closed`` was given, or any hook the
  config has for that event is fail-closed (``on_error: deny``, or a built-in whose
  fail mode is closed), the answer is a deny: exit 2, the reason on stderr and, in
  the requested shape, on stdout;
* otherwise exit 1 with the problem on stderr (:class:`CliError`, as before).
"""

from __future__ import annotations

from collections.abc import Callable

from hookrun import exitcodes
from hookrun.cli import CliError
from hookrun.records import TYPE_CHECKING

if TYPE_CHECKING:
    from hookrun.cli.commands.run import Format, Streams
    from hookrun.config.spec import Config
    from hookrun.hosts.bridge import Inbound


def fail_closed_hooks(config: Config | None, event: str) -> list[str]:
    """Names of the hooks for ``event`` (canonical) that fail closed."""
    if config is None:
        return []
    return [spec.name for spec in config.for_event(event) if spec.on_error == "deny"]


def answer_without_hooks(
    problem: CliError,
    *,
    event: str | None,
    config: Callable[[], Config | None],
    fail_closed: bool,
    fmt: Format,
    streams: Streams,
) -> int:
    """Deny (exit 2) where a blocking event is guarded fail-closed; else raise ``problem``.

    ``config`` is called only on a blocking event: the config the run would have
    used, if it can still be loaded (None if not).
    """
    import os

    from hookrun.config.events import BLOCKING_EVENTS
    from hookrun.hosts import bridge

    # The host's event name mapped as `run` maps it (Gemini's BeforeTool is PreToolUse);
    # the payload is unknown here, so an auto host is told by its variables and event name.
    if not event:
        raise problem
    inbound = bridge.map_in(fmt, event, {}, os.environ)
    canonical = inbound.event
    if canonical not in BLOCKING_EVENTS:
        raise problem
    guards = fail_closed_hooks(config(), canonical)
    if not fail_closed and not guards:
        raise problem
    why = "--fail-closed is set" if fail_closed else f"hook {', '.join(guards)} fails closed"
    first = problem.message.strip().splitlines()[0] if problem.message.strip() else "error"
    reason = f"hookrun could not compute an answer ({first}) and {why}: denied"
    _write_deny(inbound, reason, streams)
    return exitcodes.DENY


def _write_deny(inbound: Inbound, reason: str, streams: Streams) -> None:
    from hookrun.cli.commands.run import write_json
    from hookrun.hosts import bridge
    from hookrun.runner.result import RunResult

    result = RunResult(event=inbound.event, decision="deny", reason=reason)
    answer = bridge.map_out(inbound, result)
    try:
        if answer.stdout is not None:
            write_json(streams.stdout, answer.stdout)
    except CliError as exc:  # stdout gone: the exit code and stderr still carry the deny
        streams.stderr.write(f"hookrun: warning: {exc.message}\n")
    streams.stderr.write(reason + "\n")
    streams.stderr.flush()
