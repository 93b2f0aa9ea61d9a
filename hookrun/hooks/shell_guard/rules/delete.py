"""delete.*: recursive deletes of places that cannot be regenerated.

``rm`` (any flag spelling or order), ``rimraf``, and ``find … -delete`` are judged
here; ``find -exec rm …`` and ``xargs rm …`` arrive as ``rm`` layers whose ``{}``
or stdin targets the unwrapper marked.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from hookrun.hooks.shell_guard.judging import Call, Finding
from hookrun.hooks.shell_guard.model import Var, Word
from hookrun.hooks.shell_guard.paths import artifact_glob, cwds_of, judge_delete
from hookrun.hooks.shell_guard.unwrap import find_parts, found_word

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
            yield call.finding(rule, f"{tool} of {shown}: {why}; {_ADVICE[rule]}")
            return  # one finding per command is enough to act on
