"""ask-user-limit (seed 000 P9, PolicyConfig.askUserLimits; seed 004 rate limiter).

Agents that ask the user too often stall a session. This policy counts the
``ask_user``-like tool calls of each session in ``.hookrun/state/ask_user.json``
(persistent, so a resumed session keeps its count — seed 000 open question 6) and,
over ``max_per_session``, denies the call with "Proceed with your best judgment".

* ``min_question_length``: a question shorter than this is denied before it is
  counted (an ambiguous one-word question wastes the user's turn).
* ``min_answer_length`` (PostToolUse): an answer shorter than this gets the seed's
  note "brief response — proceed with best judgment if ambiguous" as context.
* The count includes denied calls: the number in the reason is how often the agent
  tried, which is what a user reading the audit wants to see.
* Old sessions are dropped once more than ``keep_sessions`` are stored, so the state
  file stays small however long the project lives.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from datetime import datetime, timezone
from typing import Annotated, Any, NamedTuple

from hookrun import fields as pl
from hookrun.hooks import file_edit, state
from hookrun.hooks.base import ALLOW, Policy, PolicyContext, Verdict
from hookrun.hooks.options import AtLeast

STATE_FILE = "ask_user.json"
NO_SESSION = "(no session id)"

# Claude Code's AskUserQuestion, Squad/Copilot's ask_user, Cline's
# ask_followup_question, and the camelCase spellings some SDKs use.
ASK_TOOLS: tuple[str, ...] = (
    "ask_user",
    "AskUserQuestion",
    "askUser",
    "ask_followup_question",
    "ask_question",
    "askQuestion",
    "request_user_input",
)

_QUESTION_KEYS = ("question", "prompt", "message", "text", "query")


class AskUserOptions(NamedTuple):
    tools: tuple[str, ...] = ASK_TOOLS
    max_per_session: Annotated[int, AtLeast(0)] = 5
    min_question_length: Annotated[int, AtLeast(0)] = 0
    min_answer_length: Annotated[int, AtLeast(0)] = 10
    keep_sessions: Annotated[int, AtLeast(1)] = 500
    # Seed 000 goal 6: "per session/agent" — count each agent of a session separately.
    per_agent: bool = False


def state_file(state_dir: str) -> str:
    return os.path.join(state_dir, STATE_FILE)


def question_text(payload: Mapping[str, Any]) -> str | None:
    """The question asked: a string field, or the ``questions[].question`` of Claude Code."""
    text = pl.input_str(payload, *_QUESTION_KEYS)
    if text is not None:
        return text
    questions = pl.tool_input(payload).get("questions")
    if isinstance(questions, list):
        parts = [
            q.get("question") for q in questions if isinstance(q, Mapping) and q.get("question")
        ]
        if parts:
            return "\n".join(str(p) for p in parts)
    return None


def _answer_text(payload: Mapping[str, Any]) -> str | None:
    for key in ("tool_response", "tool_output", "toolResult", "result"):
        value = payload.get(key)
        if isinstance(value, str):
            return value
        if isinstance(value, Mapping):
            for inner in ("answer", "response", "text", "output", "content"):
                if isinstance(value.get(inner), str):
                    return str(value[inner])
            answers = value.get("answers")
            if isinstance(answers, Mapping) and answers:
                return " ".join(str(v) for v in answers.values())
    return None


def count_call(state_dir: str, session: str, keep: int) -> int:
    """Add one call to ``session``'s count; the new count. Safe across processes."""

    def bump(data: dict[str, Any]) -> int:
        sessions = data.get("sessions")
        if not isinstance(sessions, dict):
            sessions = data["sessions"] = {}
        entry = sessions.get(session)
        count = entry.get("count") if isinstance(entry, dict) else None
        new = (count if isinstance(count, int) and count >= 0 else 0) + 1
        now = datetime.now(timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z")
        sessions[session] = {"count": new, "last": now}
        if len(sessions) > keep:
            by_age = sorted(sessions, key=lambda s: str(sessions[s].get("last", "")))
            for old in by_age[: len(sessions) - keep]:
                if old != session:
                    del sessions[old]
        return new

    # Rewritten in place, not fsynced and renamed (durable=False, see state.update): a
    # count a power cut takes back costs one question more, while replacing the file was
    # this policy's whole P99 (0.5-18 ms a counted call by the disk's load, ~10 µs in
    # place) on a hook that runs before every question. Read only under the lock.
    return state.update(state_file(state_dir), bump, durable=False)


def count_of(state_dir: str, session: str) -> int:
    sessions = state.read(state_file(state_dir)).get("sessions")
    entry = sessions.get(session) if isinstance(sessions, dict) else None
    count = entry.get("count") if isinstance(entry, dict) else None
    return count if isinstance(count, int) else 0


def decide(payload: Mapping[str, Any], opts: AskUserOptions, ctx: PolicyContext) -> Verdict:
    if not file_edit.any_tool_in(pl.tool_names(payload), opts.tools):
        return ALLOW
    event = pl.field_str(payload, "hook_event_name", "event") or "PreToolUse"
    if event.replace("_", "").replace("-", "").casefold() == "posttooluse":
        answer = _answer_text(payload)
        if answer is not None and len(answer.strip()) < opts.min_answer_length:
            return Verdict(
                context=(
                    f"ask-user-limit: the user's answer ({answer.strip()!r}) is brief — "
                    "proceed with your best judgment if it is ambiguous.",
                )
            )
        return ALLOW
    question = question_text(payload)
    if question is not None and len(question.strip()) < opts.min_question_length:
        return Verdict(
            decision="deny",
            rule="ask-user.too-short",
            reason=(
                f"ask-user-limit: the question is {len(question.strip())} characters, under the "
                f"minimum of {opts.min_question_length} — ask one complete, specific question, "
                "or proceed with your best judgment."
            ),
        )
    session = pl.session_id(payload) or NO_SESSION
    if opts.per_agent:
        session = f"{session}/{pl.agent_name(payload) or '(no agent)'}"
    count = count_call(ctx.state_dir, session, opts.keep_sessions)
    if count <= opts.max_per_session:
        return ALLOW
    return Verdict(
        decision="deny",
        rule="ask-user.limit",
        reason=(
            f"ask-user-limit: question limit reached ({count} asked, {opts.max_per_session} "
            f"allowed per {'agent and ' if opts.per_agent else ''}session). Proceed with your "
            "best judgment — state the assumption you make instead of asking."
        ),
    )


POLICY: Policy[AskUserOptions] = Policy(
    name="ask-user-limit",
    options=AskUserOptions,
    decide=decide,
)
