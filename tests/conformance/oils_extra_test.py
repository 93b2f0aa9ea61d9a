"""The in-process shell against bash on Oils spec files outside the core/extended
sets (``oils/extra/``): namerefs, process substitution. Not counted in the conformance figures.

bash 5.2 is the oracle (the spec file's expected text is not: cases where bash and the
file disagree still run, judged against bash). Cases hookrun does not pass yet are
strict xfails with their reason, so the list only shrinks.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.conformance import oracle
from tests.conformance.specfile import Case, parse_file

EXTRA = Path(oracle.OILS) / "extra"
CASES = [case for path in sorted(EXTRA.glob("*.test.sh")) for case in parse_file(path)]
XFAIL: dict[str, str] = {}

pytestmark = [
    pytest.mark.nocov,
    pytest.mark.skipif(sys.platform == "win32", reason="the spec cases assume a POSIX system"),
    pytest.mark.skipif(oracle.find_bash() is None, reason="bash is the oracle"),
]


def _param(case: Case) -> object:
    marks = [pytest.mark.xfail(strict=True, reason=XFAIL[case.key])] if case.key in XFAIL else []
    return pytest.param(case, id=case.key, marks=marks)


@pytest.fixture(scope="module")
def verdicts(tmp_path_factory: pytest.TempPathFactory) -> dict[str, oracle.Verdict]:
    base = tmp_path_factory.mktemp("oils-extra")
    judged = oracle.judge(CASES, base, exclusions={}, bash=oracle.find_bash())
    return {v.case.key: v for v in judged}


@pytest.mark.timeout(600)
@pytest.mark.parametrize("case", [_param(case) for case in CASES])
def test_extra_oils_case_as_bash(case: Case, verdicts: dict[str, oracle.Verdict]) -> None:
    verdict = verdicts[case.key]
    assert verdict.passed, verdict.explain()


def test_expected_failures_name_real_cases() -> None:
    assert sorted(set(XFAIL) - {case.key for case in CASES}) == []
