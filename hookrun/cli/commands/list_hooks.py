"""``hookrun list``: the hooks that would run, in config order, with where each was written."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from hookrun.cli.configfiles import load_config, resolve_cwd
from hookrun.cli.trace import table
from hookrun.config import normalize_event
from hookrun.runner import Runner

if TYPE_CHECKING:
    from hookrun.cli.commands.run import Streams
    from hookrun.config.spec import Config, HookSpec


def _what(spec: HookSpec) -> str:
    return f"builtin:{spec.builtin}" if spec.builtin else (spec.command or "")


def _rows(
    config: Config, events: Sequence[str], payload: dict[str, Any] | None, cwd: str
) -> list[list[str]]:
    runner = None
    if payload is not None:
        runner = Runner(config, cwd=cwd)
    rows: list[list[str]] = []
    for event in events:
        specs = runner.select(event, payload) if runner is not None else config.for_event(event)
        for i, spec in enumerate(specs):
            rows.append(
                [
                    event,
                    str(i),
                    spec.name,
                    spec.matcher if spec.matcher is not None else "*",
                    "yes" if spec.include_sub_agents else "no",
                    _what(spec).replace("\n", " "),
                    spec.source,
                ]
            )
    return rows


def list_command(
    event: str | None,
    *,
    tool: str | None,
    sub_agent: bool,
    configs: Sequence[str],
    streams: Streams,
) -> int:
    """The hooks that would run, in config order, with where each was written.

    With ``--tool`` or ``--sub-agent`` the runner's own selection (matcher,
    sub-agent opt-in, dedupe) decides; without them every configured hook of the
    event is shown with its matcher.
    """
    cwd = resolve_cwd()
    config = load_config(configs, cwd)
    events = [normalize_event(event)] if event else list(config.hooks)
    payload: dict[str, Any] | None = None
    if tool is not None or sub_agent:
        payload = {"is_sub_agent": sub_agent}
        if tool is not None:
            payload["tool_name"] = tool
            # The tool's kind, whichever host names it that way (matchers may name kinds).
            from hookrun.hosts.neutral import tool_kind

            kind = tool_kind(tool)
            if kind is not None:
                payload["tool_kind"] = kind
    rows = _rows(config, events, payload, cwd)
    if not rows:
        files = ", ".join(config.paths) or "no config found"
        what = f"for {events[0]}" if event else "at all"
        streams.stdout.write(f"no hooks would run {what} ({files})\n")
        return 0
    head = ["event", "#", "name", "matcher", "sub-agents", "runs", "source"]
    streams.stdout.write(table([head, *rows]) + "\n")
    return 0
