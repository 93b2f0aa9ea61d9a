"""Oils spec cases left out of the conformance suite, each with the reason.

Only behaviour a hook can never meet belongs here: an interactive shell, or
behaviour that is Oils' own (OSH/YSH options bash does not have). An excluded case
counts as a failure in the figures (scripts/conformance_report.py).
"""

from __future__ import annotations

EXCLUDED: dict[str, str] = {}
