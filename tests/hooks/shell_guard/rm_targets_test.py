"""One rm of several targets: one finding, naming each target a rule finds.

The delete rule stopped at the first target it found (`rm -rf /usr /etc` named /usr
only): an agent that removed /usr from its command met /etc on the next try. Now one rm
gives one finding naming every target a rule finds (five, then "and N more"; each after
the first cut at 100 characters), under the gravest of their rules the options leave on
(catastrophic, then recursive-force, then unresolved); a target only a switched-off rule
finds is not named.

The oracle: real rm deletes every operand it is given, in order, in a sandbox (a temp
dir; relative names only) — so every dangerous operand is one the line deletes.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from hookrun.hooks.base import PolicyContext
from hookrun.hooks.shell_guard import POLICY, engine, where_for

from .redteam import HOME, PROJECT, judge

# (line, the finding's rule, the targets it names)
BLOCKED = [
    ("rm -rf /usr /etc", "delete.catastrophic", ["/usr", "/etc"]),
    ("rm -rf / ~", "delete.catastrophic", ["/", "~"]),
    ("sudo rm -rf /var /opt /srv", "delete.catastrophic", ["/var", "/opt", "/srv"]),
    ("rm -rf ../a ../b", "delete.catastrophic", ["../a", "../b"]),
    ("rm -rf build /etc ~/.ssh", "delete.catastrophic", ["/etc", "~/.ssh"]),
    ("rm -rf src lib", "delete.recursive-force", ["src", "lib"]),
    ("rm -rf src /usr", "delete.catastrophic", ["src", "/usr"]),
    ('rm -rf "$A" "$B"', "delete.unresolved", ["$A", "$B"]),
    ('rm -rf "$A" /', "delete.catastrophic", ["$A", "/"]),
    ("cd /tmp && rm -rf x /etc /usr", "delete.catastrophic", ["/etc", "/usr"]),
    ("rm -rf -- /bin /sbin dist", "delete.catastrophic", ["/bin", "/sbin"]),
]
ALLOWED = [
    "rm -rf build dist",
    "rm -rf node_modules .venv __pycache__",
    "rm -rf /tmp/a /tmp/b",
    "rm -f a.txt b.txt c.txt",
    "rm -rf dist build out target coverage htmlcov",
    "cd /tmp && rm -rf a b c",
    "rm -r src/old lib/old",
    "rm -rf ./build ./dist",
    "rm -rf tmp .tmp _build",
    "rm -rf .pytest_cache .mypy_cache .ruff_cache",
]


def _findings(line: str) -> list[tuple[str, str]]:
    ctx = PolicyContext(PROJECT, PROJECT, "/nonexistent", {"HOME": HOME, "TMPDIR": "/tmp"})
    where = where_for({"cwd": PROJECT}, POLICY.bind({}), ctx)
    return [(f.rule, f.message) for f in engine.judge(line, where)]


@pytest.mark.parametrize(("line", "rule", "named"), BLOCKED, ids=[r[0] for r in BLOCKED])
def test_one_finding_names_every_target(line: str, rule: str, named: list[str]) -> None:
    found = _findings(line)
    assert [r for r, _ in found] == [rule], found
    for target in named:
        assert f" {target}: " in found[0][1], (target, found)
    verdict = judge(line)
    assert verdict.decision == "deny" and verdict.rule == rule


def test_a_target_only_a_switched_off_rule_finds_is_not_named() -> None:
    ctx = PolicyContext(PROJECT, PROJECT, "/nonexistent", {"HOME": HOME})
    opts = POLICY.bind({"rules": {"delete.catastrophic": False}})
    payload = {"tool_input": {"command": "rm -rf / src"}, "cwd": PROJECT}
    verdict = POLICY.decide(payload, opts, ctx)
    assert verdict.rule == "delete.recursive-force"
    assert " src: " in (verdict.reason or "") and " /: " not in (verdict.reason or "")


def test_a_finding_names_five_targets_then_counts_the_rest() -> None:
    [(rule, message)] = _findings("rm -rf " + " ".join(f"/a{k}" for k in range(9)))
    assert rule == "delete.recursive-force"
    assert all(f"/a{k}:" in message for k in range(5)) and "/a5:" not in message
    assert "and 4 more" in message


@pytest.mark.parametrize("line", ALLOWED)
def test_several_harmless_targets_pass(line: str) -> None:
    assert judge(line).decision is None, judge(line).reason


def test_rm_deletes_every_operand_not_only_the_first(tmp_path: Path) -> None:
    """The oracle for naming them all: rm goes on past the first operand."""
    for name in ("a", "b", "c"):
        (tmp_path / name / "x").mkdir(parents=True)
    subprocess.run(["bash", "-c", "rm -rf a b c"], cwd=tmp_path, check=True, timeout=60)
    assert [p.name for p in tmp_path.iterdir()] == []
