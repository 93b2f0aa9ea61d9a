"""Where a tool's path really points, and whether a glob names it.

Every path policy (write-guard, read-guard, pii-write-guard, secret-guard,
append-only, decision-inbox) asks the same two questions, so they are answered
once here:

``normalize(path, workspace=…, cwd=…, platform=…)``
    turns what a tool sent (relative or absolute, ``..``, ``~``, Windows
    separators and drive letters, symlinks) into a :class:`NormPath`: the
    absolute path, the workspace-relative POSIX path (``rel``, ``None`` when
    outside), and ``outside``. On case-insensitive platforms (``win32``,
    ``darwin``) the workspace test ignores case and ``NormPath.ignore_case`` is
    set so glob matching ignores it too.

``glob_match(rel, pattern, ignore_case=False)``
    matches a workspace-relative path against a glob, with the meanings of seed
    001's table: ``*`` and ``?`` stay inside one segment, ``**`` as a whole
    segment spans any number of segments (zero included), a pattern is anchored
    at the workspace root — so ``*.md`` is a root file only and ``**/*.md`` is
    any depth — ``[abc]``/``[!abc]`` classes, ``{a,b}`` alternatives, ``\\``
    escapes, a leading ``./`` or ``/`` is dropped, a trailing ``/`` means
    everything below. ``*`` matches dot files: a deny rule must not be dodged
    by a leading dot.

``tool_target(payload, ctx)`` does both steps for a file tool call: it picks
the workspace root (option, payload ``project_dir``, context, ``cwd``) and the
path the tool names (``file_path``, ``path``, ``notebook_path``…).

Symlinks are resolved with ``os.path.realpath`` only when the path flavour of
``platform`` is the one of the running OS (tests that switch to ``win32`` on
Linux stay lexical); realpath resolves every existing component, so
``link/../x`` lands where the OS would write, not where the text suggests.
"""

from __future__ import annotations

import os
import posixpath
import re
import sys
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from hookrun.fields import field_str, file_path

if TYPE_CHECKING:
    from hookrun.hooks.base import PolicyContext

__all__ = [
    "NormPath",
    "Target",
    "glob_literal",
    "glob_root",
    "glob_match",
    "ignores_case",
    "normalize",
    "tool_target",
    "workspace_of",
]


@dataclass(frozen=True)
class NormPath:
    """A tool path after normalisation.

    ``rel`` is the workspace-relative POSIX path (``"."`` for the workspace
    itself), or None when the path is outside the workspace or unusable.
    ``absolute`` uses ``/`` separators on every platform (``C:/work/x.py``).
    """

    rel: str | None
    absolute: str
    outside: bool
    ignore_case: bool = False


def ignores_case(platform: str) -> bool:
    """Whether file names on ``platform`` are compared without case (NTFS, APFS defaults)."""
    return _is_windows(platform) or platform == "darwin"


def normalize(
    path: str,
    *,
    workspace: str,
    cwd: str | None = None,
    platform: str = sys.platform,
    home: str | None = None,
    resolve: bool | None = None,
) -> NormPath:
    """Normalise ``path`` as a tool on ``platform`` would see it, relative to ``workspace``.

    ``cwd`` is what a relative path is relative to (default: ``workspace``);
    ``home`` expands a leading ``~`` (without it, ``~`` paths count as outside:
    we cannot tell where they point, and outside is the safe answer).
    ``resolve`` forces symlink resolution on or off (default: on when
    ``platform`` has the running OS's path flavour). A path holding a NUL byte
    or empty is unusable and reported as outside.
    """
    win = _is_windows(platform)
    fold = ignores_case(platform)
    if not path or "\x00" in path:
        return NormPath(None, path, True, fold)
    if resolve is None:
        resolve = win == (os.name == "nt")
    ws = _absolute(workspace, base=None, win=win, home=home)
    if ws is None:
        return NormPath(None, path, True, fold)
    base = _absolute(cwd, base=ws, win=win, home=home) if cwd else ws
    full = _absolute(path, base=base or ws, win=win, home=home)
    if full is None:
        return NormPath(None, path, True, fold)
    if resolve:
        try:
            full = _slashes(os.path.realpath(full), win)
            ws = _slashes(_real_root(ws), win)
        except (OSError, ValueError):  # lone surrogates, over-long names: not a usable path
            return NormPath(None, path, True, fold)
    else:
        full = _lexical(full)
        ws = _lexical(ws)
    rel = _relative(full, ws, fold=fold, darwin=platform == "darwin")
    return NormPath(rel, full, rel is None, fold)


@lru_cache(maxsize=32)
def _real_root(path: str) -> str:
    # The workspace root is the same on every call of a process; resolving it
    # once halves the lstat calls of a policy decision.
    return os.path.realpath(path)


def _is_windows(platform: str) -> bool:
    return platform.startswith("win")


_DRIVE = re.compile(r"^([A-Za-z]):(.*)$", re.DOTALL)


