"""reviewer-lockout (seed 000 P2, H4, R3, N3; seed 004): a rejected author may not revise.

When a reviewer rejects an artifact, its author is locked out of producing the next
version: another agent must. The registry ``<project>/.hookrun/state/lockout.json``
outlives sessions (seed 000 N3) and is managed with ``hookrun lockout add|clear|list``
or this module's Python API (:func:`add`, :func:`clear`, :func:`entries`,
:func:`locked_agents`).

Decisions:

* Artifacts are project-relative paths with ``/`` separators; a glob (``src/auth/**``)
  locks a whole module out. An absolute path is made relative to the project.
* The agent is the payload's ``agent_name`` (``agentName``, ``agent``), else the
  environment variable named by ``agent_env``; names compare case-insensitively.
  A call that names no agent cannot be attributed and gets no opinion.
* Write tools are checked always. Shell commands are checked only with
  ``check_shell: true``: then any command by the locked-out agent that *mentions* a
  locked path is denied (conservative — parsing what a command writes is
  shell-guard's job, and a lockout is about the author not touching the artifact).
* Every denial is counted in the registry. After ``escalate_after`` denials (R3:
  "max 3, then surface to the user") the next attempt halts the turn.
"""

from __future__ import annotations

import os
import re
import shlex
import sys
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from datetime import datetime, timezone
from typing import Annotated, Any, NamedTuple

from hookrun import fields as pl
from hookrun.hooks import file_edit, paths, state
from hookrun.hooks.base import ALLOW, Policy, PolicyContext, Verdict
from hookrun.hooks.options import AtLeast

REGISTRY = "lockout.json"

SHELL_TOOLS: tuple[str, ...] = (
    "Bash",
    "shell",
    "powershell",
    "run_in_terminal",
    "execute_command",
    "run_shell_command",
)


@dataclass(frozen=True)
class LockoutEntry:
    artifact: str  # project-relative path or glob, "/" separators
    agent: str
    since: str  # ISO-8601 UTC
    reason: str | None = None
    denials: int = 0

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> LockoutEntry | None:
        artifact, agent = raw.get("artifact"), raw.get("agent")
        if not isinstance(artifact, str) or not isinstance(agent, str):
            return None
        reason = raw.get("reason")
        denials = raw.get("denials")
        since = raw.get("since")
        return cls(
            artifact=artifact,
            agent=agent,
            since=since if isinstance(since, str) else "",
            reason=reason if isinstance(reason, str) else None,
            denials=denials if isinstance(denials, int) and denials >= 0 else 0,
        )

    def covers(self, agent: str, rel: str, *, ignore_case: bool = False) -> bool:
        if self.agent.casefold() != agent.casefold():
            return False
        if file_edit.is_glob(self.artifact):
            return paths.glob_match(rel, self.artifact, ignore_case=ignore_case)
        return rel.casefold() == self.artifact.casefold() if ignore_case else rel == self.artifact


def registry_path(state_dir: str) -> str:
    return os.path.join(state_dir, REGISTRY)


def _project_of(state_dir: str) -> str:
    # state_dir is <project>/.hookrun/state (PolicyContext's contract).
    return os.path.dirname(os.path.dirname(os.path.abspath(state_dir)))


def _inside(path: str, project_dir: str, what: str) -> str:
    """``path`` (absolute) relative to the project, ``/`` separators; ValueError outside."""
    root = os.path.realpath(project_dir)
    rel = os.path.relpath(os.path.realpath(path), root).replace(os.sep, "/")
    if rel == ".." or rel.startswith("../") or os.path.isabs(rel):
        raise ValueError(
            f"lockout: {what} is outside the project {root} — give a path inside the project"
        )
    return rel


def normalize_artifact(artifact: str, project_dir: str, *, cwd: str | None = None) -> str:
    """``artifact`` as the registry stores it; raises ValueError for unusable input.

    A relative artifact is relative to ``cwd`` when given (a person typing a path in a
    sub-folder means that folder), else to the project root.
    """
    text = artifact.strip().replace("\\", "/")
    if not text:
        raise ValueError("lockout: the artifact is empty — give a path relative to the project")
    if os.path.isabs(text) or os.path.isabs(artifact.strip()):
        text = _inside(artifact.strip(), project_dir, artifact)
    elif cwd is not None:
        base = _inside(cwd, project_dir, f"the current folder {cwd}")
        text = text if base == "." else f"{base}/{text}"
    parts: list[str] = []
    for part in text.split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            if not parts:
                raise ValueError(
                    f"lockout: {artifact} leaves the project — give a path inside the project"
                )
            parts.pop()
            continue
        parts.append(part)
    if not parts:
        raise ValueError(f"lockout: {artifact} names the project root, not an artifact")
    return "/".join(parts)


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z")


