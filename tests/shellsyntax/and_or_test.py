"""Gap 33: an and-or list groups from the left, as bash reads it, whatever the pipelines.

tree-sitter-bash nests the rest of some lists of long pipelines inside a pipeline's
last stage, so ``a | b | c || d | e | f && g`` came out as ``p1 || (p2 && g)``: when ``p1``
succeeded the tree skipped ``g``, which bash runs (``(p1 || p2) && g``). The fast path
(:mod:`hookrun.shellsyntax.plain`) never had it; the tree-sitter path is checked here
on its own (every line forced through it) and through the package's entry.

bash is the oracle: generated lists of 1- to 4-stage pipelines joined by ``&&``/``||``
(with newlines after the operators, ``!``, ``;`` and newlines between lists) run in
bash and in the in-process shell, each line followed by its status, and the outputs
must be the same. No expectation is written by hand.
"""

from __future__ import annotations

import os
import random
import re
import shutil
import signal
import subprocess
from pathlib import Path

import pytest

import hookrun.shellsyntax
from hookrun.dispatch import run
from hookrun.hooks.base import PolicyContext
from hookrun.hooks.shell_guard import POLICY, engine, where_for
from hookrun.shellsyntax import parser
from hookrun.shellsyntax.walk import calls

_FIRST = ("echo {n}", "true", "false")  # a pipeline's first stage (reads no stdin)
_LATER = ("echo {n}", "true", "false", "cat")
_OPS = (" && ", " || ", " &&\n", " ||\n")
_SEPARATORS = ("; ", "\n")


def _pipeline(rnd: random.Random, stages: int, counter: list[int]) -> str:
    out = []
    for i in range(stages):
        counter[0] += 1
        out.append(rnd.choice(_LATER if i else _FIRST).format(n=counter[0]))
    text = " | ".join(out)
    return "! " + text if rnd.random() < 0.1 else text


def _lines(seed: int, count: int) -> list[str]:
    """``count`` generated lines: each one or two and-or lists of 2-5 pipelines."""
    rnd = random.Random(seed)
    counter = [0]
    lines = []
    for _ in range(count):
        lists = []
        for _ in range(1 if rnd.random() < 0.8 else 2):
            parts = [_pipeline(rnd, rnd.randint(1, 4), counter)]
            for _ in range(rnd.randint(1, 4)):
                parts += [rnd.choice(_OPS), _pipeline(rnd, rnd.randint(1, 4), counter)]
            lists.append("".join(parts))
        lines.append(rnd.choice(_SEPARATORS).join(lists))
    return lines


# Lines the right-associated tree ran differently, written as the bug report gave them
# (with runnable stages), then the generated ones in chunks.
_REPORTED = [
    "true | true | true || true | false | true && echo i",
    "false | false && echo a | cat | cat | false || echo csh",
    # gap 34: a redirection on the last command of a list before a pipe
    "false && echo b 2>/dev/null | echo piped",
    "true || echo b >/dev/null | echo piped && echo c",
    "echo a | cat 2>/dev/null | cat || echo no",
]
CHUNKS = [_REPORTED, *(_lines(seed, 60) for seed in range(4))]


def _script(lines: list[str]) -> str:
    return "".join(f"{line}\necho =$?\n" for line in lines)


@pytest.fixture(params=["tree-sitter", "entry"])
def path(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    if request.param == "tree-sitter":  # plain lines too, not only what the fast path refuses
        monkeypatch.setattr(hookrun.shellsyntax, "parse", parser.parse_tree)
    return str(request.param)


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is the oracle")
@pytest.mark.parametrize("chunk", range(len(CHUNKS)))
def test_and_or_lists_run_as_in_bash(chunk: int, path: str, tmp_path: Path) -> None:
    source = _script(CHUNKS[chunk])
    stdout, status = run_bash(source, tmp_path)
    ours = run(source, cwd=str(tmp_path), env=dict(os.environ), timeout=60)
    ran = ours.stdout.decode().split("=")
    want = stdout.decode().split("=")
    for line, got, expected in zip(CHUNKS[chunk], ran, want, strict=False):
        assert got == expected, line
    assert (ours.stdout, ours.exit_code) == (stdout, status)


def run_bash(source: str, cwd: Path, timeout: float = 60) -> tuple[bytes, int]:
    """bash's stdout and status for ``bash -c SOURCE`` in ``cwd``; at the timeout its
    whole session is killed and reaped (and the test fails)."""
    proc = subprocess.Popen(
        ["bash", "-c", source],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        stdin=subprocess.DEVNULL,
        cwd=cwd,
        start_new_session=True,
    )
    try:
        stdout, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise
    return stdout, proc.returncode


def test_the_generated_lines_have_the_shapes_of_the_bug() -> None:
    """Not vacuous: pipelines of 3 and 4 stages before a later operator, both operators."""
    lines = [line for chunk in CHUNKS for line in chunk]
    long_first = [
        line
        for line in lines
        for list_ in line.replace("\n", ";").split(";")
        if list_.split("&&")[0].split("||")[0].count("|") >= 2 and list_.count("&") >= 2
    ]
    assert len(long_first) >= 20
    assert sum("&&" in line and "||" in line for line in lines) >= 100


@pytest.mark.parametrize("line", [line for chunk in CHUNKS[1:3] for line in chunk])
def test_shell_guard_judges_every_command_of_the_list(line: str) -> None:
    """Each command in turn replaced by ``rm -rf /``: shell-guard denies every one."""
    ctx = PolicyContext(
        "/home/user/project", "/home/user/project", "/nonexistent", {"HOME": "/home/user"}
    )
    where = where_for({"cwd": "/home/user/project"}, POLICY.bind({}), ctx)
    spans = [(c.pos, c.end) for c in calls(parser.parse_tree(line).stmts)]
    # (every generated command is found in the tree: as many as the line holds)
    assert len(spans) == len(re.findall(r"echo \d+|\b(?:true|false|cat)\b", line)), line
    for start, end in spans:
        probe = line[:start] + "rm -rf /" + line[end:]
        assert [f.rule for f in engine.judge(probe, where)], probe
