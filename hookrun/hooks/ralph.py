"""The Ralph v2 P0 guards of seed 003, as built-in policies (one module each).

=====================  ===========================  =========  ===========
policy                 seed 003 item                event      fail mode
=====================  ===========================  =========  ===========
session-dir-guard      #1 session directory guard   SessionStart  open
ssot-guard             #8 SSOT write + #14 status   PreToolUse    closed
signal-schema          #29 signal file schema       PreToolUse    open
single-mode-guard      #9 single-mode sub-agent     PreToolUse    open
task-file-check        #13 task file existence      PreToolUse    open
=====================  ===========================  =========  ===========

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
