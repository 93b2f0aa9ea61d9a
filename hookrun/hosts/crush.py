"""Crush: ``crush.json`` hooks, the envelope hookrun's own is a superset of.

Crush could not be run here (its npm package downloads its binary from GitHub at
install time); this module follows its source, charmbracelet/crush
``internal/hooks/{hooks,input,runner}.go`` and ``internal/agent/hooked_tool.go``
(commit 37f36e9, 2026-08-21):

- Payload: ``event``, ``session_id``, ``cwd``, ``tool_name``, ``tool_input`` only.
  Only ``PreToolUse`` fires (any spelling: ``pre_tool_use``, ``PRETOOLUSE``…), and
  only for the top-level agent's calls.
- Answer on exit 0: ``version``, ``decision`` (allow/deny), ``halt``, ``reason``,
  ``context``, ``updated_input`` (a shallow-merge patch). Exit 2 denies, exit 49
  halts (stderr is the reason; stdout is then ignored).
- Ignored by Crush today: ``context_files``, ``updated_prompt``, ``updated_output``,
  ``system_message`` and ``ask``. So they are not sent: the files are listed in the
  context, and an ``ask`` denies (Crush would read it as no opinion and run the tool);
  a deny or halt also prints the envelope, which Crush ignores on exit 2/49.
"""

from __future__ import annotations

from collections.abc import Mapping

from hookrun import exitcodes
from hookrun.hosts import base, kinds
from hookrun.records import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

    from hookrun.runner.result import RunResult

TITLE = "Crush"

# Crush folds case and drops "_" before looking a name up (hookrun.hosts.detect does too).
EVENTS: Mapping[str, str] = {"PreToolUse": "PreToolUse"}

TOOLS: Mapping[str, str] = {
    "bash": kinds.SHELL,
    "write": kinds.WRITE,
    "edit": kinds.EDIT,
    "multiedit": kinds.EDIT,
    "view": kinds.READ,
    "glob": kinds.SEARCH,
    "grep": kinds.SEARCH,
    "ls": kinds.SEARCH,
    "fetch": kinds.FETCH,
    "agentic_fetch": kinds.FETCH,
    "web_fetch": kinds.FETCH,
    "web_search": kinds.FETCH,
    "download": kinds.FETCH,
    "sourcegraph": kinds.FETCH,
    "agent": kinds.AGENT,
    "todos": kinds.TODO,
    "question": kinds.ASK,
}


def canonical(name: str) -> str | None:
    """Crush's own normalisation: case-insensitive, underscores dropped."""
    return "PreToolUse" if name.replace("_", "").lower() == "pretooluse" else None


def payload_in(host_event: str, event: str, raw: Mapping[str, Any]) -> dict[str, Any]:
    return base.common_payload(raw, HOST, host_event, event)


def answer(result: RunResult, host_event: str, payload: Mapping[str, Any]) -> base.Answer:
    decision = result.decision
    reason = base.stop_reason(result) if decision == "deny" or result.halt else None
    if decision == "ask" and not result.halt:
        decision = "deny"
        reason = f"{result.reason or 'a hook asked for approval'} ({TITLE} cannot ask: denied)"
    out: dict[str, Any] = {"version": 1}
    if decision in ("allow", "deny"):
        out["decision"] = decision
    if result.halt:
        out["decision"] = "deny"
        out["halt"] = True
    if reason or result.reason:
        out["reason"] = reason or result.reason
    if result.halt or decision == "deny":
        # Crush reads the exit code and stderr here and ignores stdout: the JSON is the
        # same answer, for logs and for a person reading the run.
        code = exitcodes.HALT if result.halt else exitcodes.DENY
        return base.Answer(out, code, reason)
    context = base.context_text(result)
    if context:
        out["context"] = context
    if result.updated_input is not None:
        out["updated_input"] = dict(result.updated_input)
    notes = [
        base.not_applied(TITLE, what)
        for what, value in (
            ("a rewritten prompt", result.updated_prompt),
            ("a rewritten tool output", result.updated_output),
            ("a system message", result.system_message),
        )
        if value is not None
    ]
    return base.Answer(out if len(out) > 1 else None, 0, "\n".join(notes) or None)


HOST = base.Host(
    name="crush",
    title=TITLE,
    events=EVENTS,
    tools=TOOLS,
    mcp_prefix="mcp_",
    payload_in=payload_in,
    answer=answer,
    sub_agent=base.never_sub_agent,
)
