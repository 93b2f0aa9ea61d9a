"""context_files with a relative cwd (a host may pass ``"."``): an absolute file inside
the project cannot be compared with it, so it is kept and shown absolute, not dropped
and not a ValueError from os.path.commonpath."""

from __future__ import annotations

from pathlib import Path

import pytest

from hookrun.runner.api import resolve_context_files as resolve


def test_an_absolute_file_with_a_relative_cwd_is_kept_and_shown_absolute(tmp_path: Path) -> None:
    (tmp_path / "notes.md").write_text("x")
    shown = resolve([str(tmp_path / "notes.md")], cwd=".", project_dir=str(tmp_path))
    assert shown == (str(tmp_path / "notes.md"),)


def test_a_relative_file_with_a_relative_cwd_is_shown_relative(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "notes.md").write_text("x")
    monkeypatch.chdir(tmp_path)  # "." must mean the project for this case
    assert resolve(["notes.md", "./notes.md"], cwd=".", project_dir=str(tmp_path)) == ("notes.md",)