def _raw_entries(data: dict[str, Any]) -> list[Any]:
    raw = data.get("entries")
    if raw is None:
        raw = data["entries"] = []
    if not isinstance(raw, list):
        raise state.StateError(
            "lockout registry is corrupt ('entries' is not a list) — fix it by hand or run "
            "`hookrun lockout clear` after deleting it"
        )
    data.setdefault("version", 1)
    return raw


def _parse_all(raw: list[Any]) -> list[LockoutEntry]:
    out = []
    for item in raw:
        entry = LockoutEntry.from_json(item) if isinstance(item, Mapping) else None
        if entry is not None:
            out.append(entry)
    return out


# --- Python API (used by `hookrun lockout`) ------------------------------------------------


def add(
    state_dir: str,
    artifact: str,
    agent: str,
    *,
    reason: str | None = None,
    project_dir: str | None = None,
    cwd: str | None = None,
) -> LockoutEntry:
    """Lock ``agent`` out of ``artifact``; idempotent (a repeat updates the reason only).

    ``cwd``: what a relative artifact is relative to (default: the project root).
    Raises ValueError for an unusable artifact or agent, StateError for state trouble.
    """
    rel = normalize_artifact(artifact, project_dir or _project_of(state_dir), cwd=cwd)
    name = agent.strip()
    if not name:
        raise ValueError("lockout: the agent name is empty — give the rejected author's name")

    def change(data: dict[str, Any]) -> LockoutEntry:
        raw = _raw_entries(data)
        for i, item in enumerate(raw):
            entry = LockoutEntry.from_json(item) if isinstance(item, Mapping) else None
            if entry and entry.artifact == rel and entry.agent.casefold() == name.casefold():
                if reason is not None:
                    entry = LockoutEntry(
                        entry.artifact, entry.agent, entry.since, reason, entry.denials
                    )
                    raw[i] = asdict(entry)
                return entry
        entry = LockoutEntry(rel, name, _now(), reason, 0)
        raw.append(asdict(entry))
        return entry

    return state.update(registry_path(state_dir), change)


def clear(
    state_dir: str,
    artifact: str | None = None,
    agent: str | None = None,
    *,
    project_dir: str | None = None,
    cwd: str | None = None,
) -> int:
    """Remove the entries matching ``artifact`` and/or ``agent`` (None = any); the count."""
    rel = (
        normalize_artifact(artifact, project_dir or _project_of(state_dir), cwd=cwd)
        if artifact is not None
        else None
    )
    if not os.path.exists(registry_path(state_dir)):
        return 0

    def change(data: dict[str, Any]) -> int:
        raw = _raw_entries(data)
        keep = []
        for item in raw:
            entry = LockoutEntry.from_json(item) if isinstance(item, Mapping) else None
            hit = (
                entry is not None
                and (rel is None or entry.artifact == rel)
                and (agent is None or entry.agent.casefold() == agent.strip().casefold())
            )
            if not hit:
                keep.append(item)
        removed = len(raw) - len(keep)
        data["entries"] = keep
        return removed

    return state.update(registry_path(state_dir), change)


def entries(state_dir: str) -> list[LockoutEntry]:
    """Every lockout in the registry, in the order they were added."""
    data = state.read(registry_path(state_dir))
    if not data:
        return []
    return _parse_all(_raw_entries(data))


def locked_agents(state_dir: str, artifact: str, *, cwd: str | None = None) -> list[str]:
    """The agents locked out of ``artifact`` (exact entries and globs covering it) —
    seed 004's ``getLockedAgents``."""
    rel = normalize_artifact(artifact, _project_of(state_dir), cwd=cwd)
    found = [e.agent for e in entries(state_dir) if e.covers(e.agent, rel)]
    return list(dict.fromkeys(found))


# --- the policy ----------------------------------------------------------------------------


