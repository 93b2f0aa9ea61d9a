"""Load tree-sitter and its bash grammar: the one place that imports them.

Both packages' ``__init__`` modules cost more than their compiled code, for things
hookrun never uses: ``tree_sitter_bash/__init__.py`` imports ``importlib.resources``
(and with it pathlib, zipfile, …) only to serve its highlight queries — measured 10–25 ms
of a cold start, against ~1 ms for the compiled grammar — and ``tree_sitter/__init__.py``
imports ``typing`` (~3–4 ms, 0.4x a bare Python start) only to declare a ``Protocol``
for custom query predicates. So each package's compiled ``_binding`` extension is located
with the import system's own path finder and loaded directly, under its own name,
without running the package ``__init__``; a later ``import tree_sitter`` (by a test, by
another library) runs that ``__init__`` over the same loaded extension, so its classes
are these. If locating fails (an unusual install: zipped, frozen, a future layout), the
ordinary import is used.

Importing this module loads the native code; callers import it lazily (see
:func:`hookrun.shellsyntax.parse`) so a run that parses no shell never pays for it.
"""

from __future__ import annotations

import sys
from types import ModuleType

from hookrun.records import TYPE_CHECKING

if TYPE_CHECKING:
    import importlib.machinery
    from typing import Any

    import tree_sitter


def _path_finder() -> type[importlib.machinery.PathFinder]:
    """``importlib.machinery.PathFinder``, without importing the ``importlib`` package
    (its ``__init__`` imports ``warnings``: ~0.6 ms of the shell path's start-up). CPython
    always has the class loaded, as the import system's own."""
    bootstrap = sys.modules.get("_frozen_importlib_external")
    finder: type[importlib.machinery.PathFinder] | None = getattr(bootstrap, "PathFinder", None)
    if finder is None:  # pragma: no cover - another interpreter
        import importlib.machinery

        finder = importlib.machinery.PathFinder
    return finder


def _binding(package: str) -> ModuleType:
    """``package._binding``, loaded without running ``package/__init__.py``."""
    name = f"{package}._binding"
    loaded = sys.modules.get(name)
    if loaded is not None:
        return loaded
    finder = _path_finder()
    found = finder.find_spec(package)
    locations = found.submodule_search_locations if found is not None else None
    spec = finder.find_spec(name, locations) if locations else None
    if spec is None or spec.loader is None:
        __import__(package)  # the documented way, as a fallback
        return sys.modules[name]
    # tree-sitter's binding imports `re` when it loads, only to keep `re.compile` for the
    # #match? predicates of queries (which hookrun never makes): importing re is ~6M
    # instructions (~1.8 ms) of the shell path's start-up. So while it loads, if re is
    # not loaded yet, `re` is a stand-in whose compile imports re on its first call.
    stub = None
    if "re" not in sys.modules:
        stub = sys.modules["re"] = ModuleType("re")
        vars(stub).update(compile=_compile_pattern, __getattr__=_re_attribute)
    try:
        module = spec.loader.create_module(spec)
        if module is None:  # pragma: no cover - extension loaders always create the module
            raise ImportError(f"cannot load {name}")
        spec.loader.exec_module(module)
    finally:
        if stub is not None and sys.modules.get("re") is stub:
            del sys.modules["re"]
    sys.modules[name] = module
    return module


def _compile_pattern(*args: Any, **kwargs: Any) -> Any:
    """``re.compile``, importing ``re`` on the first call."""
    return _re_attribute("compile")(*args, **kwargs)


def _re_attribute(name: str) -> Any:
    """An attribute of the real ``re`` (for the stand-in, PEP 562: a thread that imported
    re while the binding loaded has the stand-in)."""
    stub = sys.modules.get("re")
    if stub is not None and getattr(stub, "__getattr__", None) is _re_attribute:
        del sys.modules["re"]
    import re

    return getattr(re, name)


