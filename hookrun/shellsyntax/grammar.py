"""Load tree-sitter and its bash grammar: the one place that imports them.

``tree_sitter_bash/__init__.py`` imports ``importlib.resources`` (and with it pathlib,
zipfile, …) only to serve its highlight queries, which hookrun never reads: measured
10–25 ms of a cold start, against ~1 ms for the compiled grammar alone. So the compiled
``_binding`` extension is located with the import system's own path finder and loaded
directly, without running the package ``__init__``. If that fails (an unusual install:
zipped, frozen, a future layout), the ordinary import is used.

Importing this module loads the native code; callers import it lazily (see
:func:`hookrun.shellsyntax.parse`) so a run that parses no shell never pays for it.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import sys
from types import ModuleType

import tree_sitter


def _bash_binding() -> ModuleType:
    name = "tree_sitter_bash._binding"
    loaded = sys.modules.get(name)
    if loaded is not None:
        return loaded
    package = importlib.machinery.PathFinder.find_spec("tree_sitter_bash")
    locations = package.submodule_search_locations if package is not None else None
    spec = importlib.machinery.PathFinder.find_spec(name, locations) if locations else None
    if spec is None or spec.loader is None:
        importlib.import_module("tree_sitter_bash")  # the documented way, as a fallback

        return sys.modules[name]
    module = spec.loader.create_module(spec)
    if module is None:  # pragma: no cover - extension loaders always create the module
        raise ImportError(f"cannot load {name}")
    spec.loader.exec_module(module)
    sys.modules[name] = module
    return module


LANGUAGE = tree_sitter.Language(_bash_binding().language())


def new_parser() -> tree_sitter.Parser:
    """A parser for one thread (tree-sitter parsers are not shared across threads)."""
    return tree_sitter.Parser(LANGUAGE)
