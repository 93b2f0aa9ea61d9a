"""append-only (seed 000 P8, P15): history files grow at the end; log files are never edited.

Two kinds of protected paths (globs over the project-relative path):

* ``paths`` — append-only files (default ``**/decisions.md``, ``**/history.md``): a
  write is allowed only if the file after it still starts with everything the file
  holds now (trailing whitespace aside). The real file is read from disk and the
  edit is simulated, so an Edit whose ``old_string`` is the tail and whose
  ``new_string`` starts with it passes, a MultiEdit is judged by its combined
  result, and a Write must keep the old content as its prefix.
* ``create_only`` — log directories (default ``**/orchestration-log/**``,
  ``.squad/log/**``, ``.ai-team/log/**``): creating a new file is fine, changing an
  existing one is not (P15: "never edited after write").

Not ``**/log/**`` by default: source trees often hold a ``log/`` package, and making
its code create-only would be a false positive (seed 000 R2). Add it if your
project keeps logs there. Shell commands are not judged here (``echo >> file``
appends; ``sed -i`` on a protected file is shell-guard's or write-guard's business).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from hookrun import fields as pl
from hookrun.hooks import file_edit, state
from hookrun.hooks.base import ALLOW, Policy, PolicyContext, Verdict


class AppendOnlyOptions(NamedTuple):
    paths: tuple[str, ...] = ("**/decisions.md", "**/history.md")
    create_only: tuple[str, ...] = (
        "**/orchestration-log/**",
        ".squad/log/**",
        ".ai-team/log/**",
    )
    tools: tuple[str, ...] = file_edit.WRITE_TOOLS


def _read(path: str) -> str | None:
    try:
        return file_edit.read_text(path)
    except OSError as e:
        raise state.StateError(
            f"append-only: cannot read {path} to check the edit: {e.strerror or e} — "
            "fix its permissions"
        ) from None


def _first_difference(old: str, new: str) -> int:
    """1-based line number of the first line where ``new`` stops repeating ``old``."""
    for i, (a, b) in enumerate(zip(old.splitlines(), new.splitlines(), strict=False), start=1):
        if a != b:
            return i
    return min(len(old.splitlines()), len(new.splitlines())) + 1


def judge(current: str | None, call: file_edit.WriteCall) -> str | None:
    """Why ``call`` is not an append to a file now holding ``current`` (None: it is)."""
    if current is None:
        return None  # creating the file is how an append-only file starts
    if call.kind == "write":
        after: str | None = call.content
    elif call.kind == "edit":
        after = file_edit.apply(current, call.edits)
        if after is None:
            return None  # the tool itself will fail: old_string not found
    else:
        return "this tool's change cannot be checked"
    kept = current.rstrip()
    if after is not None and after.startswith(kept):
        return None
    line = _first_difference(current, after or "")
    return f"it changes or removes existing content (line {line})"


def decide(payload: Mapping[str, Any], opts: AppendOnlyOptions, ctx: PolicyContext) -> Verdict:
    if not file_edit.any_tool_in(pl.tool_names(payload), opts.tools):
        return ALLOW
    norm = file_edit.target(payload, ctx)
    if norm is None or norm.rel is None:
        return ALLOW  # outside the project: write-guard's business
    rel = norm.rel
    log_rule = file_edit.matches_any(rel, opts.create_only, ignore_case=norm.ignore_case)
    file_rule = (
        None if log_rule else file_edit.matches_any(rel, opts.paths, ignore_case=norm.ignore_case)
    )
    if log_rule is None and file_rule is None:
        return ALLOW
    current = _read(norm.absolute)
    if current is None:
        return ALLOW
    if log_rule is not None:
        return Verdict(
            decision="deny",
            rule="append-only.log",
            reason=(
                f"append-only: {rel} is a log file (matches {log_rule}) and logs are never "
                "edited after they are written — create a new file instead."
            ),
        )
    call = file_edit.parse(payload)
    problem = judge(current, call) if call is not None else None
    if problem is None:
        return ALLOW
    return Verdict(
        decision="deny",
        rule="append-only.history",
        reason=(
            f"append-only: {rel} is append-only (matches {file_rule}) and {problem}. "
            "Add new entries at the end of the file instead: Edit with old_string = the "
            "file's last lines and new_string = those lines followed by the new entry."
        ),
    )


POLICY: Policy[AppendOnlyOptions] = Policy(
    name="append-only",
    options=AppendOnlyOptions,
    decide=decide,
)
