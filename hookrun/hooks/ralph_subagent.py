"""single-mode-guard (seed 003 #9) and task-file-check (#13): sub-agent calls done right.

Ralph's orchestrator invokes one sub-agent per MODE and per TASK_ID, with the
parameters as ``KEY: value`` lines in the prompt::

    SESSION_PATH: .ralph-sessions/260215-173319/
    MODE: EXECUTE
    TASK_ID: task-3
    ITERATION: 1

single-mode-guard blocks a call whose prompt holds more than one distinct MODE
(``MODE: EXECUTE, REVIEW``, or two MODE lines) or more than one distinct TASK_ID.
A call with no MODE at all is not a Ralph call and passes (Claude Code's Task tool
serves every sub-agent, not only Ralph's).

task-file-check blocks an executor/reviewer call whose TASK_ID has no task file:
``<session>/iterations/<n>/tasks/<id>.md``, or the pre-iteration fallback
``<session>/tasks/<id>.md``; an empty task file is a WARN. The session comes from
``SESSION_PATH:`` in the prompt, the payload's ``session_path``, or Ralph's session
id (see :func:`ralph_common.ralph_session_id`); the iteration from ``ITERATION:``
or the payload's ``iteration`` (unknown: any iteration's task file counts).
"""

from __future__ import annotations

import glob
import os
import re
from collections.abc import Mapping
from typing import Any, NamedTuple

from hookrun import fields as pl
from hookrun.hooks import file_edit, ralph_common
from hookrun.hooks.base import ALLOW, Policy, PolicyContext, Verdict

# A parameter line, "MODE: x" / "- **TASK_ID**: x"; the value stops at the next
# "KEY:" so "MODE: brainstorm, CYCLE: 2" yields one mode. Keys are upper case, as
# Ralph writes them: "Mode: dark" in a prose prompt is not a parameter.
_PARAM = r"(?m)^[\s>*_\-]*(?:\*\*)?{key}(?:\*\*)?\s*[:=]\s*(?P<value>.+)$"
_NEXT_KEY = re.compile(r"\b[A-Z][A-Z_]+\s*:")
_MODE_RE = re.compile(_PARAM.format(key="MODES?"))
_TASK_RE = re.compile(_PARAM.format(key="TASK_IDS?"))
_SESSION_RE = re.compile(_PARAM.format(key="SESSION_PATH"))
_ITER_RE = re.compile(_PARAM.format(key="ITERATION"))
_SPLIT = re.compile(r"\s*(?:,|;|\||/|&|\+|\band\b)\s*")
_TASK_ID = re.compile(r"[\w.-]+\Z")


def _values(regex: re.Pattern[str], text: str, *, split: bool = True) -> list[str]:
    out: list[str] = []
    for m in regex.finditer(text):
        value = m.group("value")
        cut = _NEXT_KEY.search(value, 1)
        if cut:
            value = value[: cut.start()]
        value = value.strip().strip("[]()`*\"'").strip()
        for part in _SPLIT.split(value) if split else [value]:
            word = part.strip().strip("[]()`*\"'").split()
            if word:
                out.append(word[0])
    return out


def modes(text: str) -> list[str]:
    """Distinct MODE values, upper-cased, in order of appearance."""
    return list(dict.fromkeys(v.upper() for v in _values(_MODE_RE, text)))


def task_ids(text: str) -> list[str]:
    """Distinct TASK_ID values in order of appearance."""
    return list(dict.fromkeys(_values(_TASK_RE, text)))


def _is_subagent_call(payload: Mapping[str, Any], tools: tuple[str, ...]) -> bool:
    name = pl.tool_name(payload)
    return file_edit.tool_in(name, tools) or name.startswith("@agent")


class SingleModeOptions(NamedTuple):
    tools: tuple[str, ...] = ralph_common.SUBAGENT_TOOLS


def decide_single_mode(
    payload: Mapping[str, Any], opts: SingleModeOptions, ctx: PolicyContext
) -> Verdict:
    if not _is_subagent_call(payload, opts.tools):
        return ALLOW
    text = ralph_common.invocation_text(payload)
    found_modes, found_tasks = modes(text), task_ids(text)
    blocks = []
    if len(found_modes) > 1:
        blocks.append(
            f"Multiple MODEs detected: [{', '.join(found_modes)}]. Each subagent call must "
            "run exactly one mode — make one call per mode."
        )
    if len(found_tasks) > 1:
        blocks.append(
            f"Multiple TASK_IDs detected: [{', '.join(found_tasks)}]. Each subagent call must "
            "handle exactly one task — make one call per task."
        )
    return ralph_common.verdict("single-mode-guard", blocks, [], "ralph.single-mode")


