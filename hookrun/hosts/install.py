"""``hookrun install|uninstall HOST`` and ``hookrun doctor``: hookrun wired into a host's
own config file — pure planning on the file's text; the commands do the I/O.

For each host: where its config lives (project and user scope), the events worth wiring
(every event the host has that maps to a canonical one — the dedicated Cursor events
that duplicate ``preToolUse``/``postToolUse`` are left out so that no call is judged
twice), and the shape of one entry. An entry hookrun wrote is recognised by its command:
``<hookrun> run <Event> --host <name>``.

Formatting: only the text of the top-level ``"hooks"`` value is rewritten (with the
file's own indent, two spaces when new); every other byte of the file stays as it was.
A file with comments or trailing commas (JSONC) is refused rather than silently
stripped of them. A second install with the same
hookrun changes nothing. Uninstall removes only hookrun's entries (and the containers it
created, once empty); :mod:`hookrun.cli.commands.install` also keeps the bytes a file had
before install, so that uninstalling from an unedited file gives them back exactly.
"""

from __future__ import annotations

import json
import os
import re
import shlex
from collections.abc import Mapping
from typing import Any, NamedTuple

from hookrun.hosts import HOSTS

SCOPES = ("project", "user")


class Target(NamedTuple):
    host: str
    scope: str
    path: str  # absolute
    shape: str  # "nested" (Claude/Codex/Gemini), "flat" (Copilot/Cursor), "crush"
    events: tuple[str, ...]  # the host's own event names to wire
    own_file: bool = (
        False  # the file is hookrun's alone (Copilot's hooks dir): uninstall deletes it
    )


class InstallError(Exception):
    """A config file hookrun will not touch (the message says why and what to do)."""


def _mapped(host: str) -> tuple[str, ...]:
    return tuple(name for name, canonical in HOSTS[host].events.items() if canonical)


_CURSOR_EVENTS = (
    "preToolUse",
    "postToolUse",
    "postToolUseFailure",
    "beforeSubmitPrompt",
    "stop",
    "sessionStart",
    "sessionEnd",
    "subagentStart",
    "subagentStop",
    "preCompact",
)

INSTALLABLE = ("claude", "gemini", "codex", "copilot", "cursor", "crush")


def target(host: str, scope: str, *, project: str, home: str, env: Mapping[str, str]) -> Target:
    """Where ``host`` keeps its hooks for ``scope``, and how hookrun is wired there."""
    user = scope == "user"
    if host == "claude":
        base = home if user else project
        return Target(host, scope, os.path.join(base, ".claude", "settings.json"), "nested",
                      _mapped("claude"))  # fmt: skip
    if host == "codex":
        codex_dir = (
            env.get("CODEX_HOME") or os.path.join(home, ".codex")
            if user
            else os.path.join(project, ".codex")
        )
        path = os.path.join(codex_dir, "hooks.json")
        return Target(host, scope, path, "nested", _mapped("codex"))
    if host == "gemini":
        base = home if user else project
        return Target(host, scope, os.path.join(base, ".gemini", "settings.json"), "nested",
                      _mapped("gemini"))  # fmt: skip
    if host == "copilot":
        base = (
            os.path.join(env.get("COPILOT_HOME") or os.path.join(home, ".copilot"), "hooks")
            if user
            else os.path.join(project, ".github", "hooks")
        )
        events = tuple(e for e in _mapped("copilot") if e[:1].islower())
        return Target(host, scope, os.path.join(base, "hookrun.json"), "flat", events, True)
    if host == "cursor":
        base = home if user else project
        return Target(host, scope, os.path.join(base, ".cursor", "hooks.json"), "flat",
                      _CURSOR_EVENTS)  # fmt: skip
    if host == "crush":
        if user:
            config_home = env.get("XDG_CONFIG_HOME") or os.path.join(home, ".config")
            path = os.path.join(config_home, "crush", "crush.json")
        else:
            dotted = os.path.join(project, ".crush.json")
            path = dotted if os.path.exists(dotted) else os.path.join(project, "crush.json")
        return Target(host, scope, path, "crush", ("PreToolUse",))
    raise KeyError(host)


