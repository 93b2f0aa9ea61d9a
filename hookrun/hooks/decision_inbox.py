"""decision-inbox (seed 000 P11, H3): agents drop decisions in an inbox; one role merges them.

Several agents writing ``decisions.md`` at once lose each other's entries and
rewrite each other's wording. Squad's rule: agents write a file into
``decisions/inbox/`` next to it, and only the coordinator merges the inbox into
``decisions.md``. This policy denies writes to ``paths`` (default
``**/decisions.md``) unless the caller's role is one of ``roles`` (default
``coordinator``).

The role is the payload's ``agent_role`` (``agentRole``, ``role``,
``session_role``), else the environment variable ``role_env`` (default
``HOOKRUN_AGENT_ROLE``). A call with no role is not the coordinator's: it is
denied (the seed's rule is "role ≠ coordinator → deny"); hosts whose main agent
sends no role set ``HOOKRUN_AGENT_ROLE=coordinator`` for it.
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping
from typing import Any, NamedTuple

from hookrun import fields as pl
from hookrun.hooks import file_edit
from hookrun.hooks.base import ALLOW, Policy, PolicyContext, Verdict


class DecisionInboxOptions(NamedTuple):
    paths: tuple[str, ...] = ("**/decisions.md",)
    roles: tuple[str, ...] = ("coordinator",)
    role_env: str = "HOOKRUN_AGENT_ROLE"
    inbox: str = "decisions/inbox"  # relative to the decisions file's directory
    tools: tuple[str, ...] = file_edit.WRITE_TOOLS


def decide(payload: Mapping[str, Any], opts: DecisionInboxOptions, ctx: PolicyContext) -> Verdict:
    if not file_edit.any_tool_in(pl.tool_names(payload), opts.tools):
        return ALLOW
    norm = file_edit.target(payload, ctx)
    if norm is None or norm.rel is None:
        return ALLOW
    rule = file_edit.matches_any(norm.rel, opts.paths, ignore_case=norm.ignore_case)
    if rule is None:
        return ALLOW
    role = pl.agent_role(payload) or ctx.env.get(opts.role_env) or ""
    if role.strip().casefold() in {r.casefold() for r in opts.roles}:
        return ALLOW
    inbox = posixpath.join(posixpath.dirname(norm.rel), opts.inbox)
    who = pl.agent_name(payload) or "<agent>"
    slug = "".join(c if c.isalnum() else "-" for c in who.casefold()).strip("-") or "agent"
    as_role = f"role '{role}'" if role else "no role given"
    return Verdict(
        decision="deny",
        rule="decision-inbox",
        reason=(
            f"decision-inbox: agents do not write {norm.rel} directly ({as_role}; only "
            f"{', '.join(opts.roles)} may). Write to {inbox}/ instead: create "
            f"{inbox}/{slug}-<short-topic>.md with your decision; the "
            f"{opts.roles[0] if opts.roles else 'coordinator'} merges it."
        ),
    )


POLICY: Policy[DecisionInboxOptions] = Policy(
    name="decision-inbox",
    options=DecisionInboxOptions,
    decide=decide,
)
