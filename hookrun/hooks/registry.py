"""Name → policy, imported lazily (a config naming one policy loads one module).

Each entry is ``"module:attribute"`` of a :class:`hookrun.hooks.base.Policy`.
Aliases map to canonical names.
"""

from __future__ import annotations

import importlib
from typing import Any

from hookrun.hooks.base import Policy

# Filled in as policies land; canonical name → "module:attr".
POLICIES: dict[str, str] = {}
ALIASES: dict[str, str] = {}


def canonical(name: str) -> str | None:
    """The canonical policy name for ``name`` (an alias or a name), or None."""
    if name in POLICIES:
        return name
    return ALIASES.get(name)


def get(name: str) -> Policy[Any]:
    """The policy called ``name`` (or an alias). Raises KeyError if unknown."""
    key = canonical(name)
    if key is None:
        raise KeyError(name)
    module, attr = POLICIES[key].split(":")
    policy: Policy[Any] = getattr(importlib.import_module(module), attr)
    return policy


def names() -> list[str]:
    return sorted(POLICIES)
