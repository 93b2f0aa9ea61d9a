"""Which lines shell-guard may allow without parsing them: a conservative screen.

A fresh ``hookrun`` process pays for the shell parser's import and a parse (about a
bare Python start) before it can judge a line; most lines an agent runs (``ls -la``,
``pytest -x``, ``npm test``) concern no rule. The screen clears a line only when both
hold:

- it is made of plain characters only (ASCII letters, digits, blanks and
  ``- _ . / : = , + @ %``, and the separators ``; & |``): no quoting, no
  expansion or substitution (``$``, backquotes, globs, braces, ``~``), no
  redirection, grouping or comment — so its words are the blank- and
  separator-delimited runs of the raw text, as bash reads them;
- none of those words is a name the judgement looks at: a rule's head or a program
  the unwrapper looks inside (:func:`hookrun.hooks.shell_guard.heads.looked_at`, the
  tables the rule index itself is built from; for a publisher, its release word),
  nor the head of a deny shape.

Every other line is parsed and judged in full. ``tests/hooks/shell_guard/screen_test.py``
pins that the screen never clears a line the full judgement denies, over every table
of cases (shell-guard's own, the peers' corpora, the causes) and generated lines.
"""

from __future__ import annotations

from functools import lru_cache

from hookrun.hooks.shell_guard.heads import RELEASES, looked_at
from hookrun.hooks.shell_guard.names import command_name

# `-` first: a plain word may be an option. No `#` (a comment), `!` (history and
# negation), `^` (history), `~` (tilde expansion), `*?[]` (globs), `{}` (braces),
# `()` (subshells, functions), `<>` (redirections, here-documents), `$` and backquotes,
# quotes and backslashes.
PLAIN = frozenset(
    "-_./:=,+@%;&|\t\n abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
)
_SEPARATORS = str.maketrans(";&|", "   ")


def may_match(text: str, deny: tuple[str, ...] = ()) -> bool:
    """False only when no rule and no shape of ``deny`` can match ``text`` (module doc)."""
    if not PLAIN.issuperset(text):
        return True
    heads = _deny_heads(deny) if deny else frozenset()
    if heads is None:
        return True
    for word in text.translate(_SEPARATORS).split():
        name = command_name(word)
        if looked_at(name) or word in RELEASES or name in heads or word in heads:
            return True
    return False


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
