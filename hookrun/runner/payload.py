"""The event a host hands in → what every hook of that event receives.

Built once per event (not once per hook): the stdin JSON bytes and the hookrun/Crush/
Claude Code environment variables are shared by all the event's hooks. A payload
that cannot be run (not an object, a ``cwd`` that does not exist) is refused with
:class:`PayloadError` before any hook starts.

A common field of the wrong type (``"cwd": 5``, ``"tool_name": {}``, a ``tool_input``
that is neither an object nor a JSON string of one) counts as absent here — the run
goes on, with the runner's own value where it has one — and is listed in
:attr:`EventInput.unreadable`. Hooks still receive the host's value as sent in the
fields the runner does not fill itself, so a script can see it; the built-in
policies read such a value strictly (:mod:`hookrun.fields`), so one that must judge
the field fails by its fail mode instead of finding nothing to check, and a matcher
that cannot be tested runs every fail-closed hook (:mod:`hookrun.runner.matching`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from hookrun import cjson
from hookrun import fields as fields
from hookrun.config.events import TOOL_EVENTS
from hookrun.records import TYPE_CHECKING, NamedTuple
from hookrun.runner import PayloadError, wire

if TYPE_CHECKING:
    from typing import Any

# Fields whose type the runner relies on; None, or any other type, counts as absent.
# Anything else the host sends is handed to hooks untouched.
_STRING_FIELDS = ("session_id", "cwd", "project_dir", "tool_name", "prompt", "source", "trigger")


class EventInput(NamedTuple):
    """One event, ready to hand to hooks."""

    event: str
    payload: Mapping[str, Any]  # the object hooks receive on stdin
    data: bytes  # ``payload`` encoded once, UTF-8 JSON
    cwd: str  # absolute; hooks run here and context_files resolve against it
    project_dir: str  # absolute
    session_id: str
    tool_name: str | None
    tool_input: Mapping[str, Any] | None
    is_sub_agent: bool
    env: Mapping[str, str]  # the HOOKRUN_* / CRUSH_* / CLAUDE_* variables only
    unreadable: tuple[str, ...] = ()  # common fields of the wrong type, read as absent


def _tool_input(raw: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The tool's input object, or None when there is none that can be read."""
    value = raw.get("tool_input")
    if value is None:
        found = fields.tool_input(raw, strict=False)  # Squad / seed 001 spellings
        return found if found else None
    if isinstance(value, Mapping):
        return value
    if isinstance(value, str):
        # Some hosts pass the tool input pre-serialised; an object inside is unambiguous.
        try:
            decoded = cjson.loads(value)
        except (ValueError, RecursionError):
            # json answers deep nesting with RecursionError, not ValueError.
            decoded = None
        if isinstance(decoded, dict):
            return decoded
    return None


def _encode(payload: Mapping[str, Any]) -> bytes:
    try:
        text = cjson.dumps(payload, ensure_ascii=False, allow_nan=False)
    except TypeError as exc:  # only a payload built in Python holds a non-JSON type
        raise PayloadError(f"payload cannot be encoded as JSON: {exc}") from None
    except (ValueError, RecursionError):
        # A number beyond a double (a 400-digit integer reads as infinity), nesting
        # deeper than the stdlib encoder goes: written as the answer is
        # (hookrun.runner.wire), never a reason to run no hook at all.
        return wire.encode(payload)
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        # A lone surrogate (legal in JSON's \\u escapes) cannot be UTF-8: escape it, so
        # the hook reads exactly the string the host sent.
        return cjson.dumps(payload, ensure_ascii=True).encode("ascii")


# The most of one value hookrun puts in a hook's environment, in characters. Linux
# refuses to start a program with any single environment string over 128 KiB
# (MAX_ARG_STRLEN; "Argument list too long"), Windows any variable over 32,767
# characters: a padded command would stop every external hook from starting, a
# non-blocking error that let it through. 8 KiB is far above any path or name, and
# at four bytes a character, four copies stay far below both limits. The full
# value is always on stdin; HOOKRUN_ENV_TRUNCATED names the variables that were cut.
ENV_VALUE_LIMIT = 8192


def _env_value(value: str) -> str:
    """An environment value the OS accepts: no NUL byte, encodable, bounded."""
    value = value[:ENV_VALUE_LIMIT].replace("\0", "")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        value = value.encode("utf-8", "replace").decode("utf-8")
    return value


