"""One event → one aggregated answer: matching, payload + env, parallel execution,
per-hook parsing, aggregation, audit trail.

``Runner`` and ``RunResult`` (in :mod:`hookrun.runner.api`) are the embedding API;
``PayloadError`` is what ``Runner.run`` raises for a payload it cannot run.
"""

from __future__ import annotations

from hookrun.records import TYPE_CHECKING
from hookrun.runner.errors import PayloadError

if TYPE_CHECKING:
    from typing import Any

    from hookrun.runner.api import HookResult, Runner, RunResult

__all__ = ["HookResult", "PayloadError", "Runner", "RunResult"]


def __getattr__(name: str) -> Any:
    if name in ("Runner", "RunResult", "HookResult"):
        from hookrun.runner import api

        return getattr(api, name)
    raise AttributeError(f"module 'hookrun.runner' has no attribute {name!r}")
