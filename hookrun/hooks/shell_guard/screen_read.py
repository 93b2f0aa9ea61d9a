"""How the screen reads a line that is not only plain words, and what it lets a looked-at
program be given: the parts of :mod:`hookrun.hooks.shell_guard.screen` loaded only when
a line needs them (a plain ``ls -la`` does not: this code was most of the screen's
import, which every ``hookrun`` start pays)."""

from __future__ import annotations

from hookrun.hooks.shell_guard.heads import (
    AWKS,
    CODE_FLAGS,
    COPIERS,
    GIT_READERS,
    GIT_RUNS_GIVEN,
    RELEASES,
    git_subcommand_at,
    looked_at,
)
from hookrun.hooks.shell_guard.names import command_name
from hookrun.hooks.shell_guard.screen import _SEPARATORS, PLAIN, UNKNOWN
from hookrun.hooks.shell_guard.wrappers import PACKAGE_DELETERS
from hookrun.records import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

_WORD_CHARS = PLAIN - frozenset(";&|\t\n ")
_WORD_STR = "-_./:=,+@%abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
_BREAKS = frozenset(" \t\n;&|")
_NAME_START = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_")
_NAME_CHARS = _NAME_START | frozenset("0123456789")
_DIGITS = frozenset("0123456789")
_UNSEEN = frozenset("*?[]~")  # a glob or a tilde: the word's value is the shell's
_BRACKETS = frozenset({"[", "[[", "]", "]]"})  # test's words, not globs
_DQ_SPECIAL = '"$\\`!'


def _classes(named: bytes, to: bytes) -> bytes:
    """A bytes.translate table: each byte of ``named`` → ``to``, any other → b" "."""
    others = bytes.maketrans(b"", b"").translate(None, named)  # (every byte: one C call)
    return bytes.maketrans(named + others, to * len(named) + b" " * len(others))


# An ASCII line read through these (one C pass each), a run's end is one find, not a
# Python call slicing and stripping chunks (_run_end, _quoted_run_end: other lines).
_RUNS = _classes(_WORD_STR.encode(), b"a")  # a word character → b"a"
_DQ_STOPS = _classes(_DQ_SPECIAL.encode(), b"s")  # what ends a run inside "…" → b"s"
_HEREDOC_SUB = "$(cat <<"

# -- what a looked-at program may be given ------------------------------------------

# git subcommands a rule reads (rules/git.py); any other is cleared.
_GIT_JUDGED = frozenset({"push", "reset", "clean", "rebase", "config", "var"})
# git subcommands whose word runs shell code (unwrap._git_runs reads them), by that word.
_GIT_CODE = {
    "submodule": frozenset({"foreach"}),
    "bisect": frozenset({"run"}),
    "difftool": frozenset({"-x", "--extcmd"}),
}
# Options of `git push` that force nothing (rules.git.push_problem reads the others).
_PUSH_PLAIN = frozenset(
    ["-u", "--set-upstream", "-q", "--quiet", "-v", "--verbose", "--tags", "--follow-tags",
     "--no-verify", "--verify", "-n", "--dry-run", "--atomic", "--porcelain", "--progress",
     "--no-progress"]
)  # fmt: skip
# Options of `git reset` that keep the work tree (the rule reads --hard and --merge).
_RESET_PLAIN = frozenset({"--soft", "--mixed", "--keep", "-q", "--quiet", "-N", "--"})