def _slashes(path: str, win: bool) -> str:
    if not win:
        return path
    path = path.replace("\\", "/")
    # \\?\C:\x and \\?\UNC\server\share are the same paths without the length limit.
    if path.startswith("//?/") or path.startswith("//./"):
        rest = path[4:]
        path = "//" + rest[4:] if rest[:4].upper() == "UNC/" else rest
    return path


def _win_clean(path: str) -> str:
    """What NTFS actually opens: trailing dots/spaces dropped, ``:stream`` suffixes cut.

    ``notes.md.`` and ``notes.md::$DATA`` name ``notes.md`` on Windows, so a
    deny rule on ``*.md`` must see them as that.
    """
    drive, body = "", path
    m = _DRIVE.match(path)
    if m:
        drive, body = m.group(1) + ":", m.group(2)
    parts = []
    for part in body.split("/"):
        if part not in (".", ".."):
            part = part.split(":", 1)[0]
            stripped = part.rstrip(". ")
            part = stripped or part
        parts.append(part)
    return drive + "/".join(parts)


def _absolute(path: str, *, base: str | None, win: bool, home: str | None) -> str | None:
    """``path`` made absolute against ``base`` (slash-separated, not yet normalised)."""
    path = _slashes(path, win)
    if path == "~" or path.startswith("~/"):
        if not home:
            return None
        path = _slashes(home, win).rstrip("/") + path[1:]
    elif path.startswith("~"):
        return None  # ~user: another user's home, never the workspace
    if win:
        path = _win_clean(path)
        m = _DRIVE.match(path)
        if m:
            drive, rest = m.group(1).upper() + ":", m.group(2)
            if rest.startswith("/"):
                return drive + rest
            # C:x is relative to the current directory *of drive C*; only cwd's is known.
            if base and base[:2].upper() == drive:
                return base.rstrip("/") + "/" + rest
            return drive + "/" + rest
        if path.startswith("//"):
            return path  # UNC share: absolute, and never inside a drive-letter workspace
        if path.startswith("/"):
            return (base[:2] if base and _DRIVE.match(base) else "") + path
    elif path.startswith("/"):
        return path
    if base is None:
        return None  # a relative workspace means nothing; the caller passes absolute ones
    return base.rstrip("/") + "/" + path


def _lexical(path: str) -> str:
    m = _DRIVE.match(path)
    if m:
        return m.group(1).upper() + ":" + posixpath.normpath(m.group(2) or "/")
    return posixpath.normpath(path)


def _key(part: str, fold: bool) -> str:
    return unicodedata.normalize("NFC", part).casefold() if fold else part


def _relative(full: str, ws: str, *, fold: bool, darwin: bool) -> str | None:
    # Compare whole segments: casefold may change a string's length, and
    # "/work/repo2" must not count as inside "/work/repo".
    full_parts = [p for p in full.split("/") if p]
    ws_parts = [p for p in ws.split("/") if p]
    if len(full_parts) < len(ws_parts):
        return None
    if full.startswith("//") != ws.startswith("//"):
        return None
    for a, b in zip(full_parts[: len(ws_parts)], ws_parts, strict=True):
        if _key(a, fold) != _key(b, fold):
            return None
    rel = "/".join(full_parts[len(ws_parts) :]) or "."
    return unicodedata.normalize("NFC", rel) if darwin else rel


# ---------------------------------------------------------------- globbing

_MAX_ALTERNATIVES = 64  # {a,b}{c,d}… stays a small regex, not an exponential one


@lru_cache(maxsize=256)
def glob_literal(text: str, *, ignore_case: bool = False) -> str:
    """``text`` as a glob that matches exactly it (for placeholders like ``{agent}``)."""
    out = []
    for ch in text:
        if ignore_case and ch.lower() != ch.upper():
            out.append(f"[{ch.lower()}{ch.upper()}]")
        elif ch in "*?[]{}\\,!":
            out.append("\\" + ch)
        else:
            out.append(ch)
    return "".join(out)


def glob_match(rel: str, pattern: str, *, ignore_case: bool = False) -> bool:
    """Whether the workspace-relative POSIX path ``rel`` matches ``pattern``."""
    return _compile(pattern, ignore_case).fullmatch(rel) is not None


@lru_cache(maxsize=2048)
def _compile(pattern: str, ignore_case: bool) -> re.Pattern[str]:
    pattern = _clean_pattern(pattern)
    flags = re.DOTALL | (re.IGNORECASE if ignore_case else 0)
    return re.compile(_translate(pattern, seg_start=True), flags)


def _clean_pattern(pattern: str) -> str:
    while pattern.startswith("./"):
        pattern = pattern[2:]
    pattern = pattern.lstrip("/")
    if pattern.endswith("/"):
        pattern += "**"
    return pattern


