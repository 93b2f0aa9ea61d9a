"""write-guard (alias file-restriction) and read-guard: which files a tool may touch.

Seed 000 P1/P5/P10/P14 (who may write where), P6 (who may read what), seed 001
(the container ``FILE_RESTRICTIONS`` hook) and seed 003 #7/#12 (path allowlist,
workspace boundary) are one mechanism: normalise the path the tool names
(:mod:`hookrun.hooks.paths`), then test it against *fences*.

How a call is judged, in order (first hit decides):

1. The tool is not one of ``tools`` → no opinion.
2. No path in the call → no opinion (seed 001: fail open).
3. The path resolves outside the workspace (``..``, absolute, symlink, other
   drive) → deny. write-guard has no way to switch this off; read-guard lets
   ``outside_allow`` name absolute globs that may be read.
4. ``FILE_RESTRICTIONS`` is active and the path has a ``..`` segment → deny
   (seed 001 rejects traversal outright; a ``..`` *inside* a name such as
   ``v1..v2.md`` is not traversal and passes). Its globs, like every other,
   are relative to the workspace root — seed 001 hardcoded ``/workspace``;
   where the project dir is something else, set ``"workspace": "/workspace"``.
   Seed 001 also stripped *every* leading ``.``/``/`` from a pattern
   (``.squad/**`` became ``squad/**``); only ``./`` and ``/`` are dropped here.
5. write-guard: ``protect_self`` — an agent may not write its own charter (P10).
   read-guard: ``private`` — an agent may not read another agent's private
   files (P6), unless its role is in ``private_readers``.
6. Any ``deny`` pattern (global, the caller's role, the caller's agent) → deny.
   Deny always wins over allow.
7. Every non-empty ``allow`` list that applies is a fence the path must pass:
   the global one (widened by a role's/agent's ``also_allow``), the role's,
   the agent's, and ``FILE_RESTRICTIONS``. Fences intersect, so adding a rule
   can only ever narrow access — a typo in one agent's entry cannot open up
   what the global list closes.
8. Otherwise no opinion. The guard never answers "allow": in Claude Code an
   explicit allow skips the user's permission prompt, which is not ours to do.

Who is calling comes from the payload (``agent_name``, ``agent_role``, their
Squad spellings) or, when the host does not send it, from the ``agent`` and
``role`` options (one ``hookrun policy write-guard --option role=coordinator``
per session). Names and roles compare without case.

Patterns may hold ``{agent}``, ``{role}`` and ``{session_id}``: they are
replaced by the caller's values (matched literally, agent and role without
case); a pattern whose placeholder is unknown is left out.

P1/P14 ("the coordinator may only write under ``.squad/``") is the default
``roles`` entry: ``{"coordinator": {"allow": [".squad/**", ".ai-team/**"]}}``;
setting ``roles`` replaces it. P10 is ``protect_self``, default
``["**/agents/{agent}/charter.md"]``.

read-guard with no options denies only two things: reads that resolve outside
the workspace (secrets live in ``~/.ssh``, ``~/.aws``; list readable places in
``outside_allow``, e.g. ``["/usr/**"]``), and — when the payload names the
agent — another agent's private files (P6: ``private``, default
``.squad/agents/{owner}/**`` and ``.ai-team/agents/{owner}/**``; roles in
``private_readers``, default ``coordinator``, read them all). Empty
``allow``/``deny`` add nothing: reading is the common case, and a guard that
blocks it by default would be switched off rather than tuned.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Annotated, Any, Literal, NamedTuple

from hookrun import fields as P
from hookrun.hooks.base import Policy, PolicyContext, Verdict
from hookrun.hooks.options import Doc
from hookrun.hooks.paths import Target, glob_literal, glob_match, glob_root, tool_target

Kind = Literal["write", "read"]

# Claude Code, Crush, Squad, and the VS Code/Ralph spellings of the same tools.
WRITE_TOOLS: tuple[str, ...] = (
    "Write",
    "Edit",
    "MultiEdit",
    "NotebookEdit",
    "write",
    "edit",
    "multiedit",
    "create",
    "write_file",
    "create_file",
    "replace_string_in_file",
    "multi_replace_string_in_file",
    "insert_edit_into_file",
    "edit_file",
)
READ_TOOLS: tuple[str, ...] = (
    "Read",
    "Glob",
    "Grep",
    "NotebookRead",
    "LS",
    "view",
    "ls",
    "glob",
    "grep",
    "read_file",
    "list_dir",
    "grep_search",
    "file_search",
    "search",  # the canonical kind of every host's listing and search tools
)

COORDINATOR_HINT = (
    "the coordinator does not write domain artifacts: route the work to an agent via the task tool"
)


class Rules(NamedTuple):
    """What one role or one agent may do, on top of the global lists."""

    allow: tuple[str, ...] = ()
    deny: tuple[str, ...] = ()
    also_allow: Annotated[
        tuple[str, ...], Doc("widens the global allow list for this role/agent")
    ] = ()
    hint: Annotated[str | None, Doc("appended to this rule's denials")] = None


# Both guards share these fields, written out in each (NamedTuples do not inherit fields).
_FILE_RESTRICTIONS_DOC = Doc("honour seed 001's FILE_RESTRICTIONS environment variable")


class WriteGuardOptions(NamedTuple):
    allow: tuple[str, ...] = ()
    deny: tuple[str, ...] = ()
    agents: Mapping[str, Rules] = {}  # never mutated
    roles: Mapping[str, Rules] = {
        "coordinator": Rules(allow=(".squad/**", ".ai-team/**"), hint=COORDINATOR_HINT)
    }
    tools: tuple[str, ...] = WRITE_TOOLS
    agent: str | None = None
    role: str | None = None
    workspace: str | None = None
    file_restrictions: Annotated[bool, _FILE_RESTRICTIONS_DOC] = True
    protect_self: tuple[str, ...] = ("**/agents/{agent}/charter.md",)


class ReadGuardOptions(NamedTuple):
    allow: tuple[str, ...] = ()
    deny: tuple[str, ...] = ()
    agents: Mapping[str, Rules] = {}  # never mutated
    roles: Mapping[str, Rules] = {}  # never mutated
    tools: tuple[str, ...] = READ_TOOLS
    agent: str | None = None
    role: str | None = None
    workspace: str | None = None
    file_restrictions: Annotated[bool, _FILE_RESTRICTIONS_DOC] = True
    private: tuple[str, ...] = (".squad/agents/{owner}/**", ".ai-team/agents/{owner}/**")
    private_readers: tuple[str, ...] = ("coordinator",)
    outside_allow: tuple[str, ...] = ()


GuardOptions = WriteGuardOptions | ReadGuardOptions


@dataclass(frozen=True)
class _Who:
    agent: str | None
    role: str | None
    session: str


_PLACEHOLDER = re.compile(r"\{(agent|role|session_id)\}")


def _fill(pattern: str, who: _Who) -> str | None:
    """``pattern`` with its placeholders replaced, or None when one is unknown."""
    if "{" not in pattern:
        return pattern
    missing = False

    def sub(m: re.Match[str]) -> str:
        nonlocal missing
        key = m.group(1)
        value = {"agent": who.agent, "role": who.role, "session_id": who.session}[key]
        if not value:
            missing = True
            return ""
        return glob_literal(value, ignore_case=key != "session_id")

    filled = _PLACEHOLDER.sub(sub, pattern)
    return None if missing else filled


def _first_match(rel: str, patterns: tuple[str, ...], who: _Who, fold: bool) -> str | None:
    for pattern in patterns:
        filled = _fill(pattern, who)
        if filled is not None and glob_match(rel, filled, ignore_case=fold):
            return pattern
    return None


def file_restrictions(env: Mapping[str, str]) -> tuple[str, ...]:
    """Seed 001's ``FILE_RESTRICTIONS``: a JSON list of globs; missing, empty or bad = none."""
    raw = env.get("FILE_RESTRICTIONS", "")
    if not raw.strip():
        return ()
    try:
        value = json.loads(raw)
    except ValueError:
        return ()
    if not isinstance(value, list):
        return ()
    return tuple(p for p in value if isinstance(p, str) and p)