# -- the command ------------------------------------------------------------------------------


def _quote(word: str) -> str:
    """A word every host's shell reads back unchanged (sh, Git Bash, PowerShell, cmd)."""
    if re.fullmatch(r"[A-Za-z0-9_./:\\+=@%-]+", word):
        return word
    if os.name == "nt":  # pragma: win32 cover
        return '"' + word.replace('"', '\\"') + '"'
    return shlex.quote(word)


def command(launcher: tuple[str, ...], host_event: str, host_flag: str) -> str:
    """The hook command: the absolute hookrun, ``run``, the host's event, ``--host``."""
    return " ".join([*(_quote(w) for w in launcher), "run", host_event, "--host", host_flag])


_OURS = re.compile(r"(?:^|[\s/\\\"'])hookrun(?:\.exe)?[\"']?\s+run\s|\s-m\s+hookrun\s+run\s")


def is_hookrun_command(text: str) -> bool:
    return bool(_OURS.search(text))


def host_flag(t: Target) -> str:
    # Copilot and Cursor also run the hooks of .claude/settings.json: there, auto.
    return "auto" if t.host == "claude" else t.host


# -- reading and writing the file ---------------------------------------------------------------


def parse(text: str | None, path: str) -> dict[str, Any]:
    if text is None or not text.strip():
        return {}
    try:
        data = json.loads(text)
    except ValueError:
        raise InstallError(
            f"{path}: not plain JSON (comments or trailing commas?): hookrun install would "
            "lose them — add the entries by hand (`--dry-run` shows them)"
        ) from None
    if not isinstance(data, dict):
        raise InstallError(f"{path}: the top level is not a JSON object")
    return data


def _indent(text: str | None) -> int | str:
    if text:
        match = re.search(r"\n([ \t]+)\S", text)
        if match:
            found = match.group(1)
            return found if "\t" in found else len(found)
    return 2


def dump(data: Mapping[str, Any], like: str | None) -> str:
    text = json.dumps(data, indent=_indent(like), ensure_ascii=False)
    newline = like is None or like.endswith("\n")
    return text + ("\n" if newline else "")


_DECODER = json.JSONDecoder()
_WS = re.compile(r"[ \t\r\n]*")


def _members(text: str) -> tuple[int, list[tuple[str, int, int, int]]]:
    """The top-level object's members as (key, member start, value start, value end), and
    the index of its closing brace. ``text`` is valid JSON (checked by :func:`parse`)."""
    i = _WS.match(text, 0).end()  # type: ignore[union-attr]
    assert text[i] == "{"
    i += 1
    members: list[tuple[str, int, int, int]] = []
    while True:
        i = _WS.match(text, i).end()  # type: ignore[union-attr]
        if text[i] == "}":
            return i, members
        if text[i] == ",":
            i += 1
            continue
        start = i
        key, i = _DECODER.raw_decode(text, i)
        i = _WS.match(text, i).end()  # type: ignore[union-attr]
        i = _WS.match(text, i + 1).end()  # type: ignore[union-attr]  # past ":"
        value_start = i
        _, i = _DECODER.raw_decode(text, i)
        members.append((key, start, value_start, i))


def _nested(value: Any, indent: int | str) -> str:
    unit = indent if isinstance(indent, str) else " " * indent
    return json.dumps(value, indent=indent, ensure_ascii=False).replace("\n", "\n" + unit)


def splice(text: str | None, key: str, value: Any) -> str:
    """``text`` with the top-level ``key`` set to ``value`` (None: removed), every other
    byte unchanged."""
    indent = _indent(text)
    if text is None or not text.strip():
        return dump({key: value} if value is not None else {}, None)
    close, members = _members(text)
    unit = indent if isinstance(indent, str) else " " * indent
    for index, (name, start, value_start, value_end) in enumerate(members):
        if name != key:
            continue
        if value is not None:
            return text[:value_start] + _nested(value, indent) + text[value_end:]
        if index > 0:  # drop ", <key>: <value>" from the end of the previous member
            return text[: members[index - 1][3]] + text[value_end:]
        after = members[1][1] if len(members) > 1 else close
        return text[:start] + text[after:]
    if value is None:
        return text
    member = f'"{key}": {_nested(value, indent)}'
    if members:
        end = members[-1][3]
        return f"{text[:end]},\n{unit}{member}{text[end:]}"
    return f"{text[:close]}\n{unit}{member}\n{text[close:]}"