def _translate(pat: str, *, seg_start: bool) -> str:
    out: list[str] = []
    i, n = 0, len(pat)
    while i < n:
        ch = pat[i]
        if ch == "\\" and i + 1 < n:
            out.append(re.escape(pat[i + 1]))
            i += 2
            continue
        if ch == "*":
            j = i
            while j < n and pat[j] == "*":
                j += 1
            at_start = seg_start if i == 0 else pat[i - 1] == "/"
            if j - i >= 2 and at_start and (j == n or pat[j] == "/"):
                if j == n:
                    out.append(".*")
                    i = j
                else:
                    out.append("(?:[^/]+/)*")
                    i = j + 1
                continue
            out.append("[^/]*")
            i = j
            continue
        if ch == "?":
            out.append("[^/]")
        elif ch == "[":
            end = _class_end(pat, i)
            if end < 0:
                out.append(re.escape(ch))
            else:
                out.append(_class(pat[i + 1 : end]))
                i = end + 1
                continue
        elif ch == "{":
            end, alternatives = _braces(pat, i)
            if end < 0:
                out.append(re.escape(ch))
            else:
                start = seg_start if i == 0 else pat[i - 1] == "/"
                alts = alternatives[:_MAX_ALTERNATIVES]
                body = "|".join(_translate(a, seg_start=start) for a in alts)
                out.append(f"(?:{body})")
                i = end + 1
                continue
        else:
            out.append(re.escape(ch))
        i += 1
    return "".join(out)


def _class_end(pat: str, start: int) -> int:
    j = start + 1
    if j < len(pat) and pat[j] in "!^":
        j += 1
    if j < len(pat) and pat[j] == "]":
        j += 1
    end = pat.find("]", j)
    return end


def _class(body: str) -> str:
    negate = body[:1] in ("!", "^")
    if negate:
        body = body[1:]
    body = body.replace("\\", "\\\\").replace("^", "\\^").replace("[", "\\[").replace("]", "\\]")
    regex = f"(?:(?!/)[{'^' if negate else ''}{body}])"
    try:
        re.compile(regex)
    except re.error:  # [z-a]: no such range; match the text literally rather than fail
        return re.escape("[" + ("!" if negate else "") + body + "]")
    return regex


def _braces(pat: str, start: int) -> tuple[int, list[str]]:
    """End index and alternatives of the ``{a,b}`` at ``start``; (-1, []) if it is literal."""
    depth, j, last = 0, start, start + 1
    parts: list[str] = []
    while j < len(pat):
        ch = pat[j]
        if ch == "\\":
            j += 2
            continue
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                parts.append(pat[last:j])
                return (j, parts) if len(parts) > 1 else (-1, [])
        elif ch == "," and depth == 1:
            parts.append(pat[last:j])
            last = j + 1
        j += 1
    return -1, []


# ---------------------------------------------------------------- tool calls


@dataclass(frozen=True)
class Target:
    """The file a tool call names: what it sent, where that is, and the root it was judged by."""

    raw: str
    norm: NormPath
    workspace: str


def workspace_of(payload: Mapping[str, Any], ctx: PolicyContext, option: str | None = None) -> str:
    """The workspace root for a call.

    In order: the policy's ``workspace`` option (relative = against the project
    dir), the payload's ``project_dir``/``workspace_root`` (the host knows best),
    ``ctx.project_dir``, then the payload's and the context's ``cwd``.
    """
    project = field_str(payload, "project_dir", "projectDir", "workspace_root") or ctx.project_dir
    if option:
        return option if _looks_absolute(option) else posixpath.join(project or ctx.cwd, option)
    return project or field_str(payload, "cwd") or ctx.cwd


def tool_target(
    payload: Mapping[str, Any],
    ctx: PolicyContext,
    *,
    workspace: str | None = None,
    platform: str = sys.platform,
    raw: str | None = None,
) -> Target | None:
    """The normalised file path of a file tool call, or None when it names none.

    ``raw`` overrides the path read from the payload (read-guard passes the
    fixed prefix of a Glob pattern).
    """
    raw = raw or file_path(payload)
    if not raw:
        return None
    root = workspace_of(payload, ctx, workspace)
    cwd = field_str(payload, "cwd") or ctx.cwd or root
    home = ctx.env.get("HOME") or ctx.env.get("USERPROFILE")
    norm = normalize(raw, workspace=root, cwd=cwd, platform=platform, home=home)
    return Target(raw, norm, root)


_WILD = re.compile(r"[*?\[{]")


def glob_root(pattern: str) -> str:
    """The fixed directory a glob pattern searches: ``/etc/**/*.conf`` → ``/etc``."""
    parts = re.split(r"[\\/]", pattern) if "\\" in pattern else pattern.split("/")
    fixed: list[str] = []
    for part in parts:
        if _WILD.search(part):
            break
        fixed.append(part)
    if len(fixed) == len(parts):
        return pattern  # no wildcard: the pattern names one path
    root = "/".join(fixed)
    return root or ("/" if pattern.startswith("/") else ".")


def _looks_absolute(path: str) -> bool:
    return path.startswith(("/", "\\", "~")) or _DRIVE.match(path) is not None
