"""The programs the Oils cases call, written for this suite, and the in-process ``$SH``.

The spec files call small Python 2 helpers from Oils' ``spec/bin`` (``argv.py`` prints
its arguments as a Python 2 list repr, ``printenv.py``, ``stdout_stderr.py``,
``read_from_fd.py``, ``show_fd_table.py``). Python 2 is not here, so these are our own
Python 3 programs printing the same bytes; each gets this interpreter in its shebang
(no PATH lookup, no pyenv shim on every call). Bash and hookrun run the very same
helpers, so they can only make both agree or both disagree with a spec file.

``$SH`` is the shell under test: the path of bash for the bash run, and for the
in-process run a program that runs its arguments the way ``bash ARGS`` would, with
hookrun's in-process shell (see :data:`STANDIN`).
"""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

# Each body follows a "#!<python>" line written at install time.
_HELPERS = {
    "argv.py": """
import os, sys
# Python 2 printed a list of byte strings; bytes' repr minus its "b" is that repr.
print("[" + ", ".join(repr(os.fsencode(a))[1:] for a in sys.argv[1:]) + "]")
""",
    "printenv.py": """
import os, sys
for name in sys.argv[1:]:
    print(os.environ.get(name))
""",
    "stdout_stderr.py": """
import sys
args = sys.argv[1:]
print(args[0] if len(args) > 0 else "STDOUT")
print(args[1] if len(args) > 1 else "STDERR", file=sys.stderr)
sys.exit(int(args[2]) if len(args) > 2 else 0)
""",
    "read_from_fd.py": """
import os, sys
for arg in sys.argv[1:]:
    fd = int(arg)
    try:
        data = os.read(fd, 1024)
    except OSError as exc:
        print("FATAL: Error reading from fd %d: %s" % (fd, exc), file=sys.stderr)
        sys.exit(1)
    sys.stdout.buffer.write(b"%d: " % fd + data)
""",
    # The cases call `python2 -c 'print "…"'` to make bytes a shell literal cannot
    # (a lone \xF4, a \r); Python 2 string literals are bytes. Anything else they run
    # with python2 is also valid Python 3.
    "python2": r"""
import os, re, sys
code = sys.argv[2] if len(sys.argv) > 2 and sys.argv[1] == "-c" else None
m = code and re.fullmatch(r"\s*print\s*\(?\s*(\"[^\"]*\"|'[^']*')\s*\)?\s*", code)
if not m:
    os.execv(sys.executable, [sys.executable, *sys.argv[1:]])
sys.stdout.buffer.write(eval("b" + m.group(1)) + b"\n")
""",
    "show_fd_table.py": """
import os
for fd in os.listdir("/proc/self/fd/"):
    path = os.path.join("/proc/self/fd/", fd)
    try:
        print("%s %s" % (fd, os.readlink(path)))
    except OSError as exc:
        print("%s %s" % (fd, exc))
""",
}

# `$SH ARGS` for the in-process run: bash's command line (-c STRING [NAME [ARGS]],
# FILE [ARGS], or a script on stdin; -e/-u/-x/-o NAME/+o NAME options) handed to
# hookrun's public entry point as the command `bash ARGS` with the bash stand-in forced.
STANDIN = """
import os, shlex, sys
from hookrun.dispatch import run

stdin = b"" if sys.stdin is None or sys.stdin.isatty() else sys.stdin.buffer.read()
done = run(
    shlex.join(["bash", *sys.argv[1:]]),
    cwd=os.getcwd(),
    env=dict(os.environ),
    stdin=stdin,
    shell="inprocess",
)
sys.stdout.buffer.write(done.stdout)
sys.stdout.flush()
sys.stderr.buffer.write(done.stderr)
sys.exit(done.exit_code)
"""


def install(bin_dir: Path, *, python: str = sys.executable) -> None:
    """Write the helpers into ``bin_dir``, each with ``python`` in its shebang."""
    bin_dir.mkdir(parents=True, exist_ok=True)
    for name, body in _HELPERS.items():
        _write_program(bin_dir / name, python, body)


def install_standin(path: Path, *, python: str = sys.executable) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    _write_program(path, python, STANDIN)


def _write_program(path: Path, python: str, body: str) -> None:
    path.write_text(f"#!{python}\n{body.lstrip()}", encoding="utf-8")
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
