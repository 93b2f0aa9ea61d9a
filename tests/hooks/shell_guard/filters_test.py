"""engine._FILTERS names exactly the filters decoders.transformed models.

The engine keeps its own copy of the names so that a judged line loads
:mod:`hookrun.hooks.shell_guard.decoders` only when it pipes through one of them
(tests/cli/import_set_test.py pins the deny path's imports). A name the decoder gains
and the copy lacks is never decoded (``… | newfilter | sh`` judged blind); a name the
copy gains and the decoder lacks loads it for nothing. The decoder's names are read
from its own code: each ``name == "…"`` test in ``transformed``.
"""

from __future__ import annotations

import ast
import inspect

from hookrun.hooks.shell_guard import decoders, engine


def _modelled(source: str) -> set[str]:
    """The names ``source`` (a function taking ``name``) compares ``name`` with."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, ast.Compare)
            and isinstance(node.left, ast.Name)
            and node.left.id == "name"
            and all(isinstance(op, ast.Eq) for op in node.ops)
        ):
            found.update(
                c.value
                for c in node.comparators
                if isinstance(c, ast.Constant) and isinstance(c.value, str)
            )
    return found


def test_the_engine_names_the_decoders_filters() -> None:
    modelled = _modelled(inspect.getsource(decoders.transformed))
    assert modelled  # (the reading of the decoder found its names)
    assert set(engine._FILTERS) == modelled


def test_a_name_added_on_either_side_fails() -> None:
    source = inspect.getsource(decoders.transformed)
    more = source.replace('name == "rev"', 'name == "rev" or name == "uudecode"')
    assert more != source
    assert _modelled(more) != set(engine._FILTERS)
    assert _modelled(source) != set(engine._FILTERS) | {"uudecode"}


def test_each_filter_decodes_through_the_engine() -> None:
    """Not only names: each is modelled (a line piping through it is read through it)."""
    samples = {
        "rev": ([], "fr- mr\n", "rm -rf\n"),
        "tr": (["a-z", "n-za-m"], "ez", "rm"),
        "xxd": (["-r", "-p"], "726d", "rm"),
        "base64": (["-d"], "cm0=", "rm"),
        "base32": (["-d"], "OJWQ====", "rm"),
        "openssl": (["base64", "-d"], "cm0=", "rm"),
        "basenc": (["--base64", "-d"], "cm0=", "rm"),
    }
    assert set(samples) == set(engine._FILTERS)
    for name, (args, text, out) in samples.items():
        assert decoders.transformed(name, args, text) == out, name