def _lookup(table: Mapping[str, Rules], name: str | None) -> tuple[str, Rules] | None:
    if not name:
        return None
    key = name.casefold()
    for k, rules in table.items():
        if k.casefold() == key:
            return k, rules
    return None


GLOB_TOOLS = frozenset({"glob", "file_search"})


def _searched_path(payload: Mapping[str, Any]) -> str | None:
    """Where a Glob looks: its ``path`` joined with the fixed part of ``pattern``.

    ``Glob {"pattern": "/home/me/.ssh/*"}`` names no ``path`` yet reads outside
    the workspace; the pattern's fixed prefix is what must be judged.
    """
    if P.tool_name(payload).casefold() not in GLOB_TOOLS:
        return None
    pattern = P.input_str(payload, "pattern", "glob", "query")
    if not pattern:
        return None
    root = glob_root(pattern)
    base = P.file_path(payload)
    if base and not _absolute_like(root):
        return base.rstrip("/\\") + "/" + root
    return root


def _absolute_like(path: str) -> bool:
    return path.startswith(("/", "\\", "~")) or (len(path) > 1 and path[1] == ":")


@lru_cache(maxsize=64)
def _folded(names: tuple[str, ...]) -> frozenset[str]:
    return frozenset(n.casefold() for n in names)


