"""hookrun.config.cache: a hit is the loader's own answer; anything wrong with the cache
is a miss and a normal load, never a different config."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hookrun.config import ConfigError, cache, loader

REPO = Path(__file__).resolve().parents[2]

CONFIGS = {
    "inline": {
        "hooks": {
            "PreToolUse": [
                {"command": 'echo \'{"decision":"allow"}\'', "timeout": 5},
                {"matcher": "^edit$", "command": "exit 2", "env": {"K": "V"}},
            ]
        }
    },
    "builtins and settings": {
        "timeout": 12,
        "include_sub_agents": True,
        "audit_log": "~/audit.jsonl",
        "telemetry": {"endpoint": "http://127.0.0.1:4318"},
        "hooks": {
            "PreToolUse": [
                {
                    "matcher": "Bash",
                    "builtin": "shell-guard",
                    "with": {"allow_force_with_lease": True},
                },
                {"matcher": "^(?!Bash$)", "command": "./check.sh", "on_error": "deny"},
                {"matcher": "a+b", "command": "./x.sh"},
            ],
            "SessionStart": [{"matcher": "startup", "command": "echo hi"}],
            "pre_tool_use": [{"command": "./y.sh"}],
            "MyEvent": [{"command": "./z.sh", "unknown_key": 1}],  # warnings are kept too
        },
    },
    "claude shape": {
        "permissions": {"allow": []},
        "hooks": {
            "PreToolUse": [
                {"matcher": "Edit|Write", "hooks": [{"type": "command", "command": "./fmt.sh"}]},
                {"matcher": "*", "hooks": [{"type": "command", "command": "echo ok"}]},
            ]
        },
    },
}


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("HOOKRUN_CONFIG_CACHE", raising=False)
    (tmp_path / "proj").mkdir()
    return tmp_path


def _write(home: Path, config: object, name: str = "hooks.json") -> str:
    path = home / "proj" / name
    path.write_text(json.dumps(config) if not isinstance(config, str) else config)
    return name


def _entries(home: Path) -> list[Path]:
    folder = home / "cache" / "hookrun" / "configs"
    return sorted(folder.iterdir()) if folder.is_dir() else []


def _no_loader(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the loader ran on a hit")

    monkeypatch.setattr(loader, "load", refuse)


@pytest.mark.parametrize("name", list(CONFIGS))
def test_a_hit_gives_what_the_loader_gives(
    home: Path, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    cwd = str(home / "proj")
    path = _write(home, CONFIGS[name])
    fresh = loader.load([path], cwd=cwd)
    assert cache.load([path], cwd=cwd) == fresh  # a miss: loaded and stored
    assert len(_entries(home)) == 1
    _no_loader(monkeypatch)
    hit = cache.load([path], cwd=cwd)
    assert hit == fresh
    for event, specs in fresh.hooks.items():  # the matchers search as the loader's do
        for mine, theirs in zip(hit.hooks[event], specs, strict=True):
            matchers = (mine.compiled_matcher, theirs.compiled_matcher)
            if theirs.compiled_matcher is not None:
                assert [m.plain for m in matchers if m] == [theirs.compiled_matcher.plain] * 2
                for subject in ("Bash", "Edit", "Write", "NotebookEdit", "aab", "startup"):
                    assert mine.matches(subject) is theirs.matches(subject), subject


def test_a_changed_file_is_loaded_again(home: Path) -> None:
    cwd = str(home / "proj")
    path = _write(home, CONFIGS["inline"])
    cache.load([path], cwd=cwd)
    _write(home, CONFIGS["claude shape"])
    assert cache.load([path], cwd=cwd) == loader.load([path], cwd=cwd)
    assert len(_entries(home)) == 1  # same files: the entry is replaced


def test_the_same_name_from_another_directory_is_another_entry(home: Path) -> None:
    other = home / "other"
    other.mkdir()
    (other / "hooks.json").write_text(json.dumps(CONFIGS["claude shape"]))
    path = _write(home, CONFIGS["inline"])
    first = cache.load([path], cwd=str(home / "proj"))
    second = cache.load([path], cwd=str(other))
    assert first != second
    assert second == loader.load([path], cwd=str(other))


def test_a_broken_config_is_an_error_each_time_and_never_stored(home: Path) -> None:
    cwd = str(home / "proj")
    path = _write(home, '{"hooks": {"PreToolUse": [{"matcher": "(bash", "command": "x"}]}}')
    for _ in range(2):
        with pytest.raises(ConfigError) as info:
            cache.load([path], cwd=cwd)
        assert "invalid regex" in str(info.value)
    assert _entries(home) == []
    with pytest.raises(ConfigError, match="file not found"):
        cache.load(["missing.json"], cwd=cwd)


def _damage(kind: str, data: bytes) -> bytes:
    if kind == "flipped bit":
        middle = len(data) // 2
        return data[:middle] + bytes([data[middle] ^ 0x10]) + data[middle + 1 :]
    if kind == "truncated":
        return data[: len(data) // 2]
    if kind == "empty":
        return b""
    if kind == "garbage":
        return os.urandom(len(data))
    raise AssertionError(kind)


@pytest.mark.parametrize("kind", ["flipped bit", "truncated", "empty", "garbage"])
def test_a_damaged_entry_is_a_miss_and_is_rewritten(home: Path, kind: str) -> None:
    cwd = str(home / "proj")
    path = _write(home, CONFIGS["builtins and settings"])
    expected = loader.load([path], cwd=cwd)
    cache.load([path], cwd=cwd)
    (entry,) = _entries(home)
    good = entry.read_bytes()
    entry.write_bytes(_damage(kind, good))
    assert cache.load([path], cwd=cwd) == expected
    assert entry.read_bytes() == good


def test_an_entry_whose_key_differs_is_a_miss(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A whole, well-formed entry written for other bytes (another hookrun, another
    config that happens to share the file name) is never used."""
    cwd = str(home / "proj")
    path = _write(home, CONFIGS["inline"])
    key = cache._key([path], cwd)
    assert key is not None
    other = loader.load([_write(home, CONFIGS["claude shape"], "other.json")], cwd=cwd)
    cache._write(str(home / "cache" / "hookrun" / "configs"), (*key[:-2], "x", key[-1]), other)
    assert cache.load([path], cwd=cwd) == loader.load([path], cwd=cwd)


