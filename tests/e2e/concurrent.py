"""Run the bodies of a module's host scenarios side by side, report them one by one.

A host run is seconds of mostly waiting (Node's start, the model round trips, hookrun's
start-up per hook), so running a few at once costs little more CPU than running one.
Tests marked ``@pytest.mark.concurrent`` take a ``rig`` fixture built here: when the first
of them in a module sets up, every selected test of that module gets its own world and
rig, and its body is submitted to a small thread pool; each test then reports the outcome
of its own body when its turn comes (tests/e2e/conftest.py's ``pytest_pyfunc_call``), with
its own traceback, xfail and timeout. Bodies only touch their own world, their own fake
model and their own host process.

``HOOKRUN_E2E_WORKERS`` sets the pool size (default 3; 1 runs them one at a time).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import pytest

from tests.e2e.rig import Rig

# A scenario test's parameters besides `rig`: the host, the variant, the event, ….
BuildRig = Callable[[pytest.Item, dict[str, Any]], Rig]


def workers() -> int:
    return max(1, int(os.environ.get("HOOKRUN_E2E_WORKERS", "3")))


class Batch:
    """The rigs and running bodies of one module's concurrent tests."""

    def __init__(self, items: list[pytest.Item], build: BuildRig) -> None:
        self.rigs: dict[str, Rig] = {}
        self.futures: dict[str, Future[None]] = {}
        self._pool = ThreadPoolExecutor(max_workers=workers(), thread_name_prefix="e2e")
        for item in items:
            params = dict(item.callspec.params) if hasattr(item, "callspec") else {}
            rig = build(item, params)
            self.rigs[item.nodeid] = rig
            kwargs = {name: rig if name == "rig" else params[name] for name in _argnames(item)}
            function = item.obj  # type: ignore[attr-defined]
            self.futures[item.nodeid] = self._pool.submit(function, **kwargs)

    def cancel(self) -> None:
        """Drop the bodies not started yet (the session ends early: -x, Ctrl-C)."""
        self._pool.shutdown(wait=False, cancel_futures=True)

    def outcome(self, item: pytest.Item) -> None:
        """Wait for ``item``'s body; re-raise what it raised (assertion, pytest.fail, …)."""
        self.futures[item.nodeid].result()


_BATCHES: dict[str, Batch] = {}


def batch_for(request: pytest.FixtureRequest, build: BuildRig) -> Batch:
    """The batch of the requesting test's module, started on first use."""
    module = request.node.module.__name__
    if module not in _BATCHES:
        items = [
            item
            for item in request.session.items
            if item.get_closest_marker("concurrent") is not None
            and getattr(item, "module", None) is request.node.module
        ]
        _BATCHES[module] = Batch(items, build)
    return _BATCHES[module]


def cancel_all() -> None:
    for batch in _BATCHES.values():
        batch.cancel()


def running(item: pytest.Item) -> Batch | None:
    module = getattr(item, "module", None)
    return _BATCHES.get(module.__name__) if module is not None else None


def _argnames(item: pytest.Item) -> tuple[str, ...]:
    names: tuple[str, ...] = item._fixtureinfo.argnames  # type: ignore[attr-defined]
    return names


def tmp_name(item: pytest.Item) -> str:
    """A short directory name for ``item``'s world."""
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", item.name)[:60]