SINGLE_MODE_GUARD: Policy[SingleModeOptions] = Policy(
    name="single-mode-guard",
    options=SingleModeOptions,
    decide=decide_single_mode,
)


# --- task-file-check ------------------------------------------------------------------------


class TaskFileOptions(NamedTuple):
    tools: tuple[str, ...] = ralph_common.SUBAGENT_TOOLS
    # Only calls aimed at these agents are checked (substring of the target, any case);
    # empty = every call naming a TASK_ID.
    agents: tuple[str, ...] = ("executor", "reviewer")  # a call naming no agent is checked
    sessions_dir: str = ralph_common.SESSIONS_DIR
    session_id_pattern: str = ralph_common.SESSION_ID_PATTERN


def _target_agent(payload: Mapping[str, Any]) -> str | None:
    """The agent a call is aimed at, when the call names one."""
    named = pl.input_str(payload, "subagent_type", "agent", "agentName", "agent_name", "name")
    if named:
        return named
    tool = pl.tool_name(payload)
    return tool if tool.startswith("@agent") else None


def _session_dir(
    payload: Mapping[str, Any], text: str, opts: TaskFileOptions, ctx: PolicyContext
) -> str | None:
    given = next(iter(_values(_SESSION_RE, text, split=False)), None) or pl.field_str(
        payload, "session_path", "sessionPath"
    )
    if given:
        return given
    sid = ralph_common.ralph_session_id(payload, ctx.env)
    if sid and ralph_common.valid_session_id(sid, opts.session_id_pattern):
        return f"{opts.sessions_dir}/{sid}"
    return None


def _iteration(payload: Mapping[str, Any], text: str) -> str | None:
    found = next(iter(_values(_ITER_RE, text)), None)
    if found and found.isdigit():
        return found
    value = payload.get("iteration")
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        return str(value)
    return None


def decide_task_file(
    payload: Mapping[str, Any], opts: TaskFileOptions, ctx: PolicyContext
) -> Verdict:
    if not _is_subagent_call(payload, opts.tools):
        return ALLOW
    text = ralph_common.invocation_text(payload)
    ids = task_ids(text)
    if not ids:
        return ALLOW
    target = _target_agent(payload)
    if target and opts.agents and not any(a.casefold() in target.casefold() for a in opts.agents):
        return ALLOW  # aimed at another agent (a Planner may name a task it is about to write)
    session = _session_dir(payload, text, opts, ctx)
    if session is None:
        return ALLOW  # nothing to look in; the sub-agent will say the task is missing
    base = file_edit.locate(
        session, cwd=file_edit.payload_cwd(payload, ctx.project_dir), project_dir=ctx.project_dir
    )
    if base.rel is None:
        return ralph_common.verdict(
            "task-file-check",
            [f"SESSION_PATH {session} is outside the project — use .ralph-sessions/<id>/."],
            [],
            "ralph.task-file",
        )
    iteration = _iteration(payload, text)
    blocks, warns = [], []
    for task in ids:
        if not _TASK_ID.match(task) or task in (".", ".."):
            blocks.append(f"Invalid TASK_ID {task!r}: use a plain id such as task-3.")
            continue
        candidates = [f"tasks/{task}.md"]
        if iteration:
            candidates.insert(0, f"iterations/{iteration}/tasks/{task}.md")
        else:
            pattern = os.path.join(glob.escape(base.absolute), "iterations", "*", "tasks")
            candidates += sorted(
                os.path.relpath(os.path.join(d, f"{task}.md"), base.absolute).replace(os.sep, "/")
                for d in glob.glob(pattern)
            )
        found = next(
            (c for c in candidates if os.path.isfile(os.path.join(base.absolute, c))), None
        )
        if found is None:
            blocks.append(
                f"Task file not found: {candidates[0]} (also looked for "
                f"{', '.join(candidates[1:]) or 'nothing else'} in {base.rel}/). Create the "
                "task file first (Planner, TASK_BREAKDOWN) or fix the TASK_ID."
            )
        elif os.path.getsize(os.path.join(base.absolute, found)) == 0:
            warns.append(f"task file {base.rel}/{found} is empty.")
    return ralph_common.verdict("task-file-check", blocks, warns, "ralph.task-file")


TASK_FILE_CHECK: Policy[TaskFileOptions] = Policy(
    name="task-file-check",
    options=TaskFileOptions,
    decide=decide_task_file,
)