def _git(args: list[str]) -> bool:
    """No git rule fires and no alias is defined (``-c alias.x=…``, ``--config-env``)."""
    i = git_subcommand_at(args)
    for g in args[:i]:
        if UNKNOWN in g or g.startswith(("-c", "--config")):
            return False
    if i >= len(args):
        return True
    sub = args[i]
    rest = args[i + 1 :]
    if sub == "push":
        return all(
            UNKNOWN not in t and not t.startswith("+") and (t[:1] != "-" or t in _PUSH_PLAIN)
            for t in rest
        )
    if sub == "reset":
        return all(UNKNOWN not in t and (t[:1] != "-" or t in _RESET_PLAIN) for t in rest)
    if UNKNOWN in sub or sub in _GIT_JUDGED:
        return False
    if sub in _GIT_CODE and not _GIT_CODE[sub].isdisjoint(t.partition("=")[0] for t in rest):
        return False  # (`submodule foreach CMD`, `bisect run CMD`, `difftool -x CMD`)
    # (after `bisect`, `difftool`…, an unknown word may be the option that runs the next)
    return sub not in GIT_RUNS_GIVEN or all(UNKNOWN not in t for t in rest)


def _prints_no_gitconfig(args: list[str]) -> bool:
    """No argument can resolve to ``~/.gitconfig`` or ``~/.config/git/config``: each is
    known, holds no "config", and is not only dots (which resolve to a ``cd``'s or the
    call's directory)."""
    return all(
        UNKNOWN not in a and "config" not in a.lower() and ".." not in a and a.strip("./")
        for a in args
    )


def _awk_runs_nothing(args: list[str]) -> bool:
    """An awk program that can run no command and write no device (inline_awk.py reads
    those through ``system``, ``|`` and ``>``) and prints no git config."""
    return _prints_no_gitconfig(args) and not any(
        "system" in a or "|" in a or ">" in a for a in args
    )


def _names_no_device(args: list[str]) -> bool:
    """No argument can be a block device under ``/dev`` (rules/disk.py)."""
    return all(UNKNOWN not in a and "dev" not in a.lower() for a in args)


def _finds_without_acting(args: list[str]) -> bool:
    """``find`` that deletes nothing and runs nothing: no ``-delete`` (delete.py), no
    ``-exec``/``-ok`` (the unwrapper's layers)."""
    return all(UNKNOWN not in a and a not in _FIND_ACTIONS for a in args)


_FIND_ACTIONS = frozenset({"-delete", "-exec", "-execdir", "-ok", "-okdir"})


_RUNS_CODE = frozenset({"-c", "--call", "--shell-mode"})
_RUNS_PACKAGE = frozenset({"exec", "x", "dlx"})
_PACKAGE_WORDS = RELEASES | _RUNS_PACKAGE | _RUNS_CODE | PACKAGE_DELETERS


def runs_no_package(args: list[str]) -> bool:
    """A package manager (``npm``, ``pnpm``, ``yarn``) that publishes nothing and runs no
    package's program: no release word, no ``exec``/``x``/``dlx``, no code option, no
    deleting package's bin run by name (``yarn rimraf``). (``npm install``, ``npm test``.)"""
    if not _PACKAGE_WORDS.isdisjoint(args):
        return False
    text = "\n".join(args)  # (one scan for what a word may hold; most hold none of it)
    if UNKNOWN in text or "--call=" in text:
        return False
    return "@" not in text or not any(w.split("@", 1)[0] in PACKAGE_DELETERS for w in args)


def runs_no_program(args: list[str]) -> bool:
    """A package runner (``npx``, ``pnpx``, ``bunx``) given no code option and no word
    naming a program a rule or the unwrapper looks at (``npx rimraf``, ``npx shx rm``; a
    package spec's version and scope dropped). (``npx tsc``, ``npx prettier --write .``.)"""
    for w in args:
        if UNKNOWN in w or w in _RUNS_CODE or w.startswith("--call="):
            return False
        name = w.rsplit("/", 1)[-1] if w.startswith("@") else w
        name = name.split("@", 1)[0] if "@" in name[1:] else name
        if name[:1] != "-" and looked_at(command_name(name)):
            return False
    return True


