"""Import bashlex without rebuilding its parser tables on every start.

bashlex 0.18 ships a vendored PLY whose ``yacc()`` recomputes the LALR tables
each time ``bashlex.parser`` is imported (~100 ms — most of a cold
``hookrun run``; its ``parsetab.py`` is never read). The tables are pure data,
so the first import builds them as usual and stores them in hookrun's user cache
dir; later imports hand PLY a parser made from the cached tables. The cache key
holds bashlex's file size and mtime and the Python version, so an upgrade
rebuilds. Any problem with the cache falls back to the normal build.
"""

from __future__ import annotations

import importlib.util
import marshal
import os
import sys
import threading
from types import ModuleType, SimpleNamespace
from typing import Any

_FORMAT = 1


_lock = threading.Lock()
_loaded: ModuleType | None = None


def load() -> ModuleType:
    """Return the ``bashlex`` module, importing it with cached tables if needed.

    Thread-safe: parallel hooks may need the parser at the same moment, and the
    slow path puts a not-yet-executed ``bashlex`` package into ``sys.modules``, so
    nobody may look there until it is complete. ``_loaded`` is set only then.
    """
    global _loaded
    if _loaded is not None:
        return _loaded
    with _lock:
        if _loaded is None:
            _loaded = _load_locked()
        return _loaded


def _load_locked() -> ModuleType:
    if "bashlex" in sys.modules and "bashlex.parser" in sys.modules:
        # Imported the plain way by someone else (a test, a host), complete under
        # the import system's own lock.
        return importlib.import_module("bashlex")
    try:
        return _import_with_cache()
    except Exception:  # the cache is an optimisation; never let it break parsing
        for name in [m for m in sys.modules if m == "bashlex" or m.startswith("bashlex.")]:
            del sys.modules[name]
        return importlib.import_module("bashlex")


def _cache_path(parser_file: str) -> str:
    from platformdirs import user_cache_dir

    st = os.stat(parser_file)
    tag = f"{st.st_size}-{int(st.st_mtime)}-py{sys.version_info[0]}{sys.version_info[1]}"
    return os.path.join(user_cache_dir("hookrun"), f"bashlex-tables-{tag}-v{_FORMAT}.marshal")


class _Production:
    __slots__ = ("name", "len", "func", "callable", "str")

    def __init__(self, name: str, length: int, func: str | None, text: str) -> None:
        self.name = name
        self.len = length
        self.func = func
        self.callable: Any = None
        self.str = text


class _Tables:
    def __init__(self, action: Any, goto: Any, productions: list[_Production]) -> None:
        self.lr_action = action
        self.lr_goto = goto
        self.lr_productions = productions


def _import_with_cache() -> ModuleType:
    spec = importlib.util.find_spec("bashlex")
    if spec is None or spec.origin is None or not spec.submodule_search_locations:
        raise ImportError("bashlex not installed")
    pkg_dir = list(spec.submodule_search_locations)[0]
    cache = _cache_path(os.path.join(pkg_dir, "parser.py"))

    # Create the package module without running its __init__ (which imports the
    # parser), so bashlex.yacc.yacc can be swapped before the parser module calls it.
    package = importlib.util.module_from_spec(spec)
    sys.modules["bashlex"] = package
    try:
        yacc_mod: Any = importlib.import_module("bashlex.yacc")
        original = yacc_mod.yacc

        def cached_yacc(*args: Any, **kwargs: Any) -> Any:
            pdict = sys._getframe(1).f_globals
            try:
                with open(cache, "rb") as fh:
                    data = marshal.load(fh)
                if data[0] != _FORMAT:
                    raise ValueError("stale cache format")
                productions = [_Production(*p) for p in data[3]]
                for p in productions:
                    if p.func:
                        p.callable = pdict[p.func]
                errorf = pdict.get("p_error")
                return yacc_mod.LRParser(_Tables(data[1], data[2], productions), errorf)
            except Exception:
                # PLY finds the grammar in its caller's globals; we are that caller now.
                kwargs["module"] = SimpleNamespace(**pdict)
                parser = original(*args, **kwargs)
                _store(cache, parser)
                return parser

        yacc_mod.yacc = cached_yacc
        try:
            assert spec.loader is not None
            spec.loader.exec_module(package)
        finally:
            yacc_mod.yacc = original
    except BaseException:
        sys.modules.pop("bashlex", None)
        raise
    return package


def _store(path: str, parser: Any) -> None:
    try:
        productions = [(p.name, p.len, p.func, p.str) for p in parser.productions]
        blob = marshal.dumps((_FORMAT, dict(parser.action), dict(parser.goto), productions))
        import tempfile

        os.makedirs(os.path.dirname(path), exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".bashlex-")
        with os.fdopen(fd, "wb") as fh:
            fh.write(blob)
        os.replace(tmp, path)
    except Exception:  # a read-only cache dir only costs speed
        pass
