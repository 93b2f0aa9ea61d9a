"""The syntax tree's classes: made on first use at run time, the same as their declarations.

``hookrun/shellsyntax/nodes.pyi`` declares the classes for type checkers, nodes.py makes each
at run time from ``_FIELDS`` when it is first used (hookrun.records.lazy_records): the
two must agree field for field, and the lazy path must work from a fresh interpreter.
"""

from __future__ import annotations

import ast
import pickle
import subprocess
import sys
import typing
from pathlib import Path
from typing import Any

from hookrun.shellsyntax import nodes

NODES_PYI = Path(nodes.__file__).with_suffix(".pyi")


def _declared() -> dict[str, tuple[tuple[str, ...], dict[str, Any]]]:
    """Each class declared in nodes.pyi: its field names and its defaults."""
    found: dict[str, tuple[tuple[str, ...], dict[str, Any]]] = {}
    for node in ast.walk(ast.parse(NODES_PYI.read_text())):
        if isinstance(node, ast.ClassDef):
            fields = [s for s in node.body if isinstance(s, ast.AnnAssign)]
            names = tuple(s.target.id for s in fields if isinstance(s.target, ast.Name))
            defaults = {
                s.target.id: ast.literal_eval(s.value)
                for s in fields
                if isinstance(s.target, ast.Name) and s.value is not None
            }
            found[node.name] = (names, defaults)
    return found


def test_every_declared_class_is_made_with_the_declared_fields() -> None:
    declared = _declared()
    assert len(declared) == 31
    assert set(declared) == set(nodes._FIELDS)
    for name, (fields, defaults) in declared.items():
        cls = getattr(nodes, name)
        assert cls.__name__ == cls.__qualname__ == name
        assert cls.__module__ == "hookrun.shellsyntax.nodes"
        assert cls._fields == cls.__match_args__ == fields, name
        assert cls._field_defaults == defaults, name


def test_a_made_class_behaves_as_the_typing_named_tuple_it_declares() -> None:
    for name, (fields, defaults) in _declared().items():
        ours = getattr(nodes, name)
        theirs = typing.NamedTuple(name, [(f, Any) for f in fields])  # type: ignore[misc]
        theirs.__new__.__defaults__ = tuple(defaults.values()) or None
        values = list(range(len(fields)))
        a, b = ours(*values), theirs(*values)
        assert a == b and hash(a) == hash(b) and repr(a) == repr(b)
        assert ours(**dict(zip(fields, values, strict=True))) == a
        assert a._asdict() == b._asdict()
        assert a._replace(**{fields[0]: "x"}) == b._replace(**{fields[0]: "x"})
        assert type(a._replace()) is ours
        assert pickle.loads(pickle.dumps(a)) == a
        assert type(pickle.loads(pickle.dumps(a))) is ours
        for field, value in zip(fields, values, strict=True):
            assert getattr(a, field) == value
        if not defaults:
            try:
                ours(*values[:-1])
            except TypeError as exc:
                assert fields[-1] in str(exc)
            else:
                raise AssertionError(f"{name} made with a field missing")


def _fresh(code: str) -> str:
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_a_class_is_made_on_its_first_use_only() -> None:
    out = _fresh(
        "import hookrun.shellsyntax.nodes as n\n"
        "made = lambda: {k for k in vars(n) if k in n._FIELDS}\n"
        "before = made()\n"
        "print(len(before))\n"
        "assert 'CForClause' not in before\n"
        "from hookrun.shellsyntax.nodes import CForClause\n"
        "assert made() - before == {'CForClause'}, made()\n"
        "assert n.CForClause is CForClause and vars(n)['CForClause'] is CForClause\n"
        "c = CForClause(0, 1, None, None, None, ())\n"
        "assert isinstance(c, n.CForClause) and c.body == ()\n"
        "try:\n"
        "    n.NoSuchNode\n"
        "except AttributeError as exc:\n"
        "    assert 'NoSuchNode' in str(exc)\n"
        "else:\n"
        "    raise AssertionError('no error')\n"
    )
    # (importing the package reads plain lines, whose classes it makes: not all of them)
    assert 0 < int(out) < 31


def test_threads_asking_for_a_class_at_once_get_the_same_one() -> None:
    out = _fresh(
        "import sys, threading\n"
        "sys.setswitchinterval(1e-6)\n"
        "import hookrun.shellsyntax.nodes as n\n"
        "names = [k for k in n._FIELDS if k not in vars(n)]\n"
        "got = []\n"
        "start = threading.Barrier(8)\n"
        "def ask():\n"
        "    start.wait()\n"
        "    got.append(tuple(getattr(n, k) for k in names))\n"
        "ts = [threading.Thread(target=ask) for _ in range(8)]\n"
        "for t in ts: t.start()\n"
        "for t in ts: t.join()\n"
        "assert len(got) == 8 and len(set(got)) == 1, 'different classes'\n"
        "assert got[0] == tuple(vars(n)[k] for k in names)\n"
        "print(len(names))\n"
    )
    assert int(out) > 0


# Needs classes the package's imports do not make (CForClause, CaseClause, ArithCmd …).
_SCRIPT = 'for ((i=0; i<2; i++)); do case $i in 1) echo "one $((i+1))";; esac; done'


def test_a_shell_script_runs_from_a_fresh_interpreter_as_bash_runs_it() -> None:
    # The classes a parse needs are made while it converts (tree-sitter path) or reads
    # (plain path), in whatever order the first script asks for them.
    out = _fresh(
        "import sys\n"
        "from hookrun.dispatch import run\n"
        f"res = run({_SCRIPT!r}, cwd='.', env=None, timeout=30)\n"
        "sys.stdout.write(res.stdout.decode())\n"
        "sys.exit(res.exit_code)\n"
    )
    bash = subprocess.run(["bash", "-c", _SCRIPT], capture_output=True, text=True, check=True)
    assert out == bash.stdout == "one 2\n"