def python_module(args: list[str]) -> bool:
    """``python -m MODULE …`` with no inline-code option anywhere: nothing to unwrap,
    no program read from stdin (``-m`` comes first), no code for misc.fork-bomb."""
    return (
        len(args) >= 2
        and args[0] == "-m"
        and args[1][:1] != "-"
        and all(UNKNOWN not in a and a != "-c" and a not in CODE_FLAGS for a in args)
    )


# A clearer is given a program's arguments; it answers for every head that looks at
# the program (git: its rule and the alias unwrapper; find: the delete rule and the
# unwrapper; python: the runner, the inline-code reader and the unwrapper). Literal
# tables (building them from the heads at import cost a third of a millisecond on each
# hookrun start); screen_test pins which heads look at each name.
CLEARERS: dict[str, Callable[[list[str]], bool]] = {
    "git": _git,
    "find": _finds_without_acting,
    **dict.fromkeys(GIT_READERS, _prints_no_gitconfig),  # only git.read-email reads them
    **dict.fromkeys(COPIERS - GIT_READERS, _names_no_device),  # only disk.* reads them
    **dict.fromkeys(AWKS, _awk_runs_nothing),  # git.read-email and inline_awk
}


# -- reading the line -----------------------------------------------------------------


def lex(text: str) -> Iterator[list[str] | None]:
    """The commands of ``text`` as lists of word values (:data:`UNKNOWN` where only the
    shell knows a part), the commands of its substitutions after the command they are
    in; None, and no more, where it holds syntax the screen does not read."""
    if UNKNOWN in text:
        yield None
        return
    inner: list[list[str]] = []  # the commands of the substitutions met so far
    words: list[str] = []
    parts: list[str] = []
    start = -1  # where the current word starts, -1 between words
    # A line bash refuses (`a && `, `&& a`, `a ; ; b`) runs nothing, and the full
    # judgement reads it in its own conservative way (the fallback): not the screen's
    # to clear. `had`: a word since the last operator; `need`: one must follow.
    had = need = False
    i, n = 0, len(text)
    runs = text.encode().translate(_RUNS) if text.isascii() else None
    stops: bytes | None = None
    while i < n:
        c = text[i]
        if c in _WORD_CHARS:
            if runs is None:
                j = _run_end(text, i + 1)
            else:
                j = runs.find(b" ", i + 1)
                if j < 0:
                    j = n
            parts.append(text[i:j])
        elif c in _BREAKS:
            if start >= 0:
                raw = text[start:i]
                # (`[`, `[[`: test's words, not globs)
                words.append(raw if raw in _BRACKETS else "".join(parts))
                parts, start = [], -1
            if c not in " \t" and words:
                yield words
                words = []
            if inner:
                yield from inner
                inner = []
            if c in ";&|":
                if not had:
                    yield None
                    return
                pair = text.startswith(("&&", "||", "|&"), i)
                had, need = False, pair or c == "|"
                i += pair
            i += 1
            continue
        elif c == '"':
            if runs is not None and stops is None:  # (made once, at the first "…")
                stops = text.encode().translate(_DQ_STOPS)
            j = _double_quoted(text, i + 1, parts, inner, stops)
        elif c == "'":
            j = text.find("'", i + 1)
            parts.append(text[i + 1 : j])
            j = j + 1 if j > 0 else -1
        elif c == "$":
            j = _dollar(text, i, inner)
            parts.append(UNKNOWN)
        elif c == "~" and start >= 0 and text[i - 1] not in "=:":
            parts.append(c)  # (a tilde expands only where a word or a value starts)
            j = i + 1
        elif c in _UNSEEN:
            parts.append(c + UNKNOWN)
            j = i + 1
        else:
            j = -1
        if j < 0:
            yield None
            return
        if start < 0:
            start = i
            had, need = True, False
        i = j
    if need:
        yield None
        return
    if start >= 0:
        raw = text[start:]
        words.append(raw if raw in _BRACKETS else "".join(parts))
    if words:
        yield words
    yield from inner


