"""``getopts OPTSTRING NAME [ARG…]``: POSIX option parsing, state in OPTIND/OPTARG.

Behaviour pinned against bash 5.2: grouped options (``-ab``), an option's argument in
the same word or the next, ``--`` ends options, a leading ``:`` in OPTSTRING selects
silent error reporting (NAME gets ``?`` or ``:`` and OPTARG the option letter).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hookrun.dispatch.shell.interp import IO, Interp

_NAME = re.compile(r"[A-Za-z_]\w*\Z")


def b_getopts(sh: Interp, argv: list[str], io: IO) -> int:
    if len(argv) < 3:
        sh.error("getopts: usage: getopts optstring name [arg ...]", io)
        return 2
    spec, name = argv[1], argv[2]
    args = argv[3:] if len(argv) > 3 else list(sh.state.params)
    st = sh.state
    silent = spec.startswith(":")
    if silent:
        spec = spec[1:]
    try:
        optind = int(st.get_var("OPTIND") or "1")
    except ValueError:
        optind = 1
    if optind < 1:
        optind = 1
    # Where we are inside a group of letters (-abc): kept on the shell, reset when
    # OPTIND was changed by the script.
    pos = sh.getopts_pos if sh.getopts_ind == optind else 1

    def finish(status: int, value: str, optarg: str | None, next_ind: int, next_pos: int) -> int:
        if not _NAME.match(name):
            # bash parses the option (OPTARG, OPTIND move on) and then fails to store it.
            sh.error(f"getopts: `{name}': not a valid identifier", io)
            status = 1
        else:
            st.set_var(name, value)
        if optarg is None:
            st.vars.pop("OPTARG", None)
        else:
            st.set_var("OPTARG", optarg)
        st.set_var("OPTIND", str(next_ind))
        sh.getopts_ind, sh.getopts_pos = next_ind, next_pos
        return status

    if optind > len(args):
        # Past the end (a new `set --` with OPTIND left from an earlier loop): bash
        # puts OPTIND just after the last argument.
        return finish(1, "?", None, len(args) + 1, 1)
    word = args[optind - 1]
    if pos == 1:
        if word == "--":
            return finish(1, "?", None, optind + 1, 1)
        if not word.startswith("-") or word == "-":
            return finish(1, "?", None, optind, 1)
    letter = word[pos]
    last = pos + 1 >= len(word)
    next_ind, next_pos = (optind + 1, 1) if last else (optind, pos + 1)
    k = spec.find(letter)
    if k < 0 or letter == ":":
        if silent:
            return finish(0, "?", letter, next_ind, next_pos)
        sh.error_plain(f"{st.argv0}: illegal option -- {letter}", io)
        return finish(0, "?", None, next_ind, next_pos)
    if k + 1 < len(spec) and spec[k + 1] == ":":
        if not last:
            return finish(0, letter, word[pos + 1 :], optind + 1, 1)
        if optind < len(args):
            return finish(0, letter, args[optind], optind + 2, 1)
        if silent:
            return finish(0, ":", letter, optind + 1, 1)
        sh.error_plain(f"{st.argv0}: option requires an argument -- {letter}", io)
        return finish(0, "?", None, optind + 1, 1)
    return finish(0, letter, None, next_ind, next_pos)
