"""project_root: find_project_root's answer as a string, found with os.path only."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from hookrun.config.discovery import find_project_root, project_root


@pytest.mark.parametrize(
    ("markers", "cwd", "root"),
    [
        ([".git/"], "a/b/c", "."),
        ([".hookrun/"], "a/b/c", "."),
        ([".git/", "a/.hookrun/"], "a/b/c", "a"),
        ([".git"], "a", "."),  # a .git file counts
        ([".hookrun"], "a", "a"),  # a .hookrun file does not
        ([], "a/b", "a/b"),
    ],
)
def test_project_root_is_the_string_of_find_project_root(
    tmp_path: Path, markers: list[str], cwd: str, root: str
) -> None:
    base = tmp_path / "proj"
    (base / cwd).mkdir(parents=True)
    for marker in markers:
        if marker.endswith("/"):
            (base / marker).mkdir(parents=True, exist_ok=True)
        else:
            (base / marker).write_text("gitdir: elsewhere")
    found = project_root(base / cwd)
    assert found == os.path.abspath(base / root)
    assert Path(found) == find_project_root(base / cwd)


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
