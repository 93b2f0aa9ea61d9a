"""The scrubber against gitleaks' own true- and false-positive samples (issue 12).

Targets: recall of at least 95% for every family that names gitleaks rules, and
at most 10% of gitleaks' "must not flag" samples redacted. The figures per
family: ``python -m tests.hooks.secret_yardstick``.
"""

from __future__ import annotations

import pytest

from tests.hooks.secret_yardstick import all_false_samples, families, per_family, samples

PLAIN, RESTRICTED = per_family()


def test_the_vendored_samples_are_gitleaks_at_the_pinned_commit() -> None:
    data = samples()
    assert len(data) >= 200
    assert sum(len(r["tps"]) for r in data.values()) >= 6000, (
        "re-run scripts/gitleaks_samples.py: the extraction lost samples"
    )


def test_every_named_gitleaks_rule_exists_and_has_true_samples() -> None:
    data = samples()
    for kind, ids in families().items():
        for rid in ids:
            assert rid in data, f"{kind}: unknown gitleaks rule {rid}"
            assert data[rid]["tps"], f"{kind}: {rid} has no true samples"


def test_at_least_thirty_families_are_measured() -> None:
    assert len(PLAIN) >= 30


@pytest.mark.parametrize("kind", sorted(PLAIN))
def test_family_recall_on_gitleaks_true_samples_is_at_least_95_percent(kind: str) -> None:
    score = PLAIN[kind]
    assert score.recall >= 0.95, f"{kind}: {score.caught}/{score.true}"


def test_at_most_ten_percent_of_gitleaks_must_not_flag_samples_are_redacted() -> None:
    flagged, total = all_false_samples()
    assert total >= 250
    assert flagged / total <= 0.10, f"{flagged}/{total}"


def test_must_not_flag_samples_of_the_claimed_families_stay_near_the_target() -> None:
    # 15 of the ones flagged are real, public Google API keys that gitleaks only
    # keeps quiet about by listing each value; the scrubber cannot tell a published
    # key from a leaked one by its shape and redacts them (docs/policies.md).
    flagged = sum(s.flagged for s in RESTRICTED.values())
    total = sum(s.false for s in RESTRICTED.values())
    google = RESTRICTED["google_api_key"].flagged
    assert (flagged - google) / (total - RESTRICTED["google_api_key"].false) <= 0.05
    assert flagged / total <= 0.12, f"{flagged}/{total}"
