"""The program names shell-guard judges by: the keys of its rule index and of its unwrapper.

A layer of a command is judged by the rule checks whose head below holds for its name
(:func:`hookrun.hooks.shell_guard.rules.checks_for` pairs :data:`RULE_HEADS` with the
checks), and the unwrapper looks inside a command only when :func:`peels` holds for its
name. The screen (:mod:`~hookrun.hooks.shell_guard.screen`) lets a line through unparsed
only when none of its words is such a name (:func:`looked_at`): these tables are its
word list, not a copy of one. Light — no typing, no regex — because the screen loads it
on every call shell-guard makes.
"""

from __future__ import annotations

from functools import lru_cache

from hookrun.hooks.shell_guard.names import SHELLS
from hookrun.hooks.shell_guard.wrappers import PACKAGE_RUNNERS, RUNNERS, WINDOWS_SHELLS, WRAPPERS
from hookrun.records import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence

_VERSION = "0123456789."  # `python3.11`, `perl5.36`: a name with a version after it


def _versioned(name: str, stems: frozenset[str]) -> bool:
    """``name`` is a stem followed by digits and dots only (``python3.11``, ``lua5.4``)."""
    return name.rstrip(_VERSION) in stems


_PYTHONS = frozenset({"python", "pypy"})
_VERSIONED_INLINE = frozenset({"perl", "ruby"})  # `perl5.36 -e`, `ruby3.1 -e`
# Interpreters of languages with inline code (-e) that shell-guard reads (inline_code.py).
INTERPRETERS = frozenset({"node", "nodejs", "deno", "bun", "ruby", "perl", "php"})
# Their options whose value is that code (python's is -c; misc.check reads both).
CODE_FLAGS = frozenset({"-e", "-E", "--eval", "-p", "--print", "-r"})
# awk and its kin: the program is their first operand (inline_awk.py).
AWKS = frozenset({"awk", "gawk", "mawk", "nawk", "original-awk", "goawk", "bwk-awk"})


def is_python(name: str) -> bool:
    """``python``, ``python3``, ``python3.11``, ``pypy3``…"""
    return _versioned(name, _PYTHONS)


def inline_language(name: str) -> str:
    """Which reader sees into ``name``'s inline code: "perl" (``perl5.36`` too),
    "ruby", "awk", "other" (node, deno, bun, php: inline_code.py), or ""."""
    if name in AWKS:
        return "awk"
    if name in INTERPRETERS:
        return name if name in ("perl", "ruby") else "other"
    stem = name.rstrip(_VERSION)
    return stem if stem != name and stem in ("perl", "ruby") else ""


# -- delete.* --------------------------------------------------------------------------
DELETERS = frozenset({"rm", "rimraf", "find", "rsync", "del", "del-cli"})

# -- git.*: git itself, and programs that print a file they are given (`cat ~/.gitconfig`
# reads the email).
GIT_READERS = frozenset(
    [
        "cat", "less", "more", "head", "tail", "bat", "batcat", "grep", "egrep", "fgrep", "rg",
        "ag", "awk", "gawk", "sed", "strings", "nl", "tac", "od", "xxd", "hexdump", "cut",
        "sort", "uniq", "view", "vi", "vim", "nvim", "nano", "emacs", "code", "type", "jq",
        "yq", "base64",
    ]
)  # fmt: skip

# git's global options that take a value in the next word (`git -C dir status`).
GIT_GLOBAL_ARG = frozenset(
    ["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path", "--config-env",
     "--super-prefix"]
)  # fmt: skip


# git's global options whose value names a place, never a command: a quoted unknown
# value there (`git -C "$d" commit …`) cannot split into a subcommand, nor set config.
GIT_PLACE_ARG = frozenset({"-C", "--git-dir", "--work-tree", "--namespace"})
# git subcommands that run a command an argument gives them (`bisect run CMD`, `submodule
# foreach CMD`, `rebase -x CMD`, `difftool -x CMD`, `filter-branch --tree-filter CMD`,
# `grep -O CMD`, `send-email --to-cmd CMD`, `instaweb --httpd CMD`, `daemon
# --access-hook CMD`, and the transports' `--upload-pack`/`--receive-pack`/`--exec`):
# an unknown word among their arguments may be the option that makes the next one code.
# Any other subcommand runs none of its arguments (an alias cannot shadow a builtin; one
# in the user's gitconfig is no more known without the unknown word than with it).
GIT_RUNS_GIVEN = frozenset(
    ["bisect", "submodule", "rebase", "difftool", "mergetool", "filter-branch", "grep",
     "send-email", "instaweb", "daemon", "fetch", "pull", "push", "clone", "ls-remote",
     "archive", "remote", "am"]
)  # fmt: skip


