"""``hookrun policy NAME`` (one built-in, standalone) and ``hookrun policies`` (the list).

``hookrun policy`` builds a one-hook in-memory config and goes through the same
runner as ``hookrun run``, so its JSON and exit codes are ``run``'s for the same
``--host``: any host's config can call ``hookrun policy shell-guard`` directly.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

from hookrun import cjson
from hookrun.boundedio import STDIN_TIMEOUT
from hookrun.cli import CliError
from hookrun.cli.commands.run import Format, Streams, as_cli_error, execute, read_payload
from hookrun.cli.configfiles import resolve_cwd
from hookrun.cli.noanswer import answer_without_hooks
from hookrun.cli.payload import PayloadFlags, parse_object, payload_str
from hookrun.config.events import normalize_event
from hookrun.config.spec import Config, HookSpec
from hookrun.hooks import registry
from hookrun.hosts import bridge
from hookrun.records import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from typing import Any

    from hookrun.hooks.base import Policy


def parse_with(pairs: Sequence[str], with_json: str | None) -> dict[str, Any]:
    """Policy options: ``--with-json`` first, then each ``--with KEY=VALUE`` over it.

    A VALUE that parses as JSON is that JSON value (``3``, ``true``,
    ``["src/**"]``); anything else is the plain string, so ``phase=review`` needs
    no quoting. Use JSON quotes to force a string: ``--with 'x="123"'``.
    """
    options: dict[str, Any] = parse_object(with_json, what="--with-json") if with_json else {}
    for pair in pairs:
        key, eq, raw = pair.partition("=")
        key = key.strip()
        if not eq or not key:
            raise CliError(f"--with {pair!r}: expected KEY=VALUE, e.g. --with max_per_session=3")
        try:
            options[key] = cjson.loads(raw)
        except ValueError:
            options[key] = raw
    return options


def _unknown_policy(name: str) -> CliError:
    import difflib  # only for this message: kept off `hookrun policy`'s start-up

    known = registry.names() + sorted(registry.ALIASES)
    close = difflib.get_close_matches(name, known, n=1)
    hint = f"did you mean {close[0]!r}? " if close else ""
    return CliError(f"unknown policy {name!r}: {hint}`hookrun policies` lists them")


def load_policy(name: str) -> Policy[Any]:
    """The policy called ``name`` (or an alias), with CLI-grade errors."""
    canonical = registry.canonical(name)
    if canonical is None:
        raise _unknown_policy(name)
    try:
        return registry.get(canonical)
    except (ImportError, AttributeError) as exc:
        raise CliError(f"policy {canonical!r} is not available in this build ({exc})") from None


def validate_options(policy: Policy[Any], options: Mapping[str, Any]) -> None:
    """Bind once here so a bad option is exit 1 with pydantic's message, located."""
    try:
        policy.bind(options)
    except Exception as exc:
        # Only the explaining path raises, and it has imported pydantic by then.
        from pydantic import ValidationError

        if not isinstance(exc, ValidationError):
            raise
        problems = []
        for err in exc.errors():
            where = ".".join(str(part) for part in err.get("loc", ())) or "(options)"
            problems.append(f'option "{where}": {err.get("msg", "invalid")}')
        raise CliError(
            f"policy {policy.name}: " + "; ".join(problems) + f" (see `hookrun policy {policy.name}"
            " --help` and docs/policies.md)"
        ) from None


def pick_event(explicit: str | None, payload: Mapping[str, Any], policy: Policy[Any]) -> str:
    """``--event``, else the payload's ``hook_event_name``/``event``, else the policy's first."""
    name = (
        explicit
        or payload_str(payload, "hook_event_name")
        or payload_str(payload, "event")
        or (policy.events[0] if policy.events else "PreToolUse")
    )
    return normalize_event(name)


def one_hook_config(policy: Policy[Any], event: str, options: Mapping[str, Any]) -> Config:
    spec = HookSpec(
        event=event,
        source=f"<command line>#policy {policy.name}",
        name=policy.name,
        command=None,
        builtin=policy.name,
        options=dict(options),
        on_error=policy.on_error,
    )
    return Config(hooks={event: (spec,)})


class PolicyOptions(NamedTuple):
    name: str
    with_pairs: tuple[str, ...] = ()
    with_json: str | None = None
    event: str | None = None
    flags: PayloadFlags = PayloadFlags()
    format: Format = "hookrun"  # a policy run by hand: the full envelope
    trace: bool = False
    stdin_timeout: float = STDIN_TIMEOUT
    fail_closed: bool = False


def policy_command(opts: PolicyOptions, streams: Streams) -> int:
    """``hookrun policy NAME``; a policy that fails closed denies when no answer can be
    computed (a bad payload, bad options), as ``hookrun run`` does for its hooks."""
    policy: Policy[Any] | None = None
    event = opts.event
    try:
        policy = load_policy(opts.name)
        event = opts.event or (policy.events[0] if policy.events else "PreToolUse")
        options = parse_with(opts.with_pairs, opts.with_json)
        validate_options(policy, options)
        payload = read_payload(opts.flags, streams, timeout=opts.stdin_timeout)
        event = pick_event(opts.event, payload, policy)
        cwd = resolve_cwd(opts.flags.cwd, payload_str(payload, "cwd"))
        # The hook goes under the event the run looks up: a host's own name (Gemini's
        # BeforeTool) is mapped to its canonical one there.
        mapped = bridge.map_in(opts.format, event, payload, os.environ).event
        config = one_hook_config(policy, mapped, options)
        return execute(
            config, event, payload, cwd=cwd, fmt=opts.format, trace=opts.trace, streams=streams
        )
    except Exception as exc:  # noqa: BLE001 — every failure gets the same verdict rule
        failed = policy
        canonical = normalize_event(event) if event else None

        def guarding_config() -> Config | None:
            if failed is None or canonical is None:
                return None
            return one_hook_config(failed, canonical, {})

        return answer_without_hooks(
            as_cli_error(exc),
            event=canonical,
            config=guarding_config,
            fail_closed=opts.fail_closed,
            fmt=opts.format,
            streams=streams,
        )
