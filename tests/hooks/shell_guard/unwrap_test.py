"""Wrappers are seen through; code run from strings is handed back for judging."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from hookrun.hooks.shell_guard.parse import parse_script
from hookrun.hooks.shell_guard.unwrap import unwrap


def _layers(text: str) -> tuple[list[list[str]], list[tuple[str, str, bool]]]:
    cmd = parse_script(text).commands[-1]
    layers, nested = unwrap(cmd)
    return [[w.text for w in c.argv] for c in layers], [(n.code, n.via, n.remote) for n in nested]


@pytest.mark.parametrize(
    ("text", "innermost"),
    [
        ("sudo -u x -- rm -rf a", ["rm", "-rf", "a"]),
        ("sudo -uroot rm a", ["rm", "a"]),
        ("env -i A=1 -u B rm a", ["rm", "a"]),
        ("timeout -k 5 10s rm a", ["rm", "a"]),
        ("nice -n 5 ionice -c3 nohup rm a", ["rm", "a"]),
        ("command rm a", ["rm", "a"]),
        ("exec -a name rm a", ["rm", "a"]),
        ("xargs -0 -n1 rm -f", ["rm", "-f", "$xargs-input"]),
        ("xargs -I {} mv {} dest", ["mv", "$xargs-input", "dest"]),
        ("uv run --with x pytest -q", ["pytest", "-q"]),
        ("poetry run python -m app", ["python", "-m", "app"]),
        ("watch -x rm a", ["rm", "a"]),
        ("find . -name x -exec rm -f {} +", ["rm", "-f", "./$FOUND"]),
        ("find src -exec rm -rf {} ;", ["rm", "-rf", "src"]),
        (
            "git -c alias.p='push --force' p origin",
            ["git", "-c", "alias.p=push --force", "push", "--force", "origin"],
        ),
        (
            """git -c alias.p='push "--for"ce' p""",
            ["git", "-c", 'alias.p=push "--for"ce', "push", "--force"],
        ),
    ],
)
def test_wrapper_layers_end_with_the_command_it_runs(text: str, innermost: list[str]) -> None:
    layers, _ = _layers(text)
    assert layers[-1] == innermost


@pytest.mark.parametrize(
    ("text", "nested"),
    [
        ("bash -c 'rm -rf /'", [("rm -rf /", "bash -c", False)]),
        ("sh -ec 'ls'", [("ls", "sh -c", False)]),
        ("bash -o pipefail -c 'ls | wc'", [("ls | wc", "bash -c", False)]),
        ("eval rm -rf x", [("rm -rf x", "eval", False)]),
        ("ssh -p 22 -i key host rm -rf /", [("rm -rf /", "ssh host", True)]),
        ("watch -n 1 'df -h'", [("df -h", "watch", False)]),
        ("su - bob -c 'make install'", [("make install", "su -c", False)]),
        ("flock -c 'make' /tmp/l", [("make", "flock -c", False)]),
        ("git -c alias.x='!rm -rf /' x", [("rm -rf /", "git alias x", False)]),
        ("sudo sh -c 'apt update'", [("apt update", "sh -c", False)]),
    ],
)
def test_code_run_from_a_string_is_handed_back(
    text: str, nested: list[tuple[str, str, bool]]
) -> None:
    _, found = _layers(text)
    assert found == nested


@pytest.mark.parametrize(
    "text",
    ["command -v rm", "bash script.sh", "ssh host", "sudo", "git status", "sh"],
)
def test_commands_that_run_nothing_else_have_one_layer_and_no_code(text: str) -> None:
    layers, nested = _layers(text)
    assert len(layers) == 1 and nested == []


@pytest.mark.parametrize(
    ("line", "argv"),
    [
        ("parallel -I @ rm -rf @ ::: a", ["rm", "-rf", "a"]),
        ("parallel --jobs 2 -- rm -rf {} ::: a b", ["rm", "-rf", "b"]),
        ("parallel -k rm -rf :::: list.txt", ["rm", "-rf", "$parallel-input"]),
        # several sources: a job per combination (GNU parallel 20221122 ran these so)
        ("parallel git ::: reset ::: --hard", ["git", "reset", "--hard"]),
        ("parallel git {} ::: reset ::: --hard", ["git", "reset", "--hard"]),
        ("parallel rm {2} {1} ::: a b ::: -rf", ["rm", "-rf", "b"]),
        ("parallel rm ::: -rf -v :::+ a b", ["rm", "-v", "b"]),
        ("xargs -a list.txt --max-args 1 -- rm -rf", ["rm", "-rf", "$xargs-input"]),
        ("xargs -0 -n1 -P4 rm -rf", ["rm", "-rf", "$xargs-input"]),
    ],
)
def test_parallel_and_xargs_option_forms(line: str, argv: list[str]) -> None:
    layers, _ = unwrap(parse_script(line).commands[0])
    assert argv in [[w.text for w in layer.argv] for layer in layers]


def test_unwrapping_skips_only_commands_that_run_nothing_else(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The shortcut (may_peel) answers "one layer, no code" without peeling; on every
    # command of the labelled tables and the peers' corpora it agrees with peeling.
    from hookrun.hooks.shell_guard import unwrap as module
    from tests.hooks.shell_guard.rules_index_test import CORPUS

    commands = [c for text, _ in CORPUS for c in parse_script(text, 0).commands]
    fast = [module.unwrap(c) for c in commands]
    monkeypatch.setattr(module, "may_peel", lambda cmd: True)
    slow = [module.unwrap(c) for c in commands]
    assert fast == slow
    assert sum(1 for layers, nested in slow if len(layers) > 1 or nested) > 200


# `env -S STRING`: the real env is the oracle. Each line runs twice under bash — as
# written (GNU env splits the string in its option's place) and as the spliced line
# shell-guard judges — with printf standing for the program; the outputs must agree.
ENV_SPLIT_LINES = [
    "env -S printf -rf /",
    "env -Sprintf -rf /",
    "env -S 'printf %s,' -r -f /",
    "env --split-string=printf -rf /",
    "env --split-string 'printf %s,' -rf /",
    "env -iS'printf %s,' w",
    "env -i -S 'printf %s,' x y",
    "env -u S -S 'printf %s,' r",
    "env -uS -S 'printf %s,' r2",
    "env -S 'A=1 printf %s,' -rf /",
    "env -S '-i printf %s,' -rf /",
    "env -C / -S 'printf %s,' -rf /",
    "env -S 'printf %s,' -S x",
    "env A=1 printf %s -S x",
]


@pytest.mark.skipif(shutil.which("bash") is None or shutil.which("env") is None, reason="no bash")
@pytest.mark.parametrize("line", ENV_SPLIT_LINES)
def test_env_split_string_is_judged_as_env_runs_it(line: str, tmp_path: Path) -> None:
    cmd = parse_script(line).commands[-1]
    _, nested = unwrap(cmd)
    assert [n.via for n in nested] == ([] if line.startswith("env A=1") else ["env -S"])
    judged = nested[0].code if nested else line

    def run(text: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(["bash", "-c", text], capture_output=True, text=True, cwd=tmp_path)

    real, spliced = run(line), run(judged)
    assert real.returncode == 0, real
    assert (spliced.stdout, spliced.returncode) == (real.stdout, real.returncode), judged
