"""delete.*: recursive deletes of places that cannot be regenerated.

``rm`` (any flag spelling or order), ``rimraf``, and ``find … -delete`` are judged
here; ``find -exec rm …`` and ``xargs rm …`` arrive as ``rm`` layers whose ``{}``
or stdin targets the unwrapper marked.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterator, Sequence

from hookrun.hooks.shell_guard.judging import Call, Finding
from hookrun.hooks.shell_guard.model import Var, Word
from hookrun.hooks.shell_guard.paths import (
    SYSTEM_DIRS,
    artifact_glob,
    catastrophic,
    cwds_of,
    judge_delete,
    resolve,
    under,
)
from hookrun.hooks.shell_guard.unwrap import find_parts, found_word
from hookrun.records import NamedTuple

_ADVICE = {
    "delete.catastrophic": "never delete this; delete the specific files you created instead",
    "delete.recursive-force": (
        "delete specific files, or use rm -r without -f inside the workspace "
        "(regenerable dirs like node_modules, dist, build and temp dirs are fine)"
    ),
    "delete.unresolved": (
        "spell the path out literally (no $VAR, $(…) or loop variable) so it can be checked"
    ),
}


def check(call: Call) -> Iterator[Finding]:
    name = call.cmd.name
    if name == "rm":
        recursive, force, targets = rm_flags(call.cmd.args)
        yield from _judge(call, targets, recursive, force, "rm")
    elif name == "rimraf":
        targets = [a for a in call.cmd.args if not a.text.startswith("-")]
        yield from _judge(call, targets, True, True, "rimraf")
    elif name == "rsync":
        yield from _rsync(call)
    elif name in ("del", "del-cli"):
        yield from _del(call)
    elif name == "find" and _deletes(call.cmd.args):
        starts, narrows, _ = find_parts(call.cmd.args)
        targets = [found_word(s, narrows) for s in starts]
        yield from _judge(call, targets, True, True, "find -delete", sweep=True)


def _artifact_names(target: Word, call: Call) -> bool:
    """find's filter selects only regenerable artifact directories by name."""
    found = [p for p in target.parts if isinstance(p, Var) and p.name == "FOUND"]
    if not found or not found[0].inner:
        return False
    artifact = artifact_glob(call.where.artifact_dirs).match
    return all(artifact(name) for name in found[0].inner.split("\n"))


def _deletes(args: Sequence[Word]) -> bool:
    """find's own ``-delete`` primary, not a ``-delete`` word given to ``-exec echo``."""
    inside_exec = False
    for a in args:
        if inside_exec:
            inside_exec = a.text not in (";", "+")
        elif a.text in ("-exec", "-execdir", "-ok", "-okdir"):
            inside_exec = True
        elif a.text == "-delete":
            return True
    return False


def rm_flags(args: Sequence[Word]) -> tuple[bool, bool, list[Word]]:
    """(recursive, force, targets) of rm's arguments; GNU rm takes options anywhere."""
    recursive = force = False
    targets: list[Word] = []
    options_done = False
    for word in args:
        text = word.text
        if options_done or not word.static or not text.startswith("-") or text == "-":
            targets.append(word)
        elif text == "--":
            options_done = True
        elif text.startswith("--"):
            recursive |= text == "--recursive"
            force |= text == "--force"
        else:
            recursive |= "r" in text or "R" in text
            force |= "f" in text
    return recursive, force, targets


def _judge(
    call: Call,
    targets: Sequence[Word],
    recursive: bool,
    force: bool,
    tool: str,
    *,
    sweep: bool = False,
) -> Iterator[Finding]:
    cwds = cwds_of(call.cmd.cd, call.where) if call.cmd.cd else [call.where.cwd]
    # rm of what find lists is not the temp dir's own sweep: `find /tmp -exec rm -rf {} +`
    # hands /tmp itself to rm first.
    by_find = any(v.startswith("find") for v in call.cmd.via)
    for k, cwd in enumerate(cwds):
        # One finding for this command, naming each target a rule finds (`rm -rf /usr
        # /etc src`: all three, so the next try does not meet the second); its rule is
        # the gravest the options leave on.
        rules: list[str] = []
        parts: list[str] = []
        for target in targets:
            if by_find and _artifact_names(target, call):
                continue  # find . -name __pycache__ -exec rm -rf {} +
            verdict = judge_delete(
                target,
                cwd,
                call.where,
                recursive=recursive,
                force=force,
                sweep=sweep,
                temp_root_ok=not by_find,
            )
            if verdict is None:
                continue
            rule, why = verdict
            # A raw word that expanded to several (`rm${IFS}-rf${IFS}/`) is shown expanded.
            raw = target.raw
            shown = raw if raw and not any(c in raw for c in " {$`") else target.text
            if k:  # (not where every `cd` before it worked)
                why += ", where it runs if a `cd` before it fails (join them with &&)"
            part = f"{shown}: {why}"
            rules.append(rule)
            parts.append(part if not parts or len(part) <= _MAX_PART else part[:_MAX_PART] + "…")
        if rules:  # (the first place it may run in that gives any: enough to act on)
            opts = call.where.opts
            on = [k for k, r in enumerate(rules) if opts.enabled(r)] or range(len(rules))
            rule = min((rules[k] for k in on), key=lambda r: _SEVERITY.get(r, len(_SEVERITY)))
            parts = [parts[k] for k in on]  # (a target only a rule switched off finds: not named)
            more = len(parts) - _MAX_NAMED
            named = "; of ".join(parts[:_MAX_NAMED]) + (f"; and {more} more" if more > 0 else "")
            yield call.finding(rule, f"{tool} of {named}; {_ADVICE[rule]}")
            return


