"""The heads' name tests read names exactly as the patterns they replaced (kept here as
the oracle): the rules and the unwrapper used ``re.fullmatch`` on these, and the
screen needs them without loading ``re``'s compiler."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from hookrun.hooks.shell_guard import heads
from hookrun.hooks.shell_guard.names import SHELLS

_PYTHON = re.compile(r"python[0-9.]*|pypy[0-9.]*")
_INTERPRETER = re.compile(
    r"(python[0-9.]*|pypy[0-9.]*|perl[0-9.]*|ruby[0-9.]*|node|nodejs|php[0-9.]*|lua[0-9.]*|"
    r"bun|deno|Rscript|pwsh|powershell|osascript|tclsh|jshell)"
)
_SOURCE = frozenset({"source", ".", "eval", "iex", "Invoke-Expression"})

NAMES = [
    "python", "python3", "python3.11", "python.", "python3x", "pythonic", "xpython", "pypy3",
    "pypy", "py", "perl", "perl5.36", "ruby3", "node", "node18", "nodejs", "php8.2", "lua5.4",
    "bun", "deno", "Rscript", "pwsh", "powershell", "osascript", "tclsh", "jshell", "sh",
    "bash", ".", "source", "eval", "", "3.11", "rm", "Python3",
]  # fmt: skip
names = st.sampled_from(NAMES) | st.text(alphabet="pythonerlubydj.0123456789", max_size=12)


def _old_is_runner(name: str) -> bool:
    return name in SHELLS or name in _SOURCE or _INTERPRETER.fullmatch(name) is not None


@settings(max_examples=500, deadline=None)
@given(names)
def test_python_and_runner_names_read_as_the_patterns_read_them(name: str) -> None:
    assert heads.is_python(name) is (_PYTHON.fullmatch(name) is not None)
    assert heads.is_runner(name) is _old_is_runner(name)


def test_the_table_examples_hold() -> None:
    for name in NAMES:
        assert heads.is_python(name) is (_PYTHON.fullmatch(name) is not None), name
        assert heads.is_runner(name) is _old_is_runner(name), name
