"""``[ -p /dev/stdin ]``, ``[ -t 0 ]``, ``test -r /dev/stdin``… answer for the hook's own
descriptors, as bash answers for its own when given the payload as a pipe.

They looked at hookrun's process instead: an embedder calling
``hookrun.dispatch.run(src, stdin=b"…")`` from a process whose stdin is not a pipe got
"no pipe", and a hook written ``if [ -p /dev/stdin ]; then input=$(cat); fi`` skipped its
check. The oracle is bash run with the same payload on a pipe (``input=``), while this
process's own stdin is switched to /dev/null, then to a pipe, then to a file: the answer
must not depend on it.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.dispatch.shell.shellrun import Runner, base_env, bash_result

BASH = shutil.which("bash")
pytestmark = pytest.mark.skipif(
    BASH is None or not sys.platform.startswith("linux"),
    reason="bash is the oracle; /dev/fd entries are links to /proc on Linux",
)

PAYLOAD = b'{"tool_name": "Bash", "tool_input": {"command": "rm -rf /"}}\n'

TEXTS = [
    # The field's idiom: read the payload only when there is one on a pipe.
    'if [ -p /dev/stdin ]; then input=$(cat); fi; echo "got: $input"',
    '[ -t 0 ] || payload=$(cat); echo "${payload:-none}"',
    "test -r /dev/stdin && echo readable; [[ -p /dev/stdin ]] && echo pipe",
    # Every file test on each of the hook's descriptors.
    "for f in /dev/stdin /dev/stdout /dev/stderr /dev/fd/0 /dev/fd/1 /dev/fd/2 /dev/fd/3 "
    "/dev/fd/9; do r=$f:; for o in e f d b c p S h L s g u k r w x O G N; do "
    '[ -$o $f ] && r=$r$o; done; echo "$r"; done',
    "for n in 0 1 2 3 9; do [ -t $n ] && echo t$n || echo not-t$n; done",
    "for f in /dev/stdin /dev/fd/0 /dev/fd/1; do [[ -p $f && -r $f && ! -s $f ]] && echo $f; done",
    # Redirected: what the redirection opened, not the payload's pipe.
    "[ -p /dev/stdin ] </dev/null; echo $?; [ -c /dev/stdin ] </dev/null; echo $?",
    '[ -f /dev/stdin ] <"$F"; echo $?; [ -s /dev/stdin ] <"$F"; echo $?',
    "[ -p /dev/stdin ] <<<here; echo $?; [ -p /dev/stdin ] <<EOF\nbody\nEOF\necho $?",
    "exec 3</dev/null; [ -c /dev/fd/3 ] && echo c3; exec 3<&-; [ -e /dev/fd/3 ] || echo gone",
    'exec 4>"$F"; [ -f /dev/fd/4 ] && [ -w /dev/fd/4 ] && echo f4',
    "exec 0<&-; [ -e /dev/stdin ]; echo $?; [ -h /dev/stdin ]; echo $?; [ -t 0 ]; echo $?",
    "echo hi | { [ -p /dev/stdin ] && cat; }; [ -p /dev/stdout ] | cat; echo ${PIPESTATUS[0]}",
    "[ -p /dev/stdout ] >/dev/null; echo $?; [ -p /dev/stderr ] 2>&1; echo $?",
]


@pytest.fixture(params=["devnull", "pipe", "file"])
def own_stdin(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """This process's descriptor 0 for the test: what the shell must not look at."""
    saved = os.dup(0)
    if request.param == "devnull":
        fd = os.open(os.devnull, os.O_RDONLY)
    elif request.param == "pipe":
        fd, w = os.pipe()
        os.close(w)
    else:
        own = tmp_path / "own-stdin"
        own.write_bytes(b"not the payload\n")
        fd = os.open(own, os.O_RDONLY)
    os.dup2(fd, 0)
    os.close(fd)
    try:
        yield request.param
    finally:
        os.dup2(saved, 0)
        os.close(saved)


@pytest.mark.parametrize("source", TEXTS)
def test_tests_of_stdin_answer_for_the_hooks_payload_as_bash_given_it_on_a_pipe(
    run: Runner, tmp_path: Path, source: str, own_stdin: str
) -> None:
    f = tmp_path / "a-file"
    f.write_text("content\n")
    env = base_env(F=str(f))
    ran = run(source, env=env, stdin=PAYLOAD)
    assert (ran.code, ran.out) == bash_result(source, env, cwd=tmp_path, stdin=PAYLOAD), ran.err
