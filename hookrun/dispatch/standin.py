"""The bash stand-in: ``bash FILE``, ``sh -c '…'`` and bash/sh scripts without a bash.

Most published hooks are ``bash "$CLAUDE_PROJECT_DIR/.claude/hooks/x.sh"`` or
``#!/usr/bin/env bash`` scripts. Where no bash is on PATH (Windows without Git Bash)
each would exit 127 — a non-blocking error, so a guard written that way fails open.
Instead, when the program a command names is ``bash`` or ``sh`` and it is not on
PATH, or the hook (or config) says ``"shell": "inprocess"``, hookrun's in-process
shell runs it and the trace says ``inprocess:bash``.

This module is the pure part: which words name a stand-in shell, when it applies, and
what bash's command line asks for. Pure but for one PATH lookup (:func:`applies`).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping, Sequence

from hookrun.dispatch.resolve import find_executable, get_env, is_windows
from hookrun.records import NamedTuple

__all__ = [
    "MODES",
    "Invocation",
    "StandInError",
    "applies",
    "parse_invocation",
    "shell_name",
    "unsupported_error",
]

# "auto": the stand-in runs only when the named shell is not on PATH.
# "inprocess": bash and sh always run in-process (a config says so, or a test forces it).
MODES = ("auto", "inprocess")
_SHELLS = frozenset({"bash", "sh"})
# Options that change nothing the in-process shell does for a non-interactive run.
_IGNORED_LONG = frozenset({"--norc", "--noprofile", "--posix", "--login", "--noediting"})
# Single-letter options bash takes on its command line that are `set` options.
_SET_LETTERS = frozenset("aefhkmnptuvxBCEHPT")


class Invocation(NamedTuple):
    """What ``bash ARGS`` asks for.

    ``options`` are ``set`` arguments to apply first (``("-e", "-o", "pipefail")``),
    ``shopts`` ``shopt`` ones (``("-s", "nullglob")`` for ``-O nullglob``).
    Exactly one of ``command`` (``-c STRING``) and ``file`` is set, or neither: the
    script is read from stdin. ``argv0`` is ``$0``; ``args`` are ``$1…``.
    """

    program: str
    options: tuple[str, ...] = ()
    command: str | None = None
    file: str | None = None
    argv0: str = ""  # "" means the program's own name (bash's $0 then)
    args: tuple[str, ...] = ()
    shopts: tuple[str, ...] = ()


class StandInError(NamedTuple):
    """A command line the stand-in cannot honour; ``message`` says what and why (exit 2)."""

    message: str


def shell_name(word: str, platform: str = sys.platform) -> str | None:
    """``"bash"``/``"sh"`` when ``word`` names one (``/bin/bash``, ``bash.exe``), else None."""
    base = word.replace("\\", "/").rsplit("/", 1)[-1] if is_windows(platform) else word
    base = base.rsplit("/", 1)[-1]
    if is_windows(platform) and base.lower().endswith(".exe"):
        base = base[:-4]
    name = base.lower() if is_windows(platform) else base
    return name if name in _SHELLS else None


def applies(
    word: str, *, mode: str, env: Mapping[str, str], cwd: str, platform: str = sys.platform
) -> bool:
    """Does the stand-in run the command word ``word``?

    Only for bash and sh. With ``mode == "inprocess"`` always; otherwise when the
    program cannot be found: ``bash`` not on PATH, or ``/bin/bash`` absent and no
    ``bash`` on PATH either (a literal path that does not exist is looked up by its
    base name, as shebang lines are) — or, on Windows, when the one found is WSL's
    launcher in System32.
    """
    name = shell_name(word, platform)
    if name is None:
        return False
    if mode == "inprocess":
        return True
    if word != name and os.path.isfile(os.path.join(cwd, word)):
        return _is_wsl_launcher(os.path.join(cwd, word), env, platform)
    found = find_executable(name, env=env, cwd=cwd, platform=platform)
    return found is None or _is_wsl_launcher(found, env, platform)


def _is_wsl_launcher(path: str, env: Mapping[str, str], platform: str) -> bool:
    """``C:\\Windows\\System32\\bash.exe`` starts WSL's Linux bash, which cannot open
    the hook's Windows paths (``C:\\proj\\…``): for a hook, that is no bash at all.
    Git for Windows' bash (``…\\Git\\bin\\bash.exe``) is a real one."""
    if not is_windows(platform):
        return False
    root = get_env(env, "SystemRoot", platform) or get_env(env, "windir", platform) or ""
    if not root:
        return False
    folder = os.path.dirname(path).replace("/", "\\").rstrip("\\").lower()
    return folder in (
        (root.replace("/", "\\").rstrip("\\") + "\\system32").lower(),
        (root.replace("/", "\\").rstrip("\\") + "\\sysnative").lower(),
    )


def parse_invocation(program: str, args: Sequence[str]) -> Invocation | StandInError:
    """Read bash's command line: options, then ``-c STRING [NAME [ARGS…]]``, a FILE, or stdin."""
    options: list[str] = []
    shopts: list[str] = []
    command_mode = False
    stdin_mode = False
    i = 0
    while i < len(args):
        arg = args[i]
        if arg in ("--", "-"):
            i += 1
            break
        if arg in _IGNORED_LONG:
            i += 1
            continue
        if arg.startswith("--"):
            return StandInError(f"{program} {arg}: option not supported by the in-process shell")
        if len(arg) < 2 or arg[0] not in "-+":
            break
        sign = arg[0]
        i += 1
        for letter in arg[1:]:
            if letter == "c" and sign == "-":
                command_mode = True
            elif letter == "s" and sign == "-":
                stdin_mode = True
            elif letter == "o":
                if i >= len(args):
                    return StandInError(f"{program} {sign}o: option requires an argument")
                if args[i] != "posix":
                    options += [f"{sign}o", args[i]]
                i += 1
            elif letter == "O":
                if i >= len(args):
                    return StandInError(f"{program} {sign}O: option requires an argument")
                shopts += ["-s" if sign == "-" else "-u", args[i]]
                i += 1
            elif letter == "i":
                return StandInError(
                    f"{program} -i: an interactive shell cannot stand in for {program}"
                )
            elif letter == "l":
                continue  # a login shell reads profiles: nothing a hook relies on
            elif letter in _SET_LETTERS:
                options.append(f"{sign}{letter}")
            else:
                return StandInError(f"{program}: {sign}{letter}: invalid option")
    rest = tuple(args[i:])
    opts = tuple(options)
    more = tuple(shopts)
    if command_mode:
        if not rest:
            return StandInError(f"{program}: -c: option requires an argument")
        name = rest[1] if len(rest) > 1 else ""
        return Invocation(program, opts, command=rest[0], argv0=name, args=rest[2:], shopts=more)
    if stdin_mode or not rest:
        return Invocation(program, opts, args=rest, shopts=more)
    return Invocation(program, opts, file=rest[0], argv0=rest[0], args=rest[1:], shopts=more)


def unsupported_error(construct: str, route: str) -> str:
    """Completed.error for a run stopped by a construct the in-process shell lacks."""
    if route.startswith("inprocess:"):
        name = route.partition(":")[2]
        return (
            f"the in-process shell does not support {construct} (it stood in for {name}, "
            f'which is not on PATH or the hook asked for "shell": "inprocess"): '
            f"install {name}, or rewrite that part of the hook"
        )
    return (
        f"the in-process shell does not support {construct}: run the hook as a script "
        "file with a #! line naming its shell"
    )
