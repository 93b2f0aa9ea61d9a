#!/usr/bin/env python3
"""The in-process shell: start-up import cost and parse+run of hook one-liners.

import    ``-X importtime`` of the shell path in a fresh interpreter: the front end
          (tree-sitter, the bash grammar, the converter), the interpreter and the
          expander. Target: ≤ 10 ms (issue 11). Printed next to it, when bashlex
          is still installed, the old front end's import for comparison.
one-liners  twenty ordinary hook one-liners (tests, case, substitutions, here-strings,
          parameter operators, arithmetic, loops, functions — builtins only, so no
          child process on either side), each parsed afresh (the parse cache is
          cleared) and run through ``hookrun.dispatch.run``, against ``sh -c`` running
          the same text, interleaved. Target: ≥ 10× faster.

  python bench/shell_bench.py          # full
  python bench/shell_bench.py --quick  # fewer rounds (CI smoke)
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hookrun.dispatch import run  # noqa: E402
from hookrun.shellsyntax import parser  # noqa: E402

PAYLOAD = b'{"tool_name":"Bash","tool_input":{"command":"git push --force"}}'

ONE_LINERS = [
    'echo \'{"decision":"allow"}\'',
    '[ -n "$HOOKRUN_TOOL_NAME" ] && echo "tool=$HOOKRUN_TOOL_NAME"',
    '[[ "$CMD" == *"rm -rf"* ]] && { echo "no rm -rf" >&2; exit 2; } || true',
    'case "$HOOKRUN_TOOL_NAME" in Bash|bash) echo shell;; *) echo other;; esac',
    'x=$(printf "%s" "$HOME"); echo "${x:-none}"',
    'f=${FILE_PATH:-src/main.py}; echo "${f##*/} ${f%.*} ${f#*/}"',
    "n=0; for w in a b c d e; do n=$((n + 1)); done; echo $n",
    'if [ "${MODE:-dev}" = prod ]; then echo strict; else echo loose; fi',
    'read -r first rest <<< "git push --force"; echo "$first"',
    'set -- a b c; echo "$# $2 ${@: -1}"',
    'msg="blocked: $HOOKRUN_TOOL_NAME"; echo "$msg" >&2; exit 0',
    's="a,b,c"; IFS=, read -r p q r <<< "$s"; echo "$q"',
    'check() { [ -z "$1" ] && return 1; echo "ok $1"; }; check x',
    'printf \'{"reason":"%s"}\\n\' "not allowed"',
    "i=0; while [ $i -lt 5 ]; do i=$((i+1)); done; echo $i",
    'v="Hello World"; echo "${v,,} ${v^^} ${#v}"',
    '[[ "$HOOKRUN_TOOL_NAME" =~ ^(Bash|Shell)$ ]] && echo "${BASH_REMATCH[1]}"',
    'a=(one two three); echo "${a[1]} ${#a[@]}"',
    'while read -r l; do echo "$l"; done <<EOF\n{"decision":"allow","t":"$HOOKRUN_TOOL_NAME"}\nEOF',
    "test -d / && test ! -f /nonexistent && echo dirs-ok",
]


def _median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000.0


# Run in a fresh interpreter: what importing the shell path (and loading the grammar on
# the first parse) adds to a process that already has hookrun.dispatch, in ms.
_IMPORT_PROBE = """
import time, hookrun.dispatch
t = time.perf_counter()
import hookrun.dispatch.shell.expand, hookrun.dispatch.shell.interp
import hookrun.shellsyntax.parser
hookrun.shellsyntax.parser.parse("true")
print((time.perf_counter() - t) * 1000)
"""


def _probe(code: str, rounds: int) -> float | None:
    samples: list[float] = []
    for _ in range(rounds):
        proc = subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            cwd=str(Path(__file__).resolve().parent.parent),
        )
        if proc.returncode != 0:
            return None
        samples.append(float(proc.stdout.strip()))
    return statistics.median(samples)


def shell_path_import_ms(rounds: int) -> float | None:
    """Median ms of importing the shell path and its first parse (grammar load)."""
    return _probe(_IMPORT_PROBE, rounds)


def bashlex_import_ms(rounds: int) -> float | None:
    """The old front end, for comparison (None once bashlex is gone)."""
    code = (
        "import time\nt = time.perf_counter()\nimport bashlex\n"
        "print((time.perf_counter() - t) * 1000)"
    )
    return _probe(code, rounds)


def one_liners(rounds: int) -> dict[str, Any] | None:
    sh = shutil.which("sh")
    if sh is None:
        return None
    env = {**os.environ, "HOOKRUN_TOOL_NAME": "Bash", "CMD": "git push", "HOME": "/home/h"}
    cwd = os.getcwd()

    def ours() -> None:
        for src in ONE_LINERS:
            parser.parse.cache_clear()
            run(src, cwd=cwd, env=env, stdin=PAYLOAD, timeout=30)

    def theirs() -> None:
        for src in ONE_LINERS:
            subprocess.run([sh, "-c", src], input=PAYLOAD, capture_output=True, env=env)

    for fn in (ours, theirs):  # warm-up
        fn()
    a: list[float] = []
    b: list[float] = []
    for _ in range(rounds):
        for fn, out in ((ours, a), (theirs, b)):
            start = time.perf_counter()
            fn()
            out.append(time.perf_counter() - start)
    ours_ms, theirs_ms = _median_ms(a), _median_ms(b)
    return {
        "name": f"{len(ONE_LINERS)} hook one-liners, parse+run: in-process vs sh -c",
        "ours_ms": ours_ms / len(ONE_LINERS),
        "theirs_ms": theirs_ms / len(ONE_LINERS),
        "ratio": theirs_ms / ours_ms,
        "target": 10.0,
    }


def main(quick: bool = False) -> list[dict[str, Any]]:
    rounds = 5 if quick else 15
    rows: list[dict[str, Any]] = []
    ms = shell_path_import_ms(rounds)
    rows.append({"name": "shell path import (front end + interpreter)", "ms": ms, "target": 10.0})
    print(f"shell path import: {ms if ms is None else round(ms, 2)} ms (target ≤ 10 ms)")
    old = bashlex_import_ms(rounds)
    if old is not None:
        print(f"  for comparison, bashlex (the old front end) imports in {old:.1f} ms")
    row = one_liners(3 if quick else 10)
    if row is not None:
        rows.append(row)
        print(
            f"{row['name']}: {row['ratio']:.1f}x faster "
            f"(ours {row['ours_ms']:.3f} ms, sh -c {row['theirs_ms']:.3f} ms per one-liner; "
            "target ≥ 10x)"
        )
    return rows


if __name__ == "__main__":
    main("--quick" in sys.argv)
