"""A cheap, conservative test that no rule can fire, so bashlex need not run.

Parsing costs 0.1–1 ms; most agent commands (``ls``, ``pytest``, ``git status``)
cannot match any rule. Every rule needs a word that names it (``rm``, ``push``,
``mkfs``, ``/dev/…``, a shell next to a pipe…). With quotes and backslashes
deleted, the words that survive are a superset of what the shell would see,
as long as nothing is computed: any ``$``, backtick or brace sends the line to
the full analysis. A test pins that the screen never hides a finding.
"""

from __future__ import annotations

import re

from hookrun.hooks.shell_guard.model import command_name
from hookrun.hooks.shell_guard.unwrap import SHELLS

_SPECIAL = re.compile(r"[$`{]|\(\)")
_SPLIT = re.compile(r"[\s;&|()<>=,]+")
TRIGGERS = frozenset(
    [
        "rm",
        "rimraf",
        "-delete",
        "push",
        "reset",
        "clean",
        "rebase",
        "config",
        "var",
        "alias",
        "dd",
        "mkswap",
        "mke2fs",
        "wipefs",
        "newfs",
        "diskpart",
        "format",
        "publish",
        "unpublish",
        "shred",
        "blkdiscard",
    ]
)
_RUNNERS = re.compile(
    r"(python[0-9.]*|pypy[0-9.]*|perl[0-9.]*|ruby[0-9.]*|node|nodejs|php[0-9.]*|lua[0-9.]*|"
    r"bun|deno|Rscript|pwsh|powershell|osascript|source|\.|eval|iex|Invoke-Expression|"
    r"cmd|ssh|watch)"
)


def may_match(text: str, deny_heads: frozenset[str] = frozenset()) -> bool:
    """False only when no rule (and no deny shape head) could match ``text``."""
    if _SPECIAL.search(text) or "/dev/" in text or "gitconfig" in text or "git/config" in text:
        return True
    if "alias." in text:
        return True
    plain = text.replace("'", "").replace('"', "").replace("\\", "")
    piped = "|" in text or "<" in text
    for token in _SPLIT.split(plain):
        if not token:
            continue
        name = command_name(token)
        if token in TRIGGERS or name in TRIGGERS or name.startswith("mkfs"):
            return True
        if name in deny_heads or "*" in deny_heads:
            return True
        if piped and (name in SHELLS or _RUNNERS.fullmatch(name)):
            return True
    return False
