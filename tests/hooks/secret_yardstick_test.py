"""The scrubber against gitleaks' own true- and false-positive samples (issue 12).

Targets: recall of at least 95% for every family that names gitleaks rules, and
at most 10% of gitleaks' "must not flag" samples redacted. The figures per
family: ``python -m tests.hooks.secret_yardstick``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.hooks.secret_yardstick import (
    LABELLED_FALSE_NEGATIVES,
    all_false_samples,
    families,
    markdown_table,
    per_family,
    samples,
)

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


def test_must_not_flag_samples_flagged_in_the_claimed_families_all_have_a_secrets_shape() -> None:
    # The ones flagged are real-format Google API keys (firebase-android-sdk's
    # examples) that gitleaks' own regex matches and that it keeps quiet about by
    # listing each value; nothing in their shape tells a published key from a leaked
    # one, so they are redacted (docs/policies.md). Every other must-not-flag sample
    # of the claimed families is left alone.
    flagged = sum(s.flagged for s in RESTRICTED.values())
    total = sum(s.false for s in RESTRICTED.values())
    same_shape = sum(s.same_shape for s in RESTRICTED.values())
    assert flagged - same_shape == 0, f"{flagged - same_shape}/{total - same_shape}"
    assert RESTRICTED["google_api_key"].same_shape == flagged
    assert flagged / total <= 0.11, f"{flagged}/{total}"


@pytest.mark.parametrize(
    ("rule", "text"), [(r, t) for r, texts in LABELLED_FALSE_NEGATIVES.items() for t in texts]
)
def test_a_sample_relabelled_as_a_secret_is_one_of_gitleaks_false_samples(
    rule: str, text: str
) -> None:
    # (gitleaks marks it "// False Negative" in its source: its regex misses a secret)
    assert text in samples()[rule]["fps"]


def test_docs_show_the_measured_figures_per_family() -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "policies.md").read_text()
    assert markdown_table(RESTRICTED) in doc, (
        "refresh the table: python -m tests.hooks.secret_yardstick"
    )
