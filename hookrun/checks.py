"""check(): everything load() reports, plus the deeper checks of ``hookrun check``.

The deeper checks look outside the config text — script files, interpreters on
PATH, the shell front end, the policy registry — so they are not part of ``load()``
(which runs on every event and must stay cheap), and this module sits above the
config package: config is a leaf that imports no other hookrun package, and
checking needs dispatch's routing and the policies. Nothing here runs a hook or a
subprocess.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from pydantic import ValidationError

from hookrun.config.events import is_known_event
from hookrun.config.known import SUBJECTS
from hookrun.config.loader import FileReader, getcwd_or_empty, read_all
from hookrun.config.matchers import BOUNDED_SECONDS
from hookrun.config.models import describe
from hookrun.config.quote import quote
from hookrun.config.spec import ConfigIssue, HookSpec
from hookrun.dispatch import resolve, standin
from hookrun.dispatch.resolve import find_executable
from hookrun.dispatch.split import split_simple
from hookrun.hooks import registry
from hookrun.shellsyntax import ShellSyntaxError, Unsupported, parse

if TYPE_CHECKING:
    from pydantic_core import ErrorDetails


def check(
    paths: Sequence[str | os.PathLike[str]],
    *,
    cwd: str | os.PathLike[str] | None = None,
    env: Mapping[str, str] | None = None,
    platform: str = sys.platform,
) -> list[ConfigIssue]:
    """Every error and warning about ``paths``, each file's in position order.

    Relative script paths in commands are resolved against ``cwd`` (hooks run in
    the host's working directory); interpreters are looked up on ``env["PATH"]``.
    """
    base = os.fspath(cwd) if cwd is not None else getcwd_or_empty()
    environ = os.environ if env is None else env
    _, _, readers = read_all(paths, cwd=base)
    issues: list[ConfigIssue] = []
    for reader in readers:
        matchers_seen: set[tuple[str | int, ...]] = set()
        for spec, path in zip(reader.specs, reader.spec_paths, strict=True):
            # A Claude entry's matcher is shared by its inner hooks: judge it once.
            where = (*path, "matcher") if spec.dialect != "claude" else (*path[:-2], "matcher")
            if where not in matchers_seen:
                matchers_seen.add(where)
                _check_matcher(reader, spec, where)
            if spec.command is not None:
                _check_command(reader, spec, path, cwd=base, env=environ, platform=platform)
            if spec.builtin is not None:
                _check_builtin(reader, spec, path)
        issues.extend(reader.sorted_issues())
    return issues


def _check_matcher(reader: FileReader, spec: HookSpec, where: tuple[str | int, ...]) -> None:
    if spec.compiled_matcher is None:
        return
    if spec.compiled_matcher.engine == "bounded":
        reader.warning(
            where,
            f"matcher {_quote(spec.matcher or '')} uses what RE2 cannot take (lookaround or a "
            "backreference): it is searched by a backtracking engine for at most "
            f"{BOUNDED_SECONDS:g}s per subject, and when that runs out the hook runs; "
            "rewrite it without lookaround or backreferences to match in linear time",
        )
    if not is_known_event(spec.event):
        return
    subject = SUBJECTS.get(spec.event)
    if subject is None:
        reader.warning(
            where,
            f"the matcher has no effect on {spec.event} hooks: only tool events, "
            "SessionStart, PreCompact and Notification are matched",
        )
        return
    what, values = subject
    if any(spec.compiled_matcher.search(value) for value in values):
        return
    if what == "tool name" and "mcp" in (spec.matcher or "").lower():
        return  # MCP tool names are open-ended (mcp__<server>__<tool>): nothing to compare with
    shown = _quote(spec.matcher or "")
    folded = spec.compiled_matcher.ignoring_case()
    near = [value for value in values if folded.search(value)]
    if near:
        reader.warning(
            where,
            f"matcher {shown} matches no known {what}: matching is case-"
            f"sensitive, and ignoring case it would match {', '.join(near[:4])}",
        )
    else:
        examples = ", ".join(values[:6])
        reader.warning(where, f"matcher {shown} can never match a known {what} ({examples}, …)")


def _check_command(
    reader: FileReader,
    spec: HookSpec,
    path: tuple[str | int, ...],
    *,
    cwd: str,
    env: Mapping[str, str],
    platform: str,
) -> None:
    """The script a command names must exist and be runnable; shell code must parse.

    Mirrors dispatch's routing: a command of plain words whose first word is a path
    runs that file; anything else is shell code for the in-process shell.
    """
    command = spec.command or ""
    where = (*path, "command")
    argv = split_simple(command, platform)
    if argv is None:
        _check_shell_source(reader, where, command, "", cwd=cwd, env=env, platform=platform)
        argv = _leading_words(command, platform)  # `./x.sh | tee log` still names ./x.sh
    if argv and _check_standin(reader, spec, where, argv, cwd=cwd, env=env, platform=platform):
        return
    if not argv or not resolve.is_path_word(argv[0], platform):
        return
    plan = resolve.plan_file(argv[0], argv[1:], cwd=cwd, env=env, platform=platform)
    if plan.kind == "shebang" and _check_standin(
        reader, spec, where, plan.argv, cwd=cwd, env=env, platform=platform
    ):
        return
    if plan.kind == "error":
        reader.error(where, plan.message)
    elif plan.kind == "script":
        prefix = f"{argv[0]}: "
        _check_shell_source(reader, where, plan.source, prefix, cwd=cwd, env=env, platform=platform)


def _check_standin(
    reader: FileReader,
    spec: HookSpec,
    where: tuple[str | int, ...],
    argv: Sequence[str],
    *,
    cwd: str,
    env: Mapping[str, str],
    platform: str,
) -> bool:
    """``bash FILE`` / ``sh -c CODE`` (or a bash/sh script's plan) that the bash stand-in
    will run: the command line must make sense and its script must parse. False when
    the real bash/sh runs it (nothing to say)."""
    if not standin.applies(argv[0], mode=spec.shell, env=env, cwd=cwd, platform=platform):
        return False
    name = standin.shell_name(argv[0], platform) or "bash"
    inv = standin.parse_invocation(name, argv[1:])
    if isinstance(inv, standin.StandInError):
        reader.error(where, inv.message)
        return True
    if inv.file is not None:
        text = resolve.read_script(inv.file, cwd=cwd, env=env, platform=platform)
        if isinstance(text, resolve.FilePlan):
            reader.error(where, text.message)
            return True
        _check_shell_source(
            reader, where, text, f"{inv.file}: ", cwd=cwd, env=env, platform=platform
        )
    elif inv.command is not None:
        _check_shell_source(
            reader, where, inv.command, f"{name} -c: ", cwd=cwd, env=env, platform=platform
        )
    if spec.shell != "inprocess":
        reader.warning(
            where,
            f"{name} is not on PATH: hookrun's in-process shell stands in for it "
            f'(route inprocess:{name}); set "shell": "inprocess" to say that is intended',
        )
    return True


def _check_shell_source(
    reader: FileReader,
    where: tuple[str | int, ...],
    source: str,
    prefix: str,
    *,
    cwd: str,
    env: Mapping[str, str],
    platform: str,
) -> None:
    """Shell code the in-process shell will run: a syntax error fails the hook (exit 2, which
    would even deny), and an unsupported construct needs a real shell on PATH."""
    try:
        parse(source)
    except ShellSyntaxError as exc:
        reader.error(
            where,
            f"{prefix}shell syntax error at line {exc.line}, column {exc.column}: {exc.message}",
        )
    except Unsupported as exc:
        if not any(
            find_executable(name, env=env, cwd=cwd, platform=platform) for name in ("bash", "sh")
        ):
            reader.error(
                where,
                f"{prefix}{exc.construct} is not supported by hookrun's "
                "in-process shell and no POSIX shell (sh) is on PATH: put this hook in "
                "a script file whose first line is a shebang (#!/bin/bash)",
            )


def _leading_words(command: str, platform: str) -> list[str]:
    """The plain words shell code starts with (``./hooks/x.sh`` of ``./hooks/x.sh | tee``)."""
    head = re.split(r"[|&;<>()$`\n]", command, maxsplit=1)[0]
    return split_simple(head, platform) or []


def _check_builtin(reader: FileReader, spec: HookSpec, path: tuple[str | int, ...]) -> None:
    assert spec.builtin is not None
    try:
        policy = registry.get(spec.builtin)
    except Exception as exc:  # an import error inside the policy module: report, don't crash
        reader.error(
            (*path, "builtin"),
            f"builtin {_quote(spec.builtin)} cannot be loaded: {type(exc).__name__}: {exc}",
        )
        return
    try:
        policy.bind(spec.options)
    except ValidationError as exc:
        for err in exc.errors():
            unknown = err["type"] == "extra_forbidden"
            reader.error((*path, "with", *err["loc"]), _describe_option(err), key=unknown)
    if spec.event not in policy.events and is_known_event(spec.event):
        events = ", ".join(policy.events)
        reader.warning(
            path,
            f"builtin {_quote(spec.builtin)} acts on {events}: on {spec.event} it has no effect",
        )


def _describe_option(err: ErrorDetails) -> str:
    if err["type"] == "extra_forbidden":
        return f"unknown option {_quote(str(err['loc'][-1]))}"
    return describe(err)


def _quote(text: str) -> str:
    return quote(text)
