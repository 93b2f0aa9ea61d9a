"""What a built-in policy is: a pure decision over the event payload.

A policy never spawns processes and never reads the host's terminal. It gets
the payload (the same JSON object a command hook gets on stdin), its validated
options and a :class:`PolicyContext`, and returns a :class:`Verdict`. The runner
turns the verdict into the same per-hook answer a command hook's envelope gives;
``hookrun policy NAME`` prints it as an envelope with the matching exit code.
"""

from __future__ import annotations

from collections.abc import Mapping

from hookrun import exitcodes
from hookrun.hooks import options as _options
from hookrun.hooks import registry
from hookrun.records import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, Generic, Literal, TypeVar

    Decision = Literal["allow", "deny", "ask"]
    OptionsT = TypeVar("OptionsT")
else:
    # A policy's module loads on every call that runs it: `import typing` alone is ~0.4x
    # a bare Python start (issue 8). Type checkers see typing.Generic above; at run time
    # `Policy[X]` (a subclass in a test, say) is Policy itself, as a generic alias would
    # construct it.
    class Generic:
        __slots__ = ()

        def __class_getitem__(cls, item: object) -> type:
            return cls

    OptionsT = None

_UNSET: Any = object()


class PolicyContext(NamedTuple):
    """Where the policy runs. ``state_dir`` is ``<project_dir>/.hookrun/state``."""

    cwd: str
    project_dir: str
    state_dir: str
    env: Mapping[str, str]


class Verdict(NamedTuple):
    """A policy's answer; same meaning as the envelope fields of the same names."""

    decision: Decision | None = None
    reason: str | None = None
    halt: bool = False
    context: tuple[str, ...] = ()
    updated_input: Mapping[str, Any] | None = None
    updated_output: Any = _UNSET  # any JSON value; _UNSET = leave the output alone
    rule: str | None = None  # rule id, e.g. "git.force-push"

    @property
    def has_updated_output(self) -> bool:
        return self.updated_output is not _UNSET

    def to_envelope(self) -> dict[str, Any]:
        env: dict[str, Any] = {"version": 1}
        if self.decision is not None:
            env["decision"] = self.decision
        if self.halt:
            env["halt"] = True
        if self.reason:
            env["reason"] = self.reason
        if self.context:
            env["context"] = list(self.context)
        if self.updated_input is not None:
            env["updated_input"] = dict(self.updated_input)
        if self.has_updated_output:
            env["updated_output"] = self.updated_output
        if self.rule:
            env["rule"] = self.rule
        return env

    @property
    def exit_code(self) -> int:
        """The exit code ``hookrun policy`` uses: 49 halt, 2 deny, else 0."""
        if self.halt:
            return exitcodes.HALT
        return exitcodes.DENY if self.decision == "deny" else exitcodes.OK


ALLOW = Verdict()  # no opinion


class Policy(Generic[OptionsT]):
    """A built-in: its registry entry, its options class and its decision.

    ``decide(payload, options, ctx)`` must not raise for any payload a host can
    send (missing fields, wrong types): it returns ``Verdict()`` (no opinion)
    instead. What a config needs to know about it without importing it (events,
    fail mode, aliases, summary) is its :mod:`~hookrun.hooks.registry` entry.
    """

    __slots__ = ("name", "options", "decide")

    def __init__(
        self,
        *,
        name: str,
        options: type[OptionsT],
        decide: Callable[[Mapping[str, Any], OptionsT, PolicyContext], Verdict],
    ) -> None:
        self.name = name
        self.options = options
        self.decide = decide

    @property
    def entry(self) -> registry.Entry:
        return registry.entry(self.name)

    @property
    def events(self) -> tuple[str, ...]:
        return self.entry.events

    @property
    def on_error(self) -> registry.OnError:
        return self.entry.on_error

    @property
    def default_matcher(self) -> str | None:
        return self.entry.default_matcher

    def bind(self, raw: Mapping[str, Any]) -> OptionsT:
        """Validate options; raises pydantic.ValidationError (pydantic loads only then)."""
        return _options.bind(self.options, raw)

    def __repr__(self) -> str:
        return f"Policy({self.name!r})"
