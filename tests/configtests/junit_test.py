"""The JUnit report is valid against the Ant JUnit schema CI systems read."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import xmlschema

from hookrun.configtests.junit import CaseOutcome, to_xml

SCHEMA = xmlschema.XMLSchema(str(Path(__file__).parent / "junit_schema" / "JUnit.xsd"))
WHEN = datetime(2026, 11, 23, 6, 0, tzinfo=timezone.utc)


def test_passes_failures_and_errors_across_files_validate() -> None:
    outcomes = [
        CaseOutcome("/p/.hookrun/tests/a.yaml", "passes", 0.01, ()),
        CaseOutcome(
            "/p/.hookrun/tests/a.yaml",
            "fails",
            0.02,
            ("decision: expected deny, got none",),
            trace="t\x01race",
        ),
        CaseOutcome(
            "/p/.hookrun/tests/b.json", "(test file)", 0.0, (), error="b.json: not valid JSON"
        ),
    ]
    xml = to_xml(outcomes, when=WHEN)
    SCHEMA.validate(xml)
    doc = SCHEMA.to_dict(xml)
    suites = doc["testsuite"]
    assert [s["@name"] for s in suites] == ["a.yaml", "b.json"]
    assert (suites[0]["@tests"], suites[0]["@failures"], suites[0]["@errors"]) == (2, 1, 0)
    assert (suites[1]["@failures"], suites[1]["@errors"]) == (0, 1)
    assert "\\x01" in xml  # a control character a hook printed is shown, not invalid XML


def test_an_empty_run_still_validates() -> None:
    SCHEMA.validate(to_xml([], when=WHEN))
