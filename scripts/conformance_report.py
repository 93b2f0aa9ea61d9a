"""The Oils conformance figures: per file, core vs extended, and what remains by construct.

    .venv/bin/python scripts/conformance_report.py               # all files
    .venv/bin/python scripts/conformance_report.py quote arith   # some files
    .venv/bin/python scripts/conformance_report.py --failures    # and each failure's diff
    .venv/bin/python scripts/conformance_report.py --write-xfail # refresh the xfail list
    .venv/bin/python scripts/conformance_report.py --capture     # refresh captured bash

Runs the same harness as tests/conformance/oils_test.py (bash on PATH is the oracle).
A case counts when bash agrees with the spec file; an excluded case counts as failed.
"""

from __future__ import annotations

import argparse
import json
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.conformance import oracle  # noqa: E402
from tests.conformance.exclusions import EXCLUDED  # noqa: E402

# What a failing case is mostly about: the first pattern found in its code names it.
# Ordered from the specific to the general.
CONSTRUCTS: list[tuple[str, str]] = [
    ("trap", r"\btrap\b"),
    ("getopts", r"\bgetopts\b"),
    ("pushd/popd/dirs", r"\b(pushd|popd|dirs)\b"),
    ("read builtin", r"\bread\b"),
    ("printf", r"\bprintf\b"),
    ("shopt / set -o", r"\bshopt\b|\bset [-+]o\b"),
    ("extglob", r"[@!?*+]\("),
    ("globstar **", r"\*\*"),
    ("declare/typeset/local/readonly", r"\b(declare|typeset|local|readonly|export)\b"),
    ("associative array", r"-A\b|\[['\"]"),
    ("array", r"\w+=\(|\$\{\w+\[|\b\w+\[[^\]]*\]="),
    ("${x/pat/rep} ${x:off:len} ${x@op}", r"\$\{[#!]?\w+(/|:[-+]?\d|:\s|@)"),
    ("${x%…} ${x#…} ${x:-…} ${#x}", r"\$\{[#!]?\w*[%#:\-+=?]"),
    ("here-doc", r"<<"),
    ("[[ ]]", r"\[\["),
    ("arithmetic", r"\$\(\(|\(\(|\blet\b"),
    ("brace expansion", r"\{[^}\s]*(,|\.\.)[^}\s]*\}"),
    ("redirection / fds", r"\d?[<>]&|\d[<>]|<>|\{\w+\}[<>]|\bexec\b"),
    ("command substitution", r"\$\(|`"),
    ("set -e / errexit", r"set -e|errexit"),
    ("$SH -c (a second shell)", r"\$SH\b"),
    ("case", r"\bcase\b"),
    ("loops", r"\b(for|while|until)\b"),
    ("functions", r"\w+\s*\(\)\s*\{|\bfunction\b"),
    ("cd/pwd", r"\b(cd|pwd)\b"),
    ("echo", r"\becho\b"),
]


def construct(code: str) -> str:
    for label, pattern in CONSTRUCTS:
        if re.search(pattern, code):
            return label
    return "other"


def symptom(v: oracle.Verdict) -> str:
    if v.excluded:
        return "excluded"
    got = v.hookrun
    assert got is not None
    if got.note:
        return "hang/timeout or crash"
    if got.route == "sh-fallback":
        return "handed to sh (sh-fallback)"
    err = got.stderr.decode("utf-8", "replace")
    if "internal error" in err:
        return "internal error"
    if "syntax error" in err or "not supported" in err or "unsupported" in err:
        return "parse error / unsupported"
    return "wrong output or status"


