"""Resolving a file hook when the file system says no: names too long for it, a path
through a regular file, an interpreter that cannot be looked at, a PATH that is unset."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from hookrun.dispatch.resolve import find_executable, plan_file

TOO_LONG = "x" * 300  # past NAME_MAX (255) on every POSIX file system


@pytest.mark.parametrize(
    ("path", "message"),
    [
        (f"./{TOO_LONG}.sh", f"./{TOO_LONG}.sh: cannot read: File name too long"),
        ("./plain.txt/hook.sh", "./plain.txt/hook.sh: a component of the path is not a directory"),
    ],
    ids=["name-too-long", "through-a-file"],
)
def test_a_hook_path_the_file_system_rejects_is_an_error_plan_naming_it(
    tmp_path: Path, path: str, message: str
) -> None:
    (tmp_path / "plain.txt").write_text("")
    plan = plan_file(path, [], cwd=str(tmp_path), env={}, platform="linux")
    assert (plan.kind, plan.message) == ("error", message)
    assert plan.exit_code in (126, 127)


def test_an_interpreter_path_through_a_regular_file_is_an_error_plan(tmp_path: Path) -> None:
    (tmp_path / "plain.txt").write_text("")
    interp = f"{tmp_path / 'plain.txt'}/interp"
    (tmp_path / "h.sh").write_text(f"#!{interp}\necho hi\n")
    plan = plan_file("./h.sh", [], cwd=str(tmp_path), env={}, platform="linux")
    assert (plan.kind, plan.exit_code) == ("error", 126)
    assert plan.message == f"./h.sh: interpreter {interp}: Not a directory"


@pytest.mark.parametrize("name", ["./missing", "sub/missing", "./plain.txt"])
def test_a_relative_name_that_is_not_a_runnable_file_is_not_found(
    tmp_path: Path, name: str
) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "plain.txt").write_text("")  # exists, but not executable
    assert find_executable(name, env={"PATH": ""}, cwd=str(tmp_path), platform="linux") is None


def test_without_path_in_the_env_the_default_search_path_is_used(tmp_path: Path) -> None:
    found = find_executable("sh", env={}, cwd=str(tmp_path), platform="linux")
    assert found is not None
    assert os.path.dirname(found) in os.defpath.split(os.pathsep)
