"""A typer-free reader for the plain ``hookrun run EVENT [options]`` command line.

``hookrun run`` is started once per agent tool call, so its start-up time is
hookrun's latency; importing typer alone costs about five bare Python start-ups.
This reader understands exactly the options ``hookrun run`` documents, in the
forms a host writes them (``--opt value``, ``--opt=value``, repeated
``--config``, options before or after EVENT). Anything else — ``--help``, an
unknown or incomplete option, a second positional, ``--`` — returns None, and
typer parses the line instead, with its help and its error messages. Both
parsers build the same :class:`~hookrun.cli_run.RunOptions` (a test pins that).
"""

from __future__ import annotations

from collections.abc import Sequence

from hookrun.cli_payload import PayloadFlags
from hookrun.cli_run import FORMATS, RunOptions, check_format

_VALUE_OPTIONS = {
    "--tool": "tool",
    "--input": "tool_input",
    "--prompt": "prompt",
    "--session-id": "session_id",
    "--cwd": "cwd",
    "--config": "config",
    "--format": "format",
}
_FLAG_OPTIONS = {"--sub-agent": "sub_agent", "--trace": "trace"}


def parse_run(argv: Sequence[str]) -> RunOptions | None:
    """``RunOptions`` for ``argv`` (the words after ``run``), or None to defer to typer."""
    values: dict[str, str] = {}
    configs: list[str] = []
    flags: set[str] = set()
    positionals: list[str] = []
    i = 0
    while i < len(argv):
        word = argv[i]
        i += 1
        if not word.startswith("-") or word == "-":
            positionals.append(word)
            continue
        name, eq, inline = word.partition("=")
        if name in _FLAG_OPTIONS and not eq:
            flags.add(_FLAG_OPTIONS[name])
            continue
        if name not in _VALUE_OPTIONS:
            return None
        if eq:
            value = inline
        elif i < len(argv):
            value = argv[i]
            i += 1
        else:
            return None
        key = _VALUE_OPTIONS[name]
        if key == "config":
            configs.append(value)
        else:
            values[key] = value  # like click: the last occurrence wins
    if len(positionals) != 1:
        return None
    fmt = values.get("format", "hookrun")
    if fmt not in FORMATS:
        return None
    return RunOptions(
        event=positionals[0],
        flags=PayloadFlags(
            tool=values.get("tool"),
            tool_input=values.get("tool_input"),
            prompt=values.get("prompt"),
            session_id=values.get("session_id"),
            cwd=values.get("cwd"),
            sub_agent="sub_agent" in flags,
        ),
        configs=tuple(configs),
        format=check_format(fmt),
        trace="trace" in flags,
    )
