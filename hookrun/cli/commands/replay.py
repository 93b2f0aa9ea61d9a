"""``hookrun replay SOURCE``: what a config would have decided for past events.

Nothing may change while the past is re-decided: the built-in policies work on a
scratch copy of the project's ``.hookrun/state`` (lockout registry, ask counters),
no audit line is written, and no process is started — every external command of a
hook (a script, or ``jq`` inside an inline hook) fails with exit 126 unless
``--allow-commands`` says the hooks may run for real.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from hookrun import hosts
from hookrun.cli import CliError
from hookrun.cli.configfiles import load_config, project_dir, resolve_cwd
from hookrun.cli.signals import RemovedOnSignals
from hookrun.replay.compare import changes
from hookrun.replay.sources import Kind, PastEvent, Skipped, SourceError, read
from hookrun.runner import PayloadError, Runner
from hookrun.runner.audit import scrubbed
from hookrun.runner.result import RunResult
from hookrun.runner.wire import write

if TYPE_CHECKING:
    from hookrun.cli.commands.run import Streams

REFUSED = "not run by hookrun replay (pass --allow-commands to let hooks start processes)"


def _subject(payload: Mapping[str, Any]) -> str:
    tool = payload.get("tool_name", payload.get("toolName"))  # Copilot's camelCase too
    tool_input = payload.get("tool_input", payload.get("toolArgs"))
    detail = ""
    if isinstance(tool_input, Mapping):
        for key in ("command", "file_path", "path", "url", "pattern"):
            if isinstance(tool_input.get(key), str):
                detail = tool_input[key]
                break
    text = f"{tool or ''} {detail}".strip()
    text = " ".join(text.split())
    return text if len(text) <= 60 else text[:59] + "…"


def replay_event(runner: Runner, past: PastEvent, root: str) -> tuple[RunResult | None, str | None]:
    """The new answer for one past event, or why it could not be re-decided."""
    payload = dict(past.payload)
    if past.host is not None and past.host_event is not None:
        payload = hosts.get(past.host).payload_in(past.host_event, past.event, payload)
    cwd = payload.get("cwd")
    if not isinstance(cwd, str) or not os.path.isdir(cwd):
        payload["cwd"] = root  # recorded elsewhere, or since deleted
    try:
        return runner.run(past.event, payload), None
    except PayloadError as exc:
        return None, f"bad payload: {exc}"


def replay_command(
    source: str,
    configs: Sequence[str],
    *,
    kind: Kind | None,
    allow_commands: bool,
    as_json: bool,
    show_all: bool,
    streams: Streams,
) -> int:
    cwd = resolve_cwd()
    root = project_dir(cwd)
    try:
        events, skipped = read(source, kind)
    except SourceError as exc:
        raise CliError(str(exc)) from None
    config = load_config(configs, cwd)._replace(audit_log=None, audit_payload=False)
    rows: list[dict[str, Any]] = []
    summary: Counter[str] = Counter()
    with (
        tempfile.TemporaryDirectory(prefix="hookrun-replay-") as scratch,
        RemovedOnSignals(scratch),
    ):
        state = os.path.join(scratch, "state")
        original = os.path.join(root, ".hookrun", "state")
        if os.path.isdir(original):
            shutil.copytree(original, state, symlinks=True)
        with Runner(
            config,
            cwd=root,
            project_dir=root,
            state_dir=state,
            refuse_processes=None if allow_commands else REFUSED,
        ) as runner:
            for past in events:
                result, problem = replay_event(runner, past, root)
                if result is None:
                    skipped.append(Skipped(past.origin, problem or "could not be re-decided"))
                    continue
                found = changes(past.before, _comparable(result))
                summary.update(found or ["unchanged"])
                if found or show_all:
                    rows.append(_row(past, result, found))
    if as_json:
        write(
            streams.stdout,
            {
                "source": source,
                "events": len(events),
                "changed": sum(1 for r in rows if r["changes"]),
                "summary": dict(summary),
                "skipped": [{"origin": s.origin, "why": s.why} for s in skipped],
                "rows": rows,
            },
        )
        return 0
    _print_table(source, events, skipped, rows, summary, allow_commands, streams)
    return 0


def _comparable(result: RunResult) -> RunResult:
    # The audit log keeps context and rewritten input scrubbed: compare like with like.
    return result._replace(
        context=tuple(scrubbed({"c": list(result.context)})["c"]),
        updated_input=None if result.updated_input is None else scrubbed(result.updated_input),
    )


def _row(past: PastEvent, result: RunResult, found: list[str]) -> dict[str, Any]:
    return {
        "origin": past.origin,
        "event": past.event,
        "subject": _subject(past.payload),
        "changes": found,
        "before": {
            "decision": past.before.decision,
            "halt": past.before.halt,
            "reason": past.before.reason,
        },
        "after": {
            "decision": result.decision,
            "halt": result.halt,
            "reason": result.reason,
            "context": list(result.context),
            "deciders": [h.name for h in result.hooks if h.decision in ("deny", "ask") or h.halt],
        },
    }


def _print_table(
    source: str,
    events: Sequence[PastEvent],
    skipped: Sequence[Skipped],
    rows: Sequence[dict[str, Any]],
    summary: Counter[str],
    allow_commands: bool,
    streams: Streams,
) -> None:
    out = streams.stdout
    changed = sum(1 for r in rows if r["changes"])
    out.write(
        f"replayed {len(events)} event{'' if len(events) == 1 else 's'} from {source}: "
        f"{changed} would change\n"
    )
    if rows:
        table = [["where", "event", "call", "change", "now"]]
        for r in rows:
            after = r["after"]
            now = after["reason"] or ", ".join(after["context"]) or "-"
            who = ", ".join(after["deciders"])
            now = " ".join(f"{who + ': ' if who else ''}{now}".split())
            table.append(
                [
                    r["origin"],
                    r["event"],
                    r["subject"] or "-",
                    "; ".join(r["changes"]) or "unchanged",
                    now if len(now) <= 70 else now[:69] + "…",
                ]
            )
        widths = [max(len(row[i]) for row in table) for i in range(len(table[0]) - 1)]
        for row in table:
            cells = [cell.ljust(width) for cell, width in zip(row, widths, strict=False)]
            out.write("  " + "  ".join([*cells, row[-1]]).rstrip() + "\n")
    if summary:
        out.write("summary: " + ", ".join(f"{k} {v}" for k, v in sorted(summary.items())) + "\n")
    for skip in skipped:
        out.write(f"skipped {skip.origin}: {skip.why}\n")
    if not allow_commands:
        out.write(
            "note: no process was started; hooks that run external commands failed "
            "(exit 126) — --allow-commands runs them for real\n"
        )