def test_a_changed_loader_source_is_a_miss(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cwd = str(home / "proj")
    path = _write(home, CONFIGS["inline"])
    cache.load([path], cwd=cwd)
    stamps = cache._stamps()
    monkeypatch.setattr(cache, "_stamps", lambda: (*stamps, ("loader.py", 1, 2)))
    _no_loader(monkeypatch)
    with pytest.raises(AssertionError, match="the loader ran"):
        cache.load([path], cwd=cwd)


@pytest.mark.parametrize("where", ["under a file", "in /proc"])
def test_a_cache_dir_that_cannot_be_written_changes_nothing(
    home: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    blocker = home / "a-file"
    blocker.write_text("")
    unwritable = str(blocker / "cache") if where == "under a file" else "/proc/hookrun-cache"
    if where == "in /proc" and not os.path.isdir("/proc/self"):
        pytest.skip("no /proc")
    monkeypatch.setenv("XDG_CACHE_HOME", unwritable)
    cwd = str(home / "proj")
    path = _write(home, CONFIGS["builtins and settings"])
    for _ in range(2):
        assert cache.load([path], cwd=cwd) == loader.load([path], cwd=cwd)
    assert not os.path.exists(os.path.join(unwritable, "hookrun"))


def test_a_read_only_cache_dir_is_read_but_not_written(home: Path) -> None:
    """An entry left in a directory that has since become read-only (a real read-only
    mount is not available here; a directory replaced by a file is the same refusal)."""
    cwd = str(home / "proj")
    path = _write(home, CONFIGS["inline"])
    cache.load([path], cwd=cwd)
    _write(home, CONFIGS["claude shape"])
    folder = home / "cache" / "hookrun" / "configs"
    for entry in folder.iterdir():
        entry.unlink()
    folder.rmdir()
    folder.write_text("not a directory")
    assert cache.load([path], cwd=cwd) == loader.load([path], cwd=cwd)
    assert folder.read_text() == "not a directory"


WRITER = """
import json, sys
from hookrun.config import cache
config = cache.load([sys.argv[1]], cwd=sys.argv[2])
print(json.dumps([[s.source, s.name, s.matcher] for specs in config.hooks.values() for s in specs]))
"""


def test_concurrent_writers_leave_one_whole_entry(home: Path) -> None:
    cwd = str(home / "proj")
    path = _write(home, CONFIGS["builtins and settings"])
    env = {**os.environ, "PYTHONPATH": str(REPO), "XDG_CACHE_HOME": str(home / "cache")}
    runs = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, path, cwd], stdout=subprocess.PIPE, env=env, cwd=cwd
        )
        for _ in range(8)
    ]
    outputs = {run.communicate(timeout=120)[0] for run in runs}
    assert all(run.returncode == 0 for run in runs)
    assert len(outputs) == 1
    (entry,) = _entries(home)  # no temporary file left behind
    assert entry.suffix == ".bin"
    key = cache._key([path], cwd)
    assert key is not None
    assert cache._read(str(entry.parent), key) == loader.load([path], cwd=cwd)


