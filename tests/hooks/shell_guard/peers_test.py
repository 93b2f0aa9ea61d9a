"""shell-guard on the peers' own labelled commands, restricted to its scope (issue 12).

Targets: at least 95% of each peer's in-scope blocks blocked, at most 1% of its
in-scope allows blocked. The scope rule and every deliberate difference are
named in docs/shell-guard.md ("Scope"); `python -m tests.hooks.shell_guard.peers -v`
prints the figures and any case shell-guard gets wrong.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.hooks.shell_guard.peers import DELIBERATE, cases, figures, run

pytestmark = pytest.mark.timeout(300)
RESULTS = run()
FIGURES = figures(RESULTS)
DOC = (Path(__file__).resolve().parents[3] / "docs" / "shell-guard.md").read_text()


def test_both_peers_are_vendored_with_hundreds_of_cases() -> None:
    peers = {c.peer for c in cases()}
    assert peers == {"dcg", "safety-net"}
    assert FIGURES["dcg"].blocks >= 100 and FIGURES["safety-net"].blocks >= 150


@pytest.mark.parametrize("peer", ["dcg", "safety-net"])
def test_at_least_95_percent_of_the_peers_in_scope_blocks_are_blocked(peer: str) -> None:
    f = FIGURES[peer]
    missed = [
        c.command
        for c, b in RESULTS.items()
        if c.peer == peer and c.expected == "block" and b is False
    ]
    assert f.blocked / f.blocks >= 0.95, missed


@pytest.mark.parametrize("peer", ["dcg", "safety-net"])
def test_at_most_1_percent_of_the_peers_in_scope_allows_are_blocked(peer: str) -> None:
    f = FIGURES[peer]
    wrong = [
        c.command for c, b in RESULTS.items() if c.peer == peer and c.expected == "allow" and b
    ]
    assert f.false_blocks / f.allows <= 0.01, wrong


@pytest.mark.parametrize("reason", sorted({r for _, _, r in DELIBERATE}))
def test_every_deliberate_difference_is_named_in_the_docs(reason: str) -> None:
    key = reason.split(":")[0].split(" (")[0][:40]
    assert key in DOC, f"docs/shell-guard.md does not name: {reason}"
