from __future__ import annotations

import os
import sys
from pathlib import Path

import platformdirs
import pytest
from platformdirs.macos import MacOS
from platformdirs.unix import Unix

from hookrun.config import discover, find_project_root, load, user_config_path
from hookrun.config.discovery import cheap_user_dir, discover_files, project_root


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
    # project_root, the start-up path's os.path-only copy, gives the same as a string
    assert project_root(base / cwd) == os.path.abspath(base / root)


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


@pytest.mark.parametrize("kind", ["config", "cache"])
@pytest.mark.parametrize(
    ("platform", "env"),
    [
        ("linux", {"HOME": "/home/u"}),
        ("linux", {"HOME": "/home/u", "XDG_CONFIG_HOME": "/etc/u", "XDG_CACHE_HOME": "/var/u"}),
        ("linux", {"HOME": "/home/u", "XDG_CONFIG_HOME": "rel", "XDG_CACHE_HOME": "rel"}),
        ("darwin", {"HOME": "/Users/u"}),
        ("darwin", {"HOME": "/Users/u", "XDG_CONFIG_HOME": "/x/c", "XDG_CACHE_HOME": "/x/k"}),
    ],
)
def test_the_cheap_user_dirs_are_platformdirs_own(
    kind: str, platform: str, env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The oracle is platformdirs, its Unix and macOS classes (they read only the
    environment, so both run here), and on this machine the function itself."""
    for name in ("HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    dirs = (MacOS if platform == "darwin" else Unix)("hookrun", appauthor=False)
    expected = dirs.user_config_dir if kind == "config" else dirs.user_cache_dir
    assert cheap_user_dir(kind, env, platform) == expected
    if platform == sys.platform:
        ask = platformdirs.user_config_dir if kind == "config" else platformdirs.user_cache_dir
        assert cheap_user_dir(kind, env, platform) == ask("hookrun", appauthor=False)


@pytest.mark.parametrize("env", [{}, {"HOME": ""}, {"HOME": "relative"}])
def test_without_an_absolute_home_platformdirs_is_asked(
    env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert cheap_user_dir("config", env, "linux") is None
    assert cheap_user_dir("config", {"HOME": "/h"}, "win32") is None
    for name in ("HOME", "XDG_CONFIG_HOME"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert (
        user_config_path()
        == Path(platformdirs.user_config_dir("hookrun", appauthor=False)) / "hooks.json"
    )


def test_discover_files_is_discover_as_strings(user_dir: Path, tmp_path: Path) -> None:
    put(user_dir / "hooks.json")
    put(tmp_path / "p" / ".hookrun" / "hooks.json")
    (tmp_path / "p" / "sub").mkdir()
    found = discover_files(tmp_path / "p" / "sub")
    assert found == [str(path) for path in discover(tmp_path / "p" / "sub")]
    assert found == [str(user_dir / "hooks.json"), str(tmp_path / "p" / ".hookrun" / "hooks.json")]
