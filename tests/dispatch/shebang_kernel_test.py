"""hookrun reads a script's ``#!`` line as the Linux kernel does: each line is exec'd by
the kernel (the oracle) and run by hookrun (dispatch), and the interpreter must get the
same arguments.

hookrun parses the line itself (so the same hook runs on Windows); the table of
tests/dispatch/shebang_test.py was written by hand. A NUL in the line was not read as
the kernel reads it (the end of a C string) and made the hook "an internal error in
hookrun dispatch" (found by s21-speed). Deliberate differences, not in this table: a
CRLF line (hookrun drops the \\r; the kernel looks for ``python3\\r``), and ``#!env
NAME ARG`` (hookrun runs NAME with ARG as macOS does; Linux hands env one word "NAME ARG").
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hookrun.dispatch.api import run

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the Linux kernel")

# {argv}: a script printing its arguments as JSON (its own #! names this python).
LINES = [
    b"{argv}",
    b"{argv} one",
    b"{argv} two words",
    b"{argv}\t tab",
    b"{argv} trailing   ",
    b"   {argv} leading",
    b"{argv}\0 after a NUL",
    b"{argv} \0 a blank then a NUL",
    b"{argv} -e\0 x",
    b"{argv} -e \0x",
    b"{argv} a b\0c",
    b"{argv}\t\0",
    b"/usr/bin/env argv.py",
    b"/usr/bin/env argv.py\0x",
    b"/usr/bin/env  argv.py",
]


@pytest.fixture(scope="module")
def bin_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = tmp_path_factory.mktemp("bin")
    argv = where / "argv.py"
    argv.write_text(f"#!{sys.executable}\nimport sys, json; print(json.dumps(sys.argv[1:]))\n")
    argv.chmod(0o755)
    return where


def _kernel(script: Path, env: dict[str, str]) -> object:
    done = subprocess.run(
        ["./" + script.name], cwd=script.parent, env=env, capture_output=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.timeout(120)
@pytest.mark.parametrize("line", LINES, ids=lambda b: repr(b)[2:-1])
def test_the_interpreter_gets_what_the_kernel_gives_it(
    bin_dir: Path, tmp_path: Path, line: bytes
) -> None:
    script = tmp_path / "hook"
    script.write_bytes(b"#!" + line.replace(b"{argv}", bytes(bin_dir / "argv.py")) + b"\nbody\n")
    script.chmod(0o755)
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"}
    want = _kernel(script, env)
    done = run("./hook", cwd=str(tmp_path), env=env)
    assert done.exit_code == 0, (done.stderr, done.route)
    assert json.loads(done.stdout) == want


@pytest.mark.timeout(120)
@pytest.mark.parametrize("line", [b"\0/bin/sh", b"  \0 /bin/sh"], ids=["nul", "blanks-nul"])
def test_a_line_whose_interpreter_is_empty_is_refused_with_126(tmp_path: Path, line: bytes) -> None:
    """The kernel refuses these too (``bad interpreter``); hookrun names the script."""
    script = tmp_path / "hook"
    script.write_bytes(b"#!" + line + b"\necho body\n")
    script.chmod(0o755)
    done = run("./hook", cwd=str(tmp_path), env=dict(os.environ))
    assert done.exit_code == 126, (done.stderr, done.route)
    assert b"./hook: empty #! line" in done.stderr
