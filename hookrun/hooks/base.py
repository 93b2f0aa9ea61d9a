"""What a built-in policy is: a pure decision over the event payload.

A policy never spawns processes and never reads the host's terminal. It gets
the payload (the same JSON object a command hook gets on stdin), its validated
options and a :class:`PolicyContext`, and returns a :class:`Verdict`. The runner
turns the verdict into the same per-hook answer a command hook's envelope gives;
``hookrun policy NAME`` prints it as an envelope with the matching exit code.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict

Decision = Literal["allow", "deny", "ask"]


class Options(BaseModel):
    """Base for policy options: unknown keys are errors (a typo must not disable a rule)."""

    model_config = ConfigDict(extra="forbid", frozen=True)


OptionsT = TypeVar("OptionsT", bound=Options)

_UNSET: Any = object()


@dataclass(frozen=True)
class PolicyContext:
    """Where the policy runs. ``state_dir`` is ``<project_dir>/.hookrun/state``."""

    cwd: str
    project_dir: str
    state_dir: str
    env: Mapping[str, str]


@dataclass(frozen=True)
class Verdict:
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
            return 49
        return 2 if self.decision == "deny" else 0


ALLOW = Verdict()  # no opinion


@dataclass(frozen=True)
class Policy(Generic[OptionsT]):
    """A registered built-in.

    ``decide(payload, options, ctx)`` must not raise for any payload a host can
    send (missing fields, wrong types): it returns ``Verdict()`` (no opinion)
    instead. ``on_error`` is the seed's fail mode, used when the config does not
    set one.
    """

    name: str
    summary: str  # one line for `hookrun policies`
    prompt: str  # reminder line a host may append to its system prompt
    options: type[OptionsT]
    decide: Callable[[Mapping[str, Any], OptionsT, PolicyContext], Verdict]
    events: tuple[str, ...] = ("PreToolUse",)
    aliases: tuple[str, ...] = ()
    on_error: Literal["allow", "deny"] = "allow"
    default_matcher: str | None = None  # informational: the tools it looks at by default

    def bind(self, raw: Mapping[str, Any]) -> OptionsT:
        """Validate options; raises pydantic.ValidationError."""
        return self.options.model_validate(dict(raw))
