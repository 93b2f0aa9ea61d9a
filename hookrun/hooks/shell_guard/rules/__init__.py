"""The rules, each a function ``Call → iterable of Finding`` over one command layer.

Which command names each check judges is its head in
:data:`hookrun.hooks.shell_guard.heads.RULE_HEADS` (the screen reads the same); a
layer is judged by those checks only, looked up once per name. Most commands an
agent runs (``ls``, ``pytest``, ``mkdir``) concern no rule, and five generator
calls per layer were most of a plain command's judgement. A test runs every
check on every layer of the labelled tables and the peers' corpora and pins that
the ones left out find nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import lru_cache

from hookrun.hooks.shell_guard.heads import RULE_HEADS
from hookrun.hooks.shell_guard.judging import Call, Finding
from hookrun.hooks.shell_guard.rules import delete, disk, git, misc, supply_chain

Rule = Callable[[Call], Iterable[Finding]]

CHECKS: tuple[Rule, ...] = (
    delete.check,
    git.check,
    disk.check,
    supply_chain.check,
    misc.check,
)


@lru_cache(maxsize=2048)
def checks_for(name: str, redirects: bool) -> tuple[Rule, ...]:
    """The checks that judge a command named ``name`` (``redirects``: it has some),
    in :data:`CHECKS` order (findings keep the order they had)."""
    return tuple(
        check
        for check, applies in zip(CHECKS, RULE_HEADS, strict=True)
        # (a write redirect onto a block device is blocked whatever the command)
        if applies(name) or (redirects and check is disk.check)
    )
