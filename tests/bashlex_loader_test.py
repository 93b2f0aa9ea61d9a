"""The bashlex table cache: same parses as a plain import, and never breaks parsing."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

COMMANDS = [
    "echo hi | grep x && ls",
    "for i in a b; do echo $i; done > f; x=$(ls)",
    "if [ -f x ]; then cat x; else echo no; fi 2>&1",
    "a=1 b=2 cmd --flag 'quoted arg' \"dq $HOME\" `date`",
]

_PROBE = """
import json, sys
sys.path.insert(0, {root!r})
from hookrun import bashlex_loader
m = bashlex_loader.load()
print(json.dumps([[n.dump() for n in m.parse(c)] for c in json.loads(sys.argv[1])]))
"""

_PLAIN = """
import json, sys, bashlex
print(json.dumps([[n.dump() for n in bashlex.parse(c)] for c in json.loads(sys.argv[1])]))
"""


def _run(code: str, cache: Path) -> list[list[str]]:
    env = dict(os.environ, XDG_CACHE_HOME=str(cache))
    root = str(Path(__file__).resolve().parents[1])
    out = subprocess.run(
        [sys.executable, "-c", code.format(root=root), json.dumps(COMMANDS)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stderr == ""
    result: list[list[str]] = json.loads(out.stdout)
    return result


def _cache_files(cache: Path) -> list[Path]:
    return sorted((cache / "hookrun").glob("bashlex-tables-*"))


def test_first_load_builds_and_stores_tables_and_parses_like_plain_bashlex(tmp_path: Path) -> None:
    expected = _run(_PLAIN, tmp_path)
    assert _run(_PROBE, tmp_path) == expected
    assert len(_cache_files(tmp_path)) == 1


def test_second_load_from_cached_tables_parses_identically(tmp_path: Path) -> None:
    expected = _run(_PLAIN, tmp_path)
    _run(_PROBE, tmp_path)
    stamp = _cache_files(tmp_path)[0].stat().st_mtime_ns
    assert _run(_PROBE, tmp_path) == expected
    assert _cache_files(tmp_path)[0].stat().st_mtime_ns == stamp  # read, not rebuilt


@pytest.mark.parametrize("garbage", [b"", b"not marshal data", b"\x00" * 50])
def test_corrupt_cache_falls_back_to_building_and_repairs_it(
    tmp_path: Path, garbage: bytes
) -> None:
    expected = _run(_PLAIN, tmp_path)
    _run(_PROBE, tmp_path)
    cache_file = _cache_files(tmp_path)[0]
    cache_file.write_bytes(garbage)
    assert _run(_PROBE, tmp_path) == expected
    assert cache_file.read_bytes() != garbage


def test_unwritable_cache_dir_still_parses(tmp_path: Path) -> None:
    blocker = tmp_path / "file-not-dir"
    blocker.write_text("x")
    assert _run(_PROBE, blocker) == _run(_PLAIN, tmp_path)
