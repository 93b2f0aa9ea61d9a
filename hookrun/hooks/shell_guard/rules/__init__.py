"""The rules, each a function ``Call → iterable of Finding`` over one command layer."""

from __future__ import annotations

from collections.abc import Callable, Iterable

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
