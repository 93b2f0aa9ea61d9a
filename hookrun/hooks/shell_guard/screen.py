"""Which lines shell-guard may allow without parsing them: a conservative screen.

A fresh ``hookrun`` process pays for the shell parser's import and a parse (about a
bare Python start) before it can judge a line; most lines an agent runs (``ls -la``,
``pytest -x``, ``git status``, ``grep -rn "x" src``) concern no rule. The screen reads
the line as bash would only where that reading is simple, and clears it when none of
its commands can be denied:

- **Words.** Outside quotes: ASCII letters, digits and ``- _ . / : = , + @ %``;
  ``'…'`` (any text); ``"…"`` without backslash, backquote or ``!``; ``$NAME``
  and ``$1``, the globs ``* ? [ ]`` and ``~``, whose values only the shell knows
  (:data:`UNKNOWN` marks them); and, inside double quotes, the agents' commit-message
  idiom ``"$(cat <<'EOF' … EOF)"`` — a quoted here-document fed to ``cat``, whose
  body is text. Anything else — other expansions and substitutions, backslashes,
  redirections, grouping, braces, comments, ``!``, other characters — sends the line
  to the parser.
- **Commands.** ``; & | && || |&`` and newlines separate them; ``if then else elif
  do while until`` and ``NAME=value`` words before a command are skipped, so the
  next word is the program. ``for``/``[[``/``]]``/closers lead words that are data
  (each must still be known and name nothing); ``function``, ``select``, ``case``,
  ``coproc`` and a program whose name only the shell knows send the line to the parser.
- **Programs.** A command is cleared when its program is none the judgement looks at
  (:func:`hookrun.hooks.shell_guard.heads.looked_at`: a rule's head or a program
  the unwrapper looks inside), or when the arguments are ones its rules cannot fire
  on (:data:`_CLEARERS`): a ``git`` subcommand no rule reads (``status``, ``diff``,
  ``commit``…; a ``push`` with no force option or ``+`` refspec), a program that may
  print a file (``cat``, ``grep``, ``sed``…) given no path that can name git's
  config, a copier (``cp``, ``mv``, ``tee``…) given no device path, ``python -m
  MODULE`` without inline code, a publisher (``npm``…) without a release word.
- A project's ``deny`` shapes: no word may be a shape's head (nor unknown).

Every other line is parsed and judged in full. ``tests/hooks/shell_guard/screen_test.py``
pins that the screen never clears a line the full judgement denies, over every table
of cases (shell-guard's own, the peers' corpora, the causes) and generated lines.
"""

from __future__ import annotations

from functools import lru_cache

from hookrun.hooks.shell_guard.heads import (
    CODE_FLAGS,
    COPIERS,
    GIT_READERS,
    PUBLISHERS,
    RELEASES,
    RULE_HEADS,
    git_subcommand_at,
    is_python,
    looked_at,
    peels,
)
from hookrun.hooks.shell_guard.names import command_name
from hookrun.records import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

# `-` first: a plain word may be an option. No `#` (a comment), `!` (history and
# negation), `^` (history), `~` (tilde expansion), `*?[]` (globs), `{}` (braces),
# `()` (subshells, functions), `<>` (redirections, here-documents), `$` and backquotes,
# quotes and backslashes.
PLAIN = frozenset(
    "-_./:=,+@%;&|\t\n abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
)
# Stands in a word's value for a part only the running shell knows (`$HOME`, a glob).
UNKNOWN = "\x00"
_SEPARATORS = str.maketrans(";&|", "\n\n\n")
_WORD_CHARS = PLAIN - frozenset(";&|\t\n ")
_WORD_STR = "".join(sorted(_WORD_CHARS))
_BREAKS = frozenset(" \t\n;&|")
_NAME_START = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_")
_NAME_CHARS = _NAME_START | frozenset("0123456789")
_DIGITS = frozenset("0123456789")
_UNSEEN = frozenset("*?[]~")  # a glob or a tilde: the word's value is the shell's
_BRACKETS = frozenset({"[", "[[", "]", "]]"})  # test's words, not globs
_DQ_SPECIAL = '"$\\`!'
_HEREDOC_SUB = "$(cat <<"

# Words before a command's program (the fallback tokenizer skips these too).
_PREFIX = frozenset({"if", "then", "else", "elif", "do", "while", "until"})
# Words that lead data, not a command: what follows must be known and name nothing.
_DATA = frozenset({"for", "[[", "]]", "in", "fi", "done", "esac"})
# Compound commands the screen does not read.
_UNREAD = frozenset({"function", "select", "case", "coproc"})


def may_match(text: str, deny: tuple[str, ...] = ()) -> bool:
    """False only when no rule and no shape of ``deny`` can match ``text`` (module doc)."""
    for first in text.split(None, 1)[:1]:
        if PLAIN.issuperset(first) and _program(command_name(first)) is False:
            return True  # (`rm …`, `sudo …`, `bash -c …`: nothing to read further)
    commands = _commands(text)
    if deny:
        heads = _deny_heads(deny)
        listed = list(commands)
        if heads is None or any(words is None for words in listed):
            return True
        for words in listed:
            for word in words or ():
                if UNKNOWN in word or word in heads or command_name(word) in heads:
                    return True
        commands = iter(listed)
    # (one command that may match answers: the rest of the line is not read)
    return any(words is None or _may_match_command(words) for words in commands)


def _commands(text: str) -> Iterator[list[str] | None]:
    """The word lists of the commands of ``text``; None where it stops being readable."""
    if PLAIN.issuperset(text):  # (most lines: words are the runs between blanks)
        for segment in text.translate(_SEPARATORS).split("\n"):
            words = segment.split()
            if words:
                yield words
    else:
        yield from _lex(text)


