#!/usr/bin/env python3
"""CI gate: branch coverage of ``hookrun/runner``, ``hookrun/hooks`` and ``hookrun/dispatch``.

Runs the test suite once under coverage.py (settings in pyproject.toml's
``[tool.coverage.*]``), prints each package's figure, and exits 1 if any is under the
threshold (95 % by default), or with pytest's own code if the suite failed::

    .venv/bin/python scripts/coverage_gate.py [--threshold 95] [-- pytest args…]
    .venv/bin/python scripts/coverage_gate.py --data DIR   # report on an earlier run only

Only code run inside the pytest process is measured. Measuring the ``python -m
hookrun`` subprocesses of tests/cli would need coverage.py started in every Python
child — hooks included — which slows each one and imports modules (datetime) that the
start-up tests assert a plain ``hookrun run`` never loads; the three gated packages are
driven in-process by their own tests, so the figure stays honest without it.

The figure is coverage.py's own with ``branch = true``: covered lines plus covered
branch arcs over all lines plus all arcs, what ``coverage report`` prints. The
branch-only share is printed next to it for reference.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("hookrun/runner", "hookrun/hooks", "hookrun/dispatch")
THRESHOLD = 95.0
# A package below the goal for a known reason gates at a floor instead, as a ratchet
# (raise it as tests are added; never lower it). hookrun/dispatch: the in-process shell
# was rewritten on tree-sitter in one session (issue 11); most of its behaviour is
# checked by the Oils conformance suite, which runs the shell in worker processes this
# gate does not measure, so in-process tests reached 84.6% against the 95% goal; with
# in-process tables for the directory stack, getopts and set/shopt, tests/dispatch and
# tests/shellsyntax alone measure 90.0% (the whole suite can only add to that). Set
# half a point under that figure, for code landing alongside.
FLOORS: dict[str, float] = {"hookrun/dispatch": 89.5}


def limit_for(package: str, threshold: float, floors: Mapping[str, float] | None) -> float:
    """The figure ``package`` must reach: the threshold, or its floor when lower."""
    return min(threshold, (floors or {}).get(package, threshold))


@dataclass(frozen=True)
class Figure:
    """The coverage counts of one package (all its files, subpackages included)."""

    package: str
    files: int
    statements: int
    covered_lines: int
    branches: int
    covered_branches: int

    @property
    def percent(self) -> float:
        """coverage.py's figure: lines and branch arcs together."""
        total = self.statements + self.branches
        return 100.0 if total == 0 else 100.0 * (self.covered_lines + self.covered_branches) / total

    @property
    def branch_percent(self) -> float:
        return 100.0 if self.branches == 0 else 100.0 * self.covered_branches / self.branches


def package_figures(report: Mapping[str, Any], packages: Sequence[str]) -> list[Figure]:
    """Sum the per-file summaries of a ``coverage json`` report by package.

    A file belongs to a package when its path (relative, ``/``-separated) lies under
    it. A package with no measured file gets zero files — the caller treats that as a
    failure, since it means the suite never imported it (or the paths are wrong).
    """
    files: dict[str, Any] = report.get("files", {})
    figures = []
    for package in packages:
        prefix = package.rstrip("/") + "/"
        mine = [f["summary"] for name, f in files.items() if _posix(name).startswith(prefix)]
        figures.append(
            Figure(
                package=package,
                files=len(mine),
                statements=sum(s["num_statements"] for s in mine),
                covered_lines=sum(s["covered_lines"] for s in mine),
                branches=sum(s.get("num_branches", 0) for s in mine),
                covered_branches=sum(s.get("covered_branches", 0) for s in mine),
            )
        )
    return figures


def _posix(name: str) -> str:
    return name.replace("\\", "/")


def failures(
    figures: Iterable[Figure], threshold: float, floors: Mapping[str, float] | None = None
) -> list[str]:
    """What is wrong with ``figures``, one sentence each; empty when the gate passes."""
    problems = []
    for fig in figures:
        limit = limit_for(fig.package, threshold, floors)
        if fig.files == 0:
            problems.append(
                f"{fig.package}: no file measured — is the path right, and does the suite "
                "import it in-process?"
            )
        elif fig.branches == 0:
            problems.append(f"{fig.package}: no branch measured — set branch = true in pyproject")
        # Compare what is printed (one decimal), so 94.96 printed as "95.0" cannot fail.
        elif round(fig.percent, 1) < limit:
            problems.append(
                f"{fig.package}: {fig.percent:.1f}% branch coverage is under {limit:g}% — "
                "add tests for the lines and branches listed above"
            )
    return problems


