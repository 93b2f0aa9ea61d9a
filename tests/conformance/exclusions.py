"""Oils spec cases left out of the conformance suite, each with the reason.

Only behaviour a hook can never meet belongs here: an interactive shell, or
behaviour that is Oils' own (OSH/YSH options bash does not have). An excluded case
counts as a failure in the figures (scripts/conformance_report.py).
"""

from __future__ import annotations

_INTERACTIVE = "runs `$SH -i`: an interactive shell, which a hook never is"

EXCLUDED: dict[str, str] = {
    "sh-options#03": _INTERACTIVE,
    "sh-options#09": _INTERACTIVE,
}
