"""Past events, from the records hosts and hookrun keep, with what was decided then.

Each source yields :class:`PastEvent`: the canonical event, the payload hooks
received, and the outcome as far as the record tells it. An entry the record cannot
turn into an event (an audit line without its payload, a malformed line) is counted
and named, never silently dropped.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping
from typing import Any, Literal, NamedTuple

from hookrun.runner.wire import loads

Kind = Literal["audit", "claude", "codex", "gemini", "copilot"]


class Outcome(NamedTuple):
    """What was decided. ``None`` in a field = the record does not say."""

    decision: str | None  # "allow", "deny", "ask", or None (no opinion)
    halt: bool | None
    reason: str | None
    context: tuple[str, ...] | None
    updated_input: Mapping[str, Any] | None
    known_input: bool  # whether the record says if the input was rewritten


class PastEvent(NamedTuple):
    origin: str  # "audit.jsonl:12"
    event: str
    payload: Mapping[str, Any]
    before: Outcome
    # For a host's transcript: the payload is that host's own shape for ``host_event``,
    # mapped in by hookrun.hosts as `hookrun run --host` maps it (tool kind, sub-agent).
    host: str | None = None
    host_event: str | None = None


class Skipped(NamedTuple):
    origin: str
    why: str


class SourceError(Exception):
    """The source cannot be read at all; the message says what and where."""


def detect(path: str) -> Kind:
    """Which kind of record ``path`` is, from its first JSON line."""
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            for line in handle:
                if not line.strip():
                    continue
                try:
                    first = loads(line)
                except ValueError:
                    continue
                if not isinstance(first, dict):
                    break
                if "hooks" in first and "event" in first:
                    return "audit"
                if first.get("type") == "session_meta":
                    return "codex"
                if first.get("type") == "session.start":
                    return "copilot"
                if "projectHash" in first:
                    return "gemini"
                if "sessionId" in first or "parentUuid" in first:
                    return "claude"
                if first.get("type") in ("summary", "user", "assistant"):
                    return "claude"
                break
    except OSError as exc:
        raise SourceError(f"{path}: cannot read: {exc.strerror or exc}") from None
    raise SourceError(
        f"{path}: not a hookrun audit log, a Claude Code transcript or a Codex, Gemini "
        "or Copilot session (pass --source-kind audit|claude|codex|gemini|copilot)"
    )


def _lines(path: str) -> Iterator[tuple[int, Any]]:
    try:
        handle = open(path, encoding="utf-8", errors="replace")  # noqa: SIM115
    except OSError as exc:
        raise SourceError(f"{path}: cannot read: {exc.strerror or exc}") from None
    with handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                yield number, loads(line)
            except ValueError:
                yield number, None


def _objects(path: str, skipped: list[Skipped]) -> Iterator[tuple[int, dict[str, Any]]]:
    """The JSON objects of a session file with their line numbers; every other line
    goes to ``skipped``."""
    name = os.path.basename(path)
    for number, entry in _lines(path):
        if isinstance(entry, dict):
            yield number, entry
        else:
            skipped.append(Skipped(f"{name}:{number}", "not a JSON object"))


def from_audit(path: str) -> tuple[list[PastEvent], list[Skipped]]:
    """The events of a hookrun audit log (lines written with ``audit_payload: true``)."""
    events: list[PastEvent] = []
    skipped: list[Skipped] = []
    name = os.path.basename(path)
    for number, entry in _lines(path):
        origin = f"{name}:{number}"
        if not isinstance(entry, dict) or not isinstance(entry.get("event"), str):
            skipped.append(Skipped(origin, "not an audit record"))
            continue
        payload = entry.get("payload")
        if not isinstance(payload, dict):
            skipped.append(Skipped(origin, 'no payload (set "audit_payload": true in the config)'))
            continue
        context = entry.get("context")
        before = Outcome(
            decision=entry.get("decision") if isinstance(entry.get("decision"), str) else None,
            halt=bool(entry.get("halt")),
            reason=entry.get("reason") if isinstance(entry.get("reason"), str) else None,
            context=tuple(str(c) for c in context) if isinstance(context, list) else None,
            updated_input=entry.get("updated_input")
            if isinstance(entry.get("updated_input"), dict)
            else None,
            known_input="updated_input" in entry,
        )
        events.append(PastEvent(origin, entry["event"], payload, before))
    return events, skipped


# Claude Code writes the text of a PreToolUse block into the tool result the model
# sees; these are the phrasings it uses (pinned by captured transcripts in the tests).
_HOOK_BLOCK_MARKS = ("hook error", "blocked by", "PreToolUse:", "hook denied", "Hook denied")


def from_claude(path: str) -> tuple[list[PastEvent], list[Skipped]]:
    """PreToolUse events for the tool calls of a Claude Code session transcript, then
    those of its sub-agents (``<session>/subagents/agent-*.jsonl`` beside it).

    Each assistant ``tool_use`` block is a call; its ``tool_result`` (in a later user
    message) tells what happened: an error whose text is a hook's block → denied,
    else the tool ran (allowed, as far as hooks go).
    """
    events, skipped = _claude_file(path)
    folder = os.path.join(os.path.splitext(path)[0], "subagents")
    if os.path.isdir(folder):
        for name in sorted(os.listdir(folder)):
            if name.endswith(".jsonl"):
                more, more_skipped = _claude_file(os.path.join(folder, name))
                events += more
                skipped += more_skipped
    return events, skipped


def _claude_file(path: str) -> tuple[list[PastEvent], list[Skipped]]:
    calls: dict[str, tuple[int, dict[str, Any], Mapping[str, Any]]] = {}
    results: dict[str, tuple[bool, str]] = {}
    skipped: list[Skipped] = []
    name = os.path.basename(path)
    for number, entry in _objects(path, skipped):
        message = entry.get("message")
        content = message.get("content") if isinstance(message, dict) else None
        if not isinstance(content, list):
            continue
        for block in content:
            if not isinstance(block, dict):
                continue
            if block.get("type") == "tool_use" and isinstance(block.get("id"), str):
                payload: dict[str, Any] = {
                    "hook_event_name": "PreToolUse",
                    "tool_name": block.get("name"),
                    "tool_input": block.get("input")
                    if isinstance(block.get("input"), dict)
                    else {},
                    "tool_use_id": block["id"],
                }
                for src, dst in (("sessionId", "session_id"), ("cwd", "cwd")):
                    if isinstance(entry.get(src), str):
                        payload[dst] = entry[src]
                if entry.get("isSidechain") is True:
                    # A sub-agent's call, as Claude Code marks it in the hook payload.
                    payload["is_sub_agent"] = True
                    if isinstance(entry.get("agentId"), str):
                        payload["agent_id"] = entry["agentId"]
                calls[block["id"]] = (number, payload, entry)
            elif block.get("type") == "tool_result" and isinstance(block.get("tool_use_id"), str):
                results[block["tool_use_id"]] = (block.get("is_error") is True, _text(block))
    events: list[PastEvent] = []
    for call_id, (number, payload, _entry) in sorted(calls.items(), key=lambda kv: kv[1][0]):
        error, text = results.get(call_id, (False, ""))
        denied = error and any(mark in text for mark in _HOOK_BLOCK_MARKS)
        before = Outcome(
            decision="deny" if denied else None,
            halt=None,
            reason=text if denied else None,
            context=None,
            updated_input=None,
            known_input=False,
        )
        events.append(
            PastEvent(f"{name}:{number}", "PreToolUse", payload, before, "claude", "PreToolUse")
        )
    return events, skipped


def _text(block: Mapping[str, Any]) -> str:
    content = block.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(str(part.get("text", "")) for part in content if isinstance(part, dict))
    return json.dumps(content) if content is not None else ""


def read(path: str, kind: Kind | None = None) -> tuple[list[PastEvent], list[Skipped]]:
    """The past events of ``path`` (its kind detected unless given)."""
    if os.path.isdir(path):
        raise SourceError(f"{path}: a folder; name one audit log or transcript file")
    chosen = kind or detect(path)
    readers = {
        "audit": from_audit,
        "claude": from_claude,
        "codex": from_codex,
        "gemini": from_gemini,
        "copilot": from_copilot,
    }
    return readers[chosen](path)


# Codex's shell tools; hooks see each call as tool_name "Bash" with tool_input.command
# (tests/hosts/fixtures/codex/PreToolUse.Bash.json, captured from Codex 0.169).
_CODEX_SHELL = frozenset({"exec_command", "shell", "local_shell", "container.exec"})


def from_codex(path: str) -> tuple[list[PastEvent], list[Skipped]]:
    """PreToolUse events for the function calls of a Codex CLI session
    (``$CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl``), payloads as Codex's hooks get them."""
    calls: list[tuple[int, dict[str, Any]]] = []
    outputs: dict[str, str] = {}
    skipped: list[Skipped] = []
    meta: dict[str, Any] = {}
    name = os.path.basename(path)
    for number, entry in _objects(path, skipped):
        item = entry.get("payload")
        if not isinstance(item, dict):
            continue
        if entry.get("type") == "session_meta":
            meta = item
        elif item.get("type") == "function_call" and isinstance(item.get("call_id"), str):
            try:
                args = loads(item.get("arguments") or "{}")
            except ValueError:
                args = {}
            args = args if isinstance(args, dict) else {}
            tool = str(item.get("name") or "")
            if tool in _CODEX_SHELL:
                command = args.get("cmd", args.get("command"))
                if isinstance(command, list):
                    command = " ".join(str(part) for part in command)
                tool, args = "Bash", {"command": str(command or "")}
            payload: dict[str, Any] = {
                "hook_event_name": "PreToolUse",
                "tool_name": tool,
                "tool_input": args,
                "tool_use_id": item["call_id"],
            }
            for src, dst in (("id", "session_id"), ("cwd", "cwd")):
                if isinstance(meta.get(src), str):
                    payload[dst] = meta[src]
            calls.append((number, payload))
        elif item.get("type") == "function_call_output" and isinstance(item.get("call_id"), str):
            output = item.get("output")
            outputs[item["call_id"]] = output if isinstance(output, str) else json.dumps(output)
    events: list[PastEvent] = []
    for number, payload in calls:
        text = outputs.get(payload["tool_use_id"], "")
        denied = text.startswith("Command blocked by") and "hook" in text
        before = Outcome(
            "deny" if denied else None, None, text if denied else None, None, None, False
        )
        events.append(
            PastEvent(f"{name}:{number}", "PreToolUse", payload, before, "codex", "PreToolUse")
        )
    return events, skipped


