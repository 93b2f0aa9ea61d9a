"""ssot-guard (seed 003 #8 SSOT write guard + #14 progress status mutation guard).

``progress.md`` and ``metadata.yaml`` are Ralph's single source of truth; the
orchestrator routes on them, so a bad write silently skips or re-runs tasks.

progress.md (globs ``progress``):
  * every task status line written (``- [?] task-…`` / ``- [?] plan-…``) must carry one
    of ``[ ] [/] [P] [x] [F] [C]`` → BLOCK otherwise (the seed's message);
  * a status change that skips a step (``[ ]`` → ``[x]``) → WARN. Allowed: ``[ ]``→``[/]``,
    ``[/]``→``[P]``/``[F]``, ``[P]``→``[x]``/``[/]``, ``[F]``→``[ ]``/``[/]`` (replanning and
    rework reset failed tasks), anything → ``[C]``;
  * a task id listed twice in the resulting file → WARN.

metadata.yaml (globs ``metadata``): the file as it will be after the write (an Edit
is applied to the file on disk) is parsed with a small YAML subset parser:
  * not parseable → BLOCK; ``orchestrator.state`` not one of ``states`` → BLOCK;
    ``iteration`` not a positive integer → BLOCK;
  * a session's root ``metadata.yaml`` missing a ``required`` field → BLOCK
    (``iterations/<n>/metadata.yaml`` checks ``iteration_required``, default none);
  * timing fields (``*_at``, ``*_time``, ``timestamp``, ``started``…) not ISO 8601 → WARN.

Fail-closed (seed 003: "SSOT corruption is the most dangerous failure mode").
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any, NamedTuple

from hookrun import fields as pl
from hookrun.hooks import file_edit, ralph_common, state, yaml_doc
from hookrun.hooks.base import ALLOW, Policy, PolicyContext, Verdict

STATUSES = (" ", "/", "P", "x", "F", "C")
_ALLOWED_SHOWN = "[ ], [/], [P], [x], [F], [C]"
TRANSITIONS = {(" ", "/"), ("/", "P"), ("/", "F"), ("P", "x"), ("P", "/"), ("F", " "), ("F", "/")}

# The orchestrator's states (Ralph v2 state machine).
RALPH_STATES = (
    "INITIALIZING",
    "PLANNING",
    "BATCHING",
    "EXECUTING_BATCH",
    "REVIEWING_BATCH",
    "SESSION_REVIEW",
    "COMPLETE",
    "REPLANNING",
)
# Ralph v2's schema for a session's metadata.yaml.
REQUIRED = (
    "version",
    "session_id",
    "created_at",
    "updated_at",
    "iteration",
    "orchestrator.state",
    "tasks.total",
    "tasks.completed",
    "tasks.failed",
    "tasks.pending",
)

_TIMING_KEY = re.compile(r"(?:_at|_time|timestamp|started|completed_on|finished|deadline)\Z")
_ISO = re.compile(
    r"\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?\Z"
)
_CHECKMARKS = {"✓", "✔", "☑", "✅", "X", "done", "DONE"}


class SsotOptions(NamedTuple):
    tools: tuple[str, ...] = file_edit.WRITE_TOOLS
    progress: tuple[str, ...] = (f"{ralph_common.SESSIONS_DIR}/**/progress.md",)
    metadata: tuple[str, ...] = (f"{ralph_common.SESSIONS_DIR}/**/metadata.yaml",)
    task_prefixes: tuple[str, ...] = ("task-", "plan-")
    states: tuple[str, ...] = RALPH_STATES
    required: tuple[str, ...] = REQUIRED
    iteration_required: tuple[str, ...] = ()


def _status_re(prefixes: tuple[str, ...]) -> re.Pattern[str]:
    alt = "|".join(re.escape(p) for p in prefixes)
    return re.compile(rf"^\s*[-*+]\s+\[(?P<mark>[^\]]*)\]\s+(?P<id>(?:{alt})[\w.-]*)", re.MULTILINE)


def statuses(text: str, prefixes: tuple[str, ...]) -> Iterator[tuple[int, str, str]]:
    """(line number, task id, status mark) of each task status line in ``text``."""
    for m in _status_re(prefixes).finditer(text):
        yield text.count("\n", 0, m.start()) + 1, m.group("id"), m.group("mark")


def check_progress(
    new_text: str, old_text: str | None, after: str | None, prefixes: tuple[str, ...]
) -> tuple[list[str], list[str]]:
    """(blocks, warns) for writing ``new_text`` over ``old_text``; ``after`` = whole file."""
    blocks, warns = [], []
    for line, task, mark in statuses(new_text, prefixes):
        if mark not in STATUSES:
            hint = " Use [x] for completed tasks." if mark.strip() in _CHECKMARKS else ""
            blocks.append(
                f"Invalid status '[{mark}]' for {task} (line {line} of the new text). "
                f"Allowed: {_ALLOWED_SHOWN}.{hint}"
            )
    if old_text is not None:
        before = {task: mark for _, task, mark in statuses(old_text, prefixes)}
        for _, task, mark in statuses(new_text, prefixes):
            old = before.get(task)
            valid = old is None or old == mark or mark == "C" or (old, mark) in TRANSITIONS
            if not valid and mark in STATUSES and old in STATUSES:
                warns.append(
                    f"{task}: status [{old}] → [{mark}] skips the workflow "
                    "([ ]→[/]→[P]→[x], failures [/]→[F]→[ ] or [/])."
                )
    if after is not None:
        seen: dict[str, int] = {}
        for _, task, _mark in statuses(after, prefixes):
            seen[task] = seen.get(task, 0) + 1
        dups = [t for t, n in seen.items() if n > 1]
        if dups:
            warns.append(f"task ids listed more than once: {', '.join(dups)}.")
    return blocks, warns


def _timing_fields(data: Any, prefix: str = "") -> Iterator[tuple[str, Any]]:
    if isinstance(data, dict):
        for key, value in data.items():
            path = f"{prefix}{key}"
            if isinstance(value, dict):
                yield from _timing_fields(value, path + ".")
            elif _TIMING_KEY.search(str(key)) and value is not None:
                yield path, value


def check_metadata(
    text: str, *, required: tuple[str, ...], states: tuple[str, ...]
) -> tuple[list[str], list[str]]:
    try:
        data = yaml_doc.parse(text)
    except yaml_doc.YamlError as e:
        return [f"metadata.yaml is not valid YAML: {e}."], []
    if not isinstance(data, dict):
        return ["metadata.yaml must be a mapping of fields (key: value lines)."], []
    blocks, warns = [], []
    missing = [f for f in required if not yaml_doc.dig(data, f)[0]]
    if missing:
        blocks.append(f"metadata.yaml lacks required field(s): {', '.join(missing)}.")
    found, value = yaml_doc.dig(data, "orchestrator.state")
    if found and value not in states:
        blocks.append(f"Unknown orchestrator.state {value!r}. Valid states: {', '.join(states)}.")
    found, value = yaml_doc.dig(data, "iteration")
    if found and not (isinstance(value, int) and not isinstance(value, bool) and value > 0):
        blocks.append(f"iteration must be a positive integer, found {value!r}.")
    for path, value in _timing_fields(data):
        if not (isinstance(value, str) and _ISO.match(value.strip())):
            warns.append(f"{path} = {value!r} is not an ISO 8601 timestamp.")
    return blocks, warns


def decide(payload: Mapping[str, Any], opts: SsotOptions, ctx: PolicyContext) -> Verdict:
    if not file_edit.any_tool_in(pl.tool_names(payload), opts.tools):
        return ALLOW
    norm = file_edit.target(payload, ctx)
    if norm is None or norm.rel is None:
        return ALLOW
    is_progress = file_edit.matches_any(norm.rel, opts.progress, ignore_case=norm.ignore_case)
    is_metadata = not is_progress and file_edit.matches_any(
        norm.rel, opts.metadata, ignore_case=norm.ignore_case
    )
    if not (is_progress or is_metadata):
        return ALLOW
    call = file_edit.parse(payload)
    if call is None or call.kind == "other":
        return ALLOW
    try:
        current = file_edit.read_text(norm.absolute)
    except OSError as e:
        raise state.StateError(
            f"ssot-guard: cannot read {norm.rel} to validate the write: {e.strerror or e}"
        ) from None
    after = call.content if call.kind == "write" else None
    if call.kind == "edit" and current is not None:
        after = file_edit.apply(current, call.edits)
    if is_progress:
        old = current if call.kind == "write" else "\n".join(e.old for e in call.edits)
        blocks, warns = check_progress(call.new_text, old, after, opts.task_prefixes)
        return ralph_common.verdict(
            "ssot-guard", blocks, warns, "ralph.ssot.progress", file=norm.rel
        )
    if after is None:
        return ALLOW  # an Edit of a file that is missing or does not hold old_string
    in_iteration = "/iterations/" in f"/{norm.rel}"
    required = opts.iteration_required if in_iteration else opts.required
    blocks, warns = check_metadata(after, required=required, states=opts.states)
    return ralph_common.verdict("ssot-guard", blocks, warns, "ralph.ssot.metadata", file=norm.rel)


SSOT_GUARD: Policy[SsotOptions] = Policy(
    name="ssot-guard",
    options=SsotOptions,
    decide=decide,
)
