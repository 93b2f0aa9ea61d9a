"""A here-document read in a later round whose body the grammar reads as broken code.

With an earlier here-document on the text, the second is read in a later round, from
that round's tree; a body such as ``\\⏎"`` (a line continuation, then an open quote) in
a loop sends the grammar into error recovery, no redirection is left to read the
delimiter from, and the text was refused as a syntax error (exit 2; in a hook, a deny)
where bash runs it. A round's one operator is now read by text as a text's first one
is, and checked the same way. bash is the oracle for every row (stdout and status).
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
    'cat <<A\nA\nfor i in 1; do cat <<"EOF"\n\\\n"\nEOF\ndone\n',
    'cat <<A\nA\nfor ((i=0;i<1;i++)); do cat <<"EOF"\n\\\n"\nEOF\ndone\n',
    'cat <<A\nA\nwhile false; do cat <<"EOF"\n\\\n"\nEOF\ndone\necho end\n',
    "cat <<'A'\n'\nA\nfor i in 1 2; do cat <<'EOF'\n\\\n\"\nEOF\ndone\n",
    'cat <<A <<B\nA\n\\\n"\nB\n',  # one line, two here-documents: the general reading
    'cat <<A; cat <<B\nA\n\\\n"\nB\n',
    'x=$(cat <<A\nA\n)\nif true; then cat <<"EOF"\n\\\n"\nEOF\nfi\n',
]


@pytest.mark.skipif(BASH is None, reason="no bash")
@pytest.mark.parametrize("text", TEXTS, ids=[repr(t[:40]) for t in TEXTS])
def test_a_later_here_document_is_read_as_bash_reads_it(text: str, tmp_path: Path) -> None:
    assert BASH is not None
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C"}
    want = subprocess.run(
        [BASH, "-c", text], capture_output=True, cwd=tmp_path, env=env, timeout=20
    )
    got = run(text, cwd=str(tmp_path), env=env, timeout=20, shell="inprocess")
    assert got.route == "inprocess"
    assert (got.exit_code, got.stdout) == (want.returncode, want.stdout), got.stderr
