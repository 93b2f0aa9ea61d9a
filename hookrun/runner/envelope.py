"""One hook's stdout → its answer; how a hook ended → its answer (:func:`interpret`). Pure.

Two shapes are read: hookrun's (a superset of Crush's envelope) and Claude Code's
(``hookSpecificOutput``, ``continue``/``stopReason``, ``decision: "block"``). Both may
appear in one object; the stricter decision wins and the parts are combined. Unknown
fields are ignored (forward compatibility); a known field of the wrong type makes the
whole answer "no opinion" with the error recorded, because acting on half of a
malformed answer could allow what the hook meant to deny.

How a hook ended is read by :func:`interpret`, with ``on_error`` applied. The exit-code
contract is Crush's and Claude Code's: 0 = read stdout, 2 = deny with stderr as the
reason (only where the host can still refuse), 49 = halt the turn. Anything else is the
hook failing, which counts as "no opinion" (fail-open) unless the hook says
``on_error: deny`` (fail-closed). (One module with the envelope: every run reads both,
and a module costs ~0.35M instructions of start-up, issue 8.)
"""

from __future__ import annotations

from collections.abc import Mapping

from hookrun import cjson, exitcodes
from hookrun.config.events import BLOCKING_EVENTS, TEXT_CONTEXT_EVENTS
from hookrun.fields import type_name
from hookrun.records import TYPE_CHECKING, NamedTuple
from hookrun.surrogates import has_surrogate

if TYPE_CHECKING:
    from typing import Any, Literal

    Decision = Literal["allow", "deny", "ask"]

# deny > ask > allow > none.
DECISION_RANK: Mapping[Decision | None, int] = {None: 0, "allow": 1, "ask": 2, "deny": 3}

_DECISIONS: Mapping[str, Decision | None] = {
    "allow": "allow",
    "deny": "deny",
    "ask": "ask",
    "block": "deny",  # Claude Code's top-level spelling
    "approve": "allow",  # Claude Code's older top-level spelling
}
_PERMISSION_DECISIONS: Mapping[str, Decision | None] = {
    "allow": "allow",
    "deny": "deny",
    "ask": "ask",
    "defer": None,  # Claude Code: let the normal flow decide = no opinion
}
_BEHAVIOURS: Mapping[str, Decision | None] = {"allow": "allow", "deny": "deny"}


class HookAnswer(NamedTuple):
    """What one hook said, in hookrun's terms. The default is "no opinion"."""

    decision: Decision | None = None
    halt: bool = False
    reason: str | None = None
    context: tuple[str, ...] = ()
    context_files: tuple[str, ...] = ()
    patch_input: Mapping[str, Any] | None = None  # hookrun/Crush: shallow-merge patch
    replace_input: Mapping[str, Any] | None = None  # Claude Code: the whole new input
    updated_prompt: str | None = None
    updated_output: Any = None
    has_updated_output: bool = False  # updated_output may legitimately be any JSON value
    system_message: str | None = None
    error: str | None = None  # why the hook's answer could not be taken (None = fine)


class _FieldError(Exception):
    pass


def _wrong(path: str, expected: str, value: Any) -> _FieldError:
    return _FieldError(f'field "{path}" must be {expected}, got {type_name(value)}')


def _str(obj: Mapping[str, Any], key: str, prefix: str = "") -> str | None:
    value = obj.get(key)
    if value is None or isinstance(value, str):
        return value
    raise _wrong(prefix + key, "a string", value)


def _bool(obj: Mapping[str, Any], key: str, prefix: str = "") -> bool | None:
    value = obj.get(key)
    if value is None or isinstance(value, bool):
        return value
    raise _wrong(prefix + key, "true or false", value)


def _texts(obj: Mapping[str, Any], key: str, prefix: str = "") -> list[str]:
    """A string or a list of strings (context); empties dropped."""
    value = obj.get(key)
    if value is None:
        return []
    if isinstance(value, str):
        return [value] if value.strip() else []
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return [v for v in value if v.strip()]
    raise _wrong(prefix + key, "a string or a list of strings", value)


def _paths(obj: Mapping[str, Any], key: str) -> list[str]:
    value = obj.get(key)
    if value is None:
        return []
    if not (isinstance(value, list) and all(isinstance(v, str) for v in value)):
        raise _wrong(key, "a list of path strings", value)
    for index, path in enumerate(value):
        # No file system takes a NUL byte; a lone surrogate cannot be a file name
        # (UTF-8, or UTF-16 on Windows). os.path raises on both, long after this point.
        if "\0" in path or has_surrogate(path):
            what = "a NUL byte" if "\0" in path else "a lone surrogate"
            raise _FieldError(f'field "{key}[{index}]" holds {what}: not a file path')
    return [v for v in value if v]