def git_subcommand_at(texts: Sequence[str]) -> int:
    """Index in git's arguments of its subcommand: past its global options (the rule,
    the alias unwrapper and the screen read it so)."""
    i = 0
    while i < len(texts):
        text = texts[i]
        if text in GIT_GLOBAL_ARG:
            i += 2
        elif text.startswith("-"):
            i += 1
        else:
            break
    return i


# -- disk.*
FORMATTERS = frozenset({"mkswap", "mke2fs", "wipefs", "newfs", "diskpart"})
COPIERS = frozenset({"tee", "cp", "shred", "blkdiscard", "cat", "pv", "mv", "install"})

# -- supply-chain.*: programs that run code they are given, and package publishers.
_VERSIONED_RUNNERS = frozenset({"python", "pypy", "perl", "ruby", "php", "lua"})
_RUNNERS = frozenset(
    ["node", "nodejs", "bun", "deno", "Rscript", "pwsh", "powershell", "osascript", "tclsh",
     "jshell", "at", "batch"]
)  # fmt: skip
SOURCES = frozenset({"source", ".", "eval", "iex", "Invoke-Expression"})
PUBLISHERS = frozenset({"npm", "yarn", "pnpm"})
# A publisher's layer is denied only for one of these words among its arguments
# (supply_chain._publish reads them from here): on a line the screen reads, the word is
# what matters, not the publisher, so `npm test` is cleared and `npm publish` is not.
RELEASES = frozenset({"publish", "unpublish"})


def deletes(name: str) -> bool:
    return name in DELETERS


def reads_git(name: str) -> bool:
    return name == "git" or name in GIT_READERS


def touches_disk(name: str) -> bool:
    """By name; a write redirect onto a device is judged on any command (rules.checks_for)."""
    return (
        name.startswith("mkfs")
        or name in FORMATTERS
        or name.lower() == "format"
        or name == "dd"
        or (name in COPIERS and name != "cat")
    )


def is_runner(name: str) -> bool:
    """A program that runs code it is given (a shell, an interpreter, eval/source)."""
    return (
        name in SHELLS
        or name in SOURCES
        or name in _RUNNERS
        or _versioned(name, _VERSIONED_RUNNERS)
    )


def runs_or_publishes(name: str) -> bool:
    return is_runner(name) or name in PUBLISHERS


def runs_inline_code(name: str) -> bool:
    return name in INTERPRETERS or is_python(name)


# The heads of rules.CHECKS, in its order: delete, git, disk, supply_chain, misc.
RULE_HEADS = (deletes, reads_git, touches_disk, runs_or_publishes, runs_inline_code)

# Every name unwrap._peel has a branch for (besides python* and a first word with "=").
PEELED = frozenset(
    {"command", "parallel", "xargs", "su", "sg", "runuser", "trap", "eval", "ssh", "watch"}
    | {"find", "git", "rsync", "bwrap", "nix", "nix-shell"}
    | WRAPPERS.keys()
    | {name for name, _ in RUNNERS}
    | {name for name, _ in PACKAGE_RUNNERS}
    | SHELLS
    | INTERPRETERS
    | AWKS
    | WINDOWS_SHELLS.keys()
)


@lru_cache(maxsize=1024)  # (asked of every command, twice: a set and a strip of its name)
def peels(name: str) -> bool:
    """The unwrapper may find another command or code inside a command named ``name``."""
    return name in PEELED or is_python(name) or _versioned(name, _VERSIONED_INLINE)


def looked_at(name: str) -> bool:
    """A rule judges a layer named ``name``, or the unwrapper looks inside it (a
    publisher only through a word of :data:`RELEASES`, which the screen checks itself)."""
    if name in PUBLISHERS and not is_runner(name) and not peels(name):
        return False
    return peels(name) or any(head(name) for head in RULE_HEADS)
