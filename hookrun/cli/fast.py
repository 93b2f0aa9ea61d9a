"""A typer-free reader for the two hot command lines: ``hookrun run`` and ``hookrun policy``.

Both are started once per agent tool call when a host uses them as its hook, so
their start-up time is hookrun's latency; importing typer alone costs about five
bare Python start-ups. This reader takes its options from :mod:`hookrun.cli.grammar`,
the table the typer application builds its options from, in the forms a host writes
them (``--opt value``, ``--opt=value``, repeated options, options before or after
the positional).
Anything else — ``--help``, an unknown or incomplete option, a missing or second
positional, ``--`` — returns None, and typer parses the line instead, with its
help and its error messages. Both parsers build the same options objects (a test
pins that for a table of command lines).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from hookrun.boundedio import STDIN_TIMEOUT
from hookrun.cli import grammar
from hookrun.cli.commands.run import FORMATS, RunOptions, check_format, parse_seconds
from hookrun.cli.payload import PayloadFlags
from hookrun.records import TYPE_CHECKING

if TYPE_CHECKING:  # commands.policy is imported only when `hookrun policy` runs
    from hookrun.cli.commands.policy import PolicyOptions


# Plain classes, not dataclasses: this module is on the start-up path.
class _Grammar:
    __slots__ = ("values", "lists", "flags")

    def __init__(self, opts: Sequence[grammar.Opt]) -> None:
        def table(kind: grammar.Kind) -> dict[str, str]:
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


_RUN = _Grammar(grammar.RUN)
_POLICY = _Grammar(grammar.POLICY)


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