def event_env(
    *,
    event: str,
    tool_name: str,
    session_id: str,
    cwd: str,
    project_dir: str,
    is_sub_agent: bool,
    command: str,
    file_path: str,
    run_id: str = "",
) -> dict[str, str]:
    """hookrun's variables, and the same values under the names Crush and Claude Code use.

    Every variable is always set (empty when unknown) so that a value inherited from an
    outer host — ``hookrun run`` called as a Crush hook — never leaks into the wrong event.
    Each value is cut at :data:`ENV_VALUE_LIMIT` characters; ``HOOKRUN_ENV_TRUNCATED``
    lists the cut ``HOOKRUN_*`` names (comma-separated, empty when none).
    ``HOOKRUN_RUN_ID`` marks every process of one run (tests find survivors by it).
    """
    values = {
        "EVENT": event,
        "TOOL_NAME": tool_name,
        "SESSION_ID": session_id,
        "CWD": cwd,
        "PROJECT_DIR": project_dir,
        "TOOL_INPUT_COMMAND": command,
        "TOOL_INPUT_FILE_PATH": file_path,
    }
    env = {
        "HOOKRUN": "1",
        "HOOKRUN_IS_SUB_AGENT": "true" if is_sub_agent else "false",
        "HOOKRUN_RUN_ID": run_id,
    }
    truncated = []
    for key, value in values.items():
        clean = _env_value(value)
        if len(value) > ENV_VALUE_LIMIT:
            truncated.append(f"HOOKRUN_{key}")
        env[f"HOOKRUN_{key}"] = clean
        env[f"CRUSH_{key}"] = clean
    env["HOOKRUN_ENV_TRUNCATED"] = ",".join(truncated)
    env["CLAUDE_PROJECT_DIR"] = env["HOOKRUN_PROJECT_DIR"]
    return env


def prepare(event: str, raw: Any, *, cwd: str, project_dir: str) -> EventInput:
    """Check ``raw`` and build what the hooks of ``event`` receive.

    Common fields are filled in when the host did not send them (``cwd`` and
    ``project_dir`` from the runner, ``session_id`` empty, ``is_sub_agent`` false);
    ``event`` and ``hook_event_name`` always name the event being run. A relative
    ``cwd`` in the payload is taken against the runner's.
    """
    if raw is None:
        raw = {}
    if not isinstance(raw, Mapping):
        raise PayloadError(
            f"payload must be a JSON object, got {fields.type_name(raw)}: "
            'send e.g. {"tool_name": "bash", "tool_input": {"command": "ls"}}'
        )
    unreadable = [
        key for key in _STRING_FIELDS if raw.get(key) is not None and not isinstance(raw[key], str)
    ]
    sub = raw.get("is_sub_agent")
    if sub is not None and not isinstance(sub, bool):
        unreadable.append("is_sub_agent")
        sub = None
    tool_input = _tool_input(raw)
    if tool_input is None and raw.get("tool_input") is not None:
        unreadable.append("tool_input")

    payload: dict[str, Any] = dict(raw)
    here = raw.get("cwd") if "cwd" not in unreadable else None
    run_cwd = os.path.abspath(os.path.join(cwd, here or cwd))
    if not os.path.isdir(run_cwd):
        # A file there is a different mistake from a missing path: name the one it is.
        problem = (
            f"{run_cwd} is not a directory"
            if os.path.exists(run_cwd)
            else f"directory {run_cwd} does not exist"
        )
        raise PayloadError(f'payload field "cwd": {problem}: send the directory the agent works in')
    proj_here = raw.get("project_dir") if "project_dir" not in unreadable else None
    proj = os.path.abspath(os.path.join(run_cwd, proj_here or project_dir))
    session = fields.session_id(raw)
    tool = fields.tool_name(raw, strict=False) or None
    payload["event"] = event
    payload["hook_event_name"] = event
    payload["session_id"] = session
    payload["cwd"] = run_cwd
    payload["project_dir"] = proj
    payload["is_sub_agent"] = bool(sub)
    if tool is not None:
        payload.setdefault("tool_name", tool)
    if tool_input is not None:
        payload["tool_input"] = tool_input
    elif event in TOOL_EVENTS and "tool_input" not in unreadable:
        payload["tool_input"] = {}

    wrapped = {"tool_input": tool_input or {}}
    env = event_env(
        event=event,
        tool_name=tool or "",
        session_id=session,
        cwd=run_cwd,
        project_dir=proj,
        is_sub_agent=bool(sub),
        command=fields.command(wrapped, strict=False) or "",
        file_path=fields.file_path(wrapped, strict=False) or "",
        run_id=os.urandom(8).hex(),
    )
    return EventInput(
        event=event,
        payload=payload,
        data=_encode(payload),
        cwd=run_cwd,
        project_dir=proj,
        session_id=session,
        tool_name=tool,
        tool_input=tool_input,
        is_sub_agent=bool(sub),
        env=env,
        unreadable=tuple(unreadable),
    )