def table(
    figures: Sequence[Figure], threshold: float, floors: Mapping[str, float] | None = None
) -> str:
    head = (
        f"{'package':<18} {'files':>5} {'lines':>11} {'branches':>11} {'branch%':>8} {'total':>7}"
    )
    rows = [head, "-" * len(head)]
    for fig in figures:
        limit = limit_for(fig.package, threshold, floors)
        mark = "ok" if fig.files and round(fig.percent, 1) >= limit else "FAIL"
        if limit < threshold:
            mark += f" (floor {limit:g}%: under the {threshold:g}% goal, see FLOORS)"
        rows.append(
            f"{fig.package:<18} {fig.files:>5} "
            f"{fig.covered_lines:>5}/{fig.statements:<5} "
            f"{fig.covered_branches:>5}/{fig.branches:<5} "
            f"{fig.branch_percent:>7.1f}% {fig.percent:>6.1f}%  {mark}"
        )
    rows.append(
        f"(total = lines and branches together, as coverage.py reports; gate {threshold:g}%)"
    )
    return "\n".join(rows)


def run_suite(data: Path, pytest_args: Sequence[str]) -> int:
    """The whole suite under ``coverage run``; its data files land in ``data``."""
    env = dict(os.environ, COVERAGE_FILE=str(data / ".coverage"))
    # Not inherited by children: no subprocess measurement (see the module docstring).
    env.pop("COVERAGE_PROCESS_START", None)
    env.pop("COVERAGE_PROCESS_CONFIG", None)
    # Suites marked `nocov` (fuzz, conformance, end-to-end hosts) already ran in the main
    # suite and add time, not coverage of the gated packages: leave them out here.
    cmd = [sys.executable, "-m", "coverage", "run", "-m", "pytest", "-m", "not nocov", *pytest_args]
    print("coverage gate: " + " ".join(cmd), flush=True)
    return subprocess.call(cmd, cwd=ROOT, env=env)


def report(data: Path, packages: Sequence[str]) -> dict[str, Any]:
    """Combine the data files in ``data``, print the missing lines, return the JSON report."""
    from coverage import Coverage  # the gate's only non-stdlib import, needed only here

    cov = Coverage(data_file=str(data / ".coverage"), config_file=str(ROOT / "pyproject.toml"))
    if sys.platform == "win32":  # pragma: win32 cover
        cov.config.exclude_list = [
            "# pragma: win32 no cover" if pat == "# pragma: win32 cover" else pat
            for pat in cov.config.exclude_list
        ]
    cov.combine(keep=True)
    cov.load()
    include = [str(ROOT / p / "*") for p in packages]
    cov.report(include=include, skip_covered=True, show_missing=True, file=sys.stdout)
    out = data / "coverage.json"
    cov.json_report(include=include, outfile=str(out), pretty_print=False)
    result: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return result


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--threshold", type=float, default=THRESHOLD, help="percent, per package")
    parser.add_argument(
        "--data", type=Path, help="report on the coverage data already in DIR; run nothing"
    )
    parser.add_argument("pytest_args", nargs="*", help="after --: passed to pytest")
    args = parser.parse_args(argv)
    # coverage.py names files relative to the directory it starts in; the packages
    # are matched by those names.
    os.chdir(ROOT)

    with tempfile.TemporaryDirectory(prefix="hookrun-cov-") as tmp:
        data = args.data or Path(tmp)
        code = 0
        if args.data is None:
            code = run_suite(data, args.pytest_args or ["-q", "-p", "no:cacheprovider"])
        try:
            figures = package_figures(report(data, PACKAGES), PACKAGES)
        except Exception as exc:  # coverage.py's NoDataError & co.: say what, not a traceback
            print(f"coverage gate: no coverage report from {data}: {exc}", file=sys.stderr)
            return 1
    print()
    print(table(figures, args.threshold, FLOORS))
    if code != 0:
        print(f"coverage gate: the test suite failed (pytest exit {code})", file=sys.stderr)
        return code
    problems = failures(figures, args.threshold, FLOORS)
    for problem in problems:
        print(f"coverage gate: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
