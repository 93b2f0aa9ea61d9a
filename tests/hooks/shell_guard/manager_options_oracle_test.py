"""A package manager's options that take a value, so the command after them is found.

``uv run --color never rm -rf /`` was allowed: ``uv run``'s table named 12 of its 50
options that take a value, and ``never`` was read as the program. The table is now
uv 0.13's ``uv run --help`` (every option shown with a ``<VALUE>``, the global ones too);
the package managers' options before their subcommand gained uv's ``--allow-insecure-host``
and npm/pnpm's ``--loglevel``, ``--reporter``, ``--userconfig``, ``--cache``; ``yarn
workspace NAME CMD…`` and ``yarn workspaces foreach [OPTS] CMD…`` run yarn's CMD.

The oracle is uv itself, when it is on PATH (``pip install uv``): each row runs in bash,
offline, with no uv config, in an empty directory, with a marker program (``redteam.MARK``)
in ``rm``'s place — uv runs it with the row's arguments. yarn is not on this machine:
its rows are judged only (its own docs: ``yarn workspace``, ``yarn workspaces foreach``).
"""

from __future__ import annotations

import os
import shlex
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

from .redteam import MARK, judge

UV = shutil.which("uv")

# (line, the arguments uv runs rm with): denied as delete.catastrophic
UV_BLOCKED = [
    ("uv run --no-project --color never {r} -rf /", "-rf /"),
    ("uv run --no-project --index-url https://example.invalid/simple {r} -rf /", "-rf /"),
    ("uv run --no-project --extra-index-url https://example.invalid/simple {r} -rf /", "-rf /"),
    ("uv run --no-project --exclude-newer 2025-01-01 {r} -rf /", "-rf /"),
    ("uv run --no-project --link-mode copy {r} -rf /", "-rf /"),
    ("uv run --no-project --cache-dir ./c {r} -rf /", "-rf /"),
    ("uv --color never run --no-project {r} -rf /", "-rf /"),
    ("uv --allow-insecure-host example.invalid run --no-project {r} -rf /", "-rf /"),
    ("uv run --no-project --keyring-provider disabled {r} -rf /", "-rf /"),
    ("uv run --no-project --resolution lowest {r} -rf /", "-rf /"),
    ("uv run --no-project --prerelease allow {r} -rf /", "-rf /"),
    ("uv run --no-project --index-strategy unsafe-best-match {r} -rf ~", "-rf ~"),
    ("uv run --no-project -C k=v {r} -rf /", "-rf /"),
    ("uv run --color=never --no-project -p 3 {r} -rf /", "-rf /"),
]
# (line, the arguments uv runs rm with): a target the delete rules allow
UV_ALLOWED = [
    ("uv run --no-project --color never {r} -rf build", "-rf build"),
    ("uv run --no-project --index-url https://example.invalid/simple {r} -rf dist", "-rf dist"),
    ("uv run --no-project --exclude-newer 2025-01-01 {r} -rf .venv", "-rf .venv"),
    ("uv --color never run --no-project {r} -rf node_modules", "-rf node_modules"),
    ("uv run --no-project --link-mode copy {r} -f out.txt", "-f out.txt"),
    ("uv run --no-project --cache-dir ./c {r} -rf __pycache__", "-rf __pycache__"),
    ("uv run --no-project --resolution lowest {r} -rf /tmp/x", "-rf /tmp/x"),
    ("uv run --no-project --prerelease allow {r} -r target", "-r target"),
    ("uv run --no-project --keyring-provider disabled {r} -rf .pytest_cache", "-rf .pytest_cache"),
    ("uv run --no-project -C k=v {r} -rf htmlcov", "-rf htmlcov"),
]

