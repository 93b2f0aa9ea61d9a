"""Resolving a delete target statically and saying how bad deleting it is."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Sequence
from functools import lru_cache

from hookrun.hooks.shell_guard.judging import Where
from hookrun.hooks.shell_guard.model import (
    MAYBE,
    OLDPWD,
    POPD,
    PUSHD,
    SWAPD,
    UNKNOWN_DIR,
    Part,
    Var,
    Word,
)
from hookrun.lazyre import compile as lazy_compile

FOUND = "\x00found"  # stands for paths `find` will discover under a start path
SYSTEM_DIRS = frozenset(
    [
        "/bin",
        "/boot",
        "/dev",
        "/etc",
        "/home",
        "/lib",
        "/lib32",
        "/lib64",
        "/libx32",
        "/media",
        "/mnt",
        "/nix",
        "/opt",
        "/proc",
        "/root",
        "/run",
        "/sbin",
        "/snap",
        "/srv",
        "/sys",
        "/tmp",
        "/usr",
        "/var",
        "/Users",
        "/System",
        "/Library",
        "/Applications",
        "/Volumes",
        "/private",
        "/cores",
        "/usr/local",
        "/usr/bin",
        "/usr/lib",
        "/var/lib",
        "/var/log",
        "/private/var",
        "/private/etc",
        "/var/tmp",
    ]
)
_GLOB_ONLY = frozenset("*?[]!.")
_UNDER_SYSTEM = tuple(sorted(d + "/" for d in SYSTEM_DIRS))  # one startswith for all of them


@lru_cache(maxsize=16)
def artifact_glob(globs: tuple[str, ...]) -> re.Pattern[str]:
    """One regex for the artifact-directory globs: a name matches it iff ``fnmatchcase``
    matches one of them (a component per glob per call was most of an ``rm -rf``'s cost)."""
    import fnmatch  # (only a delete under the artifact globs reads them)

    return re.compile("|".join(f"(?:{fnmatch.translate(g)})" for g in globs) or "(?!)")


def cwd_of(cd: Sequence[Word], where: Where) -> str | None:
    """The directory a command runs in after the ``cd`` steps before it (each worked)."""
    return cwds_of(cd, where)[0]


_MARKS = frozenset({MAYBE, OLDPWD, PUSHD, POPD, SWAPD, UNKNOWN_DIR})
_MAX_PLACES = 8  # directories one command may run in, past `cd`s that may have failed


def cwds_of(cd: Sequence[Word], where: Where) -> list[str | None]:
    """Every directory a command may run in after the ``cd`` steps before it: first the
    one where each worked, then those where a step joined by ``;``/``||`` failed (None:
    only the shell knows). ``cd -`` goes back to the directory before (unknown before the
    line's first move), ``pushd``/``popd`` keep bash's directory stack."""
    for w in cd:
        first = w.parts[0] if w.parts else None
        if first.__class__ is Var and first.name in _MARKS:
            break
    else:  # (plain moves, every one certain: the common `cd dir && …`)
        cwd = where.cwd
        for word in cd:
            cwd = _moved_to(word.parts, where, cwd, word.raw)
        return [cwd]
    # (cwd, $OLDPWD, the stack below the top) per way the steps may have gone
    places: list[tuple[str | None, str | None, tuple[str | None, ...]]] = [(where.cwd, None, ())]
    for word in cd:
        parts = word.parts
        maybe = bool(parts) and isinstance(parts[0], Var) and parts[0].name == MAYBE
        if maybe:
            parts = parts[1:]
        moved = [_step(parts, place, where, word.raw) for place in places]
        if maybe:
            moved += [p for p in places if p not in moved]
        places = moved[:_MAX_PLACES]
    return [p[0] for p in places]


def _step(
    parts: tuple[Part, ...],
    place: tuple[str | None, str | None, tuple[str | None, ...]],
    where: Where,
    raw: str = "",
) -> tuple[str | None, str | None, tuple[str | None, ...]]:
    """Where one ``cd``/``pushd``/``popd`` step moves from ``place``."""
    cwd, old, stack = place
    first = parts[0] if parts else None
    mark = first.name if isinstance(first, Var) else ""
    if mark == POPD:  # the stack's top is the new directory
        return (stack[0], cwd, stack[1:]) if stack else (cwd, old, stack)
    if mark == SWAPD:  # `pushd` alone swaps the two top entries
        return (stack[0], cwd, (cwd, *stack[1:])) if stack else (cwd, old, stack)
    push = mark == PUSHD
    if push:
        parts = parts[1:]
        first = parts[0] if parts else None
    if isinstance(first, Var) and first.name == OLDPWD:
        target = old
    elif isinstance(first, Var) and first.name == UNKNOWN_DIR:
        target = None
    else:
        target = _moved_to(parts, where, cwd, raw) if parts else None
    return (target, cwd, (cwd, *stack) if push else stack)


_TEMP_VARS = ("TMPDIR", "TMP", "TEMP")
# A temp variable with a default or an alternative (`${TMPDIR:-/tmp}`, `${TMP-…}`): the word
# keeps only its name, so an unset one is read as before (the temp dir).
_DEFAULTED = lazy_compile(r"\{(?:TMPDIR|TMP|TEMP)(?![\w}])")


def _unset_temp(parts: tuple[Part, ...], unset: frozenset[str]) -> bool:
    """A temp variable ``unset`` lacks is among ``parts`` (a loop: any() of a generator
    costs a frame on every `cd` judged)."""
    for p in parts:  # noqa: SIM110
        if p.__class__ is Var and p.name in _TEMP_VARS and p.name not in unset:
            return True
    return False


def _moved_to(parts: tuple[Part, ...], where: Where, cwd: str | None, raw: str = "") -> str | None:
    """Where ``cd WORD`` goes. A temp variable the environment does not set is empty to
    bash: ``cd "$TMPDIR"`` is ``cd ""`` and stays, ``cd "$TMPDIR/x"`` is ``cd /x``, and
    ``cd $TMPDIR`` (unquoted, so no word at all) is ``cd``: home."""
    unset = where.temp_vars
    if unset is not None and _unset_temp(parts, unset):
        parts = tuple(
            "" if isinstance(p, Var) and p.name in _TEMP_VARS and p.name not in unset else p
            for p in parts
        )
        if not any(parts):
            quoted = any(q in raw for q in "'\"")
            return cwd if quoted else where.home  # (`cd ""` stays; `cd` goes home)
    path = _join_parts(parts, where, cwd)
    return path if path is not None and FOUND not in path else None


def resolve(word: Word, where: Where, cwd: str | None) -> str | None:
    """The absolute, normalised path ``word`` names, or None if only the shell knows it."""
    return _join_parts(word.parts, where, cwd)


def _join(word: Word, where: Where, cwd: str | None) -> str | None:
    return _join_parts(word.parts, where, cwd)


def _join_parts(parts: tuple[Part, ...], where: Where, cwd: str | None) -> str | None:
    out: list[str] = []
    for part in parts:
        if isinstance(part, str):
            out.append(part)
            continue
        value = _var(part, where, cwd)
        if value is None:
            return None
        out.append(value)
    text = "".join(out)
    if not text:
        return None
    if not text.startswith("/"):
        if cwd is None:
            return None
        text = cwd + "/" + text
    return posixpath.normpath(text).replace("//", "/")


def _var(var: Var, where: Where, cwd: str | None) -> str | None:
    if var.name == "HOME":
        return where.home
    if var.name == "PWD":
        return cwd
    if var.name in ("TMPDIR", "TMP", "TEMP"):
        if var.name in where.unknown_temps:
            return None
        unset = where.temp_vars
        if unset is not None and var.name not in unset:
            return ""  # (unset: empty to bash — `$TMPDIR/x` is /x)
        return where.temp_dirs[0] if where.temp_dirs else None
    if var.name == "FOUND":
        return FOUND
    return None


def _glob_reaches(parent: str, name: str, ws: str) -> bool:
    """``parent/name``, ``name`` a glob, matches the workspace or one of its parents
    (``cd .. && rm -rf *`` from the project): bash's ``*`` skips dot names."""
    prefix = parent.rstrip("/") + "/"
    if not ws.startswith(prefix):
        return False
    component = ws[len(prefix) :].split("/", 1)[0]
    if not component or (component.startswith(".") and not name.startswith(".")):
        return False
    from fnmatch import fnmatchcase  # (only a glob target next to the workspace)

    return fnmatchcase(component, name)


def under(path: str, root: str) -> bool:
    """``path`` is strictly inside ``root``."""
    root = root.rstrip("/")
    return path.startswith(root + "/") and path != root


def _all_glob(name: str) -> bool:
    return bool(name) and set(name) <= _GLOB_ONLY and any(c in "*?[" for c in name)


def catastrophic(
    path: str,
    where: Where,
    *,
    found: bool = False,
    temp_ok: bool = True,
    temp_root_ok: bool = True,
) -> str | None:
    """Why deleting ``path`` recursively would be a disaster, or None.

    ``found``: the targets are what a filtered ``find`` discovers *under* ``path``;
    only the places nobody should sweep (root, system, home) count then.
    """
    parent, name = posixpath.split(path)
    ws = where.workspace
    if path == "/":
        return "the filesystem root"
    if parent == "/" and _all_glob(name):
        return "everything under /"
    in_ws = ws is not None and (path == ws or under(path, ws))
    if path == where.home:
        return "your home directory"
    if not found and ws is not None:
        if path == ws:
            return "the workspace root itself"
        if under(ws, path):
            return "a parent of the workspace"
        if parent == ws and _all_glob(name):
            return "everything in the workspace root"
        if ("*" in name or "?" in name or "[" in name) and _glob_reaches(parent, name, ws):
            return "the workspace or a parent of it (the glob matches it)"
    if not found and name == ".git":
        return "the git repository (.git)"
    # (a filtered find in /tmp sweeps only what is under it; a temp dir itself
    # holds nothing that cannot be made again)
    if _in_temp(path, where, temp_root_ok):
        # under a temp dir: never a disaster; whether it may go is judge_delete's call
        return None
    home = where.home
    if home is not None and not in_ws:
        if path == home:
            return "your home directory"
        if parent == home and _all_glob(name):
            return "everything in your home directory"
        if under(path, home):
            return "a path in your home directory outside the workspace"
    if not in_ws and (path in SYSTEM_DIRS or path.startswith(_UNDER_SYSTEM)):
        return "a system directory"
    return None


def _in_temp(path: str, where: Where, temp_root_ok: bool) -> bool:
    """``path`` is under a temp dir (or, ``temp_root_ok``, a system temp dir itself)."""
    temps = where.temp_dirs
    if temps and path.startswith(_under_prefixes(temps)):  # (under() of each, in one call)
        return True
    return temp_root_ok and path in temps and _temp_root(path, path, where)


@lru_cache(maxsize=16)
def _under_prefixes(roots: tuple[str, ...]) -> tuple[str, ...]:
    """``path.startswith(_under_prefixes(roots))`` ⇔ ``any(under(path, r) for r in roots)``."""
    return tuple(r.rstrip("/") + "/" for r in roots)


def _temp_root(path: str, temp: str, where: Where) -> bool:
    """``path`` is a system temp dir itself (/tmp, $TMPDIR): nothing in it is precious.

    A temp dir the user named under home (``~/.cache``) is theirs: its root stays.
    """
    return path == temp and not (where.home and under(temp, where.home))


def beside_workspace(path: str, where: Where) -> bool:
    """``path`` is in the temp dir that holds the workspace, outside the workspace.

    A project that itself lives in a temp dir (``/tmp/agent-run-1``) has neighbours
    there — other checkouts and worktrees, made the same way — so the rest of that temp
    dir is outside the workspace, however the path is reached (``cd .. && rm -rf
    build``, ``rm -rf ../other``, ``rm -rf /tmp/other``). Any other temp path is a temp
    path, however it is reached (``cd /tmp && rm -rf scratch`` is ``rm -rf /tmp/scratch``).
    """
    return _holder(path, where) is not None


def _holder(path: str, where: Where) -> str | None:
    """The temp dir holding both the workspace and ``path`` (outside the workspace)."""
    ws = where.workspace
    temps = where.temp_dirs
    if ws is None or not temps or not ws.startswith(_under_prefixes(temps)):
        return None  # (nearly always: the workspace is not in a temp dir)
    if path == ws or under(path, ws):
        return None
    return next((t for t in temps if under(ws, t) and under(path, t)), None)


def _sweeps(path: str, where: Where) -> bool:
    """A glob deleting every file of ``/``, a system directory or the home directory,
    without ``-r`` (``rm -f /etc/*``, perl's ``unlink glob("/etc/*")``): one file is
    not judged, all of ``/etc``'s are."""
    parent, name = posixpath.split(path)
    return _all_glob(name) and (parent in SYSTEM_DIRS or parent in ("/", where.home))


def judge_delete(
    target: Word,
    cwd: str | None,
    where: Where,
    *,
    recursive: bool,
    force: bool,
    sweep: bool = False,
    temp_root_ok: bool = True,
) -> tuple[str, str] | None:
    """(rule id, why) when deleting ``target`` this way is blocked, else None.

    ``sweep``: find's own ``-delete`` of what a filter selects (files and empty
    dirs, one by one) — allowed under the workspace; ``rm -rf`` of what find
    lists is judged like ``rm -rf`` of the start path.
    """
    unset = where.temp_vars
    if unset is not None and _unset_temp(target.parts, unset):
        if _DEFAULTED.search(target.raw):  # `${TMPDIR:-/tmp}/x`: the default, or its value
            where = where._replace(temp_vars=None)
        elif all(p == "" or (p.__class__ is Var and p.name in _TEMP_VARS) for p in target.parts):
            return None  # (`rm -rf "$TMPDIR"` with it unset: `rm -rf ''` deletes nothing)
    path = resolve(target, where, cwd)
    ws = where.workspace
    found = path is not None and FOUND in path
    if found and path is not None:
        path = path.split("/" + FOUND, 1)[0] or "/"
    if path is None:
        if recursive:
            return "delete.unresolved", "its target is only known when the shell runs it"
        return None
    # The resolved path is judged, never how the word spells it (`cd /tmp && rm -rf x`
    # is `rm -rf /tmp/x`); a temp dir's part beside a workspace in it is not temp.
    temps = where.temp_dirs
    holder = (  # (the workspace is in a temp dir: rarely)
        _holder(path, where)
        if ws is not None and temps and ws.startswith(_under_prefixes(temps))
        else None
    )
    temp_ok = holder is None
    why = catastrophic(path, where, found=found, temp_ok=temp_ok, temp_root_ok=temp_root_ok)
    if why is not None and (recursive or found or _sweeps(path, where)):
        return "delete.catastrophic", f"it would delete {why} ({path})"
    if not recursive or not force or (found and sweep):
        return None
    if temp_ok and _in_temp(path, where, temp_root_ok):
        return None
    if holder is not None:
        return "delete.recursive-force", (
            f"{path} is outside the workspace, beside it in {holder} (which may hold "
            "other projects)"
        )
    if ws is not None and (under(path, ws) or (found and path == ws)):
        # (path is normalised and strictly under ws: what follows ws/ is its relpath)
        rel = path[len(ws.rstrip("/")) + 1 :].split("/") if path != ws else []
        artifact = artifact_glob(where.artifact_dirs).match
        if any(artifact(c) for c in rel):
            return None
        return "delete.recursive-force", f"{path} is not a regenerable artifact directory"
    return "delete.recursive-force", f"{path} is outside the workspace"
