"""The options of ``hookrun run`` and ``hookrun policy``, declared once, and the
typer-free reader of those two command lines.

Two readers take their grammar from here: the typer application
(:mod:`hookrun.cli.app`, with ``--help`` and typer's error messages) builds each
``typer.Option`` from an :class:`Opt`, and the typer-free fast path below
(:func:`parse_run`, :func:`parse_policy`: what a host's every tool call goes through;
importing typer costs about five bare Python start-ups) derives its option table from
the same tuples. A test checks that each typer command takes exactly the options of
its tuple here.

The fast reader takes the forms a host writes (``--opt value``, ``--opt=value``,
repeated options, options before or after the positional). Anything else — ``--help``,
an unknown or incomplete option, a missing or second positional, ``--`` — returns
None, and typer parses the line instead, with its help and its error messages. Both
parsers build the same options objects (a test pins that for a table of command
lines). (One module with the table: every run reads both, and a module costs ~0.35M
instructions of start-up, issue 8.)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from hookrun.boundedio import STDIN_TIMEOUT
from hookrun.cli.commands.run import FORMATS, RunOptions, check_format, parse_seconds
from hookrun.cli.payload import PayloadFlags
from hookrun.records import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from typing import Literal

    from hookrun.cli.commands.policy import PolicyOptions  # imported when `policy` runs

    Kind = Literal["value", "list", "flag"]


class Opt(NamedTuple):
    """One option: its spellings, the parameter it fills, and how it reads."""

    names: tuple[str, ...]  # "--config", "-c"
    key: str  # the command function's parameter
    kind: Kind  # value: the last one wins (as click); list: repeatable; flag: no value
    metavar: str | None = None
    help: str = ""


CONFIG = Opt(
    ("--config", "-c"),
    "config",
    "list",
    "PATH",
    "Config file to use (repeatable, in order). Default: discovery (user file, then the "
    "project's .hookrun/hooks.json). A .claude/settings.json or crush.json works.",
)
FORMAT = Opt(
    ("--host", "--format"),
    "fmt",
    "value",
    "|".join(FORMATS),
    "The host calling: its event names and payload are read and the answer is written in "
    "its shape (stdout JSON + exit code). run: auto (the default) recognises the host "
    "(README: Which host called?); hookrun is the full neutral envelope.",
)
TRACE = Opt(
    ("--trace",), "trace", "flag", None, "Print a table of every hook that ran, and why, on stderr."
)
TOOL = Opt(("--tool",), "tool", "value", "NAME", "Set tool_name in the payload.")
INPUT = Opt(("--input",), "tool_input", "value", "JSON", "Set tool_input (a JSON object).")
PROMPT = Opt(("--prompt",), "prompt", "value", "TEXT", "Set prompt (UserPromptSubmit).")
SESSION = Opt(("--session-id",), "session_id", "value", "ID", "Set session_id.")
CWD = Opt(
    ("--cwd",),
    "cwd",
    "value",
    "DIR",
    "Set cwd: where hooks run and where config discovery starts.",
)
SUB_AGENT = Opt(
    ("--sub-agent",),
    "sub_agent",
    "flag",
    None,
    "Mark the call as a sub-agent's (is_sub_agent: true).",
)
STDIN_TIMEOUT_OPT = Opt(
    ("--stdin-timeout",),
    "stdin_timeout",
    "value",
    "SECONDS",
    f"How long to wait for the payload on stdin (default {STDIN_TIMEOUT:g}). A pipe left "
    "open after a complete JSON object is answered at once; one that never completes an "
    "object ends the wait as a run with no answer.",
)
FAIL_CLOSED = Opt(
    ("--fail-closed",),
    "fail_closed",
    "flag",
    None,
    "When no answer can be computed (bad config or payload, stdin timeout, internal error), "
    "deny on an event that can block (exit 2) instead of exiting 1.",
)
WITH = Opt(("--with",), "with_", "list", "KEY=VALUE", "A policy option (repeatable).")
WITH_JSON = Opt(("--with-json",), "with_json", "value", "JSON", "All options as a JSON object.")
EVENT = Opt(("--event",), "event", "value", "EVENT", "The event to run it for.")

# What fills the payload and shapes the answer: both commands take these.
_PAYLOAD = (
    TOOL,
    INPUT,
    PROMPT,
    SESSION,
    CWD,
    SUB_AGENT,
    FORMAT,
    TRACE,
    STDIN_TIMEOUT_OPT,
    FAIL_CLOSED,
)
RUN = (*_PAYLOAD, CONFIG)
POLICY = (WITH, WITH_JSON, EVENT, *_PAYLOAD)


# -- the typer-free reader ------------------------------------------------------


# Plain classes, not dataclasses: this module is on the start-up path.
class _Grammar:
    __slots__ = ("values", "lists", "flags")

    def __init__(self, opts: Sequence[Opt]) -> None:
        def table(kind: Kind) -> dict[str, str]:
            # Long spellings only: a short one (-c) and its clustering are typer's to read.
            return {
                name: o.key
                for o in opts
                if o.kind == kind
                for name in o.names
                if name.startswith("--")
            }

        self.values: Mapping[str, str] = table("value")  # the last occurrence wins, like click
        self.lists: Mapping[str, str] = table("list")  # repeatable
        self.flags: Mapping[str, str] = table("flag")  # no value


class _Parsed:
    __slots__ = ("positional", "values", "lists", "flags")

    def __init__(
        self,
        *,
        positional: str,
        values: Mapping[str, str],
        lists: Mapping[str, tuple[str, ...]],
        flags: frozenset[str],
    ) -> None:
        self.positional = positional
        self.values = values
        self.lists = lists
        self.flags = flags

    def flags_payload(self) -> PayloadFlags:
        return PayloadFlags(
            tool=self.values.get("tool"),
            tool_input=self.values.get("tool_input"),
            prompt=self.values.get("prompt"),
            session_id=self.values.get("session_id"),
            cwd=self.values.get("cwd"),
            sub_agent="sub_agent" in self.flags,
        )


_RUN = _Grammar(RUN)
_POLICY = _Grammar(POLICY)


def _parse(argv: Sequence[str], grammar: _Grammar) -> _Parsed | None:
    values: dict[str, str] = {}
    lists: dict[str, list[str]] = {}
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
        if name in grammar.flags and not eq:
            flags.add(grammar.flags[name])
            continue
        if name not in grammar.values and name not in grammar.lists:
            return None
        if eq:
            value = inline
        elif i < len(argv):
            value = argv[i]  # like click: the next word is the value, even "-x"
            i += 1
        else:
            return None
        if name in grammar.lists:
            lists.setdefault(grammar.lists[name], []).append(value)
        else:
            values[grammar.values[name]] = value
    if len(positionals) != 1 or values.get("fmt", "auto") not in FORMATS:
        return None
    return _Parsed(
        positional=positionals[0],
        values=values,
        lists={key: tuple(items) for key, items in lists.items()},
        flags=frozenset(flags),
    )


def _seconds(parsed: _Parsed) -> float:
    raw = parsed.values.get("stdin_timeout")
    return STDIN_TIMEOUT if raw is None else parse_seconds(raw, "--stdin-timeout")


def parse_run(argv: Sequence[str]) -> RunOptions | None:
    """``RunOptions`` for ``argv`` (the words after ``run``), or None to defer to typer."""
    parsed = _parse(argv, _RUN)
    if parsed is None:
        return None
    return RunOptions(
        event=parsed.positional,
        flags=parsed.flags_payload(),
        configs=parsed.lists.get("config", ()),
        format=check_format(parsed.values.get("fmt", "auto")),
        trace="trace" in parsed.flags,
        stdin_timeout=_seconds(parsed),
        fail_closed="fail_closed" in parsed.flags,
    )


def parse_policy(argv: Sequence[str]) -> PolicyOptions | None:
    """``PolicyOptions`` for ``argv`` (the words after ``policy``), or None to defer to typer."""
    from hookrun.cli.commands.policy import PolicyOptions

    parsed = _parse(argv, _POLICY)
    if parsed is None:
        return None
    return PolicyOptions(
        name=parsed.positional,
        with_pairs=parsed.lists.get("with_", ()),
        with_json=parsed.values.get("with_json"),
        event=parsed.values.get("event"),
        flags=parsed.flags_payload(),
        format=check_format(parsed.values.get("fmt", "hookrun")),
        trace="trace" in parsed.flags,
        stdin_timeout=_seconds(parsed),
        fail_closed="fail_closed" in parsed.flags,
    )
