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
  ``coproc`` and a program whose name only the shell knows send the line to the parser,
  as does a quoted line whose operators bash refuses (``a && ``, ``; a``): bash runs none
  of it, and the full judgement reads such a line in its own conservative way.
- **Programs.** A command is cleared when its program is none the judgement looks at
  (:func:`hookrun.hooks.shell_guard.heads.looked_at`: a rule's head or a program
  the unwrapper looks inside), or when the arguments are ones its rules cannot fire
  on (``screen_read.CLEARERS``): a ``git`` subcommand no rule reads (``status``, ``diff``,
  ``commit``…; a ``push`` with no force option or ``+`` refspec), a program that may
  print a file (``cat``, ``grep``, ``sed``…) given no path that can name git's
  config, a copier (``cp``, ``mv``, ``tee``…) given no device path, ``python -m
  MODULE`` without inline code, a package manager (``npm``…) without a release word or
  a package it runs, a package runner (``npx``…) given no program a rule looks at.
- A project's ``deny`` shapes: no word may be a shape's head (nor unknown).

Every other line is parsed and judged in full. ``tests/hooks/shell_guard/screen_test.py``
pins that the screen never clears a line the full judgement denies, over every table
of cases (shell-guard's own, the peers' corpora, the causes) and generated lines.
"""

from __future__ import annotations

from functools import lru_cache

from hookrun.hooks.shell_guard.heads import (
    AWKS,
    COPIERS,
    GIT_READERS,
    PUBLISHERS,
    RELEASES,
    is_python,
    looked_at,
)
from hookrun.hooks.shell_guard.names import command_name
from hookrun.records import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

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
# What the reader reads outside quotes (a `(` only in `$(`).
_UNQUOTED = PLAIN | frozenset("$*?[]~()")
# The programs with a clearer (screen_read.CLEARERS; python* besides).
_CLEARED = frozenset({"git", "find"} | GIT_READERS | COPIERS | AWKS)
_PACKAGE_RUNNERS = frozenset({"npx", "pnpx", "bunx"})  # (npm, pnpm, yarn: PUBLISHERS)

# Words before a command's program (the fallback tokenizer skips these too).
_PREFIX = frozenset({"if", "then", "else", "elif", "do", "while", "until"})
# Words that lead data, not a command: what follows must be known and name nothing.
_DATA = frozenset({"for", "[[", "]]", "in", "fi", "done", "esac"})
# The reserved words of compound commands (a line may hold one out of place).
_KEYWORDS = frozenset(
    {"if", "then", "else", "elif", "fi", "do", "done", "while", "until", "for", "case", "esac"}
)
# Compound commands the screen does not read.
_UNREAD = frozenset({"function", "select", "case", "coproc", "alias", "hash"})


def may_match(text: str, deny: tuple[str, ...] = ()) -> bool:
    """False only when no rule and no shape of ``deny`` can match ``text`` (module doc)."""
    for first in text.split(None, 1)[:1]:
        if PLAIN.issuperset(first) and _program(command_name(first)) is False:
            return True  # (`rm …`, `sudo …`, `bash -c …`: nothing to read further)
    if (
        "'" not in text
        and '"' not in text
        and (not _UNQUOTED.issuperset(text) or text.count("(") != text.count("$("))
    ):
        return True  # (unquoted, a character the reader stops at: `(cd x && …)`, `>`, `\\`)
    substituted = "$(" in text or "`" in text
    if substituted and evaluated(text):
        return True  # (quoted code bash may evaluate: `let 'x=a[$(…)]'`, `${x@P}`, PS4)
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
        commands = listed
    # (one command that may match answers: the rest of the line is not read). With a
    # quoted substitution on the line, a command led by a compound keyword is not read
    # either: bash refuses one out of place, and the full judgement then reads every
    # substitution of the line, quoted or not (`then '$(rm -rf /)'`).
    return any(
        words is None
        or (substituted and bool(words) and words[0] in _KEYWORDS)
        or _may_match_command(words)
        for words in commands
    )


def evaluated(text: str) -> bool:
    """``text`` may hold quoted code bash evaluates (indirect.py judges it): a substitution
    in a subscript (``'a[$(…)]'``) or a quoted array (``'a=($(…))'``), or a prompt."""
    if "@P" in text or "PROMPT_COMMAND" in text or any(f"PS{d}" in text for d in "01234"):
        return True
    n = len(text)
    for opener, closer in (("[", "]"), ("=(", ")")):
        i = text.find(opener)
        while i >= 0:
            # up to its closer or the line's end; an opener inside that span ends there
            # too, so the next search starts past it (linear: each character read once)
            end = text.find(closer, i + 1)
            end = n if end < 0 else end
            line_end = text.find("\n", i, end)
            end = end if line_end < 0 else line_end
            if text.find("$(", i, end) >= 0 or text.find("`", i, end) >= 0:
                return True
            i = text.find(opener, end)
    return False


def _commands(text: str) -> Iterable[list[str] | None]:
    """The word lists of the commands of ``text``; None where it stops being readable."""
    if PLAIN.issuperset(text):  # (most lines: words are the runs between blanks)
        # (a list, and three replaces: str.translate looks every character up in a dict
        # and closing a generator early runs its finalizer, 17k instructions a line)
        flat = text.replace(";", "\n").replace("&", "\n").replace("|", "\n")
        return [words for segment in flat.split("\n") if (words := segment.split())]
    # (the reader of quotes and expansions is loaded for such lines only)
    from hookrun.hooks.shell_guard.screen_read import lex

    return lex(text)


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
    publisher = name in PUBLISHERS or name in _PACKAGE_RUNNERS
    if not publisher and not looked_at(name):
        return True
    if not (publisher or name in _CLEARED or is_python(name)):
        return False  # (`rm`, `sudo`, `bash`: answered without loading the clearers)
    from hookrun.hooks.shell_guard import screen_read

    if publisher:
        return (
            screen_read.runs_no_program if name in _PACKAGE_RUNNERS else screen_read.runs_no_package
        )
    if is_python(name):
        return screen_read.python_module
    return screen_read.CLEARERS[name]


def _assigns(word: str) -> bool:
    """``NAME=value`` (or anything with a ``=`` before any ``/``, which the unwrapper
    reads as an assignment too): the program is the next word."""
    name, eq, _ = word.partition("=")
    return bool(eq) and "/" not in name and UNKNOWN not in name


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
