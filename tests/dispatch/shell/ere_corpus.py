"""A generated corpus of ``[[ value =~ regex ]]`` pairs, run through bash and through the
in-process shell in one script per batch (one bash process, one shell), compared pair
by pair: the status, every BASH_REMATCH entry, whether anything reached stderr.

Used by ``ere_test.py``; ``python -m tests.dispatch.shell.ere_corpus`` prints the
agreement figures (whole match, groups) for the tree it is run from.
"""

from __future__ import annotations

import os
import random
import resource
import shutil
import signal
import subprocess
from collections.abc import Callable, Sequence
from typing import NamedTuple

BASH = shutil.which("bash")

# Atoms and operators as hooks write them, and the corners glibc and Python's re read
# differently (repeated quantifiers, a bare ')', '{' that opens no interval, brackets
# with a backslash, ']' first, classes, GNU operators, back-references).
ATOMS = [
    "a", "b", "ab", ".", "x", "/", "-", r"\.", "[ab]", "[^a]", "[]a]", r"[\.]", "[a-c]",
    "[[:space:]]", "[[:alpha:]]", "[[:digit:]]", "[[:punct:]]", "[[:upper:]]", "[=a=]",
    "[[.-.]]", r"\w", r"\W", r"\s", r"\S", "(a)", "(ab|a)", "(a|ab)", "(b*)", "()",
    "(a|)", "(|b)", "(.)", ")", "}", "a{", "[[ab]]", r"\(", r"\|", "é", r"\<", r"\>",
    r"\b", r"\B", "^", "$", "(^|/)", "(/|$)", r"\1", "[a-]", "[--/]",
]  # fmt: skip
QUANTIFIERS = ["", "", "", "*", "+", "?", "**", "+*", "*?", "{2}", "{1,2}", "{,2}", "{0}",
               "{1,}", "*{2,3}"]  # fmt: skip
# Whole regexes: the hook-style ones and the corners the brief lists.
FIXED = [
    r"rm[[:space:]]+-rf", r"\.(env|pem)$", r"^git[[:space:]]+push.*--force", r"(^|/)\.\./",
    "ab**", "ab+*", "ab*{2,3}", "^ab|c)b", "(^|/)b*(/|$)", "^(b*)+$", "^[[ab]]+$",
    r"[\.]", "[]a]", "[=a=]", "[[=a=]]", "[[.-.]]", r"\<a", r"a\>", r"\ba\b", r"\Ba",
    r"\w+", r"\s", r"\`a", r"a\'", r"(a)\1", "a^b", "a$b", "*a", "(*a)", "x|*a", "a||b",
    "()", "a{", "a{x}", "a{1", "a{,3}", "a{1,40000}", "a{1,300}", "a{32768}", ".",
    "[^a]", "(", "a[", "a\\", "[[:foo:]]", "[b-a]", "a{2,1}", r"\2(a)", "^*", "^+",
    "{1}a", r"\<*", "[[:word:]]", "[a-z-9]", "(a){0}b", "a{,}", "a{}", "a{1,2,3}",
    "[[==]]", "[[:alpha:", "[]", "[^]", "[^]a]", "(a|ab)(c|bcd)(d*)", "(a*)*", "(a*)+",
    "(a|b)*", "(a*)(a*)", "(a|ab)(bc|c)", "(.*)(.*)", "(a?)((ab)?)(b?)", "((a)|b)+",
    "(a()|b)+", "^.$", "^..$", "^[[:alpha:]]$", "^[a-z]$", "^[[=é=]]$", r"^\w$",
    "^[[:upper:]]$", "^[[:lower:]]$", "^[[:space:]]$", "^[[:punct:]]$", "^[[:digit:]]$",
    "^[[:alnum:]]$", "(a|ab)c?", "a*(ab)?", "x*", "(x*)(y|xy)", r"\.\./", "a.c",
    "(foo|foobar)(bar)?", "^(a+|b+)*$", "(.*)=(.*)", "([^=]*)=(.*)", "(a|b|ab)+c",
]  # fmt: skip
VALUES = [
    "", "a", "b", "ab", "abb", "abbb", "aab", "ba", "abc", "abcd", "c)b", "/b/", "/../x",
    "a/../b", "x", "xy", "xxy", "-", ".", "\\", "]", "a]", "*a", "a{", "a{x}", "a{1",
    " a ", "a b", "rm  -rf /", "git  push origin --force x", ".env", "k.pem", "foobar",
    "foo=bar=baz", "é", "É", "«", "٣", "\u00a0", "\n", "a\nb", "\udcff", "a\udcffb", "aa",
    "aaaa", "aabc",
]  # fmt: skip


def regexes(count: int = 100, seed: int = 17) -> list[str]:
    """FIXED, then ``count`` generated ones: one to four atoms, each with a quantifier,
    sometimes two branches."""
    rnd = random.Random(seed)
    out = list(FIXED)
    seen = set(out)
    while len(out) < len(FIXED) + count:
        parts = [rnd.choice(ATOMS) + rnd.choice(QUANTIFIERS) for _ in range(rnd.randint(1, 4))]
        if rnd.random() < 0.2:
            parts.insert(rnd.randint(0, len(parts)), "|")
        rx = "".join(parts)
        if rx not in seen:
            seen.add(rx)
            out.append(rx)
    return out


