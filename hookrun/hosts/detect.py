"""``--host auto``: which host called, from its environment, its event name, its payload.

The table, first match wins (README "Which host called?" documents the same):

1. **Environment variables the host sets for its hooks** — ``CLAUDE_CODE_SESSION_ID``
   equal to the payload's session (Claude Code), ``GEMINI_SESSION_ID`` (Gemini CLI; equal
   to the payload's session when it has one), ``COPILOT_CLI=1`` (Copilot CLI),
   ``CURSOR_VERSION`` (Cursor), ``CRUSH=1`` with
   ``AGENT=crush`` (Crush) — taken only when that host knows the event name (a
   variable inherited from an outer host must not win over the event actually sent),
   and never under ``HOOKRUN=1``: hookrun sets ``CRUSH_*`` / ``CLAUDE_PROJECT_DIR`` for
   its own hooks, so a nested ``hookrun run`` would read its parent's variables.
2. **The event name's spelling** when only one host uses it: Gemini's ``BeforeTool``,
   ``AfterAgent``, …; Copilot's ``agentStop``, ``userPromptSubmitted``, …; Cursor's
   ``beforeShellExecution``, ``stop``, …
3. **Payload fields**: Crush sends ``event`` and no ``hook_event_name``; Copilot's
   camelCase payloads ``sessionId``/``toolName``; Cursor ``conversation_id`` /
   ``cursor_version``; Codex ``turn_id``, a ``model`` on tool events, ``call_…`` tool
   ids; Claude Code ``prompt_id``, ``effort``, ``toolu_…`` tool ids; a transcript under
   ``/.claude/``, ``/.codex/``, ``/.gemini/`` or ``/.copilot/``; Copilot's PascalCase
   mode an ISO ``timestamp`` with no transcript of another host.
4. Still undecided: a payload with ``hook_event_name`` came from one of Claude Code,
   Codex or Copilot → :func:`hookrun.hosts.claude.ambiguous_answer` (an answer all three read); a
   payload without it (a person, a script) → hookrun's own shape.
"""

from __future__ import annotations

from collections.abc import Mapping

from hookrun.hosts import OWNERS
from hookrun.records import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from typing import Any

AMBIGUOUS = "ambiguous"


class Detection(NamedTuple):
    host: str  # a host name, or AMBIGUOUS
    why: str  # which row of the table decided, for --trace


# Event names only one host uses → that host (the static table: no host module loads).
_UNIQUE = {name: hosts[0] for name, hosts in OWNERS.items() if len(hosts) == 1}


def _env_host(env: Mapping[str, str], payload: Mapping[str, Any]) -> str | None:
    if env.get("HOOKRUN") == "1":
        return None
    session = payload.get("session_id", payload.get("sessionId"))
    # A session id in the environment is only the caller's when the payload's agrees:
    # these variables are inherited by every process a host starts (a Codex run
    # launched from Claude Code's shell still has CLAUDE_CODE_SESSION_ID).
    if env.get("CLAUDE_CODE_SESSION_ID") and env["CLAUDE_CODE_SESSION_ID"] == session:
        return "claude"
    gemini_session = env.get("GEMINI_SESSION_ID")
    if gemini_session and (session is None or gemini_session == session):
        return "gemini"
    if env.get("CURSOR_VERSION"):
        return "cursor"
    if env.get("COPILOT_CLI") == "1":  # verified with Copilot CLI 1.0.102
        return "copilot"
    if env.get("CRUSH") == "1" and env.get("AGENT") == "crush":
        return "crush"
    return None


def _knows(host: str, event: str) -> bool:
    if host == "crush":
        from hookrun.hosts import crush  # the host picked: its module is the one to load

        return crush.canonical(event) is not None
    return host in ("claude", "gemini", "cursor", "copilot") and host in OWNERS.get(event, ())


def _transcript_host(payload: Mapping[str, Any]) -> str | None:
    path = payload.get("transcript_path") or payload.get("transcriptPath")
    if not isinstance(path, str):
        return None
    path = path.replace("\\", "/")
    for marker, host in (
        ("/.claude/", "claude"),
        ("/.codex/", "codex"),
        ("/.gemini/", "gemini"),
        ("/.copilot/", "copilot"),
    ):
        if marker in path:
            return host
    return None


def _payload_host(event: str, payload: Mapping[str, Any]) -> tuple[str, str] | None:
    # A field of the wrong type counts as absent, here as in the runner.
    if isinstance(payload.get("event"), str) and not isinstance(
        payload.get("hook_event_name"), str
    ):
        return "crush", 'payload has "event" and no "hook_event_name"'
    if "sessionId" in payload or "toolName" in payload:
        return "copilot", "camelCase payload (sessionId/toolName)"
    if "conversation_id" in payload or "cursor_version" in payload:
        return "cursor", "payload has conversation_id/cursor_version"
    by_transcript = _transcript_host(payload)
    if by_transcript is not None:
        return by_transcript, "transcript_path lies under its config directory"
    tool_use_id = payload.get("tool_use_id")
    if "turn_id" in payload or (isinstance(tool_use_id, str) and tool_use_id.startswith("call_")):
        return "codex", "payload has turn_id (or a call_… tool id)"
    if "prompt_id" in payload or "effort" in payload:
        return "claude", "payload has prompt_id/effort"
    if isinstance(tool_use_id, str) and tool_use_id.startswith("toolu_"):
        return "claude", "toolu_… tool id"
    if isinstance(payload.get("timestamp"), str) and isinstance(
        payload.get("hook_event_name"), str
    ):
        # Gemini sends an ISO timestamp too, always with its transcript (matched above).
        return "copilot", "ISO timestamp with a PascalCase event (Copilot's VS Code format)"
    return None


def detect(event: str, payload: Mapping[str, Any], env: Mapping[str, str]) -> Detection:
    """The host that most likely sent ``event`` with ``payload`` (see the module doc)."""
    from_env = _env_host(env, payload)
    if from_env is not None and _knows(from_env, event):
        return Detection(from_env, "environment variable set by the host")
    unique = _UNIQUE.get(event)
    if unique is not None:
        return Detection(unique, f"event name {event!r} is only {unique}'s")
    found = _payload_host(event, payload)
    if found is not None:
        return Detection(found[0], found[1])
    if "copilot" in OWNERS.get(event, ()) and event[:1].islower():
        # camelCase names Copilot and Cursor share, without either's payload fields.
        return Detection(AMBIGUOUS, f"camelCase {event!r} without Copilot's or Cursor's fields")
    if isinstance(payload.get("hook_event_name"), str):
        return Detection(AMBIGUOUS, "Claude Code, Codex and Copilot send this payload alike")
    return Detection("hookrun", "no host's mark: hookrun's own shape")