def _run_end(text: str, i: int) -> int:
    """Where the run of word characters at ``i`` ends (``lstrip`` scans in C; a chunk at a
    time keeps a long line linear)."""
    while True:
        chunk = text[i : i + 64]
        rest = len(chunk.lstrip(_WORD_STR))
        if rest or len(chunk) < 64:
            return i + len(chunk) - rest
        i += 64


def _dollar(text: str, i: int, commands: list[list[str]]) -> int:
    """A ``$…`` from its ``$`` at ``i``: ``$NAME``, ``$1``, or ``$(…)`` of plain
    commands (``$(git rev-parse --show-toplevel)``), which go to ``commands`` (they
    run); the index after it, or -1 for any other expansion."""
    if not text.startswith("$(", i):
        return _name_end(text, i + 1)
    end = text.find(")", i + 2)
    inner = text[i + 2 : end]
    if end < 0 or inner.startswith("(") or not PLAIN.issuperset(inner):
        return -1
    commands.extend(seg.split() for seg in inner.translate(_SEPARATORS).split("\n"))
    return end + 1


def _name_end(text: str, i: int) -> int:
    """End of the parameter name of a ``$`` before ``i``: ``$NAME`` or ``$1``; -1 for
    any other expansion (``${…}``, ``$(…)``, ``$'…'``, ``$?``…)."""
    n = len(text)
    if i < n and text[i] in _DIGITS:
        return i + 1
    if i >= n or text[i] not in _NAME_START:
        return -1
    while i < n and text[i] in _NAME_CHARS:
        i += 1
    return i


def _double_quoted(
    text: str, i: int, parts: list[str], commands: list[list[str]], stops: bytes | None = None
) -> int:
    """Read a ``"…"`` from just after its quote into ``parts`` (commands of its
    substitutions into ``commands``); the index after it, or -1. (``stops``: an ASCII
    text through _DQ_STOPS.)"""
    n = len(text)
    while i < n:
        c = text[i]
        if c == '"':
            return i + 1
        if c == "$":
            if text.startswith(_HEREDOC_SUB, i):
                i = _cat_heredoc(text, i + len(_HEREDOC_SUB))
            else:
                i = _dollar(text, i, commands)
            if i < 0:
                return -1
            parts.append(UNKNOWN)
            continue
        if c in _DQ_SPECIAL:
            return -1
        if stops is None:
            j = _quoted_run_end(text, i + 1)
        else:
            j = stops.find(b"s", i + 1)
            if j < 0:
                j = n
        parts.append(text[i:j])
        i = j
    return -1


def _quoted_run_end(text: str, i: int) -> int:
    """Where the run at ``i`` of a ``"…"`` ends: at its next special character."""
    while True:
        chunk = text[i : i + 256]
        ends = [k for k in map(chunk.find, _DQ_SPECIAL) if k >= 0]
        if ends or len(chunk) < 256:
            return i + min(ends, default=len(chunk))
        i += 256


def _cat_heredoc(text: str, i: int) -> int:
    """``$(cat <<'DELIM'⏎ body ⏎DELIM⏎)`` from just after ``<<``: the index after its
    ``)``, or -1. The delimiter is quoted (the body is text: nothing in it runs) and
    a plain name; no line of the body holds it, so where the body ends is plain."""
    n = len(text)
    if i >= n or text[i] not in "'\"":
        return -1
    quote = text[i]
    j = i + 1
    while j < n and text[j] in _NAME_CHARS:
        j += 1
    delim = text[i + 1 : j]
    if not delim or not text.startswith(quote + "\n", j):
        return -1
    # The first line holding the delimiter must be it, and end with a newline: the
    # delimiter holds no newline, so that line is the one of its first occurrence (one
    # find, not a Python step per line of the body).
    at = text.find(delim, j + 2)
    end = at + len(delim)
    if at < 0 or text[at - 1] != "\n" or not text.startswith("\n", end):
        return -1
    return end + 2 if text.startswith(")", end + 1) else -1