_SEVERITY = {"delete.catastrophic": 0, "delete.recursive-force": 1, "delete.unresolved": 2}
_MAX_NAMED = 5  # the targets one finding names (a glob's hundred would bury the advice)
_MAX_PART = 100  # the characters of each after the first (a reason stays short)


# rsync's options that take the next word as their value (`-e ssh`, `--exclude PAT`).
_RSYNC_SHORT_ARG = "efBTM"
_RSYNC_LONG_ARG = frozenset(
    [
        "--rsh",
        "--filter",
        "--exclude",
        "--include",
        "--exclude-from",
        "--include-from",
        "--files-from",
        "--block-size",
        "--backup-dir",
        "--suffix",
        "--partial-dir",
        "--temp-dir",
        "--compare-dest",
        "--copy-dest",
        "--link-dest",
        "--log-file",
        "--log-file-format",
        "--password-file",
        "--port",
        "--timeout",
        "--max-size",
        "--min-size",
        "--max-delete",
        "--bwlimit",
        "--chmod",
        "--chown",
        "--usermap",
        "--groupmap",
        "--remote-option",
        "--rsync-path",
        "--out-format",
        "--info",
        "--debug",
        "--iconv",
        "--sockopts",
        "--address",
        "--contimeout",
        "--protocol",
        "--checksum-choice",
        "--compress-choice",
        "--compress-level",
        "--skip-compress",
        "--stop-after",
        "--stop-at",
        "--outbuf",
        "--modify-window",
        "--write-batch",
        "--only-write-batch",
        "--read-batch",
        "--checksum-seed",
        "--early-input",
        "--config",
    ]
)
_RSYNC_DELETES = frozenset(
    [
        "--delete",
        "--del",
        "--delete-before",
        "--delete-during",
        "--delete-delay",
        "--delete-after",
        "--delete-excluded",
        "--delete-missing-args",
    ]
)


class RsyncReading(NamedTuple):
    """What ``rsync ARGS`` may delete: the receiving directories of ``--delete`` (each
    source's, in order) and the sources ``--remove-source-files`` empties."""

    dest: Word | None
    receiving: list[Word]
    emptied: list[Word]


def rsync_reading(args: Sequence[Word]) -> RsyncReading:
    """The receiving directory is DEST for a source written as its contents (``src/``,
    ``src/.``, ``.``, ``..``) or one only the shell knows, else ``DEST/NAME`` (rsync
    copies the directory ``src`` into DEST and mirrors that). Nothing is deleted with
    ``-n``/``--dry-run``/``--list-only``, ``--max-delete=0``, or without
    ``-r``/``-a``/``-d`` (rsync refuses). (rsync 3.5.0 on temp trees:
    ``tests/hooks/shell_guard/wrappers_oracle_test.py``.)"""
    deletes = removes = dry = recursive = False
    operands: list[Word] = []
    i = 0
    while i < len(args):
        word = args[i]
        text = word.text
        i += 1
        if not word.static or not text.startswith("-") or text == "-":
            operands.append(word)
            continue
        if text == "--":
            operands.extend(args[i:])
            break
        if text.startswith("--"):
            name, eq, value = text.partition("=")
            if name in _RSYNC_LONG_ARG and not eq:
                value = args[i].text if i < len(args) else ""
                i += 1
            deletes |= name in _RSYNC_DELETES
            removes |= name == "--remove-source-files"
            dry |= name in ("--dry-run", "--list-only") or (name == "--max-delete" and value == "0")
            recursive |= name in ("--recursive", "--archive", "--dirs")
            continue
        for k, ch in enumerate(text[1:], start=2):
            if ch in _RSYNC_SHORT_ARG:
                if k == len(text):
                    i += 1  # (its value is the next word)
                break
            dry |= ch == "n"
            recursive |= ch in "rad"
    if dry or len(operands) < 2:
        return RsyncReading(None, [], [])
    *sources, dest = operands
    receiving: list[Word] = []
    if deletes and recursive:
        for source in sources:
            text = source.text
            if source.static and not (text.endswith(("/", "/.")) or text in (".", "..")):
                base = text.rstrip("/").rsplit("/", 1)[-1]
                receiving.append(Word((*dest.parts, "/" + base), dest.raw))
            else:
                receiving.append(dest)
    return RsyncReading(dest, receiving, list(sources) if removes else [])


