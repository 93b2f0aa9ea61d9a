"""ConfigError and the helpers that give every config issue its place."""

from __future__ import annotations

import re
from collections.abc import Iterable

from hookrun.config.spec import ConfigIssue

# A pattern string, compiled (and cached by re) on first use: module-level compiles
# run on every `hookrun run` start, whether or not the pattern is ever needed.
_BARE_KEY = r"[A-Za-z_$][A-Za-z0-9_$\-]*"


class ConfigError(Exception):
    """A config that cannot be used. ``issues`` lists every error (and the warnings seen
    on the way), each with file, line:column and JSON path; ``str()`` shows them one per line."""

    def __init__(self, issues: Iterable[ConfigIssue]) -> None:
        self.issues: list[ConfigIssue] = list(issues)
        super().__init__("\n".join(str(issue) for issue in self.issues))

    @property
    def errors(self) -> list[ConfigIssue]:
        return [issue for issue in self.issues if issue.severity == "error"]


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
