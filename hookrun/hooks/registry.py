"""Every built-in policy, as a static table: what can be known without importing it.

Listing (``hookrun policies``), checking (``hookrun check``), resolving a name in a
config (aliases, the fail mode) and choosing which hooks an event runs read this
table only. A policy's module — with its option model and its rules — is imported
by :func:`get`, when one of its hooks is about to run (or is checked in depth).
That is what keeps a config naming ``shell-guard`` as cheap to start as one with
inline commands on every event shell-guard does not run for.

A policy module builds its :class:`~hookrun.hooks.base.Policy` from its entry here
(``Policy(name=…, options=…, decide=…)``), so the two cannot disagree.
"""

from __future__ import annotations

from hookrun.records import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from typing import Any, Literal

    from hookrun.hooks.base import Policy

    OnError = Literal["allow", "deny"]

# The tools write-guard and read-guard look at by default (write_guard.WRITE_TOOLS and
# READ_TOOLS; a test keeps them equal), for `hookrun policies` without importing them.
_WRITE_TOOLS = "|".join(
    ("Write", "Edit", "MultiEdit", "NotebookEdit", "write", "edit", "multiedit", "create",
     "write_file", "create_file", "replace_string_in_file", "multi_replace_string_in_file",
     "insert_edit_into_file", "edit_file")
)  # fmt: skip
_READ_TOOLS = "|".join(
    ("Read", "Glob", "Grep", "NotebookRead", "LS", "view", "ls", "glob", "grep", "read_file",
     "list_dir", "grep_search", "file_search", "search")
)  # fmt: skip


class Entry(NamedTuple):
    """One built-in: where it lives and what a config needs to know about it."""

    name: str  # canonical
    target: str  # "module:attribute" of its Policy object
    summary: str  # one line for `hookrun policies`
    prompt: str  # reminder line a host may append to its system prompt
    events: tuple[str, ...] = ("PreToolUse",)
    on_error: OnError = "allow"  # the seed's fail mode, when the config sets none
    aliases: tuple[str, ...] = ()
    default_matcher: str | None = None  # informational: the tools it looks at by default

    @property
    def module(self) -> str:
        return self.target.partition(":")[0]


