"""The JUnit XML report of a ``hookrun test`` run, as CI systems read it.

The shape follows the Apache Ant JUnit schema (windyroad's JUnit.xsd, which the
tests validate against): one ``testsuite`` per test file inside ``testsuites``, each
with ``properties``, its ``testcase`` elements (a ``failure`` holding the differences
and the event's trace) and ``system-out`` / ``system-err``.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Sequence
from datetime import datetime, timezone
from typing import NamedTuple
from xml.etree import ElementTree as ET

from hookrun import __version__


class CaseOutcome(NamedTuple):
    """One case's verdict, as the report and the table show it."""

    file: str
    name: str
    seconds: float
    differences: tuple[str, ...]  # empty = passed
    error: str | None = None  # the case could not run (a config error…)
    trace: str = ""

    @property
    def passed(self) -> bool:
        return not self.differences and self.error is None


def _clean(text: str) -> str:
    # XML 1.0 cannot carry most control characters, even escaped; a hook's output may.
    return "".join(c if c in "\t\n\r" or c >= " " else f"\\x{ord(c):02x}" for c in text)


def to_xml(outcomes: Sequence[CaseOutcome], *, when: datetime | None = None) -> str:
    stamp = (when or datetime.now(timezone.utc)).astimezone(timezone.utc)
    root = ET.Element("testsuites")
    files: dict[str, list[CaseOutcome]] = {}
    for outcome in outcomes:
        files.setdefault(outcome.file, []).append(outcome)
    host = socket.gethostname() or "localhost"
    for index, (file, cases) in enumerate(files.items()):
        suite = ET.SubElement(
            root,
            "testsuite",
            {
                "name": os.path.basename(file),
                "package": "hookrun",
                "id": str(index),
                "timestamp": stamp.strftime("%Y-%m-%dT%H:%M:%S"),
                "hostname": host,
                "tests": str(len(cases)),
                "failures": str(sum(1 for c in cases if c.differences and c.error is None)),
                "errors": str(sum(1 for c in cases if c.error is not None)),
                "time": f"{sum(c.seconds for c in cases):.3f}",
            },
        )
        props = ET.SubElement(suite, "properties")
        ET.SubElement(props, "property", {"name": "file", "value": _clean(file)})
        ET.SubElement(props, "property", {"name": "hookrun.version", "value": __version__})
        for case in cases:
            item = ET.SubElement(
                suite,
                "testcase",
                {
                    "name": _clean(case.name),
                    "classname": os.path.splitext(os.path.basename(file))[0] or "hookrun",
                    "time": f"{case.seconds:.3f}",
                },
            )
            if case.error is not None:
                element = ET.SubElement(
                    item, "error", {"message": _clean(case.error), "type": "error"}
                )
                element.text = _clean(case.error)
            elif case.differences:
                message = "; ".join(case.differences)
                element = ET.SubElement(
                    item, "failure", {"message": _clean(message), "type": "mismatch"}
                )
                element.text = _clean("\n".join(case.differences) + "\n\n" + case.trace)
        ET.SubElement(suite, "system-out").text = ""
        ET.SubElement(suite, "system-err").text = ""
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
