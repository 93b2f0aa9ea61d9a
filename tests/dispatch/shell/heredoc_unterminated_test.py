"""A here-document bash reads to the end of the text (no end line): bash ends its last
line with a newline, quoted delimiter or not. The newline was added to the body's parts
but a quoted body was read from its first part only, so ``cat <<'EOF'⏎x`` printed ``x``
where bash prints ``x⏎``. bash is the oracle for every row (stdout and status)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from hookrun.dispatch import run

BASH = shutil.which("bash")

TEXTS = [
    "cat <<'EOF'\nx",
    'cat <<"EOF"\nx',
    "cat <<\\EOF\nx\ny",
    "cat <<-'EOF'\n\tx",
    "cat <<EOF\nx",  # unquoted: already right, kept as the control
    "cat <<'EOF'\nx\n",  # the last line already ends
    "cat <<'A' <<'B'\na\nA\nb",
    "x=$(cat <<'EOF'\nx\nEOF\n)\ncat <<'EOF'\n$x",
]


@pytest.mark.skipif(BASH is None, reason="no bash")
@pytest.mark.parametrize("text", TEXTS, ids=[repr(t) for t in TEXTS])
def test_an_unterminated_body_ends_its_last_line_as_bash_does(text: str, tmp_path: Path) -> None:
    assert BASH is not None
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C"}
    want = subprocess.run(
        [BASH, "-c", text], capture_output=True, cwd=tmp_path, env=env, timeout=20
    )
    got = run(text, cwd=str(tmp_path), env=env, timeout=20, shell="inprocess")
    assert got.route == "inprocess"
    assert (got.exit_code, got.stdout) == (want.returncode, want.stdout)
