#!/usr/bin/env python3
"""``[[ s =~ re ]]`` over hostile values: ten classic catastrophic regexes × 10 KB and
100 KB values, in instructions (callgrind), so that the figures do not depend on load.

Each case runs ``hookrun.dispatch.shell.ere.search`` once in a fresh interpreter under
``valgrind --tool=callgrind``; the figure is that process's instructions less those of
the same process searching an empty value (start-up, imports and compiling the regex
are not counted). A case that does not end within ``--timeout`` seconds is reported as
a stall (its whole process group is killed). Two values per size: one with no match,
one with a match at its very end (the search has to cross the value either way).

  python bench/ere_bench.py                  # this tree
  python bench/ere_bench.py --tree DIR       # another checkout (its hookrun), e.g. main
  python bench/ere_bench.py --sizes 20,24    # small sizes (the old search's growth)
  python bench/ere_bench.py --first          # the first =~ of a process, and a second
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# (regex, the unit a hostile value repeats, what ends it with no match, with a match):
# the same ten cases as the no-stall test
from tests.dispatch.shell.ere_catastrophic import CATASTROPHIC  # noqa: E402

_PROBE = """
import sys
sys.path.insert(0, {tree!r})
from hookrun.dispatch.shell import ere
rx, unit, size, end = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
value = (unit * (size // max(len(unit), 1) + 1))[:size] + end if size else ""
got = ere.search(rx, value)
print("match" if got is not None else "none", len(got[0]) if got else 0)
"""

_FIRST = """
import sys
sys.path.insert(0, {tree!r})
# (the shell is loaded before a script's first =~)
from hookrun.dispatch.shell import expand, interp
if sys.argv[1] != "none":
    from hookrun.dispatch.shell import ere
    ere.search(sys.argv[1], "rm  -rf /")
    if sys.argv[2] == "twice":
        ere.search(sys.argv[1] + "x?", "rm  -rf /")
"""


def _callgrind(code: str, args: list[str], timeout: float) -> tuple[int | None, str]:
    cmd = [
        "valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
        sys.executable, "-c", code, *args,
    ]  # fmt: skip
    proc = subprocess.Popen(
        cmd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        env={k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},
    )
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        return None, "stall"
    m = re.search(rb"Collected : (\d+)", err)
    return (int(m.group(1)) if m else None), out.decode().strip()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tree", default=str(ROOT))
    ap.add_argument("--sizes", default="10000,100000")
    ap.add_argument("--timeout", type=float, default=120.0)
    ap.add_argument("--first", action="store_true")
    args = ap.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is needed (instruction counts)")
    print(f"load average {os.getloadavg()[0]:.2f}; tree {args.tree}")
    if args.first:
        code = _FIRST.format(tree=args.tree)
        subprocess.run([sys.executable, "-c", code, "[[:space:]]", "twice"], check=True)  # .pyc
        base, _ = _callgrind(code, ["none", "once"], args.timeout)
        for rx in ("[[:space:]]", "rm[[:space:]]+-rf", "^git[[:space:]]+push.*--force", "rm -rf"):
            once, _ = _callgrind(code, [rx, "once"], args.timeout)
            twice, _ = _callgrind(code, [rx, "twice"], args.timeout)
            if base is None or once is None or twice is None:
                print(f"{rx:35} (no figure)")
                continue
            print(
                f"{rx:35} first =~ {(once - base) / 1e6:7.2f}M Ir, "
                f"a second regex {(twice - once) / 1e6:6.2f}M Ir"
            )
        return
    code = _PROBE.format(tree=args.tree)
    subprocess.run([sys.executable, "-c", code, "a", "a", "0", ""], check=True)  # .pyc files
    sizes = [int(s) for s in args.sizes.split(",")]
    print(f"{'regex':32} {'value':>8} {'no match':>14} {'match at end':>14}")
    for rx, unit, miss, hit in CATASTROPHIC:
        base, _ = _callgrind(code, [rx, unit, "0", ""], args.timeout)
        for size in sizes:
            row = []
            for end in (miss, hit):
                ir, _ = _callgrind(code, [rx, unit, str(size), end], args.timeout)
                row.append(
                    "stall" if ir is None or base is None else f"{(ir - base) / 1e6:.2f}M Ir"
                )
            print(f"{rx:32} {size:>8} {row[0]:>14} {row[1]:>14}", flush=True)


if __name__ == "__main__":
    main()
