"""``hookrun install HOST`` and ``hookrun uninstall HOST``: hookrun wired into (and out of)
the host's own config file, every event the host has going through ``hookrun run``.

What goes into the file is planned by :mod:`hookrun.hosts.install`. Here: the absolute
hookrun this command was run with, the file's I/O, ``--dry-run``'s diff, and a record
of the bytes the file had before install (``.hookrun/installed.json`` of the project,
or hookrun's user config dir), so that uninstalling from a file nobody edited since
gives those bytes back exactly; an edited file gets hookrun's entries removed and the
rest kept.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import os
import shutil
import sys
from typing import TYPE_CHECKING, Any

from hookrun.cli import CliError
from hookrun.config.discovery import find_project_root, user_config_path
from hookrun.hosts import install as plan

if TYPE_CHECKING:
    from hookrun.cli.commands.run import Streams


def launcher(argv0: str | None = None) -> tuple[str, ...]:
    """How to start the hookrun running now, by absolute path (hosts run hooks with a
    PATH of their own, where a bare ``hookrun`` may be another one, or none)."""
    argv0 = sys.argv[0] if argv0 is None else argv0
    name = os.path.basename(argv0)
    if name in ("__main__.py", "-m", "-c", "") or name.endswith(".py"):
        return (os.path.abspath(sys.executable), "-m", "hookrun")
    found = argv0 if os.sep in argv0 or "/" in argv0 else shutil.which(argv0) or argv0
    return (os.path.abspath(found),)


def target_for(host: str, scope: str, cwd: str) -> plan.Target:
    if host not in plan.INSTALLABLE:
        raise CliError(f"unknown host {host!r}: use one of {', '.join(plan.INSTALLABLE)}")
    return plan.target(
        host,
        scope,
        project=str(find_project_root(cwd)),
        home=os.path.expanduser("~"),
        env=os.environ,
    )


def read_text(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8", newline="") as f:
            return f.read()
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise CliError(f"cannot read {path}: {exc}") from None


def _write(path: str, text: str | None) -> None:
    try:
        if text is None:
            os.remove(path)
            return
        os.makedirs(os.path.dirname(path), exist_ok=True)
        tmp = f"{path}.hookrun-tmp"
        with open(tmp, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        os.replace(tmp, path)
    except FileNotFoundError:
        pass
    except OSError as exc:
        raise CliError(f"cannot write {path}: {exc.strerror or exc}") from None


def _record_path(t: plan.Target, cwd: str) -> str:
    if t.scope == "user":
        return str(user_config_path().parent / "installed.json")
    return os.path.join(str(find_project_root(cwd)), ".hookrun", "installed.json")


def _records(path: str) -> dict[str, Any]:
    text = read_text(path)
    try:
        data = json.loads(text) if text else {}
    except ValueError:
        data = {}
    return data if isinstance(data, dict) else {}


def _sha(text: str | None) -> str | None:
    return None if text is None else hashlib.sha256(text.encode("utf-8")).hexdigest()


def _diff(path: str, before: str | None, after: str | None) -> str:
    lines = difflib.unified_diff(
        (before or "").splitlines(keepends=True),
        (after or "").splitlines(keepends=True),
        fromfile=path if before is not None else "/dev/null",
        tofile=path if after is not None else "/dev/null",
    )
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)


def _change(
    t: plan.Target, before: str | None, after: str | None, dry_run: bool, streams: Streams
) -> bool:
    if after == before:
        streams.stdout.write(f"{t.path}: unchanged\n")
        return False
    if dry_run:
        streams.stdout.write(_diff(t.path, before, after))
        return False
    _write(t.path, after)
    return True


def install_command(host: str, scope: str, dry_run: bool, cwd: str, streams: Streams) -> int:
    t = target_for(host, scope, cwd)
    before = read_text(t.path)
    try:
        after = plan.install(t, before, launcher())
    except plan.InstallError as exc:
        raise CliError(str(exc)) from None
    if _change(t, before, after, dry_run, streams):
        record = _record_path(t, cwd)
        records = _records(record)
        kept = records.get(t.path)
        first_before = kept["before"] if isinstance(kept, dict) and "before" in kept else before
        records[t.path] = {"before": first_before, "after_sha256": _sha(after)}
        _write(record, json.dumps(records, indent=2) + "\n")
        streams.stdout.write(f"{t.path}: hookrun wired for {', '.join(t.events)}\n")
    return 0


def uninstall_command(host: str, scope: str, dry_run: bool, cwd: str, streams: Streams) -> int:
    t = target_for(host, scope, cwd)
    before = read_text(t.path)
    record = _record_path(t, cwd)
    records = _records(record)
    kept = records.get(t.path)
    if isinstance(kept, dict) and kept.get("after_sha256") == _sha(before):
        after = kept.get("before")  # untouched since install: the original bytes
    else:
        try:
            after = plan.uninstall(t, before)
        except plan.InstallError as exc:
            raise CliError(str(exc)) from None
    if _change(t, before, after if isinstance(after, str) else None, dry_run, streams):
        records.pop(t.path, None)
        _write(record, json.dumps(records, indent=2) + "\n" if records else None)
        streams.stdout.write(f"{t.path}: hookrun removed\n")
    return 0
