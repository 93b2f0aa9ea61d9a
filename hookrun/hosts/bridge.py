"""One host event in, one host answer out: what ``hookrun run --host NAME|auto`` does
around the (host-agnostic) runner.

:func:`map_in` picks the host (detecting it for ``auto``), turns the host's event name
into the canonical one and the host's payload into hookrun's; :func:`map_out` turns the
aggregated result into the host's stdout JSON, exit code and stderr line.
"""

from __future__ import annotations

from collections.abc import Mapping

from hookrun import hosts
from hookrun.hosts import UNMAPPED, canonical_event, detect
from hookrun.records import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from typing import Any

    from hookrun.hosts.base import Answer, Host
    from hookrun.runner.result import RunResult


class Inbound(NamedTuple):
    """A host's event, mapped: what to run and how to answer."""

    host: Host  # whose payload and answer shape (the neutral one when ambiguous)
    answer_as: str  # host name, or detect.AMBIGUOUS
    host_event: str  # the event name as the host sent it
    event: str  # canonical event, or host_event itself when it has none (custom)
    payload: Mapping[str, Any]  # hookrun's payload
    why: str  # how the host was chosen
    unmapped: bool  # the host's event has no canonical equivalent

    def note(self, hooks_configured: int) -> str | None:
        """The stderr line for an event the host has and hookrun has no name for."""
        if not self.unmapped:
            return None
        return (
            f"hookrun: {self.host.title} event {self.host_event!r} has no hookrun "
            f"equivalent: ran it as a custom event ({hooks_configured} hook(s) configured "
            f"under {self.host_event!r})"
        )


def map_in(name: str, host_event: str, raw: Mapping[str, Any], env: Mapping[str, str]) -> Inbound:
    """Map the host's event and payload in (``name`` is a host name or ``auto``)."""
    if name == "auto":
        found = detect.detect(host_event, raw, env)
        answer_as, why = found.host, found.why
    else:
        answer_as, why = name, "--host " + name
    # An ambiguous payload is read as Claude Code's (Codex's and Copilot's PascalCase
    # payloads are the same shape) and answered in the shape all three read.
    host = hosts.get("claude" if answer_as == detect.AMBIGUOUS else answer_as)
    event = canonical_event(host, host_event)
    unmapped = event is None and (host.name != "hookrun" or host_event in UNMAPPED)
    if event is None:
        event = host_event
    payload = host.payload_in(host_event, event, raw)
    return Inbound(host, answer_as, host_event, event, payload, why, unmapped)


def map_out(inbound: Inbound, result: RunResult) -> Answer:
    if inbound.answer_as == detect.AMBIGUOUS:
        from hookrun.hosts import claude  # loaded already by map_in

        return claude.ambiguous_answer(result, inbound.host_event, inbound.payload)
    answer = inbound.host.answer(result, inbound.host_event, inbound.payload)
    return answer
