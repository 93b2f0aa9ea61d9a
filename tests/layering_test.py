"""The package's layers, as DESIGN.md draws them, read from the import statements.

Data flows host adapter → config → runner → dispatch (and hooks); each rule below is
one sentence of DESIGN.md. Every ``import``/``from … import`` in the package counts,
function-local ones included: a lazy import is still a dependency.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "hookrun"
# Small modules with no hookrun dependency that any layer may use.
LEAVES = {
    "exitcodes", "fields", "filelock", "boundedio", "cjson", "records", "lazyre", "surrogates",
    "startup_gc",
}  # fmt: skip

# package → the hookrun packages/modules it may import besides itself and the leaves.
ALLOWED = {
    # "config knows nothing about running anything": only the built-ins' static table.
    "config": {"hooks.registry", "__version__"},
    # "dispatch knows nothing about events or envelopes".
    "dispatch": {"shellsyntax"},
    # "hooks knows nothing about processes": no dispatch, no runner.
    "hooks": {"shellsyntax"},
    # the shell front end is used by dispatch, shell-guard and check; it uses nothing.
    "shellsyntax": set(),
}


def _imports(path: Path) -> set[str]:
    """Every hookrun module ``path`` imports, as ``pkg`` or ``pkg.module`` under hookrun."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [f"{node.module}.{a.name}" for a in node.names]
        for name in names:
            if name.startswith("hookrun."):
                found.add(name.removeprefix("hookrun."))
    return found


def _violations(package: str, allowed: set[str]) -> list[str]:
    bad = []
    root = PACKAGE / package
    files = sorted(root.rglob("*.py")) if root.is_dir() else [PACKAGE / f"{package}.py"]
    for path in files:
        for name in sorted(_imports(path)):
            head = name.split(".")[0]
            if head in (package, *LEAVES) or any(
                name == a or name.startswith(a + ".") for a in allowed
            ):
                continue
            bad.append(f"{path.relative_to(PACKAGE.parent)} imports hookrun.{name}")
    return bad


@pytest.mark.parametrize("package", sorted(ALLOWED))
def test_each_layer_imports_only_what_is_below_it(package: str) -> None:
    assert _violations(package, ALLOWED[package]) == []


@pytest.mark.parametrize("leaf", sorted(LEAVES))
def test_the_shared_leaves_import_no_hookrun_module(leaf: str) -> None:
    assert _imports(PACKAGE / f"{leaf}.py") == set()


def test_the_rules_can_fail() -> None:
    """The scan sees a violation where there is one (runner imports dispatch)."""
    assert _violations("runner", set()) != []
