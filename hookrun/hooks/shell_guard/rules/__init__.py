"""The rules, each a function ``Call → iterable of Finding`` over one command layer.

Which command names each check judges is its head in
:data:`hookrun.hooks.shell_guard.heads.RULE_HEADS` (the screen reads the same); a
layer is judged by those checks only, looked up once per name. Most commands an
agent runs (``ls``, ``pytest``, ``mkdir``) concern no rule, and five generator
calls per layer were most of a plain command's judgement. A test runs every
check on every layer of the labelled tables and the peers' corpora and pins that
the ones left out find nothing.

A rule's module is imported when a layer first names one of its heads: a process
judging ``git push --force`` loads the git rules only (each module is ~0.5M
instructions of a cold start). :data:`CHECKS` (every check) loads them all.
"""

from __future__ import annotations

from functools import lru_cache

from hookrun.hooks.shell_guard.heads import RULE_HEADS
from hookrun.records import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from hookrun.hooks.shell_guard.judging import Call, Finding

    Rule = Callable[[Call], Iterable[Finding]]

    CHECKS: tuple[Rule, ...]  # every check, in RULE_HEADS' order (see __getattr__)


def _delete() -> Rule:
    from hookrun.hooks.shell_guard.rules.delete import check

    return check


def _git() -> Rule:
    from hookrun.hooks.shell_guard.rules.git import check

    return check


def _disk() -> Rule:
    from hookrun.hooks.shell_guard.rules.disk import check

    return check


def _supply_chain() -> Rule:
    from hookrun.hooks.shell_guard.rules.supply_chain import check

    return check


def _misc() -> Rule:
    from hookrun.hooks.shell_guard.rules.misc import check

    return check


# What loads each check, in the order of RULE_HEADS (findings keep this order).
_LOADERS = (_delete, _git, _disk, _supply_chain, _misc)


@lru_cache(maxsize=2048)
def checks_for(name: str, redirects: bool) -> tuple[Rule, ...]:
    """The checks that judge a command named ``name`` (``redirects``: it has some),
    in :data:`CHECKS` order (findings keep the order they had)."""
    return tuple(
        load()
        for load, applies in zip(_LOADERS, RULE_HEADS, strict=True)
        # (a write redirect onto a block device is blocked whatever the command)
        if applies(name) or (redirects and load is _disk)
    )


if not TYPE_CHECKING:  # (mypy reads CHECKS' declaration above)

    def __getattr__(name: str) -> tuple[Rule, ...]:
        if name == "CHECKS":
            return tuple(load() for load in _LOADERS)
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
