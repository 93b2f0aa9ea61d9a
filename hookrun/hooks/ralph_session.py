"""session-dir-guard (seed 003 #1): a valid session id and its folder, before work starts.

On SessionStart:

1. the Ralph session id (payload ``ralph_session_id``, env ``RALPH_SESSION_ID``, then
   payload ``session_id``) must match ``session_id_pattern`` (default
   ``^\\d{6}-\\d{6}$``, i.e. ``<YYMMDD>-<hhmmss>``) and hold no path separator →
   BLOCK otherwise (deny; with ``halt: true`` the session is stopped, since a deny
   on SessionStart does not block anything by itself);
2. a missing ``<sessions_dir>/<id>/`` is created with the scaffold (``signals/inputs/``,
   ``signals/processed/``, ``logs/``) and the actions are reported as context (PASS);
3. an existing session folder missing scaffold folders is a WARN (context).

A start without any session id is not a Ralph session: no opinion. The policy
creates folders (that is its job) but never spawns processes.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any, NamedTuple

from hookrun.hooks import ralph_common, state
from hookrun.hooks.base import ALLOW, Policy, PolicyContext, Verdict


class SessionDirOptions(NamedTuple):
    sessions_dir: str = ralph_common.SESSIONS_DIR
    session_id_pattern: str = ralph_common.SESSION_ID_PATTERN
    scaffold: tuple[str, ...] = ("signals/inputs", "signals/processed", "logs")
    halt: bool = False


def decide(payload: Mapping[str, Any], opts: SessionDirOptions, ctx: PolicyContext) -> Verdict:
    sid = ralph_common.ralph_session_id(payload, ctx.env)
    if not sid:
        return ALLOW
    if not ralph_common.valid_session_id(sid, opts.session_id_pattern):
        why = (
            "contains a path separator"
            if ("/" in sid or "\\" in sid)
            else "does not match required format YYMMDD-HHmmss"
        )
        return Verdict(
            decision="deny",
            halt=opts.halt,
            rule="ralph.session-id",
            reason=(
                f"session-dir-guard: Session ID '{sid}' {why} ({opts.session_id_pattern}). "
                "Start the session with an id like 260215-173319 "
                "(date +%y%m%d-%H%M%S)."
            ),
        )
    rel = f"{opts.sessions_dir.rstrip('/')}/{sid}"
    root = os.path.join(ctx.project_dir, *rel.split("/"))
    try:
        if not os.path.isdir(root):
            for sub in ("", *opts.scaffold):
                os.makedirs(os.path.join(root, *sub.split("/")) if sub else root, exist_ok=True)
            made = ", ".join(f"{s}/" for s in opts.scaffold) or "no subfolders"
            return Verdict(
                context=(
                    f"session-dir-guard: Created directory: {rel}/",
                    f"session-dir-guard: Created scaffold: {made}",
                ),
                rule="ralph.session-dir",
            )
    except OSError as e:
        raise state.StateError(
            f"session-dir-guard: cannot create {rel}/: {e.strerror or e} — check that the "
            "project folder is writable"
        ) from None
    missing = [s for s in opts.scaffold if not os.path.isdir(os.path.join(root, *s.split("/")))]
    if missing:
        return ralph_common.verdict(
            "session-dir-guard",
            [],
            [
                f"{rel}/ exists but lacks {', '.join(m + '/' for m in missing)} — "
                "create them before writing signals or logs."
            ],
            "ralph.session-dir",
        )
    return ALLOW


SESSION_DIR_GUARD: Policy[SessionDirOptions] = Policy(
    name="session-dir-guard",
    options=SessionDirOptions,
    decide=decide,
)
