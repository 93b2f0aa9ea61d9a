"""``hookrun install|uninstall HOST`` and ``hookrun doctor`` on config files as each host
writes them (tests/hosts/fixtures/configs: the hosts' documented shapes, with their own
keys and hooks), through the real command."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hookrun.hosts import install as plan

REPO = Path(__file__).resolve().parents[2]
CONFIGS = Path(__file__).parent / "fixtures" / "configs"

# host → where its project config lives, relative to the project.
FILES = {
    "claude": ".claude/settings.json",
    "codex": ".codex/hooks.json",
    "gemini": ".gemini/settings.json",
    "copilot": ".github/hooks/hookrun.json",
    "cursor": ".cursor/hooks.json",
    "crush": "crush.json",
}


class World:
    def __init__(self, root: Path) -> None:
        self.project = root / "proj"
        self.home = root / "home"
        (self.project / ".git").mkdir(parents=True)
        self.home.mkdir()
        self.env = {k: v for k, v in os.environ.items() if not k.startswith(("HOOKRUN", "CODEX"))}
        self.env.update(
            PYTHONPATH=str(REPO),
            HOME=str(self.home),
            XDG_CONFIG_HOME=str(root / "xdg"),
            USERPROFILE=str(self.home),
        )

    def hookrun(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "hookrun", *args],
            capture_output=True,
            text=True,
            cwd=self.project,
            env=self.env,
            timeout=60,
        )


@pytest.fixture
def world(tmp_path: Path) -> World:
    return World(tmp_path)


def seed(world: World, host: str) -> tuple[Path, bytes | None]:
    path = world.project / FILES[host]
    source = CONFIGS / f"{host}.json"
    if not source.exists():
        return path, None
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(source.read_bytes())
    return path, path.read_bytes()


def wired_events(path: Path) -> dict[str, list[str]]:
    return plan.wired(json.loads(path.read_text()))


@pytest.mark.parametrize("host", list(FILES))
def test_install_twice_then_uninstall_gives_the_original_bytes_back(
    world: World, host: str
) -> None:
    path, original = seed(world, host)
    first = world.hookrun("install", host)
    assert first.returncode == 0, first.stderr
    installed = path.read_bytes()
    wired = wired_events(path)
    target = plan.target(
        host, "project", project=str(world.project), home=str(world.home), env=world.env
    )
    assert sorted(wired) == sorted(target.events)
    for event, commands in wired.items():
        # The absolute hookrun this command ran with, the host's own event, its --host.
        # (Copilot's entry has the same command under "bash" and "powershell".)
        assert set(commands) == {
            f"{sys.executable} -m hookrun run {event} --host {plan.host_flag(target)}"
        }
    second = world.hookrun("install", host)
    assert second.returncode == 0 and "unchanged" in second.stdout
    assert path.read_bytes() == installed
    gone = world.hookrun("uninstall", host)
    assert gone.returncode == 0, gone.stderr
    if original is None:
        assert not path.exists()
    else:
        assert path.read_bytes() == original


@pytest.mark.parametrize("host", [h for h in FILES if (CONFIGS / f"{h}.json").exists()])
def test_install_keeps_every_other_key_byte_for_byte_and_the_users_own_hooks(
    world: World, host: str
) -> None:
    path, original = seed(world, host)
    assert original is not None
    before = json.loads(original)
    world.hookrun("install", host)
    after = json.loads(path.read_text())
    for key, value in before.items():
        if key != "hooks":
            assert after[key] == value
            # Not only the value: the text of every other member is unchanged.
            assert json.dumps(key) in path.read_text()
    for event, entries in before.get("hooks", {}).items():
        assert all(entry in after["hooks"][event] for entry in entries)
    text = path.read_text()
    hooks_at = text.index('"hooks"')
    assert text[:hooks_at] == original.decode()[: original.decode().index('"hooks"')]


@pytest.mark.parametrize("host", ["claude", "gemini", "crush"])
def test_uninstall_from_an_edited_file_removes_only_hookruns_entries(
    world: World, host: str
) -> None:
    path, original = seed(world, host)
    assert original is not None
    world.hookrun("install", host)
    edited = json.loads(path.read_text())
    edited["addedLater"] = True
    path.write_text(json.dumps(edited, indent=2) + "\n")
    assert world.hookrun("uninstall", host).returncode == 0
    left = json.loads(path.read_text())
    assert left.pop("addedLater") is True
    assert left == json.loads(original)
    assert plan.wired(left) == {}


def test_dry_run_prints_the_diff_and_writes_nothing(world: World) -> None:
    path, original = seed(world, "claude")
    ran = world.hookrun("install", "claude", "--dry-run")
    assert ran.returncode == 0
    assert ran.stdout.startswith(f"--- {path}\n+++ {path}\n")
    added = [line for line in ran.stdout.splitlines() if line.startswith("+ ")]
    assert any(f'"{sys.executable} -m hookrun run PreToolUse --host auto"' in a for a in added)
    assert path.read_bytes() == original
    assert not (world.project / ".hookrun" / "installed.json").exists()


def test_user_scope_writes_the_hosts_user_file(world: World) -> None:
    ran = world.hookrun("install", "gemini", "--user")
    assert ran.returncode == 0, ran.stderr
    assert "BeforeTool" in wired_events(world.home / ".gemini" / "settings.json")


def test_a_jsonc_file_is_refused_rather_than_stripped_of_its_comments(world: World) -> None:
    path = world.project / ".claude" / "settings.json"
    path.parent.mkdir()
    path.write_text('{\n  // mine\n  "env": {}\n}\n')
    ran = world.hookrun("install", "claude")
    assert ran.returncode == 1 and "comments" in ran.stderr
    assert "// mine" in path.read_text()


def test_doctor_lists_what_is_wired_and_fails_when_a_command_does_not_start(
    world: World,
) -> None:
    world.hookrun("install", "claude")
    ok = world.hookrun("doctor")
    assert ok.returncode == 0, ok.stdout
    assert "Claude Code (project)" in ok.stdout and "PreToolUse" in ok.stdout
    path = world.project / ".claude" / "settings.json"
    path.write_text(path.read_text().replace(sys.executable, "/nonexistent/venv/bin/python"))
    bad = world.hookrun("doctor", "claude")
    assert bad.returncode == 1
    assert "does not start" in bad.stdout and "exit 127" in bad.stdout


def test_doctor_says_what_is_missing(world: World) -> None:
    world.hookrun("install", "cursor")
    path = world.project / ".cursor" / "hooks.json"
    data = json.loads(path.read_text())
    del data["hooks"]["stop"]
    path.write_text(json.dumps(data))
    ran = world.hookrun("doctor", "cursor")
    assert ran.returncode == 0 and "not wired: stop" in ran.stdout


def test_hookrun_reads_the_claude_settings_it_wrote(world: World) -> None:
    from hookrun.config import load

    world.hookrun("install", "claude")
    config = load([".claude/settings.json"], cwd=world.project)
    spec = config.for_event("PreToolUse")[0]
    assert spec.dialect == "claude" and spec.command is not None
    assert spec.command.endswith("run PreToolUse --host auto")
