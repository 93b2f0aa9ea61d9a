"""The helpers that give every config issue its place, and ConfigError (hookrun.config.spec).

ConfigError lives with ConfigIssue in :mod:`hookrun.config.spec`: a cached config is
loaded with only spec's classes, and catching the error must not import this module.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from hookrun.config.spec import ConfigError

__all__ = ["ConfigError", "format_path"]

# A pattern string, compiled (and cached by re) on first use: module-level compiles
# run on every `hookrun run` start, whether or not the pattern is ever needed.
_BARE_KEY = r"[A-Za-z_$][A-Za-z0-9_$\-]*"


def format_path(path: Iterable[str | int]) -> str:
    """``("hooks", "PreToolUse", 2, "matcher")`` → ``hooks.PreToolUse[2].matcher``."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        elif re.fullmatch(_BARE_KEY, part):
            out += f".{part}" if out else part
        else:
            from hookrun.config.quote import quote

            out += f"[{quote(part)}]"
    return out
