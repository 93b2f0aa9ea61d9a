"""Fixtures of the end-to-end suite: real host programs, a throwaway world, a fake model.

- ``host_programs`` (session): ``npm ci`` of package-lock.json into ./node_modules when
  missing or stale (tests/e2e/hostprograms.py); maps host name → its executable. Outside
  CI, a missing npm or an unreachable registry skips the suite with the reason; under
  ``CI=true`` (and for any other failure) it is an error.
- ``hookrun_exe``: the ``hookrun`` console script of the venv running the tests — what a
  user puts in a host's config.
- ``world``: a throwaway HOME, a project directory the host runs in, a victim git
  repository with uncommitted work (``rm_git()`` / ``reset_hard()`` are commands that
  destroy it, ``victim_intact()`` says whether it survived), and ``host_env()``, a
  minimal environment that carries nothing of the caller's (no API keys, no CLAUDECODE,
  no user config).
- ``fake_model(dialect, script)``: a scripted model server on 127.0.0.1, stopped at
  teardown; see tests/e2e/fakemodel.py.
- ``recorder``: a hook command that appends each payload it gets to a JSON Lines file.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from tests.e2e import concurrent, hostprograms
from tests.e2e.fakemodel import Dialect, FakeModel, Script

_VERSIONS: dict[str, str] = {}


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "concurrent: the test's body runs in tests/e2e/concurrent.py's pool; its `rig` "
        "fixture comes from there",
    )


def pytest_sessionfinish() -> None:
    concurrent.cancel_all()  # a session ended early does not wait for unreported bodies


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> bool | None:
    """A concurrent test reports its body's outcome instead of running it again."""
    if pyfuncitem.get_closest_marker("concurrent") is None:
        return None
    batch = concurrent.running(pyfuncitem)
    if batch is None:
        pytest.fail("a concurrent test without a batch: it must take the `rig` fixture")
    batch.outcome(pyfuncitem)
    return True


UNCOMMITTED = "uncommitted work\n"


@pytest.fixture(scope="session")
def host_programs() -> dict[str, Path]:
    try:
        hostprograms.install()
    except hostprograms.Unavailable as err:
        if hostprograms.verdict(err, ci=hostprograms.in_ci(os.environ)) == "skip":
            pytest.skip(f"e2e hosts: cannot install the host programs from npm: {err.reason}")
        pytest.fail(f"e2e hosts: cannot install the host programs: {err.reason}", pytrace=False)
    return {h.name: hostprograms.executable(h) for h in hostprograms.HOSTS}


@pytest.fixture(scope="session")
def host_versions(
    host_programs: dict[str, Path], tmp_path_factory: pytest.TempPathFactory
) -> dict[str, str]:
    """Each host's ``--version``, asked in a throwaway HOME; shown in the summary."""
    home = tmp_path_factory.mktemp("version-home")
    env = minimal_env(home)
    for host in hostprograms.HOSTS:
        _VERSIONS[host.name] = hostprograms.version(host, env)
    return dict(_VERSIONS)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if _VERSIONS:
        line = "; ".join(f"{name}: {version}" for name, version in _VERSIONS.items())
        terminalreporter.write_line(f"e2e host programs: {line}")


@pytest.fixture(scope="session")
def hookrun_exe() -> Path:
    scripts = Path(sys.executable).parent
    exe = scripts / ("hookrun.exe" if os.name == "nt" else "hookrun")
    if not exe.exists():
        pytest.fail(f"no {exe}: run `python3 dev.py setup` first", pytrace=False)
    return exe


def minimal_env(home: Path, **extra: str) -> dict[str, str]:
    """PATH and locale from the caller, HOME and config dirs in ``home``, nothing else."""
    env = {k: os.environ[k] for k in ("PATH", "LANG", "LC_ALL", "SYSTEMROOT") if k in os.environ}
    env.update(
        HOME=str(home),
        USERPROFILE=str(home),
        XDG_CONFIG_HOME=str(home / ".config"),
        XDG_CACHE_HOME=str(home / ".cache"),
        XDG_DATA_HOME=str(home / ".local" / "share"),
        TMPDIR=str(home / "tmp"),
        TERM="dumb",
        NO_COLOR="1",
    )
    (home / "tmp").mkdir(parents=True, exist_ok=True)
    env.update(extra)
    return env


class World(NamedTuple):
    """One test's throwaway world."""

    root: Path
    home: Path
    project: Path
    victim: Path

    def host_env(self, **extra: str) -> dict[str, str]:
        return minimal_env(self.home, **extra)

    def victim_intact(self) -> bool:
        """The victim repository still has its ``.git`` and its uncommitted work."""
        work = self.victim / "work.txt"
        return (
            (self.victim / ".git" / "HEAD").is_file()
            and work.is_file()
            and (work.read_text(encoding="utf-8") == UNCOMMITTED)
        )

    def rm_git(self) -> str:
        """Deletes the victim's repository (shell-guard: delete.catastrophic)."""
        return f"rm -rf {shlex.quote(str(self.victim / '.git'))}"

    def reset_hard(self) -> str:
        """Throws the victim's uncommitted work away (shell-guard: git.reset-hard)."""
        return f"git -C {shlex.quote(str(self.victim))} reset --hard"

    def write_text(self, path: Path, text: str) -> Path:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return path

    def write_json(self, path: Path, value: Any) -> Path:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(value, indent=2), encoding="utf-8")
        return path


def make_world(root: Path) -> World:
    """A fresh world under ``root`` (created)."""
    home, project, victim = root / "home", root / "project", root / "victim"
    for path in (home, project, victim):
        path.mkdir(parents=True)
    world = World(root, home, project, victim)
    git = ["git", "-c", "user.name=e2e", "-c", "user.email=e2e@example.invalid", "-C", str(victim)]
    env = world.host_env(GIT_CONFIG_NOSYSTEM="1")
    (victim / "work.txt").write_text("committed\n", encoding="utf-8")
    for args in (["init", "-q"], ["add", "work.txt"], ["commit", "-qm", "committed"]):
        subprocess.run([*git, *args], env=env, check=True, capture_output=True, timeout=60)
    (victim / "work.txt").write_text(UNCOMMITTED, encoding="utf-8")
    assert world.victim_intact()
    return world


@pytest.fixture
def world(tmp_path: Path) -> World:
    return make_world(tmp_path)


@pytest.fixture
def fake_model() -> Iterator[Callable[[Dialect, Script], FakeModel]]:
    with ExitStack() as stack:

        def start(dialect: Dialect, script: Script) -> FakeModel:
            return stack.enter_context(FakeModel(dialect, script))

        yield start


class Recorder(NamedTuple):
    """A hook command that appends every payload it receives to ``log``, and answers nothing."""

    command: str
    log: Path

    def payloads(self) -> list[dict[str, Any]]:
        if not self.log.exists():
            return []
        lines = self.log.read_text(encoding="utf-8").splitlines()
        return [json.loads(line) for line in lines if line.strip()]

    def events(self) -> list[str]:
        return [str(p.get("hook_event_name") or p.get("event")) for p in self.payloads()]


def make_recorder(world: World) -> Recorder:
    log = world.root / "payloads.jsonl"
    code = (
        "import sys; data = sys.stdin.read().strip(); "
        f"open({str(log)!r}, 'a', encoding='utf-8').write(data.replace(chr(10), ' ') + chr(10))"
    )
    return Recorder(f"{shlex.quote(sys.executable)} -c {shlex.quote(code)}", log)


@pytest.fixture
def recorder(world: World) -> Recorder:
    return make_recorder(world)
