"""The aggregated answer in the shapes Claude Code and Crush read from a hook's stdout.

With these, ``hookrun run EVENT --format claude|crush`` is itself a valid hook for
those hosts: the host sees one hook, hookrun runs the many.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hookrun.runner.result import RunResult

# Events where Claude Code reads a top-level {"decision": "block", "reason": …}.
_CLAUDE_BLOCK_EVENTS = frozenset({"PostToolUse", "UserPromptSubmit", "Stop", "SubagentStop"})
# Events whose hookSpecificOutput carries additionalContext.
_CLAUDE_CONTEXT_EVENTS = frozenset(
    {"PreToolUse", "PostToolUse", "UserPromptSubmit", "SessionStart", "PostToolUseFailure"}
)


def _context_text(result: RunResult) -> str | None:
    """Context plus a "referenced files" note: Claude Code has no context_files field,
    so the paths go to the model as text, as the seed's design shows them."""
    parts = list(result.context)
    if result.context_files:
        parts.append("Referenced files:\n" + "\n".join(f"- {p}" for p in result.context_files))
    return "\n".join(parts) if parts else None


def to_claude(result: RunResult) -> dict[str, Any]:
    """Claude Code's hook output JSON.

    PreToolUse → ``hookSpecificOutput.permissionDecision`` (+ reason, ``updatedInput``
    as the whole merged input, ``additionalContext``); PermissionRequest →
    ``hookSpecificOutput.decision.behavior``; PostToolUse / UserPromptSubmit / Stop /
    SubagentStop deny → ``decision: "block"`` + ``reason``; halt → ``continue: false`` +
    ``stopReason``. Claude Code cannot rewrite a prompt, so ``updated_prompt`` has no
    equivalent there and is left out.
    """
    event = result.event
    out: dict[str, Any] = {}
    if result.halt:
        out["continue"] = False
        out["stopReason"] = result.reason or "halted by hookrun"
    if result.system_message:
        out["systemMessage"] = result.system_message
    specific: dict[str, Any] = {"hookEventName": event}
    if event == "PreToolUse":
        if result.decision is not None:
            specific["permissionDecision"] = result.decision
            if result.reason:
                specific["permissionDecisionReason"] = result.reason
        if result.updated_input is not None:
            specific["updatedInput"] = dict(result.updated_input)
    elif event == "PermissionRequest":
        if result.decision in ("allow", "deny"):
            decision: dict[str, Any] = {"behavior": result.decision}
            if result.decision == "deny" and result.reason:
                decision["message"] = result.reason
            if result.decision == "allow" and result.updated_input is not None:
                decision["updatedInput"] = dict(result.updated_input)
            specific["decision"] = decision
    elif event in _CLAUDE_BLOCK_EVENTS and result.decision == "deny":
        out["decision"] = "block"
        out["reason"] = result.reason or "blocked by hookrun"
    if event == "PostToolUse" and result.updated_output is not None:
        specific["updatedMCPToolOutput"] = result.updated_output
    context = _context_text(result)
    if context and event in _CLAUDE_CONTEXT_EVENTS:
        specific["additionalContext"] = context
    if len(specific) > 1:
        out["hookSpecificOutput"] = specific
    return out


def to_crush(result: RunResult) -> dict[str, Any]:
    """Crush's hook envelope (``version``, ``decision``, ``halt``, ``reason``, ``context``,
    ``context_files``, ``updated_input``, ``updated_prompt``, ``updated_output``).

    ``updated_input`` is the whole merged input; Crush shallow-merges it onto the
    original, which yields the same input. Empty fields are left out.
    """
    out: dict[str, Any] = {"version": 1}
    if result.decision is not None:
        out["decision"] = result.decision
    if result.halt:
        out["halt"] = True
    if result.reason:
        out["reason"] = result.reason
    if result.context:
        out["context"] = list(result.context)
    if result.context_files:
        out["context_files"] = list(result.context_files)
    if result.updated_input is not None:
        out["updated_input"] = dict(result.updated_input)
    if result.updated_prompt is not None:
        out["updated_prompt"] = result.updated_prompt
    if result.updated_output is not None:
        out["updated_output"] = result.updated_output
    if result.system_message:
        out["system_message"] = result.system_message
    return out
