"""A fast tokenizer for commands that are only plain words (no shell front end needed).

Most hook commands are ``./hooks/check.sh`` or ``python3 hook.py --strict``.
Such commands are split here, with no shell front end loaded, and only anything with real
shell syntax is parsed (tree-sitter loads on that first parse). The
quoting rules are the shell's (POSIX), so a command means the same whichever
path it takes; whenever that cannot be guaranteed, the answer is None ("let the
shell parse it"), never a guess.
"""

from __future__ import annotations

import sys

# Unquoted, each of these means shell syntax (operators, expansions, globs,
# grouping) that only the real parser may interpret.
_SPECIAL = frozenset("|&;<>()$`*?[]{}")
_BLANKS = " \t"
# Control characters (newline, CR, …) mean several commands or a line
# continuation: the shell's business.
_CONTROL = frozenset(chr(c) for c in range(32)) - {"\t"}
# Reserved words change what follows them; as a first word they need the parser.
_RESERVED = frozenset(
    [
        "!",
        "if",
        "then",
        "else",
        "elif",
        "fi",
        "case",
        "esac",
        "for",
        "select",
        "while",
        "until",
        "do",
        "done",
        "in",
        "function",
        "time",
        "coproc",
        "[[",
        "]]",
        "{",
        "}",
    ]
)


def _windows_path_start(command: str) -> bool:
    """Does the command start with a Windows path (``C:\\``, ``\\\\srv``, ``.\\``)?"""
    if command.startswith(("\\", ".\\", "..\\", "~\\")):
        return True
    return len(command) >= 3 and command[0].isalpha() and command[1] == ":" and command[2] in "\\/"


def split_simple(command: str, platform: str = sys.platform) -> list[str] | None:
    """argv when ``command`` is only plain words, else None.

    The same answer as :func:`split_words`, which reads one character at a time (~50
    bytecodes each: a plain 25-character command cost ~100k instructions), from a few
    C-level scans where they decide: the text before the first quote or backslash is
    unquoted, so a special or control character there means shell syntax (None), and
    a command with no quote or backslash at all is its blank-separated words.
    """
    quote = command.find("'")
    if quote < 0:
        quote = len(command)
    dquote = command.find('"', 0, quote)
    if dquote >= 0:
        quote = dquote
    backslash = command.find("\\", 0, quote)
    if backslash >= 0:
        quote = backslash
    head = command if quote == len(command) else command[:quote]
    if not (_SPECIAL.isdisjoint(head) and _CONTROL.isdisjoint(head)):
        return None
    if quote < len(command) and platform == "win32":
        return split_words(command, platform)  # (a leading Windows path keeps backslashes)
    words = head.replace("\t", " ").split(" ")
    # With a quote or backslash ahead, the last of these words goes on there.
    partial = words.pop() if quote < len(command) else ""
    argv = [w for w in words if w]
    if partial:
        argv.append(partial)
    if not argv:
        return None if quote == len(command) else _scan(command, quote, [], [], False, platform)
    if "=" in argv[0]:
        return None  # A=b cmd: a prefix assignment
    for k, w in enumerate(argv):
        first = w[0]
        if first == "#":
            return None
        # (no backslash here; a first word `~` that goes on goes on with a quote)
        if first == "~" and not (k == 0 and w[1:2] == "/"):
            return None
    if quote < len(command):
        if partial:
            argv.pop()
            return _scan(command, quote, argv, [partial], True, platform)
        return _scan(command, quote, argv, [], False, platform)
    if argv[0] in _RESERVED:  # unquoted here: a keyword
        return None
    return argv


def split_words(command: str, platform: str = sys.platform) -> list[str] | None:
    """:func:`split_simple`, one character at a time (the reference it must agree with).

    Accepted: words separated by blanks, '…', "…" without ``$`` or backquote
    inside, and backslash escapes outside quotes. ``~/`` (``~\\`` on Windows)
    is accepted at the start of the first word only, where dispatch expands it
    itself. On Windows a first word that is a Windows path keeps its
    backslashes literally: ``C:\\hooks\\check.exe`` must not become
    ``C:hookscheck.exe``.
    """
    return _scan(
        command, 0, [], [], False, platform, platform == "win32" and _windows_path_start(command)
    )


def _scan(
    command: str,
    i: int,
    argv: list[str],
    word: list[str],
    in_word: bool,
    platform: str,
    literal_backslash: bool = False,
) -> list[str] | None:
    """:func:`split_words` from ``command[i]`` on, with the words before it."""
    n = len(command)
    while i < n:
        ch = command[i]
        if ch in _CONTROL:
            return None
        if ch in _BLANKS:
            if in_word:
                argv.append("".join(word))
                word, in_word = [], False
                literal_backslash = False
            i += 1
            continue
        if not in_word:
            if ch == "#":
                return None
            if ch == "~" and not (
                not argv
                and i + 1 < n
                and (command[i + 1] == "/" or (platform == "win32" and command[i + 1] == "\\"))
            ):
                return None
        in_word = True
        if ch == "'":
            end = command.find("'", i + 1)
            if end < 0:
                return None
            word.append(command[i + 1 : end])
            i = end + 1
        elif ch == '"':
            end = _double_quoted(command, i + 1, word)
            if end < 0:
                return None
            i = end + 1
        elif ch == "\\" and not literal_backslash:
            if i + 1 >= n or command[i + 1] in _CONTROL:
                return None
            word.append(command[i + 1])
            i += 2
        elif ch in _SPECIAL:
            return None
        elif ch == "=" and not argv:
            return None  # A=b cmd: a prefix assignment
        else:
            word.append(ch)
            i += 1
    if in_word:
        argv.append("".join(word))
    if not argv or (argv[0] in _RESERVED and _first_word_unquoted(command)):
        return None
    return argv


def _double_quoted(command: str, start: int, word: list[str]) -> int:
    """Append the inside of "…" starting at ``start``; index of the closing quote or -1."""
    i, n = start, len(command)
    while i < n:
        ch = command[i]
        if ch == '"':
            return i
        if ch in "$`":
            return -1
        if ch in _CONTROL:
            return -1
        if ch == "\\" and i + 1 < n:
            nxt = command[i + 1]
            # POSIX: inside "…" a backslash escapes only $ ` " \ and newline.
            if nxt in '"\\':
                word.append(nxt)
                i += 2
                continue
            if nxt in "$`\n":
                return -1
        word.append(ch)
        i += 1
    return -1


def _first_word_unquoted(command: str) -> bool:
    """'if' quoted is a command name; if bare it is a keyword."""
    first = command.lstrip(_BLANKS)
    return not first.startswith(("'", '"', "\\"))
