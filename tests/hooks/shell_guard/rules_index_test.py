"""Judging a layer by the checks indexed for its name finds what running every check finds.

The index (``rules.checks_for``) is a speed-up only: on every command of the
labelled tables, the causes' tables, the interpreter tables, the peers' corpora (in
scope or not) and the benchmark's commands, the engine's findings with the index equal
its findings with every check run on every layer.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from hookrun.hooks.base import PolicyContext
from hookrun.hooks.shell_guard import POLICY, engine, where_for
from hookrun.hooks.shell_guard.rules import CHECKS, checks_for, disk
from tests.hooks.shell_guard import (
    causes_test,
    interp_oracle_test,
    interp_values_test,
    peers,
    runners_s20_test,
    vanish_oracle_test,
)
from tests.hooks.shell_guard.cases import all_cases

HOME = "/home/user"
_BENCH = Path(__file__).resolve().parents[3] / "bench" / "shell_guard_bench.py"


def _bench_commands() -> list[str]:
    """The benchmark's own commands (its templates, once each)."""
    spec = importlib.util.spec_from_file_location("shell_guard_bench", _BENCH)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    commands: list[str] = bench.commands(len(bench._TEMPLATES))
    return commands


def _corpus() -> list[tuple[str, str]]:
    out = [(c, causes_test.PROJECT) for c, _ in all_cases()]
    out += [(b[1], b[3]) for b in causes_test.BLOCKS]
    out += [(a[1], a[2]) for a in causes_test.ALLOWS]
    out += [(c.command, c.cwd) for c in peers.cases() if c.command]
    out += [(c, causes_test.PROJECT) for c in _bench_commands()]
    interp = (*interp_oracle_test.PERL, *interp_oracle_test.RUBY, *interp_oracle_test.AWK)
    out += [(line, causes_test.PROJECT) for line, _ in interp]
    out += [(b[1], causes_test.PROJECT) for b in runners_s20_test.BLOCKS]
    out += [(a[1], causes_test.PROJECT) for a in runners_s20_test.ALLOWS]
    out += [(line, causes_test.PROJECT) for _, line, _ in interp_values_test._ROWS]
    vanish = [(t, p) for t, p, _, _ in vanish_oracle_test.BLOCKS]
    vanish += [(t, "curl" if "https:" in a else "rm") for t, a in vanish_oracle_test.LOOK_ALIKES]
    vanish += [(t, "curl") for t, _ in vanish_oracle_test.FETCH_BLOCKS]
    out += [(t.format(n=p), causes_test.PROJECT) for t, p in vanish]
    out += [(line, causes_test.PROJECT) for line in vanish_oracle_test.FETCH_ALIKES]
    return out


CORPUS = _corpus()


def test_the_corpus_is_large_enough_to_mean_something() -> None:
    assert len(CORPUS) > 1000


def test_the_index_finds_what_every_check_finds(monkeypatch: pytest.MonkeyPatch) -> None:
    opts = POLICY.bind({})
    indexed, unindexed = [], []
    for command, cwd in CORPUS:
        ctx = PolicyContext(cwd, cwd, "/nonexistent", {"HOME": HOME})
        where = where_for({"cwd": cwd}, opts, ctx)
        indexed.append(engine.judge(command, where))
    with monkeypatch.context() as m:
        m.setattr(engine, "checks_for", lambda name, redirects: CHECKS)
        for command, cwd in CORPUS:
            ctx = PolicyContext(cwd, cwd, "/nonexistent", {"HOME": HOME})
            where = where_for({"cwd": cwd}, opts, ctx)
            unindexed.append(engine.judge(command, where))
    differ = [c for (c, _), a, b in zip(CORPUS, indexed, unindexed, strict=True) if a != b]
    assert differ == []
    assert sum(1 for f in unindexed if f) > 300  # (the corpus holds many blocks)


@pytest.mark.parametrize(
    ("name", "redirects", "expected"),
    [
        ("ls", False, ()),
        ("ls", True, (disk.check,)),
        ("", True, (disk.check,)),
        ("rm", False, (CHECKS[0],)),
        ("git", False, (CHECKS[1],)),
        ("cat", False, (CHECKS[1],)),  # cat ~/.gitconfig reads the email
        ("mkfs.ext4", False, (disk.check,)),
        ("bash", False, (CHECKS[3],)),
        ("python3", False, (CHECKS[3], CHECKS[4])),
        ("npm", False, (CHECKS[3],)),
    ],
)
def test_checks_are_indexed_by_command_name(
    name: str, redirects: bool, expected: tuple[object, ...]
) -> None:
    assert checks_for(name, redirects) == expected