def tool_listed(payload: Mapping[str, Any], tools: tuple[str, ...]) -> bool:
    """Whether the payload's tool, by its name or its kind, is one of a policy's ``tools``
    (case-insensitive: hosts disagree on case). Strict, as :func:`fields.tool_names`."""
    listed = _folded(tools)
    return any(name.casefold() in listed for name in P.tool_names(payload))


def _deny(kind: Kind, rule: str, reason: str, hint: str | None = None) -> Verdict:
    text = f"{kind}-guard: {reason}"
    if hint:
        text += f" — {hint}"
    return Verdict(decision="deny", reason=text, rule=f"{kind}.{rule}")


def _listing(patterns: tuple[str, ...]) -> str:
    return ", ".join(patterns) if patterns else "nothing"


def judge(
    payload: Mapping[str, Any],
    opts: GuardOptions,
    ctx: PolicyContext,
    *,
    kind: Kind,
    platform: str = sys.platform,
) -> Verdict:
    """The whole decision; ``platform`` is a parameter so tests can be Windows or macOS."""
    if not tool_listed(payload, opts.tools):
        return Verdict()
    raw = _searched_path(payload) if kind == "read" else None
    target = tool_target(payload, ctx, workspace=opts.workspace, platform=platform, raw=raw)
    if target is None:
        return Verdict()
    who = _Who(
        agent=P.agent_name(payload) or opts.agent,
        role=P.agent_role(payload) or opts.role,
        session=P.session_id(payload),
    )
    env_fence = file_restrictions(ctx.env) if opts.file_restrictions else ()
    rel = target.norm.rel
    if rel is None:
        return _outside(kind, target, opts)
    if env_fence and ".." in re.split(r"[\\/]", target.raw):
        return _deny(
            kind,
            "traversal",
            f"{target.raw} contains directory traversal (..), which FILE_RESTRICTIONS rejects",
            "name the file by its path inside the workspace",
        )
    fold = target.norm.ignore_case
    role = _lookup(opts.roles, who.role)
    agent = _lookup(opts.agents, who.agent)
    special = _special(kind, rel, opts, who, fold)
    if special is not None:
        return special

    layers: list[tuple[str, Rules]] = [("", _global_rules(opts.allow, opts.deny))]
    if role:
        layers.append((f'role "{role[0]}"', role[1]))
    if agent:
        layers.append((f'agent "{agent[0]}"', agent[1]))
    for label, rules in layers:
        hit = _first_match(rel, rules.deny, who, fold)
        if hit is not None:
            whose = f" for {label}" if label else ""
            return _deny(
                kind,
                "deny",
                f'{rel} matches deny rule "{hit}"{whose}; allowed: {_allowed(layers, env_fence)}',
                rules.hint,
            )

    widened = opts.allow + sum((r.also_allow for _, r in layers[1:]), ())
    fences: list[tuple[str, tuple[str, ...], str | None]] = []
    if opts.allow:
        fences.append(("", widened, None))
    for label, rules in layers[1:]:
        if rules.allow:
            fences.append((label, rules.allow, rules.hint))
    if env_fence:
        fences.append(("FILE_RESTRICTIONS", env_fence, None))
    for label, allowed, hint in fences:
        if _first_match(rel, allowed, who, fold) is None:
            if label == "FILE_RESTRICTIONS":
                what = f"{rel} is outside FILE_RESTRICTIONS"
            elif label:
                what = f"{rel} is not a path {label} may {kind}"
            else:
                what = f"{rel} is not an allowed path"
            return _deny(
                kind,
                "not-allowed",
                f"{what}; allowed: {_listing(allowed)}",
                hint,
            )
    return Verdict()


