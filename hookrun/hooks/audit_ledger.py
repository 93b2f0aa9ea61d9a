"""audit-ledger (seed 003 #17 tool usage ledger, #19 policy denial audit; seed 000 audit).

A PostToolUse hook that appends one JSON line per tool call to ``path`` (default
``.hookrun/logs/tool-usage.jsonl``, relative to the project)::

    {"time": "2026-02-15T17:33:19.120Z", "event": "PostToolUse", "session": "…",
     "agent": "Backend", "tool": "Bash", "args": {"command": "npm test"},
     "status": "ok", "exit_code": 0, "duration_ms": 812}

* ``args`` is bounded: each string is cut at ``max_arg_chars`` (default 200) with the
  number of characters left out, nested values are summarised the same way, and
  values under keys that look secret or bulky (``content``, ``token``, ``password``,
  ``secret``, ``key``, ``auth``… — ``redact_keys``, seed 004's list) become
  ``"[REDACTED:<n> chars]"``: a ledger must not become a second copy of every file
  and credential the agent touched.
* ``status``: ``error`` when the payload carries an error (``error`` field,
  ``PostToolUseFailure``, ``tool_response.is_error``/``isError``/``success: false``,
  a non-zero exit code), else ``ok``.

With ``kind: "denials"`` it is the denial ledger (default path
``.hookrun/logs/policy-denials.jsonl``): it records only calls the payload says were
denied, with ``rule`` and ``reason``. How a host feeds denials: call this hook on
``PostToolUseFailure`` / ``PermissionRequest`` (and on ``PreToolUse`` after other
policies, for hosts that pass the decision on), where the payload says so:
``decision``/``permission_decision``/``permissionDecision`` = deny/block/denied,
``denied: true``, or an error text mentioning "denied"/"blocked by hook".
hookrun's own decisions are already recorded by the config's ``audit_log``.

Lines are appended with O_APPEND, under a lock, one write each (see
:func:`hookrun.hooks.state.append_line`), so 20 agents logging at once never
interleave. The policy never has an opinion on the call itself.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from datetime import datetime, timezone
from typing import Annotated, Any, Literal, NamedTuple

from hookrun import fields as pl
from hookrun.hooks import ralph_common, state
from hookrun.hooks.base import ALLOW, Policy, PolicyContext, Verdict
from hookrun.hooks.options import AtLeast

DEFAULT_PATHS = {
    "tools": ".hookrun/logs/tool-usage.jsonl",
    "denials": ".hookrun/logs/policy-denials.jsonl",
}
REDACT_KEYS = (
    "content",
    "new_string",
    "old_string",
    "file_text",
    "new_source",
    "edits",
    "query",
    "token",
    "secret",
    "password",
    "passwd",
    "key",
    "auth",
    "credential",
    "cookie",
)
_DENY_WORDS = {"deny", "denied", "block", "blocked", "reject", "rejected"}
_DENIED_TEXT = re.compile(r"\b(denied|blocked by (?:a )?hook|permission denied by)\b", re.I)


class AuditLedgerOptions(NamedTuple):
    kind: Literal["tools", "denials"] = "tools"
    # Relative to the project dir; default per kind. "{session_id}" is replaced by the
    # Ralph session id (or the host's), so Ralph's per-session logs/ folder works.
    path: str | None = None
    max_arg_chars: Annotated[int, AtLeast(0)] = 200
    redact_keys: tuple[str, ...] = REDACT_KEYS


def _cut(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    return f"{text[:limit]}…(+{len(text) - limit} chars)"


def summarize(value: Any, opts: AuditLedgerOptions, depth: int = 0) -> Any:
    """A bounded, secret-free copy of tool arguments."""
    if isinstance(value, str):
        return _cut(value, opts.max_arg_chars)
    if isinstance(value, Mapping):
        if depth >= 2:
            return _cut(json.dumps(value, default=str, ensure_ascii=False), opts.max_arg_chars)
        out: dict[str, Any] = {}
        for key, item in list(value.items())[:50]:
            folded = str(key).casefold()
            if any(k.casefold() in folded for k in opts.redact_keys):
                size = len(item) if isinstance(item, str | list | dict) else len(str(item))
                unit = "chars" if isinstance(item, str) else "items"
                out[str(key)] = f"[REDACTED:{size} {unit}]"
            else:
                out[str(key)] = summarize(item, opts, depth + 1)
        return out
    if isinstance(value, list):
        items = [summarize(v, opts, depth + 1) for v in value[:20]]
        if len(value) > 20:
            items.append(f"…(+{len(value) - 20} items)")
        return items
    if value is None or isinstance(value, bool | int | float):
        return value
    return _cut(str(value), opts.max_arg_chars)


def _response(payload: Mapping[str, Any]) -> Any:
    for key in ("tool_response", "tool_output", "toolResult", "result"):
        if key in payload:
            return payload[key]
    return None


def outcome(payload: Mapping[str, Any], event: str) -> dict[str, Any]:
    """status / exit_code / error, from whatever the host said about the result."""
    out: dict[str, Any] = {}
    response = _response(payload)
    error = payload.get("error")
    flagged = False
    if isinstance(response, Mapping):
        for key in ("exit_code", "exitCode", "returncode", "status_code"):
            code = response.get(key)
            if isinstance(code, int) and not isinstance(code, bool):
                out["exit_code"] = code
                break
        flagged = (
            response.get("is_error") is True
            or response.get("isError") is True
            or response.get("success") is False
            or out.get("exit_code", 0) != 0
        )
        if not error:
            error = response.get("error") or (response.get("stderr") if flagged else None)
    failed = event.casefold() == "posttoolusefailure" or flagged or bool(error)
    out["status"] = "error" if failed else "ok"
    if error:
        text = error if isinstance(error, str) else json.dumps(error, default=str)
        out["error"] = _cut(text, 500)
    return out


def denial(payload: Mapping[str, Any]) -> tuple[str | None, str | None] | None:
    """(rule, reason) when the payload says the call was denied, else None."""
    for key in ("decision", "permission_decision", "permissionDecision", "behavior"):
        value = payload.get(key)
        if isinstance(value, str) and value.casefold() in _DENY_WORDS:
            break
    else:
        error = payload.get("error")
        text = error if isinstance(error, str) else None
        if payload.get("denied") is not True and not (text and _DENIED_TEXT.search(text)):
            return None
    reason = pl.field_str(
        payload, "reason", "permissionDecisionReason", "permission_decision_reason", "error"
    )
    rule = pl.field_str(payload, "rule", "rule_id", "ruleId")
    return rule, (_cut(reason, 1000) if reason else None)


def _now() -> str:
    now = datetime.now(timezone.utc)
    return now.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def record(payload: Mapping[str, Any], opts: AuditLedgerOptions) -> dict[str, Any] | None:
    """The JSON line to append for ``payload``, or None when there is nothing to log."""
    event = pl.field_str(payload, "hook_event_name", "event") or ""
    line: dict[str, Any] = {"time": _now(), "event": event or None}
    line["session"] = pl.session_id(payload) or None
    agent = pl.agent_name(payload)
    if agent:
        line["agent"] = agent
    line["tool"] = pl.tool_name(payload) or None
    line["args"] = summarize(dict(pl.tool_input(payload)), opts)
    if opts.kind == "denials":
        found = denial(payload)
        if found is None:
            return None
        line["rule"], line["reason"] = found
        return line
    line.update(outcome(payload, event))
    duration = payload.get("duration_ms") or payload.get("durationMs")
    if isinstance(duration, int | float) and not isinstance(duration, bool):
        line["duration_ms"] = duration
    return line


def decide(payload: Mapping[str, Any], opts: AuditLedgerOptions, ctx: PolicyContext) -> Verdict:
    line = record(payload, opts)
    if line is None:
        return ALLOW
    path = opts.path or DEFAULT_PATHS[opts.kind]
    if "{session_id}" in path:
        sid = ralph_common.ralph_session_id(payload, ctx.env) or "no-session"
        # The id becomes a folder name: keep it one safe path segment.
        path = path.replace("{session_id}", re.sub(r"[^\w.-]", "_", sid).lstrip(".") or "_")
    state.append_line(os.path.join(ctx.project_dir, path), line)
    return ALLOW


POLICY: Policy[AuditLedgerOptions] = Policy(
    name="audit-ledger",
    options=AuditLedgerOptions,
    decide=decide,
)