def main() -> int:
    # Started in the background (`… &`), this process inherits SIGINT and SIGQUIT
    # ignored, and so would bash: its `trap` listings would then show them. Oils runs
    # each shell with default dispositions; so do we (as tests/conftest.py does).
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if hasattr(signal, "SIGQUIT") and signal.getsignal(signal.SIGQUIT) is signal.SIG_IGN:
        signal.signal(signal.SIGQUIT, signal.SIG_DFL)
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", help="spec names (default: every core + extended)")
    parser.add_argument("--failures", action="store_true", help="print each failure's diff")
    parser.add_argument("--write-xfail", action="store_true", help="rewrite the xfail list")
    parser.add_argument("--capture", action="store_true", help="rewrite captured bash results")
    parser.add_argument("--json", metavar="FILE", help="write every case's verdict as JSON")
    parser.add_argument(
        "--compare", metavar="FILE", help="list cases that pass in FILE (a --json) but not now"
    )
    parser.add_argument("--jobs", type=int, default=None)
    args = parser.parse_args()
    names = args.files or [*oracle.CORE, *oracle.EXTENDED]
    unknown = [n for n in names if n not in oracle.CORE and n not in oracle.EXTENDED]
    if unknown:
        parser.error(f"unknown spec file(s): {' '.join(unknown)}")
    bash = oracle.find_bash()
    cases = oracle.all_cases(names)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="hookrun-oils-") as tmp:
        verdicts = oracle.judge(cases, Path(tmp), exclusions=EXCLUDED, bash=bash, jobs=args.jobs)
    elapsed = time.monotonic() - started
    version = "captured results" if bash is None else _bash_version(bash)
    print(f"Oils spec tests at 15de8fd7, {len(cases)} cases, oracle: {version}, {elapsed:.0f} s\n")

    print(
        f"{'file':<16} {'cases':>5} {'bash≠file':>9} {'counted':>7} {'excluded':>8} "
        f"{'pass':>5} {'%':>6}"
    )
    totals: dict[str, list[int]] = {"core": [0, 0], "extended": [0, 0]}
    for name in names:
        mine = [v for v in verdicts if v.case.file == name]
        counted = [v for v in mine if v.counted]
        passed = sum(v.passed for v in counted)
        excluded = sum(bool(v.excluded) for v in counted)
        part = "core" if name in oracle.CORE else "extended"
        totals[part][0] += passed
        totals[part][1] += len(counted)
        pct = 100 * passed / len(counted) if counted else 100.0
        print(
            f"{name:<16} {len(mine):>5} {len(mine) - len(counted):>9} {len(counted):>7} "
            f"{excluded:>8} {passed:>5} {pct:>5.1f}%"
        )
    print()
    for part, (n_pass, n_counted) in totals.items():
        if n_counted:
            print(f"{part:<9} {n_pass}/{n_counted} = {100 * n_pass / n_counted:.1f}%")

    failing = [v for v in verdicts if v.counted and not v.passed]
    print(f"\nremaining: {len(failing)} cases")
    print("\nby symptom:")
    for label, n in Counter(symptom(v) for v in failing).most_common():
        print(f"  {n:>4}  {label}")
    print("\nby construct (first construct found in the case's code):")
    by_construct: dict[str, list[str]] = {}
    for v in failing:
        by_construct.setdefault(construct(v.case.code), []).append(v.case.key)
    for label, keys in sorted(by_construct.items(), key=lambda kv: -len(kv[1])):
        print(f"  {len(keys):>4}  {label}: {' '.join(keys)}")

    disagree = [v for v in verdicts if not v.counted]
    if disagree:
        print(f"\nnot counted — bash here disagrees with the spec file ({len(disagree)}):")
        for v in disagree:
            print(f"  {v.case.key} {v.case.name!r}: {v.disagreement[:160]}")
    if args.failures:
        print("\nfailures:")
        for v in failing:
            print(v.explain())
    if args.json:
        Path(args.json).write_text(json.dumps(_as_json(verdicts), indent=1) + "\n")
    if args.compare:
        before = {row["key"]: row for row in json.loads(Path(args.compare).read_text())}
        now = {row["key"]: row for row in _as_json(verdicts)}
        lost = [
            k
            for k, row in now.items()
            if row["counted"] and not row["passed"] and before.get(k, {}).get("passed")
        ]
        won = [k for k, row in now.items() if row["passed"] and not before.get(k, {}).get("passed")]
        print(f"\ncompared with {args.compare}: {len(won)} newly passing, {len(lost)} no longer")
        for key in lost:
            print(f"  lost {key} {now[key]['name']!r} [{now[key]['symptom']}]")
    if args.write_xfail:
        write_xfail(verdicts, names)
    if args.capture:
        if bash is None:
            parser.error("--capture needs bash on PATH")
        oracle.write_captured(verdicts, version)
    return 0


def _as_json(verdicts: list[oracle.Verdict]) -> list[dict[str, object]]:
    return [
        {
            "key": v.case.key,
            "name": v.case.name,
            "counted": v.counted,
            "passed": v.passed,
            "symptom": "" if v.passed or not v.counted else symptom(v),
        }
        for v in verdicts
    ]


def write_xfail(verdicts: list[oracle.Verdict], names: list[str]) -> None:
    """Rewrite the failing cases of ``names``; entries of other files are kept."""
    keep = {
        key: note for key, note in oracle.read_xfail().items() if key.split("#")[0] not in names
    }
    for v in verdicts:
        if v.counted and not v.passed and not v.excluded:
            keep[v.case.key] = f"{v.case.name} [{symptom(v)}]"
    order = {c.key: i for i, c in enumerate(oracle.all_cases())}
    lines = [
        "# Oils spec cases hookrun's in-process shell does not pass yet (strict xfail).",
        "# A case that starts passing fails the suite until its line is removed here:",
        "# the list only ever shrinks. Refresh: scripts/conformance_report.py --write-xfail",
    ]
    lines += [f"{key}  # {keep[key]}" for key in sorted(keep, key=lambda k: order.get(k, 0))]
    oracle.XFAIL_FILE.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _bash_version(bash: str) -> str:
    out = subprocess.run(
        [bash, "-c", "echo $BASH_VERSION"], capture_output=True, text=True, check=False
    )
    return f"bash {out.stdout.strip()}"


if __name__ == "__main__":
    sys.exit(main())
