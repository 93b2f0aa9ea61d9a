"""misc.*: findings about the line as a whole rather than one command in it."""

from __future__ import annotations

from collections.abc import Iterator

from hookrun.hooks.shell_guard.heads import runs_inline_code
from hookrun.hooks.shell_guard.inline_code import CODE_FLAGS
from hookrun.hooks.shell_guard.judging import Call, Finding
from hookrun.hooks.shell_guard.model import Script
from hookrun.lazyre import compile as lazy_compile

# A fork inside a loop that never ends, in the languages agents reach for:
# perl `fork while fork`, python `while True: os.fork()`, ruby `loop { fork }`,
# C-style `for(;;) fork();` / `while(1) fork();`, node `while(true) cp.fork(…)`.
_LANG_BOMB = lazy_compile(
    r"fork\s+while\s+fork|"
    r"while\s*\(?\s*(?:1|true|True)\s*\)?\s*[:{]?\s*[^;{}\n]{0,60}?\bfork\s*\(|"
    r"for\s*\(\s*;\s*;\s*\)\s*\{?\s*(?:[\w.]+\.)?fork\s*\(|"
    r"loop\s*(?:do|\{)\s*(?:Process\.)?fork|"
    r"(?:[\w.]+\.)?fork\s*(?:\(\s*\))?\s*while\s*(?:1|true|True)\b"
)


_STRINGS = lazy_compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"")


def check(call: Call) -> Iterator[Finding]:
    """A fork bomb in inline code of another language (``perl -e 'fork while fork'``)."""
    name = call.cmd.name
    if not runs_inline_code(name):
        return
    args = call.cmd.args
    for i, a in enumerate(args[:-1]):
        flag = a.text in CODE_FLAGS or a.text == "-c"
        code = args[i + 1].text
        # (strings are data: console.log('fork while fork') forks nothing; every branch
        # of the pattern holds "fork", and code without it is not searched: the search
        # tries each position of a long code, ~80k instructions for a python -c line)
        if flag and "fork" in code and _LANG_BOMB.search(_STRINGS.sub('""', code)):
            yield call.finding(
                "misc.fork-bomb",
                f"{name} code that forks itself in an endless loop (a fork bomb) exhausts the "
                "machine; never run it",
            )
            return


def fork_bombs(script: Script, via: tuple[str, ...]) -> list[Finding]:
    """``:(){ :|:& };:`` and friends: found by the parser (or the fallback's scan)."""
    return [
        Finding(
            "misc.fork-bomb",
            bomb,
            "a function that starts copies of itself (a fork bomb) exhausts the machine; "
            "never run it",
            via=via,
        )
        for bomb in script.fork_bombs
    ]


def too_deep(text: str, via: tuple[str, ...]) -> Finding:
    return Finding(
        "misc.too-deep",
        text[:80],
        "the command nests shells and substitutions too deep to check; write it plainly",
        via=via,
    )
