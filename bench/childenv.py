"""The environment of a bench's child interpreters: bytecode on, under a temp prefix.

An installed hookrun has bytecode (pip compiles it). Under PYTHONDONTWRITEBYTECODE
(this image and CI set it) a clean clone has none, and a child that imports hookrun
measured the compiler, not the import (session 20: 293 ms, 9x ``python -c pass``, for
``hookrun policy shell-guard``). Allowed without a prefix, the children write
``__pycache__`` into the work tree the editable install imports from. So bytecode is
written under ``prefix`` (``PYTHONPYCACHEPREFIX``, a temp dir of the bench's) by one
unmeasured run of each command, and the timed runs read it there.

Imported by the benches as a sibling module: ``python bench/X.py`` and
``bench/run_all.py`` both have ``bench/`` first on ``sys.path``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping


def child_env(prefix: str, base: Mapping[str, str] | None = None) -> dict[str, str]:
    """``base`` (default: this process's environment) with bytecode written and read
    under ``prefix``, and without coverage's start hook (a measured child must not
    run the tracer)."""
    env = dict(os.environ if base is None else base)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.pop("COVERAGE_PROCESS_START", None)
    env["PYTHONPYCACHEPREFIX"] = prefix
    return env
