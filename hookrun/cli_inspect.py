"""``hookrun check``, ``list`` and ``schema``: look at a config without running it."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from hookrun.cli_config import config_files, load_config, resolve_cwd, where_discovery_looks
from hookrun.cli_trace import table

if TYPE_CHECKING:
    from hookrun.cli_run import Streams
    from hookrun.config.spec import Config, HookSpec


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def check_command(configs: Sequence[str], streams: Streams) -> int:
    """Print every issue with its location; exit 1 when any is an error."""
    cwd = resolve_cwd()
    files = config_files(configs, cwd)
    if not files:
        looked = " and ".join(where_discovery_looks(cwd))
        streams.stdout.write(f"no config found (looked for {looked}); nothing to check\n")
        return 0
    from hookrun.config import check

    issues = check(files, cwd=cwd)
    for issue in issues:
        streams.stdout.write(f"{issue}\n")
    errors = sum(1 for issue in issues if issue.severity == "error")
    warnings = len(issues) - errors
    streams.stdout.write(
        f"checked {', '.join(files)}: {_plural(errors, 'error')}, {_plural(warnings, 'warning')}\n"
    )
    return 1 if errors else 0


def _what(spec: HookSpec) -> str:
    return f"builtin:{spec.builtin}" if spec.builtin else (spec.command or "")


def _rows(
    config: Config, events: Sequence[str], payload: dict[str, Any] | None, cwd: str
) -> list[list[str]]:
    runner = None
    if payload is not None:
        from hookrun.runner import Runner

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
    from hookrun.config import normalize_event

    cwd = resolve_cwd()
    config = load_config(configs, cwd)
    events = [normalize_event(event)] if event else list(config.hooks)
    payload: dict[str, Any] | None = None
    if tool is not None or sub_agent:
        payload = {"is_sub_agent": sub_agent}
        if tool is not None:
            payload["tool_name"] = tool
    rows = _rows(config, events, payload, cwd)
    if not rows:
        files = ", ".join(config.paths) or "no config found"
        what = f"for {events[0]}" if event else "at all"
        streams.stdout.write(f"no hooks would run {what} ({files})\n")
        return 0
    head = ["event", "#", "name", "matcher", "sub-agents", "runs", "source"]
    streams.stdout.write(table([head, *rows]) + "\n")
    return 0


def schema_command(streams: Streams) -> int:
    from hookrun.config import json_schema

    streams.stdout.write(json.dumps(json_schema(), indent=2) + "\n")
    return 0
