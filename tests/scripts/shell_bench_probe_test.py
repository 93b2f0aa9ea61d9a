"""bench/shell_bench.py's import probes measure imports, not the compiler.

Under PYTHONDONTWRITEBYTECODE (CI's image sets it) in a clean clone, a fresh interpreter
has no bytecode for hookrun and compiles every module it imports: the judged figure
printed ~50 ms CPU of compiling where the import itself costs ~8 ms. The probes now
run with bytecode allowed under a temporary prefix, after an unmeasured round.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))
import shell_bench  # noqa: E402

# Exits 5 unless the measured round found the shell path's bytecode before importing it,
# with bytecode writing allowed: what an installed hookrun has.
_FROM_BYTECODE = """
import importlib.util, os, sys, time
import hookrun.dispatch.api
src = os.path.join("hookrun", "shellsyntax", "convert.py")
had = os.path.exists(importlib.util.cache_from_source(os.path.abspath(src)))
import hookrun.shellsyntax.convert
if sys.dont_write_bytecode or not had:
    sys.exit(5)
print(time.process_time(), time.perf_counter())
"""


def test_the_import_probe_reads_bytecode_even_where_the_environment_forbids_writing_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    assert shell_bench._probe(_FROM_BYTECODE, 1) is not None


def test_the_judged_probe_still_loads_the_grammar_and_the_plain_one_does_not(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    assert shell_bench.shell_path_import_ms(1) is not None
    assert shell_bench.shell_path_import_ms(1, plain=True) is not None