# yarn 4 (judged only): (line, rule) and look-alikes
YARN_BLOCKED = [
    ("yarn workspace web exec rm -rf /", "delete.catastrophic"),
    ("yarn workspace @acme/web exec rm -rf ~", "delete.catastrophic"),
    ("yarn workspace web rimraf /", "delete.catastrophic"),
    ("yarn workspaces foreach -A exec rm -rf /", "delete.catastrophic"),
    ("yarn workspaces foreach --all --parallel exec rm -rf ~", "delete.catastrophic"),
    ("yarn workspaces foreach -j 2 --include web exec rm -rf /", "delete.catastrophic"),
    ("yarn workspaces foreach --exclude docs -A exec git push --force", "git.force-push"),
    ("yarn --cwd app workspace web exec rm -rf /", "delete.catastrophic"),
    ("yarn workspace web exec git reset --hard", "git.reset-hard"),
    ("yarn workspace web dlx rimraf /", "delete.catastrophic"),
]
YARN_ALLOWED = [
    "yarn workspace web run build",
    "yarn workspace web add -D typescript",
    "yarn workspace web exec rm -rf dist",
    "yarn workspaces foreach -A run test",
    "yarn workspaces foreach -j 2 --include web exec rm -rf node_modules",
    "yarn workspaces list --json",
    "yarn workspace @acme/web exec tsc --noEmit",
    "yarn workspaces foreach --all exec rm -rf build",
    "yarn workspace web rimraf dist",
    "yarn workspace rm run clean",
]


def test_each_table_holds_ten_rows() -> None:
    for table in (UV_BLOCKED, UV_ALLOWED, YARN_BLOCKED, YARN_ALLOWED):
        assert len(table) >= 10


@pytest.mark.parametrize(("template", "args"), UV_BLOCKED, ids=[r[0] for r in UV_BLOCKED])
def test_the_command_after_uvs_options_is_judged(template: str, args: str) -> None:
    verdict = judge(template.format(r="rm"))
    assert verdict.decision == "deny", template
    assert "[delete.catastrophic]" in (verdict.reason or ""), verdict.reason


@pytest.mark.parametrize(("template", "args"), UV_ALLOWED, ids=[r[0] for r in UV_ALLOWED])
def test_a_harmless_command_after_uvs_options_passes(template: str, args: str) -> None:
    verdict = judge(template.format(r="rm"))
    assert verdict.decision is None, verdict.reason


@pytest.mark.skipif(UV is None, reason="uv is not installed")
@pytest.mark.parametrize(
    ("template", "args"), UV_BLOCKED + UV_ALLOWED, ids=[r[0] for r in UV_BLOCKED + UV_ALLOWED]
)
def test_uv_runs_the_program_after_its_options(tmp_path: Path, template: str, args: str) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    marker = bin_dir / MARK
    marker.write_text(
        '#!/bin/sh\nprintf \'%s\\037\' "$@" >> "$HK_MARK_LOG"\necho >> "$HK_MARK_LOG"\n'
    )
    marker.chmod(marker.stat().st_mode | stat.S_IXUSR)
    work = tmp_path / "w"
    work.mkdir()
    log = tmp_path / "marks"
    env = {
        "PATH": f"{bin_dir}:{os.path.dirname(UV or '')}:/usr/local/bin:/usr/bin:/bin",
        "HOME": str(tmp_path),
        "HK_MARK_LOG": str(log),
        "UV_OFFLINE": "1",
        "UV_NO_CONFIG": "1",
        "UV_CACHE_DIR": str(tmp_path / "cache"),
        "UV_PYTHON_DOWNLOADS": "never",
        "LC_ALL": "C",
    }
    line = template.format(r=MARK)
    subprocess.run(
        ["bash", "-c", line], cwd=work, env=env, stdin=subprocess.DEVNULL,
        capture_output=True, timeout=120, check=False,
    )  # fmt: skip
    ran = [r.split("\037")[:-1] for r in log.read_text().split("\n")[:-1]] if log.exists() else []
    want = [str(tmp_path) if a == "~" else a for a in shlex.split(args)]
    assert want in ran, (line, ran)


@pytest.mark.parametrize(("line", "rule"), YARN_BLOCKED, ids=[r[0] for r in YARN_BLOCKED])
def test_yarns_workspace_command_is_judged(line: str, rule: str) -> None:
    verdict = judge(line)
    assert verdict.decision == "deny", line
    assert f"[{rule}]" in (verdict.reason or ""), verdict.reason


@pytest.mark.parametrize("line", YARN_ALLOWED)
def test_a_harmless_workspace_command_passes(line: str) -> None:
    verdict = judge(line)
    assert verdict.decision is None, verdict.reason
