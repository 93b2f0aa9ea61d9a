"""The host programs the e2e suite drives are the ones package-lock.json pins."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.e2e import hostprograms

pytestmark = [pytest.mark.nocov, pytest.mark.timeout(960)]


def test_package_json_pins_every_host_at_the_exact_version_the_lockfile_holds() -> None:
    manifest = json.loads((hostprograms.REPO / "package.json").read_text(encoding="utf-8"))
    assert manifest["dependencies"] == hostprograms.pinned_versions()


@pytest.mark.parametrize("host", hostprograms.HOSTS, ids=lambda h: h.name)
def test_host_program_reports_the_version_the_lockfile_pins(
    host: hostprograms.Host, host_programs: dict[str, Path], host_versions: dict[str, str]
) -> None:
    pinned = hostprograms.pinned_versions()[host.package]
    print(f"{host.name}: {host_versions[host.name]}")
    assert pinned in host_versions[host.name]
