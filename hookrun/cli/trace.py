"""``hookrun run --trace``: a readable table of what ran and why the answer is what it is.

A pure function over the aggregated answer (``RunResult.to_dict()``), so the
table is tested without running anything and never drifts from the JSON.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

_DETAIL_MAX = 72  # keep one hook on one terminal line; the JSON has the full text


def _one_line(text: str, limit: int = _DETAIL_MAX) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _cell(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.1f}"
    return str(value)


def _detail(hook: Mapping[str, Any]) -> str:
    parts: list[str] = []
    if hook.get("timed_out"):
        parts.append("timed out")
    if hook.get("halt"):
        parts.append("HALT")
    if hook.get("error"):
        parts.append(f"error: {hook['error']}")
    if hook.get("reason"):
        parts.append(str(hook["reason"]))
    return _one_line("; ".join(parts)) if parts else ""


def table(rows: Sequence[Sequence[str]]) -> str:
    """Left-aligned columns separated by two spaces; the last column is not padded."""
    if not rows:
        return ""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
    lines = []
    for row in rows:
        cells = [cell.ljust(width) for cell, width in zip(row, widths, strict=False)] + [row[-1]]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


def render(answer: Mapping[str, Any], *, exit_code: int) -> str:
    """The trace: one row per hook in config order, then the final decision."""
    hooks: Sequence[Mapping[str, Any]] = answer.get("hooks") or []
    event = answer.get("event", "?")
    head = f"hookrun trace: {event}: {len(hooks)} hook{'' if len(hooks) == 1 else 's'} ran"
    lines = [head]
    if hooks:
        rows = [["#", "hook", "route", "exit", "ms", "decision", "detail", "source"]]
        for i, hook in enumerate(hooks):
            rows.append(
                [
                    str(i),
                    _cell(hook.get("name")),
                    _cell(hook.get("route")),
                    _cell(hook.get("exit_code")),
                    _cell(hook.get("duration_ms")),
                    _cell(hook.get("decision")),
                    _detail(hook) or "-",
                    _cell(hook.get("source")),
                ]
            )
        lines.append(table(rows))
    final = f"=> decision: {_cell(answer.get('decision'))}  halt: {_cell(answer.get('halt'))}"
    final += f"  exit: {exit_code}"
    if answer.get("reason"):
        final += f"  reason: {_one_line(str(answer['reason']))}"
    lines.append(final)
    extras = [
        ("updated_input", answer.get("updated_input")),
        ("updated_prompt", answer.get("updated_prompt")),
        ("updated_output", answer.get("updated_output")),
        ("context", answer.get("context") or None),
        ("context_files", answer.get("context_files") or None),
    ]
    for key, value in extras:
        if value is not None:
            lines.append(f"   {key}: {_one_line(_compact(value), 100)}")
    return "\n".join(lines) + "\n"


def _compact(value: Any) -> str:
    from hookrun.runner import wire

    return value if isinstance(value, str) else wire.dumps(value)
