"""``hookrun doctor [HOST]``: for each host config found, is hookrun wired, for which
events, what is missing — and does every wired command start?

A wired command that does not resolve to an executable fails the doctor (exit 1): every
host reads its exit 127 as a non-blocking error, so a guard that cannot start is off
without anyone being told.
"""

from __future__ import annotations

import os
import shlex
import shutil
from typing import TYPE_CHECKING

from hookrun.cli.commands.install import read_text, target_for
from hookrun.hosts import HOSTS
from hookrun.hosts import install as plan

if TYPE_CHECKING:
    from hookrun.cli.commands.run import Streams


def resolves(command: str) -> str | None:
    """The executable the command's first word names, or None when it does not start."""
    try:
        words = shlex.split(command, posix=os.name != "nt")
    except ValueError:
        return None
    if not words:
        return None
    exe = words[0].strip('"')
    if os.path.dirname(exe):
        return exe if os.path.isfile(exe) and os.access(exe, os.X_OK) else None
    return shutil.which(exe)


def doctor_command(host: str | None, cwd: str, streams: Streams) -> int:
    hosts = (host,) if host else plan.INSTALLABLE
    broken = 0
    found_any = False
    for name in hosts:
        title = HOSTS[name].title if name in HOSTS else name
        for scope in plan.SCOPES:
            t = target_for(name, scope, cwd)
            text = read_text(t.path)
            if text is None:
                if host:
                    streams.stdout.write(f"{title} ({scope}): {t.path}: not found\n")
                continue
            found_any = True
            try:
                data = plan.parse(text, t.path)
            except plan.InstallError as exc:
                streams.stdout.write(f"{title} ({scope}): {exc}\n")
                continue
            wired = plan.wired(data)
            if not wired:
                streams.stdout.write(
                    f"{title} ({scope}): {t.path}: hookrun is not wired "
                    f"(hookrun install {name}{' --user' if scope == 'user' else ''})\n"
                )
                continue
            missing = [e for e in t.events if e not in wired]
            streams.stdout.write(
                f"{title} ({scope}): {t.path}: hookrun wired for {', '.join(wired)}\n"
            )
            if missing:
                streams.stdout.write(f"  not wired: {', '.join(missing)}\n")
            for event, commands in wired.items():
                for command in commands:
                    if resolves(command) is None:
                        broken += 1
                        streams.stdout.write(
                            f"  error: hooks.{event}: {command!r} does not start: its first word "
                            "is not an executable (the host would get exit 127, a non-blocking "
                            f"error: the guard is off) — run `hookrun install {name}` again\n"
                        )
    if not found_any and not host:
        streams.stdout.write("no host config found (hookrun install HOST wires one)\n")
    return 1 if broken else 0
