"""The Ralph v2 P0 guards of seed 003, as built-in policies (one module each).

- session-dir-guard — #1 session directory guard; SessionStart; fail-open
- ssot-guard — #8 SSOT write guard + #14 status mutation guard; PreToolUse; fail-closed
- signal-schema — #29 signal file schema; PreToolUse (+ SessionStart: waiting signals); fail-open
- single-mode-guard — #9 single-mode sub-agent guard; PreToolUse; fail-open
- task-file-check — #13 task file existence check; PreToolUse; fail-open

(#7 path allowlist is write-guard's job; see docs/policies.md.) BLOCK → deny,
WARN → context, PASS → no opinion.
"""

from __future__ import annotations

from hookrun.hooks.ralph_session import SESSION_DIR_GUARD
from hookrun.hooks.ralph_signal import SIGNAL_SCHEMA
from hookrun.hooks.ralph_ssot import SSOT_GUARD
from hookrun.hooks.ralph_subagent import SINGLE_MODE_GUARD, TASK_FILE_CHECK

__all__ = [
    "SESSION_DIR_GUARD",
    "SIGNAL_SCHEMA",
    "SINGLE_MODE_GUARD",
    "SSOT_GUARD",
    "TASK_FILE_CHECK",
]
