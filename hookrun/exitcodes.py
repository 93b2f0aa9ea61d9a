"""Every exit status hookrun gives or reads, with the reason for its value.

One home for each: the runner, dispatch, the policies and the command line all
import them from here, so a host author reads the contract in one place.
"""

from __future__ import annotations

# Allow, ask, or no opinion: the call goes ahead (with whatever context was added).
OK = 0

# hookrun itself could not answer (bad config, bad payload, bad options) — or, for
# one hook, a built-in policy that raised. 1 is what hosts already read as "a
# non-blocking error": never 2, which they read as "deny".
ERROR = 1

# Deny, with stderr as the reason: the convention of Claude Code, Crush and most
# hosts since their first hooks, so a hook written for them runs unchanged.
DENY = 2

# Halt the turn, stderr is the reason. 49 sits in an empty slice of the exit-code
# space: above the generic errors (1–30), below the sysexits range (64–78) and the
# killed-by-signal range (128+), so no tool exits with it by accident (Crush's
# HaltExitCode, kept so Crush hooks run unchanged).
HALT = 49

# A bug in dispatch itself (sysexits' EX_SOFTWARE): must not look like a hook's own
# "deny" (2) or "halt" (49).
INTERNAL_ERROR = 70

# A hook that ran out of time: what coreutils' timeout(1) exits with.
TIMEOUT = 124

# The file exists but cannot be run (not executable, a malformed shebang), and
# the command is not found: POSIX shells' statuses for these, so hooks read alike.
NOT_EXECUTABLE = 126
NOT_FOUND = 127

# Interrupted by a signal: 128 + the signal's number, as shells report it.
SIGNAL_BASE = 128

# Interrupted by Ctrl-C (128 + SIGINT): what a run reports when it was cancelled.
CANCELLED = SIGNAL_BASE + 2


def interrupted(signum: int) -> int:
    """The status of a run ended by signal ``signum`` (130 SIGINT, 143 SIGTERM, 129 SIGHUP)."""
    return SIGNAL_BASE + signum