def _rsync(call: Call) -> Iterator[Finding]:
    """``rsync --delete SRC/ DEST``: what DEST holds that SRC lacks is deleted.

    Judged like a recursive delete of the receiving directory (:func:`rsync_reading`:
    ``empty/ /``, ``empty/ ~``, a system directory, outside the workspace); inside the
    workspace it is a mirror and passes, except the workspace root and ``.git``; a
    remote one as ``ssh host`` code is. ``--remove-source-files`` moves every file out
    of its sources: judged on root, home and system directories.
    """
    reading = rsync_reading(call.cmd.args)
    dest = reading.dest
    if dest is None:
        return
    where = call.where
    cwds = cwds_of(call.cmd.cd, where) if call.cmd.cd else [where.cwd]
    for source in reading.emptied:
        for cwd in cwds:
            path = None if _remote(source) else resolve(source, where, cwd)
            why = catastrophic(path, where, found=True) if path else None
            if why is not None:
                yield call.finding(
                    "delete.catastrophic",
                    f"rsync --remove-source-files of {source.raw or source.text}: it would "
                    f"move every file out of {why} ({path}); {_ADVICE['delete.catastrophic']}",
                )
                return
    if not reading.receiving:
        return
    if _remote(dest):
        if any(r is dest for r in reading.receiving):  # (else a directory below it)
            yield from _rsync_remote(call, dest)
        return
    for target in reading.receiving:
        for cwd in cwds:
            path = resolve(target, where, cwd)
            ws = where.workspace
            if (
                path is not None
                and ws is not None
                and under(path, ws)
                and catastrophic(path, where) is None
            ):
                continue  # a mirror inside the workspace
            verdict = judge_delete(target, cwd, where, recursive=True, force=True)
            if verdict is None:
                continue
            rule, why = verdict
            yield call.finding(
                rule,
                f"rsync --delete onto {dest.raw or dest.text}: {why}; deletes what the "
                f"source lacks there; {_ADVICE[rule]}",
            )
            return


def _del(call: Call) -> Iterator[Finding]:
    """del-cli (``del``/``del-cli PATHS|GLOBS``): deletes recursively, but refuses the
    working directory itself and anything outside it without ``-f``/``--force``; ``!GLOB``
    excludes; ``-d``/``--dry-run`` deletes nothing (del-cli 7 run on temp trees)."""
    args = call.cmd.args
    texts = [a.text for a in args if a.static]
    if any(t in ("-d", "--dry-run") for t in texts):
        return
    force = any(
        t in ("-f", "--force") or (t[:1] == "-" and t[1:2] != "-" and "f" in t) for t in texts
    )
    targets = [a for a in args if not (a.static and a.text.startswith(("-", "!")))]
    where = call.where
    cwds = cwds_of(call.cmd.cd, where) if call.cmd.cd else [where.cwd]
    for cwd in cwds:
        for target in targets:
            if not force and cwd is not None:
                path = resolve(target, where, cwd)
                if path is not None and not under(path, cwd):
                    continue  # del refuses it: the working directory, or outside it
            verdict = judge_delete(target, cwd, where, recursive=True, force=True)
            if verdict is None:
                continue
            rule, why = verdict
            shown = target.raw or target.text
            yield call.finding(rule, f"{call.cmd.name} of {shown}: {why}; {_ADVICE[rule]}")
            return


def _remote(word: Word) -> bool:
    """``host:path``, ``user@host:path``, ``host::module``, ``rsync://…``."""
    text = word.text
    colon = text.find(":")
    return colon > 0 and "/" not in text[:colon]


def _rsync_remote(call: Call, dest: Word) -> Iterator[Finding]:
    host, _, path = dest.text.partition(":")
    path = path.lstrip(":") if not dest.text.startswith("rsync://") else ""
    if dest.text.startswith("rsync://") or not dest.static:
        return
    if path in ("", ".", "./", "~", "~/"):
        why = f"the home directory on {host}"
    elif path.startswith("/"):
        # (a deploy mirrors into a directory below these — `build/ www:/srv/site`; the
        # root, a system directory itself, `/home`… are no deploy's target)
        path = posixpath.normpath(path).replace("//", "/")
        if path == "/":
            why = f"the filesystem root on {host}"
        elif path in SYSTEM_DIRS:
            why = f"a system directory on {host} ({path})"
        else:
            return
    else:
        return
    yield call.finding(
        "delete.catastrophic",
        f"rsync --delete onto {dest.raw}: it would delete {why}; {_ADVICE['delete.catastrophic']}",
    )
