"""Commands whose whole effect is fixed by their text: ``echo`` of literal words, ``exit N``.

Many inline hooks are ``echo '{"decision": "allow"}'``, ``echo 'some context'`` or
``exit 2``. Running one through the in-process shell loads the shell and dispatch's
process machinery — a dozen modules, about a third of a bare Python start on a cold
``hookrun run`` (issue 8) — to print a constant. This module recognises exactly those
texts, by a deliberately narrow grammar, and gives the :class:`Completed` the
in-process shell gives for them:

* ``echo`` followed by words, each a single-quoted string or a bare word of letters,
  digits and ``_ . / : , = + % @ -``, none starting with ``-`` (an option to echo),
  none with a control character: stdout is the words joined by one space, and a
  newline;
* ``exit`` or ``exit N`` (N from 0 to 255, no leading zero): no output, status N (0
  for a bare ``exit``: no command ran before it).

Anything else — an escape, a quote inside a word, an expansion, a glob, a comment,
a tilde, a second command, an option — is None, and the shell runs it.
``tests/dispatch/trivial_test.py`` checks every command a grammar of these shapes
generates against :func:`hookrun.dispatch.run`, field by field.
"""

from __future__ import annotations

import time

from hookrun.dispatch.result import Completed

# Read by hand, not by regexes: compiling the three patterns this grammar takes costs
# ~6% of a bare Python start (callgrind), paid by every run with an inline hook.
# tests/dispatch/trivial_test.py holds the grammar as regexes too, and checks one
# against the other.
_BLANKS = " \t"
# A bare word: only characters no shell gives a meaning to; "-" never first (an option).
_BARE_FIRST = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:,=+%@")
_BARE = _BARE_FIRST | {"-"}
_DIGITS = frozenset("0123456789")


def _echo_words(text: str) -> list[str] | None:
    """The words after ``echo`` as it prints them, or None when one is not a plain word.

    Each word follows blanks, and is single-quoted (no control character inside, not
    starting with "-") or bare.
    """
    words: list[str] = []
    at, end = 0, len(text)
    while True:
        word = at
        while word < end and text[word] in _BLANKS:
            word += 1
        if word == end:
            return words
        if word == at:  # a word glued to the one before it (or to "echo")
            return None
        if text[word] == "'":
            close = text.find("'", word + 1)
            body = text[word + 1 : close]
            if close < 0 or body.startswith("-") or any(c < " " or c == "\x7f" for c in body):
                return None
            words.append(body)
            at = close + 1
        else:
            if text[word] not in _BARE_FIRST:
                return None
            at = word + 1
            while at < end and text[at] in _BARE:
                at += 1
            words.append(text[word:at])


def _exit_status(text: str) -> int | None:
    """The status of ``exit`` followed by ``text``, or None unless that is nothing or one
    number from 0 to 255 without a leading zero (after blanks)."""
    number = text.strip(_BLANKS)
    if not number:
        return 0
    if text[0] not in _BLANKS or not _DIGITS.issuperset(number):
        return None
    if number.startswith("0") and number != "0":
        return None
    code = int(number)
    return code if code <= 255 else None


def run(command: str, *, max_output: int) -> Completed | None:
    """The result of ``command`` when it is a trivial ``echo`` or ``exit``, else None."""
    started = time.monotonic()
    if "\\" in command or "\n" in command:  # never trivial: the shell's to read
        return None
    head = command.lstrip(_BLANKS)
    if head.startswith("echo"):
        words = _echo_words(head[4:])
        if words is None:
            return None
        try:
            out = (" ".join(words) + "\n").encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate: the shell decides what it prints
            return None
        if len(out) > max_output:
            return None
        return Completed(0, out, b"", "inprocess", time.monotonic() - started)
    if head.startswith("exit"):
        code = _exit_status(head[4:])
        if code is None:
            return None
        return Completed(code, b"", b"", "inprocess", time.monotonic() - started)
    return None