def _entry(t: Target, cmd: str) -> dict[str, Any]:
    if t.shape == "nested":
        hook: dict[str, Any] = {"type": "command", "command": cmd}
        if t.host == "gemini":
            hook = {"name": "hookrun", **hook}
        return {"hooks": [hook]}
    if t.shape == "flat" and t.host == "copilot":
        return {"type": "command", "bash": cmd, "powershell": cmd}
    if t.shape == "flat":
        return {"command": cmd}
    return {"name": "hookrun", "command": cmd}


def entry_commands(entry: Any) -> list[str]:
    """The command strings of one entry, any of the shapes."""
    if not isinstance(entry, dict):
        return []
    found = [entry[k] for k in ("command", "bash", "powershell") if isinstance(entry.get(k), str)]
    inner = entry.get("hooks")
    if isinstance(inner, list):
        for hook in inner:
            if isinstance(hook, dict) and isinstance(hook.get("command"), str):
                found.append(hook["command"])
    return found


def _is_ours(entry: Any) -> bool:
    commands = entry_commands(entry)
    return bool(commands) and all(is_hookrun_command(c) for c in commands)


def install(t: Target, text: str | None, launcher: tuple[str, ...]) -> str:
    """The file's new text with every event of ``t`` wired to hookrun (idempotent)."""
    data = parse(text, t.path)
    if t.shape == "flat" and "version" not in data:
        data = {"version": 1, **data}
    hooks = data.setdefault("hooks", {})
    if not isinstance(hooks, dict):
        raise InstallError(f'{t.path}: "hooks" is not an object')
    for event in t.events:
        cmd = command(launcher, event, host_flag(t))
        entries = hooks.setdefault(event, [])
        if not isinstance(entries, list):
            raise InstallError(f'{t.path}: "hooks.{event}" is not a list')
        ours = [e for e in entries if _is_ours(e)]
        if any(entry_commands(e) and all(c == cmd for c in entry_commands(e)) for e in ours):
            continue
        # A hookrun entry of another hookrun (a moved venv) is replaced, not doubled.
        entries[:] = [e for e in entries if not _is_ours(e)]
        entries.append(_entry(t, cmd))
    if text is not None and text.strip() and json.loads(text) == data:
        return text
    if text is None or not text.strip():
        return dump(data, None)  # a new file: version (flat shapes) first
    spliced = splice(text, "hooks", hooks)
    return (
        splice(spliced, "version", 1)
        if "version" in data and "version" not in parse(text, t.path)
        else spliced
    )


def uninstall(t: Target, text: str | None) -> str | None:
    """The file's text without hookrun's entries; None when nothing else is left in a file
    that is hookrun's own."""
    if text is None:
        return None
    data = parse(text, t.path)
    hooks = data.get("hooks")
    if not isinstance(hooks, dict):
        return text
    changed = False
    for event in list(hooks):
        entries = hooks[event]
        if not isinstance(entries, list):
            continue
        kept = [e for e in entries if not _is_ours(e)]
        if len(kept) != len(entries):
            changed = True
            if kept:
                hooks[event] = kept
            else:
                del hooks[event]
    if not changed:
        return text
    if t.own_file and not hooks and set(data) <= {"version", "hooks"}:
        return None
    return splice(text, "hooks", hooks or None)


def wired(data: Mapping[str, Any]) -> dict[str, list[str]]:
    """Event → the hookrun commands wired for it."""
    found: dict[str, list[str]] = {}
    hooks = data.get("hooks")
    if not isinstance(hooks, dict):
        return found
    for event, entries in hooks.items():
        if isinstance(entries, list):
            for entry in entries:
                for cmd in entry_commands(entry):
                    if is_hookrun_command(cmd):
                        found.setdefault(event, []).append(cmd)
    return found
