"""supply-chain.*: running downloaded code, and publishing packages from an agent."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import lru_cache

from hookrun.hooks.shell_guard.heads import PUBLISHERS, is_runner
from hookrun.hooks.shell_guard.judging import Call, Finding
from hookrun.hooks.shell_guard.model import Command, Var, Word
from hookrun.hooks.shell_guard.names import DOWNLOADERS, SHELLS
from hookrun.hooks.shell_guard.unwrap import unwrap

_INLINE_CODE = frozenset({"-c", "-e", "-E", "-m", "-p", "-r", "--eval", "--print", "-Command"})
_PKG_ARG_OPTS = frozenset(
    {"--prefix", "-C", "--dir", "--workspace", "-w", "--filter", "-F", "--cwd", "--registry"}
)


def is_downloader(cmd: Command) -> bool:
    layers, _ = unwrap(cmd)
    return any(layer.name in DOWNLOADERS for layer in layers)


@lru_cache(maxsize=1024)
def downloads(code: str) -> str | None:
    """The downloading command in ``code`` (a substitution's text), or None."""
    from hookrun.hooks.shell_guard.parse import parse_script

    for cmd in parse_script(code, 1).commands:
        if is_downloader(cmd):
            return cmd.source
    return None


def reads_program_from_stdin(cmd: Command) -> bool:
    """``sh``, ``bash -s``, ``python -``, ``iex``: the code comes from stdin."""
    name = cmd.name
    if name in ("iex", "Invoke-Expression"):
        return True
    if name in ("source", "."):
        return bool(cmd.args) and _is_stdin(cmd.args[0].text)
    if name in _STDIN_SHELLS:  # `… | at now`, `… | su`, `… | script -q /dev/null`
        code = ("-f",) if name in ("at", "batch") else ("-c", "--command")
        return not any(
            a.text in code or (name == "script" and _clustered_c(a.text)) for a in cmd.args
        )
    if not is_runner(name) or name == "eval":
        return False
    args = cmd.args
    i = 0
    while i < len(args):
        text = args[i].text
        if _is_stdin(text):
            return True
        if text in ("-o", "+o", "-O", "+O", "-W", "-X", "--rcfile", "--init-file"):
            i += 2
            continue
        if text == "--":
            i += 1
            break
        if text.startswith(("-", "+")) and len(text) > 1:
            if text in _INLINE_CODE or (name in SHELLS and "c" in text[1:] and text[1] != "-"):
                return False
            if name in SHELLS and "s" in text[1:] and text[1] != "-":
                return True
            i += 1
            if name in SHELLS and text[1] != "-" and ("o" in text[1:] or "O" in text[1:]):
                i += 1  # `bash -euo pipefail`: the option's name follows
            continue
        return False  # a script file operand
    return i >= len(args) or _is_stdin(args[i].text)


# Programs that hand their stdin to a shell when given no command of their own.
_STDIN_SHELLS = frozenset({"at", "batch", "su", "runuser", "script"})


def _clustered_c(text: str) -> bool:
    return text.startswith("-") and not text.startswith("--") and "c" in text


def _is_stdin(path: str) -> bool:
    """``-``, ``/dev/stdin``, a descriptor's path (``/dev/fd/0``, ``/proc/self/fd/0``; the
    text of ``3<<< …`` for ``/dev/fd/3`` is read as stdin's too)."""
    return path in ("-", "/dev/stdin") or path.startswith(("/dev/fd/", "/proc/self/fd/"))


def check(call: Call) -> Iterator[Finding]:
    cmd = call.cmd
    name = cmd.name
    if is_runner(name):
        stdin = call.stdin
        if stdin is not None and stdin.kind == "download" and reads_program_from_stdin(cmd):
            finding = call.finding(
                "supply-chain.pipe-to-shell",
                f"downloaded content is piped into {name}; download it to a file, read it, "
                "and run it only if the user agrees",
                stdin.argv,
            )
            yield finding._replace(part=f"{stdin.origin} | {cmd.source}")
            return
        origin = _downloaded_arg(cmd.args)
        if origin is not None:
            yield call.finding(
                "supply-chain.pipe-to-shell",
                f"{name} runs downloaded content ({origin}); download it to a file, read it, "
                "and run it only if the user agrees",
            )
            return
    if name in PUBLISHERS:
        problem = _publish(name, [a.text for a in cmd.args])
        if problem:
            yield call.finding("supply-chain.publish", problem)


def _downloaded_arg(args: Sequence[Word]) -> str | None:
    for word in args:
        for part in word.parts:
            if isinstance(part, Var) and part.name in ("$(", "<("):
                origin = downloads(part.inner)
                if origin is not None:
                    return origin
    return None


# Package-manager commands that are not a release: the subcommand is the first of
# these (or publish/unpublish) among the positional words. Reading "the first
# positional" instead would let any valued option the list above lacks hide the
# real subcommand (``npm --tag beta publish``), so an unknown word is skipped.
_NOT_A_RELEASE = frozenset(
    {
        "run",
        "run-script",
        "exec",
        "x",
        "dlx",
        "install",
        "i",
        "add",
        "ci",
        "test",
        "t",
        "start",
        "stop",
        "restart",
        "pack",
        "view",
        "info",
        "show",
        "search",
        "help",
        "config",
        "get",
        "set",
        "dist-tag",
        "version",
        "init",
        "create",
        "link",
        "ls",
        "list",
        "outdated",
        "update",
        "up",
        "upgrade",
        "remove",
        "rm",
        "uninstall",
        "audit",
        "why",
        "explain",
        "cache",
        "login",
        "logout",
        "whoami",
        "owner",
        "access",
        "team",
        "token",
        "profile",
        "ping",
        "doctor",
        "root",
        "prefix",
        "bin",
        "bugs",
        "docs",
        "repo",
        "edit",
        "explore",
        "fund",
        "org",
        "prune",
        "rebuild",
        "shrinkwrap",
        "star",
        "unstar",
        "workspace",
        "workspaces",
        "dedupe",
        "pkg",
        "query",
        "sbom",
    }
)


def _publish(name: str, texts: list[str]) -> str | None:
    skip = False
    for t in texts:
        if t == "--":
            break
        if skip:
            skip = False
        elif t in _PKG_ARG_OPTS:
            skip = True
        elif t.startswith("-"):
            continue
        elif t == "unpublish" and name == "npm":
            return "npm unpublish removes a released package for everyone; ask the user"
        elif t == "publish":
            if "--dry-run" in texts:
                return None
            return f"{name} publish releases a package; release through CI (or add --dry-run)"
        elif t in _NOT_A_RELEASE:
            return None
    return None
