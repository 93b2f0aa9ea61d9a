"""What a run hands back: each hook's outcome and the event's aggregated answer."""

from __future__ import annotations

from collections.abc import Mapping

from hookrun import exitcodes
from hookrun.records import TYPE_CHECKING, NamedTuple
from hookrun.runner.envelope import HookAnswer

if TYPE_CHECKING:
    from typing import Any

    from hookrun.runner.envelope import Decision

# 128 + SIGINT, what a shell reports for a command interrupted by Ctrl-C.


class HookResult(NamedTuple):
    """One hook's run: where it came from, how it ran, what it answered."""

    name: str
    source: str  # "<config path>#PreToolUse[2]"
    route: str  # dispatch's route ("inprocess", "shebang:python3", …) or "builtin:<name>"
    exit_code: int
    duration_ms: float  # rounded to 0.1
    answer: HookAnswer
    timed_out: bool = False
    cancelled: bool = False

    @property
    def decision(self) -> Decision | None:
        return self.answer.decision

    @property
    def halt(self) -> bool:
        return self.answer.halt

    @property
    def reason(self) -> str | None:
        return self.answer.reason

    @property
    def error(self) -> str | None:
        return self.answer.error

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "source": self.source,
            "route": self.route,
            "exit_code": self.exit_code,
            "duration_ms": self.duration_ms,
            "decision": self.decision,
            "halt": self.halt,
            "timed_out": self.timed_out,
            "error": self.error,
            "reason": self.reason,
        }


class RunResult(NamedTuple):
    """The aggregated answer to one event (DESIGN "The aggregated answer")."""

    event: str
    decision: Decision | None = None
    halt: bool = False
    reason: str | None = None
    context: tuple[str, ...] = ()
    context_files: tuple[str, ...] = ()
    updated_input: Mapping[str, Any] | None = None
    updated_prompt: str | None = None
    updated_output: Any = None
    system_message: str | None = None
    hooks: tuple[HookResult, ...] = ()
    cancelled: bool = False
    audit_error: str | None = None  # the audit line could not be written (the run stands)
    tool_name: str | None = None  # of the event, for the host shapes

    @property
    def exit_code(self) -> int:
        """What ``hookrun run`` exits with: 49 halt, 2 deny, 130 cancelled, else 0.

        A halt or a deny a hook gave before the run was cancelled stands: exiting 130
        instead would turn it into what every host reads as a non-blocking error."""
        if self.halt:
            return exitcodes.HALT
        if self.decision == "deny":
            return exitcodes.DENY
        if self.cancelled:
            return exitcodes.CANCELLED
        return 0

    def to_dict(self) -> dict[str, Any]:
        """The JSON ``hookrun run`` prints."""
        return {
            "version": 1,
            "event": self.event,
            "decision": self.decision,
            "halt": self.halt,
            "reason": self.reason,
            "context": list(self.context),
            "context_files": list(self.context_files),
            "updated_input": None if self.updated_input is None else dict(self.updated_input),
            "updated_prompt": self.updated_prompt,
            "updated_output": self.updated_output,
            "system_message": self.system_message,
            "hooks": [hook.to_dict() for hook in self.hooks],
        }
