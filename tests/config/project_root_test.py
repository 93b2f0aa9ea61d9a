"""project_root: find_project_root's answer as a string, found with os.path only (the
marker table checks both: tests/config/discovery_test.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from hookrun.config.discovery import project_root


def test_project_root_of_a_relative_cwd_is_absolute(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / ".hookrun").mkdir()
    (tmp_path / "x/y").mkdir(parents=True)
    monkeypatch.chdir(tmp_path / "x")
    assert project_root("y") == str(tmp_path)


def test_project_root_of_a_deleted_cwd_is_the_cwd_as_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    gone = tmp_path / "gone"
    gone.mkdir()
    monkeypatch.chdir(gone)
    gone.rmdir()
    assert project_root(".") == "."
