"""``hookrun install|uninstall`` on config files the real host program wrote itself.

Where a host writes the very file ``hookrun install`` edits, that file is the starting
point: the host writes it (Gemini CLI 0.61: ``gemini mcp add`` → the project's
``.gemini/settings.json``; Claude Code 2.1: ``claude plugin install --scope project`` →
the project's ``.claude/settings.json``), then install twice = no change, then the host
runs and reads it — a destructive shell call the fake model scripts is denied through
the wiring install wrote (the victim survives), and what the host wrote itself still
holds — then uninstall gives the host's bytes back, and the same host run is the
positive control: with hookrun unwired the victim is destroyed.

Where no host program writes the file, there is nothing to start from but a file
shaped after the host's documentation (tests/hosts/install_test.py):
- Codex CLI 0.169 writes ``config.toml`` (``codex mcp add``), never ``hooks.json``,
  the file hookrun installs into;
- Copilot CLI 1.0 reads every ``.github/hooks/*.json``; ``hookrun.json`` is hookrun's own
  file, written by no host;
- Cursor and Crush do not run here (README, end-to-end tests).
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.e2e.claude_driver import ClaudeCode
from tests.e2e.conftest import World, make_world
from tests.e2e.driver import Driver
from tests.e2e.fakemodel import Text
from tests.e2e.gemini_driver import GeminiCli
from tests.e2e.rig import Rig

pytestmark = [pytest.mark.nocov, pytest.mark.timeout(600)]

MARK = "E2E-INSTALL-4K9"


def _host(exe: Path, world: World, *args: str) -> subprocess.CompletedProcess[str]:
    env = world.host_env(
        GEMINI_CLI_TRUST_WORKSPACE="true",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
        IS_SANDBOX="1",  # Claude Code as root
    )
    return subprocess.run(
        [str(exe), *args],
        cwd=world.project,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )


def _gemini_writes(exe: Path, world: World) -> Path:
    # An http server on a closed local port: the run's connection attempt fails at once.
    ran = _host(exe, world, "mcp", "add", "-t", "http", "--trust", "docs", "http://127.0.0.1:9/mcp")
    assert ran.returncode == 0, ran.stdout + ran.stderr
    return world.project / ".gemini" / "settings.json"


def _gemini_still_reads(exe: Path, world: World) -> None:
    ran = _host(exe, world, "mcp", "list")
    said = ran.stdout + ran.stderr  # it lists on stderr
    assert "Invalid configuration" not in said, said  # Gemini validates the whole file
    assert "docs: http://127.0.0.1:9/mcp" in said, said


def _claude_writes(exe: Path, world: World) -> Path:
    market = world.root / "market"
    for path, value in (
        (
            market / ".claude-plugin" / "marketplace.json",
            {"name": "e2e-market", "owner": {"name": "hookrun e2e"},
             "plugins": [{"name": "demo", "source": "./plugins/demo", "description": "demo"}]},
        ),
        (
            market / "plugins" / "demo" / ".claude-plugin" / "plugin.json",
            {"name": "demo", "version": "0.1.0", "description": "demo"},
        ),
    ):  # fmt: skip
        world.write_json(path, value)
    for args in (
        ("plugin", "marketplace", "add", str(market)),
        ("plugin", "install", "demo@e2e-market", "--scope", "project"),
    ):
        ran = _host(exe, world, *args)
        assert ran.returncode == 0, ran.stdout + ran.stderr
    return world.project / ".claude" / "settings.json"


def _claude_still_reads(exe: Path, world: World) -> None:
    ran = _host(exe, world, "plugin", "list")
    listed = ran.stdout.split("demo@e2e-market", 1)
    assert len(listed) == 2, ran.stdout + ran.stderr
    assert "Scope: project" in listed[1] and "enabled" in listed[1], ran.stdout


HOSTS: dict[str, tuple[Driver, Callable[[Path, World], Path], Callable[[Path, World], None]]] = {
    "gemini": (GeminiCli(), _gemini_writes, _gemini_still_reads),
    "claude": (ClaudeCode(), _claude_writes, _claude_still_reads),
}


@pytest.mark.parametrize("host", list(HOSTS))
def test_install_round_trip_on_the_file_the_host_wrote_and_the_host_runs_the_wiring(
    host: str, host_programs: dict[str, Path], hookrun_exe: Path, tmp_path: Path
) -> None:
    driver, writes, still_reads = HOSTS[host]
    exe = host_programs[host]
    world = make_world(tmp_path)
    path = writes(exe, world)
    original = path.read_bytes()
    # The project's hookrun config, found by discovery from the host's cwd.
    world.write_json(
        world.project / ".hookrun" / "hooks.json",
        {"version": 1, "hooks": {"PreToolUse": [{"builtin": "shell-guard"}]}},
    )

    def hookrun(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(hookrun_exe), *args], cwd=world.project, env=world.host_env(),
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip

    first = hookrun("install", host)
    assert first.returncode == 0, first.stderr
    installed = path.read_bytes()
    assert installed != original
    second = hookrun("install", host)
    assert second.returncode == 0 and "unchanged" in second.stdout, second
    assert path.read_bytes() == installed
    still_reads(exe, world)

    rig = Rig(driver, exe, hookrun_exe, world)
    script = {MARK: [driver.shell(driver.destroy(world)), Text("done")]}
    run, model = rig.run_raw(script, f"{MARK} clean up")
    assert world.victim_intact(), rig.dump(run, model)
    assert model.conversation(MARK), rig.dump(run, model)  # the tool call was really made

    gone = hookrun("uninstall", host)
    assert gone.returncode == 0, gone.stderr
    assert path.read_bytes() == original
    still_reads(exe, world)
    # The positive control: the same host run, hookrun unwired, destroys the victim.
    run, model = rig.run_raw(script, f"{MARK} clean up")
    assert not world.victim_intact(), rig.dump(run, model)
