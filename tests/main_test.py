"""hookrun.__main__: the process ends without interpreter teardown, keeping its exit code,
its output and anyone's atexit handlers."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def _hookrun(tmp_path: Path, code: str, *args: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "hooks.json").write_text(
        json.dumps({"hooks": {"Stop": [{"command": "echo 'no' >&2; exit 2"}]}})
    )
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        input="{}",
        check=False,
        timeout=60,
    )


MAIN = "from hookrun.__main__ import main\nmain()"
WITH_ATEXIT = "import atexit\natexit.register(lambda: print('atexit ran'))\n" + MAIN


@pytest.mark.parametrize(
    ("args", "code", "stdout_has"),
    [
        (("--version",), 0, "hookrun "),
        (("run", "Stop", "--config", "hooks.json"), 2, '"decision": "deny"'),
        (("run", "Stop", "--config", "missing.json"), 1, ""),
    ],
)
def test_exit_code_and_output_are_those_of_the_command(
    tmp_path: Path, args: tuple[str, ...], code: int, stdout_has: str
) -> None:
    done = _hookrun(tmp_path, MAIN, *args)
    assert done.returncode == code
    assert stdout_has in done.stdout


def test_a_registered_atexit_handler_still_runs(tmp_path: Path) -> None:
    done = _hookrun(tmp_path, WITH_ATEXIT, "run", "Stop", "--config", "hooks.json")
    assert done.returncode == 2
    assert done.stdout.endswith("atexit ran\n")
    assert done.stderr == "no\n"


def test_output_written_just_before_the_end_is_not_lost(tmp_path: Path) -> None:
    # Block-buffered stdout (a pipe) holds the whole answer until the final flush.
    done = _hookrun(tmp_path, MAIN, "run", "Stop", "--config", "hooks.json", "--trace")
    assert json.loads(done.stdout)["decision"] == "deny"
    assert "Stop" in done.stderr
