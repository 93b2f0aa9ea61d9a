"""The options of ``hookrun run`` and ``hookrun policy``, declared once.

Two readers take their grammar from here: the typer application
(:mod:`hookrun.cli.app`, with ``--help`` and typer's error messages) builds each
``typer.Option`` from an :class:`Opt`, and the typer-free fast path
(:mod:`hookrun.cli.fast`, what a host's every tool call goes through: importing
typer costs about five bare Python start-ups) derives its option table from the
same tuples. A test checks that each typer command takes exactly the options of
its tuple here.
"""

from __future__ import annotations

from hookrun.boundedio import STDIN_TIMEOUT
from hookrun.cli.commands.run import FORMATS
from hookrun.records import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from typing import Literal

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
