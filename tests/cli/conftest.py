"""Fixtures of the CLI tests: a throw-away project driven by a real hookrun process."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_project import Project


@pytest.fixture
def project(tmp_path: Path) -> Project:
    return Project(tmp_path / "proj")
