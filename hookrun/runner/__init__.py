"""One event → one aggregated answer: matching, payload + env, parallel execution,
per-hook parsing, aggregation, audit trail.

``Runner`` and ``RunResult`` (in :mod:`hookrun.runner.api`) are the embedding API;
``PayloadError`` is what ``Runner.run`` raises for a payload it cannot run; it is here,
not in a module of its own: every run loads this package, and a module costs ~0.35M
instructions of start-up (issue 8).
"""

from __future__ import annotations

from hookrun.records import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

    from hookrun.runner.api import HookResult, Runner, RunResult

__all__ = ["HookResult", "PayloadError", "Runner", "RunResult"]


class PayloadError(ValueError):
    """The event payload is not a JSON object, or one of its fields has the wrong type.

    The one error the runner raises at its caller. ``str()`` is a complete message for a
    person: which field, what was expected, what came instead. The CLI prints it as is
    and exits 1.
    """


def __getattr__(name: str) -> Any:
    if name in ("Runner", "RunResult", "HookResult"):
        from hookrun.runner import api

        return getattr(api, name)
    raise AttributeError(f"module 'hookrun.runner' has no attribute {name!r}")
