"""shell-guard: block destructive shell commands, judged on the parsed command.

Rules (ids in :data:`options.RULES`, documented in ``docs/shell-guard.md``) look
at every simple command of the line — through pipelines, lists, subshells,
substitutions, wrappers (``sudo``, ``env``, ``xargs``, ``timeout``…) and code
run from strings (``bash -c``, ``eval``, ``ssh host '…'``) — so quoting tricks
do not evade them and commands that only *mention* ``rm -rf`` are not blocked.
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Mapping
from functools import lru_cache

from hookrun import fields as pl
from hookrun.hooks.base import ALLOW, Policy, PolicyContext, Verdict
from hookrun.hooks.shell_guard.options import (
    DEFAULT_ARTIFACT_DIRS,
    DEFAULT_TEMP_DIRS,
    RULES,
    ShellGuardOptions,
)
from hookrun.hooks.shell_guard.screen import may_match
from hookrun.records import TYPE_CHECKING

if TYPE_CHECKING:
    from types import ModuleType
    from typing import Any

    from hookrun.hooks.shell_guard.judging import Where

__all__ = ["POLICY", "RULES", "ShellGuardOptions", "decide", "where_for"]

FALLBACK_NOTE = " (could not parse the command fully; judged on its words)"
_MAX_SHOWN = 160  # a reason quotes the offending command; a heredoc need not be quoted whole


def command_text(payload: Mapping[str, Any]) -> str | None:
    """The shell command: tool_input's ``command``, or a Squad permission request's.

    Read strictly: a command that is there but not a string raises
    :class:`hookrun.fields.Unreadable`, and shell-guard's fail mode (closed) denies it.
    """
    data = payload.get("tool_input")
    if type(data) is dict:  # (the usual payload: pl.command's strict reading, in short)
        text = data.get("command")
        if type(text) is str and "cmd" not in data and "script" not in data:
            return text  # (the first spelling of both, the others absent: nothing to refuse)
    text = pl.command(payload)
    if text is None and payload.get("kind") == "shell":
        value = payload.get("command") or payload.get("fullCommandText")
        if value and not isinstance(value, str):
            raise pl.Unreadable('payload field "command" is not a string: it cannot be judged')
        text = value or None
    return text


def where_for(payload: Mapping[str, Any], opts: ShellGuardOptions, ctx: PolicyContext) -> Where:
    """Workspace, home, cwd and temp dirs for this call (imported lazily: hot path)."""
    env = ctx.env
    home = env.get("HOME") or env.get("USERPROFILE") or None
    cwd = payload.get("cwd")
    if not (cwd and isinstance(cwd, str)):
        cwd = ctx.cwd or None
    tmp = (env.get("TMPDIR"), env.get("TEMP"), env.get("TMP"))
    key = (cwd, ctx.project_dir, home, tmp, id(opts))
    known = _WHERE.get(key)
    if known is not None and known[0] is opts:  # (one session asks with the same every time)
        return known[1]
    from hookrun.hooks.shell_guard.judging import Where

    places = _places(cwd, ctx.project_dir, home, tmp, opts.workspace, opts.temp_dirs)
    temp_vars = frozenset(n for n, v in zip(("TMPDIR", "TEMP", "TMP"), tmp, strict=True) if v)
    where = Where(*places, (*DEFAULT_ARTIFACT_DIRS, *opts.artifact_dirs), opts, temp_vars=temp_vars)
    if len(_WHERE) >= 64:
        _WHERE.clear()
    _WHERE[key] = (opts, where)
    return where


# The Where of the last calls, by their places and options (the options object itself is
# kept beside it and compared: an id may be reused once an options object is gone).
_WHERE: dict[tuple[object, ...], tuple[ShellGuardOptions, Where]] = {}


@lru_cache(maxsize=64)  # one agent session asks with the same few every time
def _places(
    cwd: str | None,
    project_dir: str | None,
    home: str | None,
    tmp: tuple[str | None, ...],
    workspace: str | None,
    temp_dirs: tuple[str, ...],
) -> tuple[str | None, str | None, str | None, tuple[str, ...]]:
    """(cwd, workspace, home, temp dirs), normalised: the paths of :class:`Where`."""
    base = project_dir or cwd
    if workspace is not None:
        if workspace.startswith("~") and home:
            workspace = home + workspace[1:]
        if not workspace.startswith("/") and base:
            workspace = posixpath.join(base, workspace)
    else:
        workspace = base
    extra = [home + t[1:] if t.startswith("~") and home else t for t in temp_dirs]
    temps = [*DEFAULT_TEMP_DIRS, *extra]
    for value in tmp:
        if value and value.startswith("/") and value.rstrip("/") not in temps:
            temps.insert(0, value.rstrip("/"))
    return (
        _norm(cwd),
        _norm(workspace),
        _norm(home),
        tuple(t for t in (_norm(t) for t in temps) if t),
    )


def _norm(path: str | None) -> str | None:
    if not path:
        return None
    path = path.replace("\\", "/") if os.sep == "\\" else path
    return posixpath.normpath(path) if path.startswith("/") else path


# The longest command shell-guard judges, in characters. Its fail mode above it is
# closed: such a command is denied unread (misc.too-long). Judging is linear but not
# free (about 1 s per MiB on a loaded CI core), and a guard that takes longer than its
# timeout fails open by default; padding must not be a way around the guard. Agents
# write long content with their file tools, not as one shell line.
MAX_COMMAND_CHARS = 256 * 1024


# The most `<<` a judged line may hold. The front end reads here-documents in time
# quadratic in their number (2,000 took 46 s, past a hook's 30 s timeout: a deny by
# on_error, naming no rule); no command an agent runs holds hundreds.
MAX_HEREDOCS = 512


def decide(payload: Mapping[str, Any], opts: ShellGuardOptions, ctx: PolicyContext) -> Verdict:
    text = command_text(payload)
    if not text or text.isspace():  # (None, or blanks alone: no copy of the text made)
        return ALLOW
    if len(text) > MAX_COMMAND_CHARS and opts.enabled("misc.too-long"):
        return Verdict(
            decision="deny",
            reason=f'shell-guard [misc.too-long]: "{_shown(text)}" — the command is '
            f"{len(text) // 1024} KiB, over the {MAX_COMMAND_CHARS // 1024} KiB shell-guard "
            "judges: write long content to a file with the file tool and run a short command",
            rule="misc.too-long",
        )
    if not may_match(text, tuple(opts.deny)):
        return ALLOW
    if text.count("<<") > MAX_HEREDOCS and opts.enabled("misc.too-deep"):
        return Verdict(
            decision="deny",
            reason=f'shell-guard [misc.too-deep]: "{_shown(text)}" — the command holds over '
            f"{MAX_HEREDOCS} here-documents, more than shell-guard reads in its time; write "
            "the texts to files with the file tool and run a short command",
            rule="misc.too-deep",
        )
    try:
        try:
            return _judge(text, payload, opts, ctx)
        except UnicodeEncodeError:
            # A lone surrogate (JSON "\ud800") has no UTF-8 form, and the front end
            # reads UTF-8: judge the line as a host would send it, the surrogate as U+FFFD.
            return _judge(_without_surrogates(text), payload, opts, ctx)
    except RecursionError:
        return Verdict(
            decision="deny",
            reason=f'shell-guard [misc.too-deep]: "{_shown(text)}" — the command nests too '
            "deep to check; write it plainly",
            rule="misc.too-deep",
        )


def _without_surrogates(text: str) -> str:
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


def _judge(
    text: str, payload: Mapping[str, Any], opts: ShellGuardOptions, ctx: PolicyContext
) -> Verdict:
    if not _ENGINE:  # (a function's own import statement costs ~7k instructions a call)
        from hookrun.hooks.shell_guard import engine

        _ENGINE.append(engine)
    allow = tuple(opts.allow)
    kept = []
    for f in _ENGINE[0].judge(text, where_for(payload, opts, ctx)):
        if not opts.enabled(f.rule):
            continue
        if allow:
            from hookrun.hooks.shell_guard.shapes import any_matches

            if any(any_matches(allow, argv, prefix=False) for argv in f.subjects):
                continue
        kept.append(f)
    if not kept:
        return ALLOW
    reasons: dict[str, None] = {}  # each line once, in order (a dict: a list's `in` was n²)
    for f in kept:
        via = f" (run via {' → '.join(f.via)})" if f.via else ""
        note = FALLBACK_NOTE if f.fallback else ""
        reasons[f'shell-guard [{f.rule}]: "{_shown(f.part)}"{via} — {f.message}{note}'] = None
    return Verdict(decision="deny", reason="\n".join(reasons), rule=kept[0].rule)


_ENGINE: list[ModuleType] = []  # the judgement, loaded with the first line it judges


def _shown(part: str) -> str:
    # Only the start can be shown: normalising a 50 MB command whole would cost two more
    # copies of it (the split and the join) on the way to 160 characters (issue 9 item 9).
    head = part[: _MAX_SHOWN * 16]
    shown = " ".join(head.split())
    if len(shown) <= _MAX_SHOWN and len(head) == len(part):
        return shown
    return shown[: _MAX_SHOWN - 1] + "…"


POLICY: Policy[ShellGuardOptions] = Policy(
    name="shell-guard",
    options=ShellGuardOptions,
    decide=decide,
)
