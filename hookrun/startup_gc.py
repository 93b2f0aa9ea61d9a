"""No cyclic garbage collection while ``hookrun run`` / ``hookrun policy`` start up.

A cold start allocates tens of thousands of container objects (module dicts, functions,
classes, the constants of every module's code, the config) and keeps nearly all of them
to the end of the process. The collector counts the allocations and, every 700, walks
the young ones; every tenth time it walks everything allocated so far: about ten
collections in a cold ``hookrun run``, which find next to nothing (a hundred-odd objects
of import-time cycles) and cost 3.6-4.2M instructions, 4% of the run (callgrind,
bench/startup_bench.py's four cases; a bare ``python -c pass`` is 40M).

:func:`pause` (the command's fast path, before its imports) turns the collector off;
:func:`resume` (the runner, just before the first hook starts) moves everything
allocated so far to the permanent generation (``gc.freeze``: never examined again) and
turns the collector back on with its thresholds unchanged.

Why that is sound:

- Only the command pauses. An embedding host's process never calls :func:`pause`, so
  :func:`resume` does nothing there, and a host that turned the collector off itself
  keeps it off (:func:`pause` only acts on a collector that is on).
- The pause covers start-up only: a bounded amount of work done once (imports, reading
  the config and the payload, preparing the hooks). The hooks are the only part of a
  run that can last — an in-process shell loop until its timeout, a policy, a wait on a
  child — and they run with the collector on, collecting the cycles they make as in any
  Python program.
- What the freeze keeps: cyclic garbage made during start-up is never collected. It is
  made once, and is small (the ~120 objects the skipped collections would have found).
- A run that never reaches its hooks (a bad config or payload, no hook matched, hooks
  answered from their text) ends within that same bounded work, collector off.
"""

from __future__ import annotations

import gc

_paused = False


def pause() -> None:
    """Turn the collector off for this process's start-up (if it is on)."""
    global _paused
    if gc.isenabled():
        gc.disable()
        _paused = True


def resume() -> None:
    """End :func:`pause`'s pause, if there is one: freeze what start-up allocated and
    turn the collector back on. Otherwise nothing (an embedding host's process)."""
    global _paused
    if _paused:
        _paused = False
        gc.freeze()
        gc.enable()
