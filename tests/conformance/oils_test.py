"""hookrun's in-process shell against bash, on the Oils spec tests (one test per case).

The expectation is what bash prints (stdout and exit status) for the case, run the
way Oils runs it (oracle.py). Without bash on PATH, bash's results captured in
oils_bash_captured.json stand in. A case where bash disagrees with the spec file is
skipped and reported; an excluded case (exclusions.py) is skipped with its reason.

Cases hookrun does not pass yet are listed in oils_xfail.txt and run as strict
xfail: a case that starts passing fails here until its line is removed, so the list
only shrinks. Figures: ``scripts/conformance_report.py``.
"""

from __future__ import annotations

import sys
import typing
from pathlib import Path

import pytest

from tests.conformance import oracle
from tests.conformance.exclusions import EXCLUDED
from tests.conformance.specfile import Case

pytestmark = [
    pytest.mark.nocov,
    pytest.mark.skipif(
        sys.platform == "win32",
        reason="the spec cases assume a POSIX system (/proc, /dev/fd, chmod, mkfifo)",
    ),
]

CASES = oracle.all_cases()
XFAIL = oracle.read_xfail()


def _param(case: Case) -> object:
    marks = []
    if case.key in XFAIL:
        marks.append(pytest.mark.xfail(strict=True, reason=XFAIL[case.key]))
    return pytest.param(case, id=case.key, marks=marks)


@pytest.fixture(scope="module")
def verdicts(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, oracle.Verdict]:
    """Every selected case, judged once, in parallel (a run of the whole list ~1 min)."""
    wanted = {
        typing.cast(Case, item.callspec.params["case"]).key
        for item in request.session.items
        if isinstance(item, pytest.Function)
        and item.module is sys.modules[__name__]
        and hasattr(item, "callspec")
        and "case" in item.callspec.params
    }
    selected = [case for case in CASES if case.key in wanted]
    base = tmp_path_factory.mktemp("oils")
    judged = oracle.judge(selected, base, exclusions=EXCLUDED, bash=oracle.find_bash())
    return {v.case.key: v for v in judged}


# The first test pays for judging every case (the fixture): about a minute alone,
# several on a loaded machine.
@pytest.mark.timeout(1200)
@pytest.mark.parametrize("case", [_param(case) for case in CASES])
def test_oils_case_output_matches_bash(case: Case, verdicts: dict[str, oracle.Verdict]) -> None:
    verdict = verdicts[case.key]
    if verdict.excluded:
        pytest.skip(f"excluded: {verdict.excluded}")
    if not verdict.counted:
        pytest.skip(f"bash disagrees with the spec file: {verdict.disagreement}")
    assert verdict.passed, verdict.explain()


def test_expected_failures_name_real_counted_cases() -> None:
    """A stale or mistyped xfail line would silently stop guarding anything."""
    keys = {case.key for case in CASES}
    assert sorted(set(XFAIL) - keys) == []
    assert sorted(set(XFAIL) & set(EXCLUDED)) == []


def test_every_exclusion_names_a_case_and_gives_a_reason() -> None:
    keys = {case.key for case in CASES}
    assert sorted(set(EXCLUDED) - keys) == []
    assert [key for key, reason in EXCLUDED.items() if len(reason.split()) < 3] == []


def test_vendored_files_are_the_ones_the_issue_names() -> None:
    files = sorted(p.name for p in oracle.SPEC_DIR.glob("*.test.sh"))
    assert files == sorted(f"{name}.test.sh" for name in (*oracle.CORE, *oracle.EXTENDED))
    licence = (Path(oracle.OILS) / "LICENSE.txt").read_text(encoding="utf-8")
    assert "Apache License\n                           Version 2.0" in licence