def test_hookrun_config_cache_off_turns_it_off(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOOKRUN_CONFIG_CACHE", "off")
    path = _write(home, CONFIGS["inline"])
    cache.load([path], cwd=str(home / "proj"))
    assert _entries(home) == []


def test_entries_go_under_the_user_cache_dir() -> None:
    env = {"HOME": "/home/u", "XDG_CACHE_HOME": "/var/cache/u"}
    assert cache._entry_path(env, "linux") == "/var/cache/u/hookrun/configs"


@pytest.mark.parametrize(
    ("platform", "env"),
    [
        ("win32", {"LOCALAPPDATA": "C:\\Users\\u\\AppData\\Local"}),  # not cheap: off
        ("linux", {}),  # no HOME: platformdirs would ask pwd
        ("linux", {"HOME": ""}),
        ("linux", {"HOME": "/home/u", "HOOKRUN_CONFIG_CACHE": "OFF"}),
    ],
)
def test_where_the_cache_dir_is_not_cheap_to_know_there_is_no_cache(
    platform: str, env: dict[str, str]
) -> None:
    assert cache._entry_path(env, platform) is None


def test_a_write_keeps_the_newest_entries_and_drops_a_dead_writers_file(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cache, "MAX_ENTRIES", 3)
    folder = home / "cache" / "hookrun" / "configs"
    folder.mkdir(parents=True)
    dead = folder / "0123.bin.77.abcd.tmp"
    fresh = folder / "4567.bin.78.abcd.tmp"  # a writer still at work
    for path in (dead, fresh):
        path.write_bytes(b"half")
    os.utime(dead, (1, 1))
    written = []
    for i in range(5):
        name = _write(home, CONFIGS["inline"], f"c{i}.json")
        cache.load([name], cwd=str(home / "proj"))
        (entry,) = set(_entries(home)) - {dead, fresh} - set(written)
        os.utime(entry, (1000 + i, 1000 + i))  # written in this order
        written.append(entry)
    remaining = set(folder.iterdir())
    assert remaining == {*written[-3:], fresh}


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX modes")
def test_entries_are_private_to_the_user(home: Path) -> None:
    """A config's env values may be secrets: the copy is no more readable than a 0600 file."""
    path = _write(home, CONFIGS["inline"])
    cache.load([path], cwd=str(home / "proj"))
    (entry,) = _entries(home)
    assert entry.stat().st_mode & 0o777 == 0o600
    assert entry.parent.stat().st_mode & 0o777 == 0o700


@pytest.mark.parametrize("variable", ["HOME", "XDG_CACHE_HOME"])
def test_a_home_or_cache_dir_that_does_not_exist_is_not_made(
    home: Path, monkeypatch: pytest.MonkeyPatch, variable: str
) -> None:
    missing = home / "nonexistent" / "home"
    monkeypatch.setenv("HOME", str(missing if variable == "HOME" else home))
    if variable == "HOME":
        monkeypatch.delenv("XDG_CACHE_HOME")
    else:
        monkeypatch.setenv("XDG_CACHE_HOME", str(missing / "cache"))
    cwd = str(home / "proj")
    path = _write(home, CONFIGS["inline"])
    assert cache.load([path], cwd=cwd) == loader.load([path], cwd=cwd)
    assert not (home / "nonexistent").exists()


def test_a_missing_dot_cache_under_an_existing_home_is_made(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("XDG_CACHE_HOME")
    path = _write(home, CONFIGS["inline"])
    cache.load([path], cwd=str(home / "proj"))
    assert len(list((home / ".cache" / "hookrun" / "configs").iterdir())) == 1


@settings(max_examples=300, deadline=None)
@given(st.binary(min_size=1, max_size=300), st.data())
def test_the_entry_check_sees_every_burst_of_damage_and_every_cut(
    data: bytes, draw: st.DataObject
) -> None:
    """What zlib's CRC-32 guaranteed, the check does without loading zlib: any damage
    within 63 consecutive bits changes it (and within 32, CRC-32's own guarantee), and
    so does a cut or an extension of the entry (zero bytes too: the length is in it)."""
    start = draw.draw(st.integers(0, len(data) * 8 - 1))
    burst = draw.draw(st.integers(1, (1 << 63) - 1))
    value = int.from_bytes(data, "big") ^ (burst << start)
    damaged = (value & ((1 << (len(data) * 8)) - 1)).to_bytes(len(data), "big")
    if damaged != data:
        assert cache._check(damaged) != cache._check(data)
    cut = draw.draw(st.integers(0, len(data) - 1))
    assert cache._check(data[:cut]) != cache._check(data)
    assert cache._check(b"\0" + data) != cache._check(data)
    assert cache._check(data + b"\0") != cache._check(data)
