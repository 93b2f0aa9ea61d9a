from __future__ import annotations

import os
from pathlib import Path

from hookrun.runner.api import resolve_context_files as resolve


def make(root: Path, *names: str) -> None:
    for name in names:
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("x")


def test_existing_files_in_the_project_are_kept_relative_to_cwd(tmp_path: Path) -> None:
    make(tmp_path, "README.md", "docs/a.md")
    got = resolve(["README.md", "docs/a.md"], cwd=str(tmp_path), project_dir=str(tmp_path))
    assert got == ("README.md", os.path.join("docs", "a.md"))


def test_missing_files_are_dropped(tmp_path: Path) -> None:
    make(tmp_path, "README.md")
    got = resolve(["nope.md", "README.md"], cwd=str(tmp_path), project_dir=str(tmp_path))
    assert got == ("README.md",)


def test_duplicates_are_removed_after_resolution(tmp_path: Path) -> None:
    make(tmp_path, "README.md")
    paths = ["README.md", "./README.md", str(tmp_path / "README.md"), "docs/../README.md"]
    assert resolve(paths, cwd=str(tmp_path), project_dir=str(tmp_path)) == ("README.md",)


def test_paths_outside_the_project_are_dropped(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    make(tmp_path, "secret.txt", "proj/ok.md")
    got = resolve(
        ["../secret.txt", str(tmp_path / "secret.txt"), "ok.md", "/etc/passwd"],
        cwd=str(project),
        project_dir=str(project),
    )
    assert got == ("ok.md",)


def test_a_symlink_pointing_out_of_the_project_is_dropped(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    make(tmp_path, "secret.txt", "proj/ok.md")
    (project / "link.txt").symlink_to(tmp_path / "secret.txt")
    got = resolve(["link.txt", "ok.md"], cwd=str(project), project_dir=str(project))
    assert got == ("ok.md",)


def test_paths_resolve_against_cwd_and_are_shown_absolute_when_outside_it(tmp_path: Path) -> None:
    make(tmp_path, "README.md", "sub/local.md")
    sub = tmp_path / "sub"
    got = resolve(["local.md", "../README.md"], cwd=str(sub), project_dir=str(tmp_path))
    assert got == ("local.md", str(tmp_path / "README.md"))


def test_a_sibling_directory_with_the_project_as_name_prefix_is_outside(tmp_path: Path) -> None:
    make(tmp_path, "proj/a.md", "proj-evil/b.md")
    project = tmp_path / "proj"
    got = resolve(["../proj-evil/b.md", "a.md"], cwd=str(project), project_dir=str(project))
    assert got == ("a.md",)
