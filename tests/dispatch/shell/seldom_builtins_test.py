"""The builtins loaded on first use (alias, unalias, hash, umask, type, let, trap) run as
bash runs them from a fresh interpreter, and a script that runs none does not load them."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

# Every builtin moved out of builtins.py (seldom.py, traps.py), each reached first
# through the lazy entry: directly, through `command` and through `builtin`.
SCRIPT = (
    'alias ll="ls -l"; alias ll; unalias ll; alias ll 2>/dev/null || echo gone; '
    "umask 027; umask; umask -S; "
    'let "x = 2 + 3" "y = x * 2"; echo $x $y; '
    "type echo; command type -t cd; f() { :; }; builtin type -t f; type -t umask; "
    "hash -r; hash; "
    'trap "echo bye" EXIT; trap -p EXIT; trap - EXIT; trap -p; trap "echo t" USR1; '
    "trap -p USR1; trap -- 42 2>/dev/null || echo bad; echo end"
)

_PROBE = """
import json, sys
from hookrun.dispatch import run
before = sorted(m for m in sys.modules if m.endswith((".seldom", ".traps")))
plain = run("echo $((1 + 2)); cd / && pwd; command -v echo", cwd=".", env=None, timeout=30)
after_plain = sorted(m for m in sys.modules if m.endswith((".seldom", ".traps")))
res = run(sys.argv[1], cwd=".", env=None, timeout=30)
after = sorted(m for m in sys.modules if m.endswith((".seldom", ".traps")))
out = [before, plain.stdout.decode(), after_plain, res.stdout.decode(), res.exit_code, after]
print(json.dumps(out))
"""


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash (the oracle)")
def test_the_builtins_loaded_on_first_use_run_as_bash_runs_them() -> None:
    proc = subprocess.run(
        [sys.executable, "-c", _PROBE, SCRIPT],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    before, plain_out, after_plain, out, status, after = json.loads(proc.stdout)
    assert before == after_plain == []  # a script that runs none of them loads neither module
    assert plain_out == "3\n/\necho\n"
    assert after == ["hookrun.dispatch.shell.seldom", "hookrun.dispatch.shell.traps"]
    bash = subprocess.run(["bash", "-c", SCRIPT], capture_output=True, text=True, timeout=60)
    assert (out, status) == (bash.stdout, bash.returncode)
    assert "end\n" in out and "5 10\n" in out


def test_the_builtin_table_still_names_every_builtin() -> None:
    # type / command -v / hash read the table: the names must not depend on loading.
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            "from hookrun.dispatch.shell.builtins import BUILTINS\nprint(' '.join(BUILTINS))",
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout.split()
    for name in ("alias", "unalias", "hash", "umask", "type", "let", "trap", "kill", "printf"):
        assert name in out
