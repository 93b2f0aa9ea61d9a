"""The event payload of ``hookrun run`` / ``hookrun policy``: stdin JSON plus flags.

Pure functions over text, so every rule (empty stdin, not JSON, not an object,
flag overrides) is a table test without a process.
"""

from __future__ import annotations

from collections.abc import Mapping

from hookrun import boundedio, cjson
from hookrun.boundedio import STDIN_TIMEOUT
from hookrun.cli import CliError
from hookrun.records import TYPE_CHECKING, NamedTuple
from hookrun.runner import wire

if TYPE_CHECKING:
    from typing import Any, BinaryIO


class PayloadFlags(NamedTuple):
    """Command-line fields that override or fill the stdin payload."""

    tool: str | None = None  # → tool_name
    tool_input: str | None = None  # → tool_input (JSON text of an object)
    prompt: str | None = None  # → prompt
    session_id: str | None = None  # → session_id
    cwd: str | None = None  # → cwd
    sub_agent: bool = False  # → is_sub_agent: true


def read_stdin(stream: BinaryIO | None, *, isatty: bool, timeout: float = STDIN_TIMEOUT) -> str:
    """The payload text on stdin; "" when stdin is a terminal or absent.

    A terminal means a person typed ``hookrun run X`` by hand: waiting for them to
    type JSON would look like a hang, so the flags alone make the payload. A pipe
    is read until it ends, or until it holds a complete JSON object and goes quiet,
    for at most ``timeout`` seconds (:mod:`hookrun.boundedio`).
    """
    if stream is None or isatty:
        return ""
    try:
        data = boundedio.read_stdin(stream, timeout=timeout)
    except boundedio.StdinTimeout as exc:
        raise CliError(exc.message) from None
    except OSError as exc:
        raise CliError(f"cannot read the payload on stdin: {exc.strerror or exc}") from None
    # PowerShell pipes prepend a BOM. Dropped by hand rather than by the utf-8-sig
    # codec, whose module would be imported on every run (offsets are the same).
    if data.startswith(b"\xef\xbb\xbf"):
        del data[:3]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CliError(
            f"payload on stdin is not UTF-8 (bad byte at offset {exc.start}); "
            "send the event as UTF-8 JSON"
        ) from None


def _describe(value: Any) -> str:
    names = {dict: "an object", list: "an array", str: "a string", bool: "a boolean"}
    if value is None:
        return "null"
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return "a number"
    return names.get(type(value), type(value).__name__)


def parse_object(text: str, *, what: str) -> dict[str, Any]:
    """Parse ``text`` as a JSON object or raise CliError naming ``what`` and the spot."""
    try:
        value = wire.loads(text)
    except ValueError as exc:
        where = cjson.decode_error(exc)
        if where is None:  # wire.loads: nesting deeper than the decoder goes
            raise CliError(f"{what} is nested too deeply to parse") from None
        msg, line, column = where
        raise CliError(f"{what} is not valid JSON: {msg} at line {line} column {column}") from None
    if not isinstance(value, dict):
        raise CliError(f"{what} must be a JSON object, got {_describe(value)}")
    return value


def build_payload(stdin_text: str, flags: PayloadFlags) -> dict[str, Any]:
    """stdin's object (empty = ``{}``) with the flags written over it."""
    payload: dict[str, Any] = (
        parse_object(stdin_text, what="payload on stdin") if stdin_text.strip() else {}
    )
    if flags.tool is not None:
        payload["tool_name"] = flags.tool
    if flags.tool_input is not None:
        payload["tool_input"] = parse_object(flags.tool_input, what="--input")
    if flags.prompt is not None:
        payload["prompt"] = flags.prompt
    if flags.session_id is not None:
        payload["session_id"] = flags.session_id
    if flags.cwd is not None:
        payload["cwd"] = flags.cwd
    if flags.sub_agent:
        payload["is_sub_agent"] = True
    return payload


def payload_str(payload: Mapping[str, Any], key: str) -> str | None:
    """``payload[key]`` if it is a non-empty string, else None."""
    value = payload.get(key)
    return value if isinstance(value, str) and value else None