_ENTRIES: tuple[Entry, ...] = (
    Entry(
        "shell-guard",
        "hookrun.hooks.shell_guard:POLICY",
        summary="Blocks destructive shell commands (rm -rf, force push, mkfs, curl | sh…), "
        "judged on the parsed command",
        prompt="Destructive shell commands (recursive force deletes outside build dirs, force "
        "push, git reset --hard, git clean -f, rebase, mkfs/dd to disks, curl | sh, npm publish, "
        "reading git user.email) are blocked; the denial says what to do instead.",
        events=("PreToolUse", "PermissionRequest"),
        # A guard that crashed on a command has, by definition, not understood it;
        # letting it through would make any crash an evasion. Fail closed.
        on_error="deny",
        default_matcher="^(Bash|bash|shell|powershell|run_shell_command)$",
    ),
    Entry(
        "write-guard",
        "hookrun.hooks.write_guard:WRITE_GUARD",
        summary="deny file writes outside the workspace or the allow/deny globs (per agent and "
        "role)",
        prompt="Only write files your task allows; writes outside the allowed paths are blocked.",
        aliases=("file-restriction",),
        on_error="deny",  # seed 003 #7: scope violations are too dangerous to fail open
        default_matcher=_WRITE_TOOLS,
    ),
    Entry(
        "read-guard",
        "hookrun.hooks.write_guard:READ_GUARD",
        summary="deny file reads outside the workspace, of other agents' private files, or by "
        "globs",
        prompt="Read only your own files, decisions.md and the artifacts you were given.",
        default_matcher=_READ_TOOLS,
    ),
    Entry(
        "pii-scrubber",
        "hookrun.hooks.pii:SCRUBBER",
        summary="redact emails, tokens, keys and JWTs from tool output ([REDACTED:<kind>])",
        prompt="Tool output is scrubbed of PII and secrets; do not try to recover redacted values.",
        events=("PostToolUse",),
    ),
    Entry(
        "pii-write-guard",
        "hookrun.hooks.pii:WRITE_GUARD",
        summary="deny writes that would put an email address into protected paths (.squad/**)",
        prompt="Never write email addresses into .squad/ files; they are PII.",
        default_matcher=_WRITE_TOOLS,
    ),
    Entry(
        "secret-guard",
        "hookrun.hooks.secret_guard:POLICY",
        summary="deny hardcoded secrets in MCP configs (mcp*.json, .vscode/mcp.json); suggest "
        "${VAR}",
        prompt="MCP configs reference secrets as ${VAR}; never hardcode API keys or tokens.",
        default_matcher=_WRITE_TOOLS,
    ),
    Entry(
        "append-only",
        "hookrun.hooks.append_only:POLICY",
        summary="history files (decisions.md, history.md) only grow at the end; logs are "
        "create-only",
        prompt="decisions.md, history.md and logs are append-only: add entries at the end, never "
        "rewrite or delete existing ones.",
    ),
    Entry(
        "reviewer-lockout",
        "hookrun.hooks.lockout:POLICY",
        summary="deny a rejected author's writes to the artifact a reviewer rejected; halt on "
        "retries",
        prompt="When a reviewer rejects your work, you are locked out of that artifact: "
        "another agent produces the revision.",
        on_error="deny",
    ),
    Entry(
        "ask-user-limit",
        "hookrun.hooks.ask_user:POLICY",
        summary="cap ask_user-style questions per session; past the cap: proceed with best "
        "judgment",
        prompt="Ask the user only when you cannot proceed otherwise; after a few questions, "
        "proceed with your best judgment and state your assumptions.",
        events=("PreToolUse", "PostToolUse"),
        default_matcher="^(ask_user|AskUserQuestion|askUser|ask_followup_question)$",
    ),
    Entry(
        "phase-gate",
        "hookrun.hooks.phase_gate:POLICY",
        summary="deny file writes during configured phases (e.g. before the user confirms the "
        "plan)",
        prompt="Do not create or edit files until the user has confirmed the plan.",
    ),
    Entry(
        "decision-inbox",
        "hookrun.hooks.decision_inbox:POLICY",
        summary="only the coordinator writes decisions.md; agents write to decisions/inbox/",
        prompt="Do not edit decisions.md directly: write each decision as a new file in "
        "decisions/inbox/; the coordinator merges them.",
    ),
    Entry(
        "session-dir-guard",
        "hookrun.hooks.ralph_session:SESSION_DIR_GUARD",
        summary="on SessionStart: validate the Ralph session id, create the session folder "
        "scaffold",
        prompt="Ralph session ids are <YYMMDD>-<hhmmss>; session files live in "
        ".ralph-sessions/<id>/.",
        events=("SessionStart",),
    ),
    Entry(
        "ssot-guard",
        "hookrun.hooks.ralph_ssot:SSOT_GUARD",
        summary="validate writes to Ralph's progress.md statuses and metadata.yaml fields",
        prompt="progress.md task statuses are [ ], [/], [P], [x], [F] or [C]; metadata.yaml keeps "
        "its required fields and a valid orchestrator.state.",
        on_error="deny",
    ),
    Entry(
        "signal-schema",
        "hookrun.hooks.ralph_signal:SIGNAL_SCHEMA",
        summary="validate Ralph live signal files (type, message, target, iteration, file name)",
        prompt="Signal files are signal.<YYMMDD-HHmmss>.yaml with type (STEER, PAUSE, ABORT, "
        "INFO, APPROVE, SKIP), a non-empty message and a target.",
        events=("PreToolUse", "SessionStart"),
    ),
    Entry(
        "single-mode-guard",
        "hookrun.hooks.ralph_subagent:SINGLE_MODE_GUARD",
        summary="block a sub-agent call that carries more than one MODE or more than one TASK_ID",
        prompt="Invoke each sub-agent with exactly one MODE and at most one TASK_ID.",
    ),
    Entry(
        "task-file-check",
        "hookrun.hooks.ralph_subagent:TASK_FILE_CHECK",
        summary="block an executor/reviewer call whose TASK_ID has no task file in the session",
        prompt="Create the task file before invoking the executor or reviewer for a TASK_ID.",
    ),
    Entry(
        "audit-ledger",
        "hookrun.hooks.audit_ledger:POLICY",
        summary="append one JSON line per tool call (or per denial) to a JSONL ledger",
        prompt="Tool calls are recorded in an audit ledger.",
        events=("PostToolUse", "PostToolUseFailure", "PermissionRequest"),
    ),
)

# canonical name → its entry. Tests register fake policies here (monkeypatch.setitem).
ENTRIES: dict[str, Entry] = {entry.name: entry for entry in _ENTRIES}
# alias → canonical name.
ALIASES: dict[str, str] = {alias: entry.name for entry in _ENTRIES for alias in entry.aliases}


def canonical(name: str) -> str | None:
    """The canonical policy name for ``name`` (an alias or a name), or None."""
    if name in ENTRIES:
        return name
    return ALIASES.get(name)


def entry(name: str) -> Entry:
    """The table entry of ``name`` (or an alias). Raises KeyError if unknown."""
    key = canonical(name)
    if key is None:
        raise KeyError(name)
    return ENTRIES[key]


def get(name: str) -> Policy[Any]:
    """The policy called ``name`` (or an alias), its module imported now.

    Raises KeyError if unknown; whatever the module raises if it cannot load.
    """
    module, _, attr = entry(name).target.partition(":")
    # __import__ with a fromlist returns the submodule itself; importlib.import_module
    # would bring importlib and warnings onto every call that runs a policy (~1.6M
    # instructions, 4% of a bare start).
    policy: Policy[Any] = getattr(__import__(module, fromlist=[attr]), attr)
    return policy


def names() -> list[str]:
    return sorted(ENTRIES)
