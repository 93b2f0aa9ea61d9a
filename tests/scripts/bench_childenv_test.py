"""bench/childenv.py: a bench's child interpreters read and write bytecode under the
bench's temporary prefix, never in the work tree.

startup_bench and telemetry_bench allowed bytecode without a prefix, so a quick run in
a clean clone left ``__pycache__`` under ``hookrun/`` (9 directories, session 21).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))
from childenv import child_env  # noqa: E402

# Prints where this child keeps hookrun.exitcodes' bytecode, whether it is there, and
# whether it may write bytecode at all.
_WHERE = """
import importlib.util, sys
import hookrun.exitcodes
pyc = importlib.util.cache_from_source(hookrun.exitcodes.__file__)
import os
print(pyc, os.path.exists(pyc), sys.dont_write_bytecode)
"""


def test_a_child_writes_its_bytecode_under_the_prefix(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")  # as CI's image sets it
    monkeypatch.setenv("COVERAGE_PROCESS_START", str(ROOT / "pyproject.toml"))
    prefix = tmp_path / "pyc"
    env = child_env(str(prefix))
    assert "PYTHONDONTWRITEBYTECODE" not in env and "COVERAGE_PROCESS_START" not in env
    done = subprocess.run(
        [sys.executable, "-c", _WHERE],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    pyc, there, forbidden = done.stdout.split()
    assert forbidden == "False"  # bytecode is written: the import is measured, not compiling
    assert pyc.startswith(str(prefix) + os.sep), pyc  # under the prefix, not in the tree
    assert there == "True"


def test_the_base_environment_is_kept_but_for_the_bytecode_settings() -> None:
    env = child_env("/p", {"PATH": "/bin", "PYTHONDONTWRITEBYTECODE": "1", "OTHER": "x"})
    assert env == {"PATH": "/bin", "OTHER": "x", "PYTHONPYCACHEPREFIX": "/p"}
