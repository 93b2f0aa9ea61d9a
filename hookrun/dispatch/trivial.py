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

import re
import time

from hookrun.dispatch.result import Completed

# A word echo prints as written: quoted (anything but a quote or a control character),
# or bare (only characters no shell gives a meaning to). Neither may begin with "-".
_WORD = r"(?:'(?![-'])[^'\x00-\x1f\x7f]*'|''|[A-Za-z0-9_./:,=+%@][A-Za-z0-9_./:,=+%@-]*)"
_ECHO = rf"[ \t]*echo((?:[ \t]+{_WORD})*)[ \t]*"
_EXIT = r"[ \t]*exit(?:[ \t]+(0|[1-9][0-9]{0,2}))?[ \t]*"
_ARG = rf"[ \t]+({_WORD})"


def run(command: str, *, max_output: int) -> Completed | None:
    """The result of ``command`` when it is a trivial ``echo`` or ``exit``, else None."""
    started = time.monotonic()
    if "\\" in command or "\n" in command:  # never trivial: the shell's to read
        return None
    echo = re.fullmatch(_ECHO, command)
    if echo is not None:
        words = [w[1:-1] if w.startswith("'") else w for w in re.findall(_ARG, echo[1])]
        try:
            out = (" ".join(words) + "\n").encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate: the shell decides what it prints
            return None
        if len(out) > max_output:
            return None
        return Completed(0, out, b"", "inprocess", time.monotonic() - started)
    done = re.fullmatch(_EXIT, command)
    if done is not None:
        code = int(done[1] or 0)
        if code > 255:
            return None
        return Completed(code, b"", b"", "inprocess", time.monotonic() - started)
    return None
