"""scripts/coverage_gate.py: per-package sums of a coverage.py JSON report, and the gate."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "coverage_gate.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("coverage_gate", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["coverage_gate"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


gate = _load()


def _file(statements: int, covered: int, branches: int, covered_branches: int) -> dict[str, Any]:
    return {
        "summary": {
            "num_statements": statements,
            "covered_lines": covered,
            "num_branches": branches,
            "covered_branches": covered_branches,
        }
    }


REPORT = {
    "files": {
        "hookrun/runner/api.py": _file(100, 100, 20, 20),
        "hookrun/runner/execute.py": _file(100, 90, 20, 10),
        "hookrun/runner_extra.py": _file(10, 0, 0, 0),  # a name prefix, not the package
        "hookrun\\dispatch\\shell\\interp.py": _file(50, 49, 10, 9),  # Windows separators
    }
}


def test_files_are_summed_by_package_subpackages_included_prefixes_excluded() -> None:
    runner, dispatch, hooks = gate.package_figures(
        REPORT, ["hookrun/runner", "hookrun/dispatch", "hookrun/hooks"]
    )
    assert (runner.files, runner.statements, runner.covered_lines) == (2, 200, 190)
    assert (runner.branches, runner.covered_branches) == (40, 30)
    assert round(runner.percent, 2) == round(100 * 220 / 240, 2)
    assert runner.branch_percent == 75.0
    assert (dispatch.files, round(dispatch.percent, 1)) == (1, round(100 * 58 / 60, 1))
    assert (hooks.files, hooks.percent) == (0, 100.0)


@pytest.mark.parametrize(
    ("figure", "threshold", "problem"),
    [
        ((1, 100, 95, 20, 19), 95.0, None),
        ((1, 100, 95, 20, 18), 95.0, "94.2% branch coverage is under 95%"),
        ((1, 1000, 950, 1000, 949), 95.0, None),  # 94.95 prints as 95.0: what is shown decides
        ((0, 0, 0, 0, 0), 95.0, "no file measured"),
        ((1, 10, 10, 0, 0), 95.0, "no branch measured"),
        ((1, 100, 80, 20, 10), 75.0, None),
    ],
)
def test_the_gate_fails_under_the_threshold_and_on_nothing_measured(
    figure: tuple[int, int, int, int, int], threshold: float, problem: str | None
) -> None:
    fig = gate.Figure("hookrun/x", *figure)
    problems = gate.failures([fig], threshold)
    if problem is None:
        assert problems == []
    else:
        assert len(problems) == 1
        assert problems[0].startswith("hookrun/x: ")
        assert problem in problems[0]


def test_the_table_marks_each_package(tmp_path: Path) -> None:
    figs = [gate.Figure("hookrun/a", 1, 10, 10, 4, 4), gate.Figure("hookrun/b", 1, 10, 5, 4, 1)]
    lines = gate.table(figs, 95.0).splitlines()
    assert lines[2].endswith("100.0%  ok") and lines[2].startswith("hookrun/a")
    assert lines[3].endswith("42.9%  FAIL") and lines[3].startswith("hookrun/b")


def test_reporting_on_a_directory_without_data_is_one_clear_error(tmp_path: Path) -> None:
    ran = subprocess.run(
        [sys.executable, str(SCRIPT), "--data", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert ran.returncode == 1
    assert f"coverage gate: no coverage report from {tmp_path}:" in ran.stderr
    assert "Traceback" not in ran.stderr


def test_a_real_report_on_a_tiny_run_prints_every_package(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    root = SCRIPT.parents[1]
    # PYTHONPATH: this checkout's hookrun, whichever one the venv has installed.
    env = {
        "COVERAGE_FILE": str(data / ".coverage"),
        "PATH": "/usr/bin:/bin",
        "PYTHONPATH": str(root),
    }
    script = tmp_path / "tiny.py"
    script.write_text("import hookrun.runner.workers\n")
    subprocess.run(
        [sys.executable, "-m", "coverage", "run", str(script)],
        cwd=root,
        env=env,
        check=True,
        timeout=60,
    )
    ran = subprocess.run(
        [sys.executable, str(SCRIPT), "--data", str(data)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert ran.returncode == 1  # almost nothing ran: under 95 %
    table = ran.stdout[ran.stdout.index("package ") :]
    assert [line.split()[0] for line in table.splitlines()[2:5]] == [
        "hookrun/runner",
        "hookrun/hooks",
        "hookrun/dispatch",
    ]
    assert json.loads((data / "coverage.json").read_text())["meta"]["branch_coverage"] is True


def test_a_package_with_a_floor_gates_at_the_floor_and_says_so() -> None:
    fig = gate.Figure("hookrun/dispatch", 24, 5140, 4434, 2174, 1751)  # 84.6%
    assert gate.failures([fig], 95.0, {"hookrun/dispatch": 84.0}) == []
    assert gate.failures([fig], 95.0, {"hookrun/dispatch": 85.0})
    assert gate.failures([fig], 95.0)  # without its floor, the goal applies
    assert "floor 84%: under the 95% goal" in gate.table([fig], 95.0, {"hookrun/dispatch": 84.0})


def test_floors_are_only_ever_below_the_goal() -> None:
    assert all(floor < gate.THRESHOLD for floor in gate.FLOORS.values())
