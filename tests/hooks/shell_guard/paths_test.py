"""How bad deleting a path is, given the workspace, home and temp dirs."""

from __future__ import annotations

import pytest

from hookrun.hooks.shell_guard.judging import Where
from hookrun.hooks.shell_guard.model import Word
from hookrun.hooks.shell_guard.options import DEFAULT_ARTIFACT_DIRS, ShellGuardOptions
from hookrun.hooks.shell_guard.parse import words_of
from hookrun.hooks.shell_guard.paths import catastrophic, judge_delete

WHERE = Where(
    cwd="/home/dev/proj",
    workspace="/home/dev/proj",
    home="/home/dev",
    temp_dirs=("/tmp", "/var/tmp"),
    artifact_dirs=DEFAULT_ARTIFACT_DIRS,
    opts=ShellGuardOptions(),
)


@pytest.mark.parametrize(
    ("path", "why"),
    [
        ("/", "the filesystem root"),
        ("/*", "everything under /"),
        ("/home/dev", "your home directory"),
        ("/home/dev/notes", "a path in your home directory outside the workspace"),
        ("/home/dev/proj", "the workspace root itself"),
        ("/home", "a parent of the workspace"),
        ("/home/dev/proj/*", "everything in the workspace root"),
        ("/home/dev/proj/.git", "the git repository (.git)"),
        ("/etc/nginx", "a system directory"),
        ("/var", "a system directory"),
        ("/tmp/x", None),
        ("/home/dev/proj/src", None),
        ("/data/x", None),
    ],
)
def test_catastrophic_places(path: str, why: str | None) -> None:
    assert catastrophic(path, WHERE) == why


def _word(raw: str) -> Word:
    (word,) = words_of(raw, 0, [], [])
    return word


@pytest.mark.parametrize(
    ("raw", "recursive", "force", "rule"),
    [
        ("src", True, True, "delete.recursive-force"),
        ("src", True, False, None),
        ("src", False, True, None),
        ("node_modules", True, True, None),
        ("a/b/__pycache__/c", True, True, None),
        ("x.egg-info", True, True, None),
        ("/data/x", True, True, "delete.recursive-force"),
        ("/data/x", True, False, None),
        ("$X", True, False, "delete.unresolved"),
        ("$X", False, True, None),
        ("~", True, False, "delete.catastrophic"),
        ("$TMPDIR/x", True, True, None),
        ("../other", True, True, "delete.catastrophic"),
    ],
)
def test_judge_delete_by_target_and_flags(
    raw: str, recursive: bool, force: bool, rule: str | None
) -> None:
    verdict = judge_delete(_word(raw), WHERE.cwd, WHERE, recursive=recursive, force=force)
    assert (verdict[0] if verdict else None) == rule


def test_relative_target_with_an_unknown_cwd_is_unresolved() -> None:
    verdict = judge_delete(_word("build2"), None, WHERE, recursive=True, force=True)
    assert verdict is not None and verdict[0] == "delete.unresolved"
