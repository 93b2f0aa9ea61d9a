"""``re.compile`` deferred to the pattern's first use, for module-level patterns on a
start-up path.

Compiling a pattern costs 0.05–0.5 ms (the in-process shell's arithmetic tokenizer
alone 0.45 ms), paid at import by every process that imports the module, whether or not
it ever matches. ``lazyre.compile(p)`` returns an object standing for
``re.compile(p)``: the first attribute read compiles the pattern and copies its bound
methods onto the object, so later calls (``rx.match(s)``) cost what they cost on the
compiled pattern itself.
"""

from __future__ import annotations

# Not typing at run time: it is 0.4x a bare Python start (hookrun.records says why). Nor
# `re` before a pattern is first used: importing it is ~6M instructions (~1.8 ms), which a
# process whose lazy patterns never match anything (the in-process shell running `echo`,
# `test`, `[ -n "$x" ]`) does not pay.
TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
    from typing import Any, AnyStr

# What is copied onto the stand-in once compiled (every public attribute of re.Pattern).
_ATTRS = (
    "match",
    "search",
    "fullmatch",
    "sub",
    "subn",
    "split",
    "findall",
    "finditer",
    "scanner",
    "pattern",
    "flags",
    "groups",
    "groupindex",
)


class _Lazy:
    def __init__(self, pattern: str | bytes, flags: int) -> None:
        self._args = (pattern, flags)

    def __getattr__(self, name: str) -> Any:  # only for names not yet copied
        if name not in _ATTRS:  # dunders asked by copy/pickle, or a typo: no compiling
            raise AttributeError(name)
        import re

        compiled: re.Pattern[Any] = re.compile(self._args[0], self._args[1])
        for attr in _ATTRS:
            setattr(self, attr, getattr(compiled, attr))
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"lazyre.compile({self._args[0]!r}, {self._args[1]!r})"


def compile(pattern: AnyStr, flags: int = 0) -> re.Pattern[AnyStr]:  # noqa: A001
    """``re.compile(pattern, flags)``, compiled when first used."""
    lazy: re.Pattern[AnyStr] = _Lazy(pattern, flags)  # type: ignore[assignment]  # stands for one
    return lazy
