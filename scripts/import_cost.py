#!/usr/bin/env python3
"""What each module costs to import, in instructions (callgrind): a module-by-module
view of ``bench/shell_bench.py``'s import probe, or of any other code.

    .venv/bin/python scripts/import_cost.py                  # the bench's judged probe
    .venv/bin/python scripts/import_cost.py --plain          # its plain-line probe
    .venv/bin/python scripts/import_cost.py --base hookrun.dispatch \\
        --code "import hookrun.shellsyntax.parser as p; p.parse('a | b')"

Each module's figure is its *self* cost: the instructions run while it was the innermost
module being imported (finding it, reading and unmarshalling its .pyc, running its body:
classes, tables) — the modules it imports count for themselves, and the garbage
collections that happen to fall in its window count for it. ``(probe)`` is the code's
own work outside any import (a first parse, say). Instruction counts do not depend on
the machine's load, so before/after comparisons hold on a busy machine; the hash seed is
fixed (0) so that two runs of the same tree agree to the instruction.

How: the code runs under ``valgrind --tool=callgrind`` with the import system's
``_find_and_load`` wrapped, and callgrind dumps its counters at each module's entry and
exit (a client request, from a 12-line C helper built here with the system's compiler:
it needs gcc, Python's headers and valgrind's ``callgrind.h``). Not run by the tests.
"""

from __future__ import annotations

import argparse
import collections
import os
import re
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# The statements of bench/shell_bench.py's import probes (over hookrun.dispatch.api): the
# judged one parses a line the fast path refuses (tree-sitter loads), --plain a plain one.
DEFAULT_BASE = "hookrun.dispatch.api"
_PROBE = (
    "import hookrun.dispatch.shell, hookrun.dispatch.shell.expand, hookrun.dispatch.shell.interp\n"
    "import hookrun.shellsyntax\n"
    "hookrun.shellsyntax.parse({line!r})\n"
)
DEFAULT_CODE = _PROBE.format(line="true  # a comment")  # shell_bench.IMPORT_LINE
PLAIN_CODE = _PROBE.format(line="true")

_HELPER = r"""
#include <Python.h>
#include <valgrind/callgrind.h>
static PyObject *dump(PyObject *self, PyObject *arg) {
    const char *s = PyUnicode_AsUTF8(arg);
    if (s == NULL) return NULL;
    CALLGRIND_DUMP_STATS_AT(s);
    Py_RETURN_NONE;
}
static PyMethodDef methods[] = {{"dump", dump, METH_O, NULL}, {NULL}};
static struct PyModuleDef def = {PyModuleDef_HEAD_INIT, "_cgdump", NULL, -1, methods};
PyMODINIT_FUNC PyInit__cgdump(void) { return PyModule_Create(&def); }
"""

# Run under callgrind: every interval between two dumps is charged to the module on top
# of the import stack when it ended.
_DRIVER = """
import os, sys
sys.path.insert(0, {helper_dir!r})
import _cgdump
__import__({base!r})
code = compile({code!r}, "<probe>", "exec")
import _frozen_importlib as bootstrap
stack = ["(probe)"]
def find_and_load(name, import_, _load=bootstrap._find_and_load, _dump=_cgdump.dump):
    _dump("self:" + stack[-1])
    stack.append(name)
    try:
        return _load(name, import_)
    finally:
        _dump("self:" + stack.pop())
_cgdump.dump("start")
bootstrap._find_and_load = find_and_load
exec(code, {{"__name__": "__probe__"}})
_cgdump.dump("self:(probe)")
os._exit(0)
"""


def _build_helper(work: Path) -> None:
    (work / "cgdump.c").write_text(_HELPER)
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    include = sysconfig.get_paths()["include"]
    cmd = ["gcc", "-O2", "-shared", "-fPIC", f"-I{include}", "cgdump.c", "-o", f"_cgdump{suffix}"]
    subprocess.run(cmd, cwd=work, check=True)


def costs(base: str, code: str) -> tuple[dict[str, int], int]:
    """Self instructions per module (and ``(probe)``), and the sum."""
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        _build_helper(work)
        driver = work / "driver.py"
        driver.write_text(_DRIVER.format(helper_dir=tmp, base=base, code=code))
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env.update(PYTHONHASHSEED="0", PYTHONPATH=str(ROOT))
        # Once without valgrind, so that every .pyc is written before it is measured.
        subprocess.run([sys.executable, str(driver)], cwd=ROOT, env=env, check=True)
        out = work / "cg.out"
        subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}"]
            + [sys.executable, str(driver)],
            cwd=ROOT,
            env=env,
            check=True,
            capture_output=True,
        )
        found: collections.Counter[str] = collections.Counter()
        for dump in work.glob("cg.out.*"):
            text = dump.read_text()
            label = re.search(r"^desc: Trigger: Client Request: self:(.*)$", text, re.M)
            total = re.search(r"^(?:summary|totals): (\d+)", text, re.M)
            if label is not None and total is not None:
                found[label.group(1)] += int(total.group(1))
    return dict(found), sum(found.values())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", default=DEFAULT_BASE, help="imported first, not counted")
    parser.add_argument("--code", default=DEFAULT_CODE, help="the statements measured")
    parser.add_argument(
        "--plain", action="store_true", help="the bench's plain-line probe (no tree-sitter)"
    )
    args = parser.parse_args()
    found, total = costs(args.base, PLAIN_CODE if args.plain else args.code)
    print(f"{total / 1e6:8.2f}M instructions over {args.base} (self cost, by module)")
    for name, ir in sorted(found.items(), key=lambda item: -item[1]):
        print(f"{ir / 1e6:8.3f}M  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