@lru_cache(maxsize=64)
def _global_rules(allow: tuple[str, ...], deny: tuple[str, ...]) -> Rules:
    return Rules(allow=allow, deny=deny)  # built once: validating a model costs per call


def _allowed(layers: list[tuple[str, Rules]], env_fence: tuple[str, ...]) -> str:
    allowed: tuple[str, ...] = ()
    for _, rules in layers:
        allowed += rules.allow + rules.also_allow
    allowed += env_fence
    return _listing(allowed) if allowed else "anything else in the workspace"


def _outside(kind: Kind, target: Target, opts: GuardOptions) -> Verdict:
    if isinstance(opts, ReadGuardOptions) and opts.outside_allow:
        absolute = target.norm.absolute.lstrip("/")
        for pattern in opts.outside_allow:
            if glob_match(absolute, pattern, ignore_case=target.norm.ignore_case):
                return Verdict()
    where = f" ({target.norm.absolute})" if target.norm.absolute != target.raw else ""
    action = "writes" if kind == "write" else "reads"
    return _deny(
        kind,
        "outside-workspace",
        f"{target.raw}{where} resolves outside the workspace {target.workspace}; "
        f"{action} must stay inside it",
        "use a path under the workspace root",
    )


def _special(kind: Kind, rel: str, opts: GuardOptions, who: _Who, fold: bool) -> Verdict | None:
    if isinstance(opts, WriteGuardOptions) and who.agent:
        hit = _first_match(rel, opts.protect_self, who, fold)
        if hit is not None:
            return _deny(
                kind,
                "own-charter",
                f'{rel} is the charter of agent "{who.agent}" itself (rule "{hit}")',
                "agents cannot modify their own charter; ask the coordinator for the change",
            )
    if isinstance(opts, ReadGuardOptions) and who.agent:
        readers = {r.casefold() for r in opts.private_readers}
        if who.role and who.role.casefold() in readers:
            return None
        own = glob_literal(who.agent, ignore_case=True)
        for pattern in opts.private:
            if glob_match(rel, pattern.replace("{owner}", "*"), ignore_case=fold) and not (
                glob_match(rel, pattern.replace("{owner}", own), ignore_case=fold)
            ):
                return _deny(
                    kind,
                    "private",
                    f'{rel} is another agent\'s private file (rule "{pattern}")',
                    f'agent "{who.agent}" reads its own files, decisions.md and the artifacts '
                    "it was given; ask the coordinator for what you need",
                )
    return None


def _decide_write(
    payload: Mapping[str, Any], opts: WriteGuardOptions, ctx: PolicyContext
) -> Verdict:
    return judge(payload, opts, ctx, kind="write")


def _decide_read(payload: Mapping[str, Any], opts: ReadGuardOptions, ctx: PolicyContext) -> Verdict:
    return judge(payload, opts, ctx, kind="read")


WRITE_GUARD: Policy[WriteGuardOptions] = Policy(
    name="write-guard",
    options=WriteGuardOptions,
    decide=_decide_write,
)

READ_GUARD: Policy[ReadGuardOptions] = Policy(
    name="read-guard",
    options=ReadGuardOptions,
    decide=_decide_read,
)