class LockoutOptions(NamedTuple):
    tools: tuple[str, ...] = file_edit.WRITE_TOOLS
    escalate_after: Annotated[int | None, AtLeast(0)] = 3
    check_shell: bool = False
    shell_tools: tuple[str, ...] = SHELL_TOOLS
    agent_env: str = "HOOKRUN_AGENT"
    # Paths compare without case where the file system does (Windows, macOS): there,
    # SRC/Auth.ts *is* src/auth.ts, and a case change must not dodge the lockout.
    ignore_case: bool | None = None  # None = the platform's default


def _agent(payload: Mapping[str, Any], opts: LockoutOptions, ctx: PolicyContext) -> str | None:
    name = pl.agent_name(payload) or ctx.env.get(opts.agent_env)
    return name.strip() if name and name.strip() else None


def _shell_targets(command: str, cwd: str, project_dir: str) -> list[str]:
    # Words that look like paths: a lockout is about a file, so a word without "/" or
    # "." cannot name one. Quotes and redirections are separators here on purpose.
    out = []
    for word in re.findall(r"[^\s'\"`<>|;&()=]+", command):
        if "/" in word or "." in word:
            rel = file_edit.locate(word, cwd=cwd, project_dir=project_dir).rel
            if rel:
                out.append(rel)
    return out


def _targets(
    payload: Mapping[str, Any], opts: LockoutOptions, ctx: PolicyContext
) -> list[str] | None:
    names = pl.tool_names(payload)
    if file_edit.any_tool_in(names, opts.tools):
        norm = file_edit.target(payload, ctx)
        return [norm.rel] if norm is not None and norm.rel else None
    if opts.check_shell and file_edit.any_tool_in(names, opts.shell_tools):
        command = pl.command(payload)
        cwd = file_edit.payload_cwd(payload, ctx.cwd)
        return _shell_targets(command, cwd, ctx.project_dir) if command else None
    return None


def decide(payload: Mapping[str, Any], opts: LockoutOptions, ctx: PolicyContext) -> Verdict:
    targets = _targets(payload, opts, ctx)
    if not targets:
        return ALLOW
    agent = _agent(payload, opts, ctx)
    if agent is None:
        return ALLOW
    path = registry_path(ctx.state_dir)
    fold = paths.ignores_case(sys.platform) if opts.ignore_case is None else opts.ignore_case

    def hits(entry: LockoutEntry | None) -> str | None:
        return next(
            (t for t in targets if entry and entry.covers(agent, t, ignore_case=fold)), None
        )

    # Lock-free read first: the common case (no lockout for this agent) costs one
    # small file read and never takes the lock.
    if not any(hits(e) for e in entries(ctx.state_dir)):
        return ALLOW

    def count(data: dict[str, Any]) -> tuple[LockoutEntry, str] | None:
        hit: tuple[LockoutEntry, str] | None = None
        for i, item in enumerate(_raw_entries(data)):
            entry = LockoutEntry.from_json(item) if isinstance(item, Mapping) else None
            target = hits(entry)
            if entry is None or target is None:
                continue
            entry = LockoutEntry(
                entry.artifact, entry.agent, entry.since, entry.reason, entry.denials + 1
            )
            data["entries"][i] = asdict(entry)
            if hit is None or entry.denials > hit[0].denials:
                hit = (entry, target)
        return hit

    hit = state.update(path, count)
    if hit is None:  # cleared between the read and the lock
        return ALLOW
    entry, target = hit
    why = f" ({entry.reason})" if entry.reason else ""
    since = f" since {entry.since}" if entry.since else ""
    if opts.escalate_after is not None and entry.denials > opts.escalate_after:
        return Verdict(
            decision="deny",
            halt=True,
            rule="lockout.escalated",
            reason=(
                f"reviewer-lockout: {agent} tried to revise {target} {entry.denials} times "
                f"while locked out by a reviewer rejection{why} — stopping for the user to "
                f"decide who revises it (`hookrun lockout clear {shlex.quote(entry.artifact)} "
                f"--agent {shlex.quote(entry.agent)}` lifts the lockout)."
            ),
        )
    return Verdict(
        decision="deny",
        rule="lockout.locked-out",
        reason=(
            f"reviewer-lockout: {agent} is locked out from revising {target} due to a "
            f"reviewer rejection{since}{why}. A different agent must produce the revision — "
            "hand it off (e.g. via the task tool) instead of retrying."
        ),
    )


POLICY: Policy[LockoutOptions] = Policy(
    name="reviewer-lockout",
    options=LockoutOptions,
    decide=decide,
)