def _may_match_command(words: list[str]) -> bool:
    i, n = 0, len(words)
    while i < n and (words[i] in _PREFIX or ("=" in words[i] and _assigns(words[i]))):
        i += 1
    if i == n:
        return False
    head = words[i]
    if UNKNOWN in head or head in _UNREAD:
        return True
    if head in _DATA:
        # A `for` list and a test's operands are data, whatever their values (a line bash
        # refuses is read by the fallback, which skips these commands too); words after
        # a closer are not, and must be known and name nothing.
        return head not in ("for", "[[") and any(
            UNKNOWN in w or _program(command_name(w)) is not True or w in RELEASES
            for w in words[i + 1 :]
        )
    kind = _program(command_name(head))
    if kind is True or kind is False:
        return not kind
    return not kind(words[i + 1 :])


@lru_cache(maxsize=1024)
def _program(name: str) -> bool | Callable[[list[str]], bool]:
    """True: no rule and no unwrapping looks at a program named ``name``; False: one
    does, whatever its arguments; else the clearer of its arguments."""
    if name in PUBLISHERS and not looked_at(name):
        return _no_release
    if not looked_at(name):
        return True
    if is_python(name):
        return _python_module
    return _CLEARERS.get(name, False)


def _assigns(word: str) -> bool:
    """``NAME=value`` (or anything with a ``=`` before any ``/``, which the unwrapper
    reads as an assignment too): the program is the next word."""
    name, eq, _ = word.partition("=")
    return bool(eq) and "/" not in name and UNKNOWN not in name


# -- what a looked-at program may be given ------------------------------------------

# git subcommands a rule reads (rules/git.py); any other is cleared.
_GIT_JUDGED = frozenset({"push", "reset", "clean", "rebase", "config", "var"})
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
    return UNKNOWN not in sub and sub not in _GIT_JUDGED


def _prints_no_gitconfig(args: list[str]) -> bool:
    """No argument can resolve to ``~/.gitconfig`` or ``~/.config/git/config``: each is
    known, holds no "config", and is not only dots (which resolve to a ``cd``'s or the
    call's directory)."""
    return all(
        UNKNOWN not in a and "config" not in a.lower() and ".." not in a and a.strip("./")
        for a in args
    )


def _names_no_device(args: list[str]) -> bool:
    """No argument can be a block device under ``/dev`` (rules/disk.py)."""
    return all(UNKNOWN not in a and "dev" not in a.lower() for a in args)


def _finds_without_acting(args: list[str]) -> bool:
    """``find`` that deletes nothing and runs nothing: no ``-delete`` (delete.py), no
    ``-exec``/``-ok`` (the unwrapper's layers)."""
    return all(UNKNOWN not in a and a not in _FIND_ACTIONS for a in args)


_FIND_ACTIONS = frozenset({"-delete", "-exec", "-execdir", "-ok", "-okdir"})


def _no_release(args: list[str]) -> bool:
    """A publisher's check needs a word of :data:`RELEASES` among its arguments."""
    return not any(UNKNOWN in w or w in RELEASES for w in args)


def _python_module(args: list[str]) -> bool:
    """``python -m MODULE …`` with no inline-code option anywhere: nothing to unwrap,
    no program read from stdin (``-m`` comes first), no code for misc.fork-bomb."""
    return (
        len(args) >= 2
        and args[0] == "-m"
        and args[1][:1] != "-"
        and all(UNKNOWN not in a and a != "-c" and a not in CODE_FLAGS for a in args)
    )


def _looked_at_by(name: str) -> frozenset[str]:
    """Which of the rules' heads and the unwrapper look at ``name``."""
    return frozenset(h.__name__ for h in (*RULE_HEADS, peels) if h(name))


# A clearer is given a program's arguments; it answers for every head that looks at
# the program (python: the runner, the inline-code reader and the unwrapper).
_CLEARERS: dict[str, Callable[[list[str]], bool]] = {
    "git": _git,
    "find": _finds_without_acting,
    **{n: _prints_no_gitconfig for n in GIT_READERS if _looked_at_by(n) == {"reads_git"}},
    **{n: _names_no_device for n in COPIERS if _looked_at_by(n) == {"touches_disk"}},
}


# -- reading the line -----------------------------------------------------------------


def _lex(text: str) -> Iterator[list[str] | None]:
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
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c in _WORD_CHARS:
            j = _run_end(text, i + 1)
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
            i += 1
            continue
        elif c == '"':
            j = _double_quoted(text, i + 1, parts, inner)
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
        i = j
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


def _double_quoted(text: str, i: int, parts: list[str], commands: list[list[str]]) -> int:
    """Read a ``"…"`` from just after its quote into ``parts`` (commands of its
    substitutions into ``commands``); the index after it, or -1."""
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
        j = _quoted_run_end(text, i + 1)
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
    at = j + 2
    while True:
        end = text.find("\n", at)
        if end < 0:
            return -1
        line = text[at:end]
        if line == delim:
            return end + 2 if text.startswith(")", end + 1) else -1
        if delim in line:
            return -1
        at = end + 1


@lru_cache(maxsize=16)
def _deny_heads(deny: tuple[str, ...]) -> frozenset[str] | None:
    """The first words of the deny shapes, as the shapes read them; None when one of
    them is a glob (``*form``: it may match any word) or does not split."""
    # Lazy: a project's deny option is rare, and shlex/fnmatch are not otherwise loaded
    # on this path (tests/cli/import_set_test.py pins the path without it).
    from hookrun.hooks.shell_guard.shapes import compile_shapes

    try:
        heads = frozenset(words[0] for words in compile_shapes(deny) if words)
    except ValueError:
        return None
    return None if any(c in head for head in heads for c in "*?[") else heads