def _denied(text: str, marks: tuple[str, ...]) -> Outcome:
    denied = any(mark in text for mark in marks)
    return Outcome("deny" if denied else None, None, text if denied else None, None, None, False)


def from_gemini(path: str) -> tuple[list[PastEvent], list[Skipped]]:
    """BeforeTool events for the tool calls of a Gemini CLI chat
    (``~/.gemini/tmp/<project>/chats/session-*.jsonl``). A record is written again as it
    grows (same id): the last one counts. A call whose result says "Tool execution
    blocked" was denied by a hook."""
    meta: dict[str, Any] = {}
    calls: dict[str, tuple[int, dict[str, Any]]] = {}
    results: dict[str, str] = {}
    skipped: list[Skipped] = []
    name = os.path.basename(path)
    for number, entry in _objects(path, skipped):
        if "projectHash" in entry:
            meta = entry
        for call in entry.get("toolCalls") or []:
            if isinstance(call, dict) and isinstance(call.get("id"), str):
                payload: dict[str, Any] = {
                    "hook_event_name": "BeforeTool",
                    "tool_name": call.get("name"),
                    "tool_input": call["args"] if isinstance(call.get("args"), dict) else {},
                }
                if isinstance(meta.get("sessionId"), str):
                    payload["session_id"] = meta["sessionId"]
                first = calls.get(call["id"], (number, payload))[0]
                calls[call["id"]] = (first, payload)
        content = entry.get("content")
        for part in content if isinstance(content, list) else []:
            response = part.get("functionResponse") if isinstance(part, dict) else None
            if isinstance(response, dict) and isinstance(response.get("id"), str):
                results[response["id"]] = json.dumps(response.get("response"), ensure_ascii=False)
    events = [
        PastEvent(
            f"{name}:{number}",
            "PreToolUse",
            payload,
            _denied(results.get(call_id, ""), ("Tool execution blocked",)),
            "gemini",
            "BeforeTool",
        )
        for call_id, (number, payload) in sorted(calls.items(), key=lambda kv: kv[1][0])
    ]
    return events, skipped