_TS = _binding("tree_sitter")
LANGUAGE: tree_sitter.Language = _TS.Language(_binding("tree_sitter_bash").language())


def new_parser() -> tree_sitter.Parser:
    """A parser for one thread (tree-sitter parsers are not shared across threads)."""
    parser: tree_sitter.Parser = _TS.Parser(LANGUAGE)
    return parser


def bracket_commands(root: tree_sitter.Node, src: bytes) -> list[tree_sitter.Node]:
    """``[`` tokens opening a ``[`` command (first in a test_command, or a ``[`` and a
    blank inside an ERROR, where a misread ``[ … ]`` leaves them), ``/``, ``*`` or ``?``
    standing alone as a word of ``[[ … ]]``, and ``==``/``=~`` as a plain command's argument.
    Found from the bytes, then checked in the tree: a tree-sitter Query would cost
    tens of ms to compile on the start-up path."""
    out: list[tree_sitter.Node] = []
    checks = [(b"[", _bracket_word)]
    if src.find(b"[[") >= 0:  # a lone `/` is misread only inside [[ ]]
        checks.append((b"/", _lone_test_word))
        # …and a lone `*` or `?` (`[[ -n * ]]`, read as multiplication or a ternary).
        checks += [(b"*", _lone_test_word), (b"?", _lone_test_word)]
        # …and a word starting `--`/`++` (`[[ --help == --@(help|verbose) ]]`), read as
        # a decrement or increment.
        checks += [(b"--", _test_word_start), (b"++", _test_word_start)]
    if src.find(b"==") >= 0:
        checks.append((b"==", _equality_word))
    if src.find(b"=~") >= 0:
        checks.append((b"=~", _equality_word))
    for token, check in checks:
        at = src.find(token)
        while at >= 0:
            n = root.descendant_for_byte_range(at, at + 1)
            if n is not None and n.type == token.decode() and not n.is_named and check(n, src):
                out.append(n)
            at = src.find(token, at + 1)
    return out


def _bracket_word(n: tree_sitter.Node, src: bytes) -> bool:
    parent = n.parent
    if parent is None:
        return False
    if parent.type == "test_command":
        return n.prev_sibling is None
    return parent.type == "ERROR" and src[n.end_byte : n.end_byte + 1] in (b" ", b"\t", b"\n")


def _equality_word(n: tree_sitter.Node, src: bytes) -> bool:
    """``==`` or ``=~`` as an argument of a plain command (``echo ==``), which the grammar
    reads as a test operator: at the end of a command it is an ERROR."""
    if src[n.start_byte - 1 : n.start_byte] not in (b" ", b"\t"):
        return False
    p = n.parent
    if p is not None and p.type == "command":
        return True
    while p is not None:
        if p.type in ("test_command", "binary_expression", "arithmetic_expansion"):
            return False
        if p.type != "ERROR":
            return True
        p = p.parent
    return True


def _lone_test_word(n: tree_sitter.Node, src: bytes) -> bool:
    """A ``/`` (``*``, ``?``) standing alone as a word of ``[[ … ]]``, which the grammar
    reads as division (multiplication, a ternary): ``[[ -d / ]]``, ``[[ -n * ]]``."""
    if src[n.start_byte - 1 : n.start_byte] not in (b" ", b"\t") or src[
        n.end_byte : n.end_byte + 1
    ] not in (b" ", b"\t"):
        return False
    return _in_test(n)


def _test_word_start(n: tree_sitter.Node, src: bytes) -> bool:
    """``--``/``++`` at the start of a word of ``[[ … ]]`` (there is no arithmetic there)."""
    return src[n.start_byte - 1 : n.start_byte] in (b" ", b"\t") and _in_test(n)


def _in_test(n: tree_sitter.Node) -> bool:
    p = n.parent
    while p is not None:
        if p.type in ("arithmetic_expansion", "c_style_for_statement", "compound_statement"):
            return False
        if p.type in ("test_command", "ERROR"):
            return True
        p = p.parent
    return False
