"""An unquoted here-document's lines are read joined at each backslash-newline.

bash reads the body of ``cat <<EOF`` with every backslash-newline removed (an odd run
of backslashes before the newline) and compares the *joined* line with the delimiter:
``a\\⏎EOF`` is the line ``aEOF``, so the body goes on. The end line was matched line by
line, so the body ended there and what bash reads as text after it ran as commands in
the in-process shell (``touch ran`` below made a file bash never makes). A quoted
delimiter joins nothing. bash is the oracle for every row: stdout, status, and which
files the text made.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from hookrun.dispatch import run

BASH = shutil.which("bash")

TEXTS = [
    "cat <<EOF\na\\\nEOF\nEOF\n",
    "cat <<EOF\na\\\nEOF\ntouch ran\nEOF\n",  # `touch ran` is text to bash
    "cat <<EOF\n\\\nEOF\ntouch ran\n",  # the joined line is `EOF`: the end
    "cat <<EOF\na\\\\\nEOF\ntouch ran\n",  # an escaped backslash: no join
    "cat <<EOF\na\\\\\\\nEOF\nEOF\n",
    "cat <<EOF\nE\\\nOF\ntouch ran\nEOF\n",  # `E` + `OF`: the end
    "cat <<EOF\na\\\nEOF",
    "cat <<'EOF'\na\\\nEOF\ntouch ran\n",  # quoted: nothing is joined
    'cat <<"EOF"\na\\\nEOF\ntouch ran\n',
    "cat <<-EOF\n\t\\\n\tEOF\ntouch ran\nEOF\n",
    'x=$(cat <<EOF\na\\\nEOF\nEOF\n)\necho "[$x]"\n',
    "for i in 1; do cat <<EOF\na\\\nEOF\ntouch ran\nEOF\ndone\n",
    "cat <<EOF | cat\nx\\\nEOF\ntouch ran\nEOF\n",
    "cat <<A <<B\na\\\nA\nA\nb\\\nB\ntouch ran\nB\n",
]


def _files(where: Path) -> list[str]:
    return sorted(os.listdir(where))


@pytest.mark.skipif(BASH is None, reason="no bash")
@pytest.mark.parametrize("text", TEXTS, ids=[repr(t[:32]) for t in TEXTS])
def test_an_unquoted_body_ends_where_bash_ends_it(text: str, tmp_path: Path) -> None:
    assert BASH is not None
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C"}
    (tmp_path / "bash").mkdir()
    (tmp_path / "hookrun").mkdir()
    want = subprocess.run(
        [BASH, "-c", text], capture_output=True, cwd=tmp_path / "bash", env=env, timeout=20
    )
    got = run(text, cwd=str(tmp_path / "hookrun"), env=env, timeout=20, shell="inprocess")
    assert got.route == "inprocess"
    assert (got.exit_code, got.stdout) == (want.returncode, want.stdout)
    assert _files(tmp_path / "hookrun") == _files(tmp_path / "bash")