def from_copilot(path: str) -> tuple[list[PastEvent], list[Skipped]]:
    """preToolUse events for the tool calls of a Copilot CLI session
    (``~/.copilot/session-state/<id>/events.jsonl``), in Copilot's camelCase payload.
    A call that failed with "Denied by preToolUse hook" was denied by a hook."""
    meta: dict[str, Any] = {}
    calls: list[tuple[int, dict[str, Any], str]] = []
    results: dict[str, str] = {}
    skipped: list[Skipped] = []
    name = os.path.basename(path)
    for number, entry in _objects(path, skipped):
        data = entry["data"] if isinstance(entry.get("data"), dict) else {}
        kind = entry.get("type")
        if kind == "session.start":
            meta = data
        elif kind == "assistant.message":
            for request in data.get("toolRequests") or []:
                if isinstance(request, dict) and isinstance(request.get("toolCallId"), str):
                    payload: dict[str, Any] = {
                        "toolName": request.get("name"),
                        "toolArgs": request.get("arguments") or {},
                    }
                    context = meta["context"] if isinstance(meta.get("context"), dict) else {}
                    if isinstance(meta.get("sessionId"), str):
                        payload["sessionId"] = meta["sessionId"]
                    if isinstance(context.get("cwd"), str):
                        payload["cwd"] = context["cwd"]
                    calls.append((number, payload, request["toolCallId"]))
        elif kind == "tool.execution_complete" and isinstance(data.get("toolCallId"), str):
            error = data["error"] if isinstance(data.get("error"), dict) else {}
            message = error.get("message")
            results[data["toolCallId"]] = message if isinstance(message, str) else ""
    events = [
        PastEvent(
            f"{name}:{number}",
            "PreToolUse",
            payload,
            _denied(results.get(call_id, ""), ("Denied by preToolUse hook",)),
            "copilot",
            "preToolUse",
        )
        for number, payload, call_id in calls
    ]
    return events, skipped
