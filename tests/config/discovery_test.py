from __future__ import annotations

import os
from pathlib import Path

import pytest

from hookrun.config import discover, find_project_root, load, user_config_path


@pytest.fixture
def user_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fake user config dir: platformdirs honours XDG_CONFIG_HOME on Linux."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    return tmp_path / "xdg" / "hookrun"


def put(path: Path, text: str = "{}") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_user_config_path_is_under_the_platform_user_config_dir(user_dir: Path) -> None:
    assert user_config_path() == user_dir / "hooks.json"


@pytest.mark.parametrize(
    ("markers", "cwd", "root"),
    [
        ([".git/"], "a/b/c", "."),
        ([".hookrun/"], "a/b/c", "."),
        ([".git/", "a/.hookrun/"], "a/b/c", "a"),  # the nearest marker wins
        ([".git/", "a/b/c/.git/"], "a/b/c", "a/b/c"),
        ([".git"], "a", "."),  # .git as a file (worktree, submodule) counts
        ([".hookrun"], "a", "a"),  # .hookrun must be a directory: a file is not a marker
        ([], "a/b", "a/b"),  # no marker: cwd itself
    ],
)
def test_find_project_root_is_the_nearest_ancestor_with_a_marker(
    tmp_path: Path, markers: list[str], cwd: str, root: str
) -> None:
    base = tmp_path / "proj"
    (base / cwd).mkdir(parents=True)
    for marker in markers:
        if marker.endswith("/"):
            (base / marker).mkdir(parents=True, exist_ok=True)
        else:
            put(base / marker, "gitdir: elsewhere")
    assert find_project_root(base / cwd) == Path(os.path.abspath(base / root))


def test_discover_lists_user_file_then_project_file(tmp_path: Path, user_dir: Path) -> None:
    user = put(user_dir / "hooks.json")
    project = put(tmp_path / "proj/.hookrun/hooks.json")
    (tmp_path / "proj/src/deep").mkdir(parents=True)
    assert discover(tmp_path / "proj/src/deep") == [user, project]


@pytest.mark.parametrize(
    ("has_user", "has_project"), [(True, False), (False, True), (False, False)]
)
def test_discover_lists_only_existing_files(
    tmp_path: Path, user_dir: Path, has_user: bool, has_project: bool
) -> None:
    (tmp_path / "proj/.git").mkdir(parents=True)
    expected = []
    if has_user:
        expected.append(put(user_dir / "hooks.json"))
    if has_project:
        expected.append(put(tmp_path / "proj/.hookrun/hooks.json"))
    assert discover(tmp_path / "proj") == expected


def test_discover_ignores_hookrun_dir_without_hooks_json_and_outer_projects(
    tmp_path: Path, user_dir: Path
) -> None:
    put(tmp_path / "outer/.hookrun/hooks.json")
    (tmp_path / "outer/inner/.git").mkdir(parents=True)
    # the inner repository is the project: the outer project's file is not used
    assert discover(tmp_path / "outer/inner") == []


def test_discover_lists_one_file_once_when_user_and_project_file_coincide(
    tmp_path: Path, user_dir: Path
) -> None:
    project = put(tmp_path / "proj/.hookrun/hooks.json")
    user_dir.parent.mkdir(parents=True)
    user_dir.symlink_to(tmp_path / "proj/.hookrun")
    assert discover(tmp_path / "proj") == [user_dir / "hooks.json"]
    assert project.exists()


def test_discovered_files_merge_user_hooks_first(tmp_path: Path, user_dir: Path) -> None:
    put(user_dir / "hooks.json", '{"hooks": {"PreToolUse": [{"command": "user-hook"}]}}')
    put(
        tmp_path / "proj/.hookrun/hooks.json",
        '{"hooks": {"pre_tool_use": [{"command": "project-hook"}]}}',
    )
    cwd = tmp_path / "proj"
    config = load(discover(cwd), cwd=cwd)
    assert [h.command for h in config.for_event("PreToolUse")] == ["user-hook", "project-hook"]


def test_deleted_working_directory_is_not_a_crash(
    tmp_path: Path, user_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    user = put(user_dir / "hooks.json")
    gone = tmp_path / "gone"
    gone.mkdir()
    monkeypatch.chdir(gone)
    gone.rmdir()
    assert find_project_root(".") == Path(".")
    assert discover(".") == [user]
