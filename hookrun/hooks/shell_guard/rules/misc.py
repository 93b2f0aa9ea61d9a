"""misc.*: findings about the line as a whole rather than one command in it."""

from __future__ import annotations

from hookrun.hooks.shell_guard.judging import Finding
from hookrun.hooks.shell_guard.model import Script


def fork_bombs(script: Script, via: tuple[str, ...]) -> list[Finding]:
    """``:(){ :|:& };:`` and friends: found by the parser (or the fallback's scan)."""
    return [
        Finding(
            "misc.fork-bomb",
            bomb,
            "a function that starts copies of itself (a fork bomb) exhausts the machine; "
            "never run it",
            via=via,
        )
        for bomb in script.fork_bombs
    ]


def too_deep(text: str, via: tuple[str, ...]) -> Finding:
    return Finding(
        "misc.too-deep",
        text[:80],
        "the command nests shells and substitutions too deep to check; write it plainly",
        via=via,
    )
