"""The shell tables, confirmed by running bash (mvdan/sh's TestRunnerRunConfirm).

The "agrees with bash" tables in this directory say their rows were run through bash 5
as ``bash -c SOURCE NAME "a b" c`` in an empty directory with the shell tests'
environment; the hand-written feature tables of interp_test.py and builtins_test.py
pin exit codes and stdout too. Here every row of each is run exactly that way (``$0``
is ``hookrun``, as in the in-process runs; ``"a b" c`` only for tables that pass
them), and bash's exit code and stdout must be the row's: a hand-written expectation
cannot drift from bash. stderr is hookrun's own wording and is not compared. The
tables keep pinning hookrun to the same values, so hookrun ≡ table ≡ bash.

A row where hookrun differs from bash (on purpose, or a divergence still to fix) is
listed in :data:`DIFFERS` with the reason and runs as a strict xfail: the entry must
go once bash and the row agree. When a table moves or is renamed, update
:data:`TABLES`.
"""

from __future__ import annotations

import importlib
import inspect
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from tests.dispatch.shell.shellrun import base_env

BASH = shutil.which("bash")

# (module, table test) — every table whose docstring says its rows agree with bash.
TABLES = [
    ("nested_substitution_edges_test", "test_nested_substitutions_agree_with_bash"),
    ("words_and_fields_edges_test", "test_words_and_fields_agree_with_bash"),
    ("condition_edges_test", "test_condition_agrees_with_bash"),
    ("source_edges_test", "test_rewritten_source_agrees_with_bash"),
    ("builtin_options_edges_test", "test_builtin_options_agree_with_bash"),
    ("interp_edges_test", "test_interpreter_agrees_with_bash"),
    ("interp_edges_test", "test_the_commands_before_a_syntax_error_run_as_in_bash"),
    ("case_and_heredoc_edges_test", "test_case_and_here_documents_agree_with_bash"),
    ("case_and_heredoc_edges_test", "test_empty_and_unterminated_last_case_arms_agree_with_bash"),
    ("builtin_edges_test", "test_builtin_agrees_with_bash"),
    ("expansion_edges_test", "test_expansion_agrees_with_bash"),
    ("options_and_declarations_test", "test_options_and_declarations_agree_with_bash"),
    ("options_and_declarations_test", "test_cd_and_trap_agree_with_bash"),
    ("dirstack_test", "test_the_directory_stack_agrees_with_bash"),
    ("getopts_test", "test_getopts_agrees_with_bash"),
    ("fds_to_children_test", "test_descriptors_reach_children_as_in_bash"),
    ("negation_and_prefix_test", "test_negation_and_prefix_assignments_agree_with_bash"),
    ("subscripts_in_arithmetic_test", "test_subscripts_in_arithmetic_agree_with_bash"),
    ("timed_test", "test_time_agrees_with_bash"),
    ("reserved_after_group_test", "test_reserved_word_after_a_group_agrees_with_bash"),
    ("set_and_shopt_test", "test_set_and_shopt_agree_with_bash"),
    ("printf_test", "test_printf_agrees_with_bash"),
    ("read_test", "test_read_and_mapfile_agree_with_bash"),
    # Hand-written feature tables: confirmed the same way.
    ("interp_test", "test_feature_gives_exact_output_and_status"),
    ("builtins_test", "test_builtin_output_and_status"),
]

_DBRACKET = (
    "a malformed [[ ]]: bash 5.2 prints its syntax error while parsing but then exits 0 "
    "(its own bug: `bash -c 'if'` exits 2); hookrun exits 2"
)
# source → why hookrun's row is not what bash does.
DIFFERS: dict[str, str] = {
    "[[ ]]": _DBRACKET,
    "[[ a == ]]": _DBRACKET,
    "[[ a = ]]": _DBRACKET,
    "[[ a b ]]": _DBRACKET,
    "[[ ( a ]]": _DBRACKET,
    "[[ a ; ]]": _DBRACKET,
    "echo a\r\necho b\r\n": (
        "on purpose: hookrun reads a CRLF script (written on Windows) as LF; bash keeps the \\r"
    ),
    "x=$(echo ok; if); echo no": (
        "a syntax error inside $( ): bash 5.2 exits 127, hookrun 2 (both print the error)"
    ),
}


def _table(module: str, function: str) -> tuple[Sequence[Any], bool]:
    """The rows of a table test (its parametrize values) and whether it passes ARGS."""
    mod = importlib.import_module(f"tests.dispatch.shell.{module}")
    test = getattr(mod, function)
    (mark,) = [m for m in test.pytestmark if m.name == "parametrize"]
    names = mark.args[0]
    names = [n.strip() for n in names.split(",")] if isinstance(names, str) else list(names)
    rows = []
    for value in mark.args[1]:
        values = value.values if hasattr(value, "values") else value
        row = dict(zip(names, values, strict=True))
        rows.append((row["source"], row.get("code", row.get("status")), row["stdout"]))
    # The table test itself says whether its rows get "$1 $2" (run(source, args=ARGS)).
    uses_args = "args=ARGS" in inspect.getsource(test)
    return rows, uses_args


def _params() -> list[Any]:
    params = []
    for module, function in TABLES:
        rows, uses_args = _table(module, function)
        for number, (source, code, stdout) in enumerate(rows):
            marks = []
            if source in DIFFERS:
                marks.append(pytest.mark.xfail(strict=True, reason=DIFFERS[source]))
            params.append(
                pytest.param(
                    source,
                    code,
                    stdout,
                    uses_args,
                    id=f"{module.removesuffix('_test')}-{number}",
                    marks=marks,
                )
            )
    return params


@pytest.mark.skipif(BASH is None, reason="bash is the oracle; not on PATH here")
@pytest.mark.parametrize(("source", "code", "stdout", "uses_args"), _params())
def test_the_table_row_is_what_bash_does(
    tmp_path: Path, source: str, code: int, stdout: str, uses_args: bool
) -> None:
    assert BASH is not None
    # $0 is "hookrun", as in the in-process runs (Shell.run_script's default).
    args = ["hookrun", "a b", "c"] if uses_args else ["hookrun"]
    done = subprocess.run(
        [BASH, "-c", source, *args],
        cwd=tmp_path,
        env=base_env(),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=60,
        check=False,
    )
    got = (done.returncode, done.stdout.decode("utf-8", "replace"))
    assert got == (code, stdout), f"bash's stderr: {done.stderr.decode('utf-8', 'replace')}"


def test_every_listed_difference_names_a_row() -> None:
    sources = {row[0] for module, function in TABLES for row in _table(module, function)[0]}
    assert sorted(set(DIFFERS) - sources) == []