def _ansi(s: str) -> str:
    """``s`` as bash's $'…': ASCII punctuation, controls and bytes that are not UTF-8 as
    \\xHH, other characters as they are (the in-process shell reads $'\\xc3\\xa9' as two
    characters where bash in C.UTF-8 reads one: not what this corpus is about)."""
    out = []
    for ch in s:
        if ch.isalnum() or (ord(ch) >= 0x80 and not 0xDC80 <= ord(ch) <= 0xDCFF):
            out.append(ch)
        else:
            out.append("\\x%02x" % (ord(ch) - 0xDC00 if ord(ch) >= 0xDC00 else ord(ch)))
    return "$'" + "".join(out) + "'"


def script(pairs: Sequence[tuple[str, str]]) -> str:
    """One script for a batch: per pair, a marker line then status, count and entries."""
    lines = []
    for k, (rx, value) in enumerate(pairs):
        lines.append(
            f"r={_ansi(rx)}; v={_ansi(value)}; BASH_REMATCH=(old); echo @{k} >&2; "
            f'[[ $v =~ $r ]]; s=$?; printf "@{k} %s %s" $s ${{#BASH_REMATCH[@]}}; '
            f'for x in "${{BASH_REMATCH[@]}}"; do printf \' <%s>\' "$x"; done; echo'
        )
    return "\n".join(lines) + "\n"


class Outcome(NamedTuple):
    status: str
    entries: tuple[str, ...]  # BASH_REMATCH (as printed)
    stderr: bool  # something besides the markers reached stderr


def parse(out: str, err: str, n: int) -> list[Outcome | None]:
    """Each pair's outcome from a batch's output (None: the pair printed nothing)."""
    found: list[Outcome | None] = [None] * n
    chunks = out.split("@")
    for chunk in chunks[1:]:
        head, _, rest = chunk.partition(" ")
        if not head.isdigit():
            continue
        k = int(head)
        status, _, rest = rest.partition(" ")
        _count, _, rest = rest.partition(" ")
        body = rest[:-1] if rest.endswith("\n") else rest
        entries = tuple(e.lstrip(" ")[1:] for e in body.split(">")[:-1]) if body else ()
        if k < n:
            found[k] = Outcome(status, entries, False)
    noisy: set[int] = set()
    current = -1
    for line in err.split("\n"):
        if line.startswith("@") and line[1:].isdigit():
            current = int(line[1:])
        elif line and current >= 0:
            noisy.add(current)
    for k in noisy:
        o = found[k]
        if o is not None:
            found[k] = o._replace(stderr=True)
    return found


def _limits() -> None:  # pragma: no cover - runs in the child
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
    resource.setrlimit(resource.RLIMIT_NPROC, (256, 256))


def run_bash(source: str, timeout: float = 60.0) -> tuple[str, str]:
    """``source`` run by bash (C.UTF-8), its own process group, ended whole at timeout."""
    assert BASH is not None
    env = {"PATH": os.environ.get("PATH", os.defpath), "LC_ALL": "C.UTF-8", "HOME": "/nonexistent"}
    proc = subprocess.Popen(
        [BASH, "--norc", "--noprofile", "-s"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        start_new_session=True,
        preexec_fn=_limits,
    )
    try:
        out, err = proc.communicate(source.encode("utf-8", "surrogateescape"), timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise
    return out.decode("utf-8", "surrogateescape"), err.decode("utf-8", "surrogateescape")


def compare(
    pairs: Sequence[tuple[str, str]], run_inprocess: Callable[[str], tuple[str, str]]
) -> list[tuple[tuple[str, str], Outcome | None, Outcome | None]]:
    """Every pair with bash's outcome and the in-process shell's."""
    source = script(pairs)
    theirs = parse(*run_bash(source), len(pairs))
    ours = parse(*run_inprocess(source), len(pairs))
    return list(zip(pairs, theirs, ours, strict=True))


def figures(
    rows: Sequence[tuple[tuple[str, str], Outcome | None, Outcome | None]],
) -> dict[str, int]:
    """Agreement: status, whole match (status and BASH_REMATCH[0]), all groups, stderr."""
    f = {"pairs": len(rows), "status": 0, "whole": 0, "groups": 0, "stderr": 0, "all": 0}
    for _, b, h in rows:
        if b is None or h is None:
            continue
        f["status"] += b.status == h.status
        whole = b.status == h.status and b.entries[:1] == h.entries[:1]
        f["whole"] += whole
        f["groups"] += b.status == h.status and b.entries == h.entries
        f["stderr"] += b.stderr == h.stderr
        f["all"] += b == h
    return f


def pairs_of(
    rxs: Sequence[str], values: Sequence[str] = VALUES, per: int = 16, seed: int = 17
) -> list[tuple[str, str]]:
    """Each regex with ``per`` of the values (a seeded pick per regex)."""
    rnd = random.Random(seed)
    return [(rx, v) for rx in rxs for v in rnd.sample(list(values), min(per, len(values)))]


def _inprocess(source: str) -> tuple[str, str]:
    from hookrun.dispatch.streams import BufferSource
    from tests.dispatch.shell.shellrun import base_env, make_shell_and_input

    stdin = BufferSource(b"")
    shell, out, err, procs = make_shell_and_input(
        cwd="/", env=base_env(LC_ALL="C.UTF-8"), stdin=stdin, timeout=120.0
    )
    try:
        shell.run_script(source)
    finally:
        procs.end_all()
        stdin.close()
    return (
        out.data.decode("utf-8", "surrogateescape"),
        err.data.decode("utf-8", "surrogateescape"),
    )


def main() -> None:  # pragma: no cover - a report, not a test
    import sys

    rows = compare(pairs_of(regexes()), _inprocess)
    print(figures(rows))
    if "-v" in sys.argv:
        for (rx, v), b, h in rows:
            if b != h:
                print(repr(rx), repr(v), "bash:", b, "ours:", h)


if __name__ == "__main__":  # pragma: no cover
    main()
