"""Installing the host programs: when the suite skips, when it fails, when it reinstalls.

Real npm stand-ins (executable scripts that print what npm prints and exit as it does)
in a scratch root holding a copy of the lockfile: nothing here reaches the registry.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from tests.e2e import hostprograms
from tests.e2e.hostprograms import HOSTS, Unavailable, in_ci, install, is_current, verdict

pytestmark = pytest.mark.nocov

# What npm 11 prints when the registry cannot be reached, and when the lockfile is bad.
OFFLINE = (
    "npm error code ENOTFOUND\n"
    "npm error syscall getaddrinfo\n"
    "npm error errno ENOTFOUND\n"
    "npm error network request to https://registry.npmjs.org/@openai%2fcodex failed, "
    "reason: getaddrinfo ENOTFOUND registry.npmjs.org\n"
)
OUT_OF_SYNC = (
    "npm error code EUSAGE\n"
    "npm error `npm ci` can only install packages when your package.json and "
    "package-lock.json are in sync.\n"
)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    for name in ("package.json", "package-lock.json"):
        shutil.copy(hostprograms.REPO / name, tmp_path / name)
    return tmp_path


def fake_npm(where: Path, stderr: str, code: int) -> str:
    script = where / "npm"
    script.write_text(
        f"#!{sys.executable}\nimport sys\nsys.stderr.write({stderr!r})\nsys.exit({code})\n",
        encoding="utf-8",
    )
    script.chmod(0o755)
    return str(script)


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({"CI": "true"}, True),
        ({"CI": "1"}, True),
        ({"CI": "TRUE"}, True),
        ({"CI": "false"}, False),
        ({"CI": ""}, False),
        ({}, False),
    ],
)
def test_ci_is_recognised_from_the_ci_variable(env: dict[str, str], expected: bool) -> None:
    assert in_ci(env) is expected


@pytest.mark.parametrize(
    ("unreachable", "ci", "expected"),
    [(True, False, "skip"), (True, True, "fail"), (False, False, "fail"), (False, True, "fail")],
)
def test_only_an_unreachable_registry_outside_ci_skips(
    unreachable: bool, ci: bool, expected: str
) -> None:
    assert verdict(Unavailable("x", unreachable=unreachable), ci=ci) == expected


@pytest.mark.skipif(sys.platform == "win32", reason="the npm stand-in is a shebang script")
@pytest.mark.parametrize(
    ("stderr", "unreachable"), [(OFFLINE, True), (OUT_OF_SYNC, False)], ids=["offline", "bad-lock"]
)
def test_a_failed_npm_ci_says_why_and_whether_the_registry_was_out_of_reach(
    root: Path, stderr: str, unreachable: bool
) -> None:
    with pytest.raises(Unavailable) as raised:
        install(root, npm=fake_npm(root, stderr, 1))
    assert raised.value.unreachable is unreachable
    assert "`npm ci --ignore-scripts --prefer-offline` failed (exit 1)" in raised.value.reason
    assert stderr.splitlines()[0] in raised.value.reason


def test_no_npm_at_all_counts_as_out_of_reach(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(root))  # a directory without npm
    with pytest.raises(Unavailable) as raised:
        install(root)
    assert raised.value.unreachable and "npm is not on PATH" in raised.value.reason


@pytest.mark.skipif(sys.platform == "win32", reason="the npm stand-in is a shebang script")
def test_an_install_of_another_lockfile_is_stale_and_npm_runs_again(root: Path) -> None:
    bin_dir = root / "node_modules" / ".bin"
    bin_dir.mkdir(parents=True)
    for host in HOSTS:
        (bin_dir / host.command).write_text("", encoding="utf-8")
    stamp = root / "node_modules" / hostprograms.STAMP.name
    stamp.write_text(hostprograms.lock_digest(root) + "\n", encoding="utf-8")
    assert is_current(root)
    install(root, npm=fake_npm(root, "npm must not run\n", 1))  # current: npm is not asked

    lock = root / "package-lock.json"
    lock.write_text(lock.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert not is_current(root)
    with pytest.raises(Unavailable, match="npm must not run"):
        install(root, npm=fake_npm(root, "npm must not run\n", 1))
