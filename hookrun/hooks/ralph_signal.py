"""signal-schema (seed 003 #29): live signal files the orchestrator can act on.

A write to ``<session>/signals/inputs/*.yaml`` (globs ``paths``) is checked on the
file as it will be after the write:

* not parseable YAML (:mod:`yaml_doc`), or not a mapping → BLOCK;
* ``type`` missing or not one of ``types`` (STEER, PAUSE, ABORT, INFO, APPROVE, SKIP) → BLOCK;
* ``message`` missing or blank → BLOCK;
* ``target`` missing → WARN (the orchestrator defaults it to ALL);
* ``iteration`` present but not a positive integer → WARN;
* file name not ``signal.<YYMMDD-HHmmss>.yaml`` → WARN (the signal is still processed).

On SessionStart (the seed's second trigger) the signals already waiting in
``<sessions_dir>/<Ralph session id>/signals/inputs/`` are checked the same way; a file
that is already written cannot be rejected, so every problem is a WARN there.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Mapping
from typing import Any, NamedTuple

from hookrun import fields as pl
from hookrun.hooks import file_edit, ralph_common, state, yaml_doc
from hookrun.hooks.base import ALLOW, Policy, PolicyContext, Verdict

SIGNAL_TYPES = ("STEER", "PAUSE", "ABORT", "INFO", "APPROVE", "SKIP")


class SignalOptions(NamedTuple):
    tools: tuple[str, ...] = file_edit.WRITE_TOOLS
    paths: tuple[str, ...] = (
        f"{ralph_common.SESSIONS_DIR}/*/signals/inputs/*.yaml",
        f"{ralph_common.SESSIONS_DIR}/*/signals/inputs/*.yml",
    )
    types: tuple[str, ...] = SIGNAL_TYPES
    filename_pattern: str = r"^signal\.\d{6}-\d{6}\.ya?ml$"
    sessions_dir: str = ralph_common.SESSIONS_DIR  # SessionStart: where the inbox is
    session_id_pattern: str = ralph_common.SESSION_ID_PATTERN


def check_signal(text: str, filename: str, opts: SignalOptions) -> tuple[list[str], list[str]]:
    try:
        data = yaml_doc.parse(text)
    except yaml_doc.YamlError as e:
        return [f"signal file is not valid YAML: {e}."], []
    if not isinstance(data, dict):
        return ["signal file must be a mapping (type:, message:, target: lines)."], []
    blocks, warns = [], []
    kind = data.get("type")
    allowed = ", ".join(opts.types)
    if kind is None:
        blocks.append(f"Signal type is missing. Must be one of: {allowed}.")
    elif kind not in opts.types:
        hint = " (upper case)" if isinstance(kind, str) and kind.upper() in opts.types else ""
        blocks.append(f"Invalid signal type '{kind}'. Must be one of: {allowed}{hint}.")
    message = data.get("message")
    if not isinstance(message, str) or not message.strip():
        blocks.append("Signal message must be non-empty.")
    if "target" not in data or data.get("target") in (None, ""):
        warns.append("signal has no target; the orchestrator treats it as target: ALL.")
    if "iteration" in data:
        it = data["iteration"]
        if not (isinstance(it, int) and not isinstance(it, bool) and it > 0):
            warns.append(f"iteration must be a positive integer, found {it!r}.")
    if not re.search(opts.filename_pattern, filename):
        warns.append(
            f"file name {filename!r} does not match signal.<YYMMDD-HHmmss>.yaml "
            "(processed anyway; ordering by name may be off)."
        )
    return blocks, warns


def check_inbox(payload: Mapping[str, Any], opts: SignalOptions, ctx: PolicyContext) -> Verdict:
    """SessionStart: WARN about every waiting signal the orchestrator could not act on."""
    sid = ralph_common.ralph_session_id(payload, ctx.env)
    if not sid or not ralph_common.valid_session_id(sid, opts.session_id_pattern):
        return ALLOW
    rel = f"{opts.sessions_dir.rstrip('/')}/{sid}/signals/inputs"
    folder = os.path.join(ctx.project_dir, *rel.split("/"))
    try:
        names = sorted(os.listdir(folder))
    except (FileNotFoundError, NotADirectoryError):
        return ALLOW
    except OSError as e:
        raise state.StateError(f"signal-schema: cannot list {rel}/: {e.strerror or e}") from None
    warns = []
    for name in names:
        if not name.endswith((".yaml", ".yml")):
            continue
        try:
            text = file_edit.read_text(os.path.join(folder, name)) or ""
        except OSError as e:
            warns.append(f"{rel}/{name}: cannot be read ({e.strerror or e}).")
            continue
        blocks, notes = check_signal(text, name, opts)
        warns += [f"{rel}/{name}: {b} The orchestrator cannot act on it." for b in blocks]
        warns += [f"{rel}/{name}: {n}" for n in notes]
    return ralph_common.verdict("signal-schema", [], warns, "ralph.signal")


def decide(payload: Mapping[str, Any], opts: SignalOptions, ctx: PolicyContext) -> Verdict:
    event = (pl.field_str(payload, "hook_event_name", "event") or "").replace("_", "")
    if event.replace("-", "").casefold() == "sessionstart":
        return check_inbox(payload, opts, ctx)
    if not file_edit.any_tool_in(pl.tool_names(payload), opts.tools):
        return ALLOW
    norm = file_edit.target(payload, ctx)
    if norm is None or norm.rel is None:
        return ALLOW
    if not file_edit.matches_any(norm.rel, opts.paths, ignore_case=norm.ignore_case):
        return ALLOW
    call = file_edit.parse(payload)
    if call is None or call.kind == "other":
        return ALLOW
    text = call.content
    if call.kind == "edit":
        try:
            current = file_edit.read_text(norm.absolute)
        except OSError as e:
            raise state.StateError(
                f"signal-schema: cannot read {norm.rel}: {e.strerror or e}"
            ) from None
        text = None if current is None else file_edit.apply(current, call.edits)
    if text is None:
        return ALLOW
    blocks, warns = check_signal(text, posixpath.basename(norm.rel), opts)
    return ralph_common.verdict("signal-schema", blocks, warns, "ralph.signal", file=norm.rel)


SIGNAL_SCHEMA: Policy[SignalOptions] = Policy(
    name="signal-schema",
    options=SignalOptions,
    decide=decide,
)
