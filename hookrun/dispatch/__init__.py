"""One command string → one finished process result, the same way on every OS.

``dispatch`` knows nothing about events or envelopes. Entry points:
:func:`run` (blocking, cancellable from another thread) and :func:`arun`
(asyncio; cancelling the task ends the whole process tree).

Names are resolved lazily: importing ``hookrun.dispatch.cancel`` (as the runner
does for every event) must not pay for ``subprocess`` and the routing code.
"""

from __future__ import annotations

from hookrun.records import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

    from hookrun.dispatch.api import arun, run
    from hookrun.dispatch.cancel import CancelToken
    from hookrun.dispatch.result import Completed

__all__ = ["CancelToken", "Completed", "arun", "run"]


def __getattr__(name: str) -> Any:
    if name in ("run", "arun"):
        from hookrun.dispatch import api

        return getattr(api, name)
    if name == "Completed":
        from hookrun.dispatch.result import Completed

        return Completed
    if name == "CancelToken":
        from hookrun.dispatch.cancel import CancelToken

        return CancelToken
    raise AttributeError(f"module 'hookrun.dispatch' has no attribute {name!r}")
