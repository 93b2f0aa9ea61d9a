"""A script that closes its own stdout, and a bug inside the in-process shell.

`exec >&-` then an external command: bash runs it with no stdout, and so must the
in-process shell (it raised "Bad file descriptor" as an internal error, exit 2 — which
a blocking event read as a deny). A bug of the shell itself is the hook's failure,
reported as dispatch's error so that on_error decides — never exit 2 alone.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from hookrun.dispatch import run
from hookrun.dispatch.shell import interp

SCRIPTS = [
    "echo hi; exec >&-; sleep 0.1; echo done >&2",
    "exec >&-; true; echo $? >&2",
    "exec 2>&-; ls / >/dev/null; echo ok",
]


@pytest.mark.parametrize("script", SCRIPTS)
def test_an_external_command_after_exec_closes_a_stream_runs_as_in_bash(
    script: str, tmp_path: Path
) -> None:
    done = run(script, cwd=str(tmp_path), env=None, timeout=20)
    assert done.error is None, done.error
    if shutil.which("bash"):
        bash = subprocess.run(["bash", "-c", script], cwd=tmp_path, capture_output=True, timeout=20)
        assert (done.exit_code, done.stdout, done.stderr) == (
            bash.returncode,
            bash.stdout,
            bash.stderr,
        )


def test_a_bug_inside_the_shell_is_the_runs_error_not_a_bare_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: object, **kwargs: object) -> int:
        raise RuntimeError("a bug")

    monkeypatch.setattr(interp.Interp, "run_top", broken)
    done = run("echo hi; true", cwd=str(tmp_path), env=None, timeout=20)
    assert done.error is not None and "internal error: RuntimeError: a bug" in done.error
    assert b"internal error in the in-process shell" in done.stderr
