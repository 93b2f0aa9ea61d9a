"""The ``time`` keyword before a simple command: status, errexit, report format.

The table rows were run through bash 5 (``bash -c SOURCE hookrun`` in an empty directory,
the shell tests' environment) and agree with it; ``bash_confirm_test.py`` runs them
through bash again. The report goes to stderr, which is not compared: its format is
pinned by :func:`render` (bash's TIMEFORMAT specifiers).
"""

from __future__ import annotations

import pytest

from hookrun.dispatch.shell.timed import DEFAULT_FORMAT, POSIX_FORMAT, render
from hookrun.shellsyntax import Unsupported, parse
from tests.dispatch.shell.shellrun import Runner


@pytest.mark.parametrize(
    ("source", "code", "stdout"),
    [
        ("time echo hi 2>/dev/null", 0, "hi\n"),
        ("set -e; time false; echo status=$?", 1, ""),
        ("time false; echo status=$?", 0, "status=1\n"),
        ("TIMEFORMAT=; time echo a; echo b", 0, "a\nb\n"),
        ("time -p sh -c 'exit 3' 2>/dev/null; echo $?", 0, "3\n"),
        ("f() { echo f$1; }; time f 1 2>/dev/null", 0, "f1\n"),
        ("time; echo $?", 0, "0\n"),
        ('x=$( { time echo in; } 2>&1 ); echo "${x%%real*}"', 0, "in\n\n\n"),
    ],
)
def test_time_agrees_with_bash(run: Runner, source: str, code: int, stdout: str) -> None:
    got = run(source)
    assert (got.code, got.out) == (code, stdout), got.err


def test_time_reports_on_stderr_in_bashs_default_format(run: Runner) -> None:
    got = run("time true")
    lines = got.err.split("\n")
    assert lines[0] == "" and [line.split("\t")[0] for line in lines[1:4]] == [
        "real",
        "user",
        "sys",
    ]


@pytest.mark.parametrize(
    ("fmt", "expected"),
    [
        ("%3lR|%2U|%S|%%|%0R", "1m1.250s|0.25|0.125|%|61"),
        (DEFAULT_FORMAT, "\nreal\t1m1.250s\nuser\t0m0.250s\nsys\t0m0.125s"),
        (POSIX_FORMAT, "real 61.25\nuser 0.25\nsys 0.12"),
        ("%P", "0.61"),
    ],
)
def test_timeformat_specifiers_render_as_bash_prints_them(fmt: str, expected: str) -> None:
    assert render(fmt, 61.25, 0.25, 0.125) == expected


@pytest.mark.parametrize("source", ["time { a; }", "time ( a )", "time if a; then b; fi"])
def test_time_before_a_compound_command_is_refused_by_name(source: str) -> None:
    with pytest.raises(Unsupported, match="'time'"):
        parse(source)