def _object(obj: Mapping[str, Any], key: str, prefix: str = "", *, allow_json: bool) -> Any:
    value = obj.get(key)
    if value is None or isinstance(value, Mapping):
        return value
    if allow_json and isinstance(value, str):
        # Crush's envelope historically carried updated_input as a JSON string.
        try:
            decoded = cjson.loads(value)
        except ValueError:
            decoded = None
        except RecursionError:
            # json answers deep nesting with RecursionError, not ValueError.
            raise _FieldError(
                f'field "{prefix + key}" is a JSON string nested too deeply to decode'
            ) from None
        if isinstance(decoded, dict):
            return decoded
        raise _FieldError(f'field "{prefix + key}" is a string but not a JSON object')
    expected = "an object (or a JSON string of one)" if allow_json else "an object"
    raise _wrong(prefix + key, expected, value)


def _decision(
    obj: Mapping[str, Any], key: str, table: Mapping[str, Decision | None], prefix: str = ""
) -> Decision | None:
    value = obj.get(key)
    if value is None:
        return None
    if isinstance(value, str) and value.lower() in table:
        return table[value.lower()]
    allowed = ", ".join(f'"{name}"' for name in table)
    shown = cjson.dumps(value) if isinstance(value, str) else type_name(value)
    raise _FieldError(f'field "{prefix + key}" must be one of {allowed} or null, got {shown}')


def _stricter(a: Decision | None, b: Decision | None) -> Decision | None:
    return a if DECISION_RANK[a] >= DECISION_RANK[b] else b


def _join(parts: list[str | None]) -> str | None:
    seen: list[str] = []
    for part in parts:
        if part and part.strip() and part not in seen:
            seen.append(part)
    return "\n".join(seen) if seen else None


def _parse(obj: Mapping[str, Any]) -> HookAnswer:
    version = obj.get("version")
    if version is not None and (isinstance(version, bool) or not isinstance(version, int)):
        raise _wrong("version", "an integer", version)

    decision = _decision(obj, "decision", _DECISIONS)
    halt = bool(_bool(obj, "halt"))
    reasons: list[str | None] = [_str(obj, "reason")]
    context = _texts(obj, "context")
    context += _texts(obj, "additionalContext") + _texts(obj, "additional_context")
    patch = _object(obj, "updated_input", allow_json=True)
    replace = None
    updated_output = obj.get("updated_output")
    system = [_str(obj, "system_message"), _str(obj, "systemMessage")]

    # Claude Code: "continue": false stops the whole turn; stopReason says why.
    if _bool(obj, "continue") is False:
        halt = True
        reasons.append(_str(obj, "stopReason"))

    hso = obj.get("hookSpecificOutput")
    if hso is not None:
        if not isinstance(hso, Mapping):
            raise _wrong("hookSpecificOutput", "an object", hso)
        pre = "hookSpecificOutput."
        decision = _stricter(
            decision, _decision(hso, "permissionDecision", _PERMISSION_DECISIONS, pre)
        )
        reasons.append(_str(hso, "permissionDecisionReason", pre))
        context += _texts(hso, "additionalContext", pre)
        replace = _object(hso, "updatedInput", pre, allow_json=False)
        if updated_output is None:
            updated_output = hso.get("updatedMCPToolOutput")
        request = hso.get("decision")  # PermissionRequest: {"behavior", "updatedInput", …}
        if request is not None:
            if not isinstance(request, Mapping):
                raise _wrong(pre + "decision", "an object", request)
            sub = pre + "decision."
            decision = _stricter(decision, _decision(request, "behavior", _BEHAVIOURS, sub))
            reasons.append(_str(request, "message", sub))
            replace = _object(request, "updatedInput", sub, allow_json=False) or replace
            if _bool(request, "interrupt", sub):
                halt = True

    prompt = _str(obj, "updated_prompt")
    files = _paths(obj, "context_files")
    return HookAnswer(
        decision=decision,
        halt=halt,
        reason=_join(reasons),
        context=tuple(context),
        context_files=tuple(files),
        patch_input=patch,
        replace_input=replace,
        updated_prompt=prompt,
        updated_output=updated_output,
        has_updated_output=updated_output is not None,
        system_message=_join(system),
    )


def parse_envelope(obj: Mapping[str, Any]) -> HookAnswer:
    """A decoded JSON object → the hook's answer (never raises)."""
    try:
        return _parse(obj)
    except _FieldError as exc:
        return HookAnswer(error=f"bad envelope: {exc}")


def _preview(text: str, limit: int = 80) -> str:
    line = text.strip().splitlines()[0] if text.strip() else ""
    return cjson.dumps(line if len(line) <= limit else line[:limit] + "…", ensure_ascii=False)


