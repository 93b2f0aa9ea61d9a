"""hookrun: a cross-platform hook runner and dispatcher for AI coding-agent hosts.

``from hookrun import Runner`` is the embedding API. Names are resolved lazily so
that ``hookrun run`` (started once per event by non-Python hosts) only imports
what it uses.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

if TYPE_CHECKING:
    from hookrun.dispatch.cancel import CancelToken
    from hookrun.runner.api import Runner, RunResult

__all__ = ["CancelToken", "Runner", "RunResult", "__version__"]


def __getattr__(name: str) -> Any:
    if name in ("Runner", "RunResult"):
        from hookrun.runner import api

        return getattr(api, name)
    if name == "CancelToken":
        from hookrun.dispatch.cancel import CancelToken

        return CancelToken
    raise AttributeError(f"module 'hookrun' has no attribute {name!r}")
