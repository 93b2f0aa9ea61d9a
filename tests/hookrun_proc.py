"""A real ``python -m hookrun`` process for the CLI and reliability suites: its
environment and what it answered. Both suites had their own copy of these two.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Ran:
    code: int
    out: str
    err: str

    @property
    def json(self) -> Any:
        return json.loads(self.out)


def hookrun_env(base: Path, extra: dict[str, str] | None = None) -> dict[str, str]:
    """A hookrun process's environment: this checkout importable, no user config (the
    XDG dirs, platformdirs' user dirs on Linux, under ``base``), no debug."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    env["XDG_CONFIG_HOME"] = str(base / "xdg-config")
    env["XDG_CACHE_HOME"] = str(base / "xdg-cache")
    env.pop("HOOKRUN_DEBUG", None)
    env.update(extra or {})
    return env