def parse_stdout(event: str, stdout: bytes | str) -> HookAnswer:
    """The stdout of a hook that exited 0 → its answer (never raises).

    Empty means no opinion. On UserPromptSubmit and SessionStart, text that is not a
    JSON object is context for the model (Claude Code's rule); elsewhere it is an
    error, recorded, and the hook counts as having no opinion.
    """
    text = stdout.decode("utf-8", "replace") if isinstance(stdout, bytes) else stdout
    text = text.lstrip("\ufeff").strip()
    if not text:
        return HookAnswer()
    if event in TEXT_CONTEXT_EVENTS and not text.startswith("{"):
        # Not an object whatever else it is (JSON's blanks are among those stripped):
        # not parsed, as a failed parse costs json's import (hookrun.cjson).
        return HookAnswer(context=(text,))
    try:
        obj = cjson.loads(text)
    except ValueError as exc:
        obj = None
        problem = f"stdout is not JSON ({exc}): {_preview(text)}"
        if "digits" in str(exc):  # JSON all the same: an integer past Python's digit limit
            from hookrun.runner import wire  # (reads it as a float, as JS hosts do)

            try:
                obj = wire.loads(text)
            except ValueError:
                obj = None
    except RecursionError:
        # json answers deep nesting with RecursionError, not ValueError.
        obj = None
        problem = f"stdout is not JSON (nested too deeply): {_preview(text)}"
    else:
        problem = f"stdout is JSON but {type_name(obj)}, not an object: {_preview(text)}"
    if isinstance(obj, dict):
        return parse_envelope(obj)
    return HookAnswer(error=problem)


# -- how a hook ended ------------------------------------------------------------

# 49 sits in an empty slice of the exit-code space: above the generic errors (1–30),
# below the sysexits range (64–78) and the killed-by-signal range (128+), so no tool
# exits with it by accident (Crush's choice, kept so Crush hooks run unchanged).

_STDERR_SHOWN = 300  # characters of stderr quoted in an error; the rest is noise


def _tail(stderr: bytes) -> str:
    text = stderr.decode("utf-8", "replace").strip()
    if len(text) > _STDERR_SHOWN:
        text = "…" + text[-_STDERR_SHOWN:]
    return text


# Killed by signal N: a shell (and dispatch) reports 128 + N. Signals go up to 64 on
# Linux (SIGRTMAX); an explicit `exit 137` reads the same, as every shell reads it.
_SIGNALLED = range(129, 129 + 64)


def _standing_deny(stdout: bytes) -> HookAnswer | None:
    """The answer a hook's stdout starts with when it is a complete, valid deny or halt,
    whatever follows it (a NUL, text, a second object) — else None.

    The most restrictive reading of output that was written whole and then spoiled (or
    whose writer was then killed): the hook said no before anything went wrong, and
    dropping that as "no opinion" would fail open. Text *before* the object is not
    read this way: there the hook never gave a clean answer. (Only on the error path:
    json is imported there anyway.)
    """
    text = stdout.decode("utf-8", "replace").lstrip("\ufeff").lstrip()
    if not text.startswith("{"):
        return None
    import json

    try:
        obj, _ = json.JSONDecoder().raw_decode(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(obj, dict):
        return None
    answer = parse_envelope(obj)
    if answer.error is None and (answer.decision == "deny" or answer.halt):
        return answer
    return None


def _deny_stands(answer: HookAnswer, problem: str) -> HookAnswer:
    what = "halt" if answer.halt and answer.decision != "deny" else "deny"
    return answer._replace(error=f"{problem}; the complete {what} printed before it stands")


def failed(name: str, on_error: str, problem: str) -> HookAnswer:
    """The answer of a hook that could not give one."""
    if on_error == "deny":
        return HookAnswer(
            decision="deny",
            reason=f"hook {name} failed ({problem}) and is set to on_error: deny",
            error=problem,
        )
    return HookAnswer(error=problem)


def interpret(
    *,
    event: str,
    name: str,
    on_error: str,
    exit_code: int,
    stdout: bytes,
    stderr: bytes,
    timeout: float,
    timed_out: bool = False,
    cancelled: bool = False,
    error: str | None = None,
    truncated: bool = False,
) -> HookAnswer:
    """One finished command → its answer. ``error`` is dispatch's own explanation."""
    if cancelled:
        # The whole run is being interrupted; on_error is about the hook, not the host.
        return HookAnswer(error="cancelled")
    if timed_out:
        problem = f"timed out after {timeout:g}s"
        stands = _standing_deny(stdout) if stdout else None
        return failed(name, on_error, problem) if stands is None else _deny_stands(stands, problem)
    if error is not None:
        return failed(name, on_error, error)
    if exit_code == 0:
        answer = parse_stdout(event, stdout)
        if answer.error is None:
            return answer
        problem = answer.error
        if truncated:
            problem += " (stdout was cut at the capture limit)"
        stands = _standing_deny(stdout)
        return failed(name, on_error, problem) if stands is None else _deny_stands(stands, problem)
    if exit_code in _SIGNALLED and stdout:
        stands = _standing_deny(stdout)
        if stands is not None:
            return _deny_stands(stands, f"killed by signal {exit_code - 128} after its answer")
    reason = stderr.decode("utf-8", "replace").strip()
    if exit_code == exitcodes.DENY:
        if event in BLOCKING_EVENTS:
            return HookAnswer(decision="deny", reason=reason or f"denied by hook {name}")
        problem = f"exit 2 (deny) on {event}, which cannot be blocked"
        return failed(name, on_error, f"{problem}: {reason}" if reason else problem)
    if exit_code == exitcodes.HALT:
        return HookAnswer(halt=True, reason=reason or f"turn halted by hook {name}")
    detail = _tail(stderr)
    problem = f"exit {exit_code}" + (f": {detail}" if detail else "")
    return failed(name, on_error, problem)
