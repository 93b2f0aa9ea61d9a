from __future__ import annotations

from pathlib import Path

import pytest

from hookrun.hooks.paths import (
    NormPath,
    glob_literal,
    glob_match,
    glob_root,
    ignores_case,
    normalize,
)

# Seed 001's pattern table, verbatim, plus the edges our policies rely on.
GLOB_CASES = [
    ("src/workers/pool.ts", "src/workers/**", True),
    ("src/workers/sub/deep.ts", "src/workers/**", True),
    ("src/core/utils.ts", "src/workers/**", False),
    ("src/workers/pool.ts", "src/**/*.ts", True),
    ("src/core/utils.ts", "src/**/*.ts", True),
    ("docs/README.md", "src/**/*.ts", False),
    ("README.md", "*.md", True),
    ("src/README.md", "*.md", False),
    ("docker/Dockerfile", "docker/**", True),
    ("docker/compose.yml", "docker/**", True),
    ("src/docker.ts", "docker/**", False),
    # ** spans zero segments too
    ("src/x.ts", "src/**/*.ts", True),
    ("README.md", "**/*.md", True),
    ("a/b/c/d.md", "**/*.md", True),
    ("a/b/c/d.mdx", "**/*.md", False),
    # dir/** is what is below dir, not dir itself nor a sibling with the same prefix
    ("docker", "docker/**", False),
    ("dockerfiles/x", "docker/**", False),
    # * and ? never cross a segment
    ("src/a/b.py", "src/*.py", False),
    ("src/ab.py", "src/a?.py", True),
    ("src/a/.py", "src/a?.py", False),
    # dot files are matched by * (a deny rule must not be dodged by a leading dot)
    (".env", "*", True),
    (".github/workflows/ci.yml", "**/*.yml", True),
    # ./ and / prefixes mean the workspace root; seed 001 stripped every leading dot
    (".squad/team.md", "./.squad/**", True),
    (".squad/team.md", "/.squad/**", True),
    ("squad/team.md", ".squad/**", False),
    # trailing slash = everything below
    ("docs/a/b.md", "docs/", True),
    # classes, braces, escapes
    ("a.py", "[!b].py", True),
    ("b.py", "[!b].py", False),
    ("c.py", "[a-c].py", True),
    ("src/x.py", "{src,tests}/**", True),
    ("tests/x.py", "{src,tests}/**", True),
    ("lib/x.py", "{src,tests}/**", False),
    ("a/x.md", "{a,b/**}/*.md", True),
    ("x{y}", "x{y}", True),
    ("a*b", "a\\*b", True),
    ("axb", "a\\*b", False),
    ("file[1].txt", "file\\[1\\].txt", True),
    # case is significant unless asked otherwise
    ("SRC/x.py", "src/**", False),
]


@pytest.mark.parametrize(("rel", "pattern", "expected"), GLOB_CASES)
def test_glob_match_follows_seed_table_and_segment_rules(
    rel: str, pattern: str, expected: bool
) -> None:
    assert glob_match(rel, pattern) is expected


def test_glob_match_ignores_case_when_asked() -> None:
    assert glob_match("SRC/Main.PY", "src/**/*.py", ignore_case=True)


@pytest.mark.parametrize(
    ("name", "path", "expected"),
    [
        ("McManus", ".squad/agents/mcmanus/charter.md", True),
        ("mcmanus", ".squad/agents/McManus/charter.md", True),
        ("a*", ".squad/agents/abc/charter.md", False),
        ("a*", ".squad/agents/a*/charter.md", True),
        ("x{1,2}", ".squad/agents/x1/charter.md", False),
    ],
)
def test_glob_literal_matches_only_the_literal_name(name: str, path: str, expected: bool) -> None:
    pattern = "**/agents/" + glob_literal(name, ignore_case=True) + "/charter.md"
    assert glob_match(path, pattern) is expected


POSIX_CASES = [
    ("src/x.py", "src/x.py", False),
    ("/work/repo/src/x.py", "src/x.py", False),
    ("./src/./x.py", "src/x.py", False),
    ("src/../docs/x.md", "docs/x.md", False),
    ("src/../../etc/passwd", None, True),
    ("/etc/passwd", None, True),
    ("/work/repo2/x.py", None, True),  # a sibling sharing the prefix is outside
    ("/work/repo", ".", False),
    ("~/.ssh/id_rsa", None, True),  # no home known: outside is the safe answer
    ("~other/x", None, True),
    ("", None, True),
    ("src/\x00x", None, True),
    ("src\\x.py", "src\\x.py", False),  # on POSIX a backslash is a file-name character
    ("/work/repo/SRC/x.py", "SRC/x.py", False),
]


@pytest.mark.parametrize(("path", "rel", "outside"), POSIX_CASES)
def test_normalize_on_linux_resolves_relative_dotdot_and_workspace_boundary(
    path: str, rel: str | None, outside: bool
) -> None:
    got = normalize(path, workspace="/work/repo", platform="linux", resolve=False)
    assert (got.rel, got.outside, got.ignore_case) == (rel, outside, False)


