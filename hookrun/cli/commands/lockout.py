"""``hookrun lockout add|clear|list``: the reviewer-lockout registry of this project.

The registry lives in ``<project root>/.hookrun/state/lockout.json``, the same
file the ``reviewer-lockout`` policy reads, so a lockout added here is enforced
on the agent's next write.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from hookrun.cli import CliError
from hookrun.cli.configfiles import project_dir, resolve_cwd
from hookrun.cli.trace import table
from hookrun.hooks import lockout
from hookrun.hooks.state import StateError

if TYPE_CHECKING:
    from hookrun.cli.commands.run import Streams


def state_dir() -> str:
    return os.path.join(project_dir(resolve_cwd()), ".hookrun", "state")


def _failed(action: str, exc: Exception) -> CliError:
    text = str(exc).removeprefix("lockout: ")
    return CliError(f"lockout {action}: {text} (state dir {state_dir()})")


def add_command(artifact: str, agent: str, reason: str | None, streams: Streams) -> int:
    try:
        entry = lockout.add(state_dir(), artifact, agent, reason=reason)
    except (OSError, ValueError, StateError) as exc:
        raise _failed("add", exc) from None
    streams.stdout.write(f"locked out {entry.agent} from {entry.artifact}\n")
    return 0


def clear_command(artifact: str | None, agent: str | None, streams: Streams) -> int:
    try:
        removed = lockout.clear(state_dir(), artifact, agent)
    except (OSError, ValueError, StateError) as exc:
        raise _failed("clear", exc) from None
    streams.stdout.write(f"cleared {removed} lockout{'' if removed == 1 else 's'}\n")
    return 0


def list_command(streams: Streams) -> int:
    try:
        entries = lockout.entries(state_dir())
    except (OSError, ValueError, StateError) as exc:
        raise _failed("list", exc) from None
    if not entries:
        streams.stdout.write(f"no lockouts ({state_dir()})\n")
        return 0
    rows = [["artifact", "agent", "since", "denials", "reason"]]
    for e in entries:
        rows.append([e.artifact, e.agent, e.since, str(e.denials), e.reason or "-"])
    streams.stdout.write(table(rows) + "\n")
    return 0