def test_normalize_joins_relative_paths_to_cwd_not_workspace() -> None:
    got = normalize("../docs/a.md", workspace="/w", cwd="/w/src", platform="linux", resolve=False)
    assert got == NormPath("docs/a.md", "/w/docs/a.md", False, False)


def test_normalize_expands_tilde_with_the_given_home() -> None:
    got = normalize("~/proj/a.py", workspace="/home/u/proj", home="/home/u", resolve=False)
    assert got.rel == "a.py"


WIN_CASES = [
    ("C:\\work\\repo\\src\\x.py", "src/x.py", False),
    ("c:/WORK/Repo/src/x.py", "src/x.py", False),  # drive letter and case do not matter
    ("src\\x.py", "src/x.py", False),
    ("..\\..\\Windows\\System32\\x.dll", None, True),
    ("D:\\work\\repo\\x.py", None, True),  # another drive
    ("\\work\\repo\\x.py", "x.py", False),  # root of the current drive
    ("\\\\server\\share\\x.py", None, True),  # UNC share
    ("\\\\?\\C:\\work\\repo\\x.py", "x.py", False),  # long-path prefix
    ("C:src\\x.py", "src/x.py", False),  # drive-relative, same drive as cwd
    ("src\\notes.md.", "src/notes.md", False),  # NTFS drops trailing dots
    ("src\\notes.md  ", "src/notes.md", False),  # … and spaces
    ("src\\notes.md::$DATA", "src/notes.md", False),  # alternate data stream
    ("/work/repo2/x", None, True),
]


@pytest.mark.parametrize(("path", "rel", "outside"), WIN_CASES)
def test_normalize_on_win32_handles_separators_drives_case_and_ntfs_quirks(
    path: str, rel: str | None, outside: bool
) -> None:
    got = normalize(path, workspace="C:\\Work\\Repo", platform="win32")
    assert (got.rel, got.outside, got.ignore_case) == (rel, outside, True)


@pytest.mark.parametrize(
    ("path", "rel", "outside"),
    [
        ("/Users/Me/Repo/src/X.py", "src/X.py", False),
        ("/users/me/repo/a.md", "a.md", False),
        ("/Users/Me/Repo2/a.md", None, True),
        ("/Users/Me/Repo/cafe\u0301.md", "caf\u00e9.md", False),  # NFD name, NFC rel
    ],
)
def test_normalize_on_darwin_ignores_case_and_unicode_form(
    path: str, rel: str | None, outside: bool
) -> None:
    got = normalize(path, workspace="/Users/me/repo", platform="darwin", resolve=False)
    assert (got.rel, got.outside, got.ignore_case) == (rel, outside, True)


def test_normalize_on_linux_is_case_sensitive_at_the_boundary() -> None:
    assert normalize("/WORK/repo/x", workspace="/work/repo", platform="linux").outside


@pytest.mark.parametrize("platform", ["linux", "darwin", "win32", "cygwin"])
def test_ignores_case_is_true_exactly_for_windows_and_macos(platform: str) -> None:
    assert ignores_case(platform) is (platform in ("win32", "darwin"))


def test_symlink_to_outside_file_is_outside(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    secret = tmp_path / "secret.txt"
    secret.write_text("x")
    (ws / "link.txt").symlink_to(secret)
    got = normalize("link.txt", workspace=str(ws))
    assert got.outside and got.absolute == str(secret)


def test_symlinked_directory_then_dotdot_follows_the_real_parent(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    (tmp_path / "elsewhere" / "deep").mkdir(parents=True)
    ws.mkdir()
    (ws / "d").symlink_to(tmp_path / "elsewhere" / "deep")
    # Lexically ws/x.txt; physically tmp_path/elsewhere/x.txt — the OS writes the latter.
    assert normalize("d/../x.txt", workspace=str(ws)).outside


def test_symlink_inside_workspace_is_judged_by_its_target(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    (ws / "src").mkdir(parents=True)
    (ws / "alias").symlink_to(ws / "src")
    got = normalize(str(ws / "alias" / "new.py"), workspace=str(ws))
    assert got.rel == "src/new.py"


def test_symlinked_workspace_root_still_contains_its_files(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    (tmp_path / "ln").symlink_to(real)
    got = normalize(str(real / "a.py"), workspace=str(tmp_path / "ln"))
    assert got.rel == "a.py"


def test_win32_simulation_never_touches_the_real_filesystem(tmp_path: Path) -> None:
    # A POSIX realpath over a Windows path would mangle it; the flavour decides.
    got = normalize("C:/w/a.py", workspace="C:/w", platform="win32")
    assert got == NormPath("a.py", "C:/w/a.py", False, True)


@pytest.mark.parametrize(
    ("pattern", "root"),
    [
        ("/etc/**/*.conf", "/etc"),
        ("src/**/*.py", "src"),
        ("**/*.md", "."),
        ("/*", "/"),
        ("README.md", "README.md"),
        ("C:\\Users\\*", "C:/Users"),
    ],
)
def test_glob_root_is_the_fixed_directory_of_a_pattern(pattern: str, root: str) -> None:
    assert glob_root(pattern) == root
