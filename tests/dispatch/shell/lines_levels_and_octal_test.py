"""Interpreter gaps against bash (s18): each text run by bash and by the in-process shell,
stdout and status compared.

- A variable holding a number with a leading 0 was read as decimal in arithmetic:
  `x=08; echo $((x+1))` printed 9 (bash: "value too great for base", status 1) and
  `x=010` counted as 10 (bash: 8). A Unicode digit (`x=٣`) counted as 3 (bash: error).
- ``BASH_SUBSHELL`` and ``BASH_LINENO`` were empty.
- ``LINENO`` was the line of the expansion, not the command's line as bash counts it
  (a command of many lines), and 1 in an ERR trap (the trap's own text).
- ``BASH_SOURCE`` inside a function defined in a sourced lib named the calling script.
- ``SHLVL`` was not exported when the environment had none.
- An unbound variable or ``${x:?}`` in a subshell of a `-c` string (``( … )``,
  ``$( … )``) ended it with 127; bash: 1 (127 only at the top level).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from hookrun.dispatch import run as dispatch_run
from tests.dispatch.shell.shellrun import Runner, base_env, bash_result

BASH = shutil.which("bash")
pytestmark = pytest.mark.skipif(BASH is None, reason="bash is the oracle")

TEXTS = [
    # numbers with a leading 0 in a variable: octal, or an error
    "x=08; echo $((x+1)); echo after",
    'x=09; y=$((x)) || echo failed; echo "[$y]"',
    "x=010; echo $((x)) $((x+1)); x=-010; echo $((x))",
    "x=' 010 '; echo $((x)); a=(07 010); echo $((a[1]+1))",
    "x=0; y=00; echo $((x+y)); x=0x1f; echo $((x))",
    "x=010; [[ $x -eq 8 ]] && echo yes; [ $x -eq 8 ] || echo no",
    "x=٣; echo $((x)); echo after",
    "declare -i n=010; echo $n; n=08; echo $n",
    "f() { local -i k; k=019; echo $k; }; f; echo $?",
    # BASH_SUBSHELL
    'echo "$BASH_SUBSHELL"; (echo "$BASH_SUBSHELL"; (echo $BASH_SUBSHELL));'
    " echo $(echo $BASH_SUBSHELL)",
    "echo $BASH_SUBSHELL | cat; { echo $BASH_SUBSHELL; } | cat;"
    " echo $(echo $(echo $BASH_SUBSHELL)) & wait",
    "echo $BASH_SUBSHELL & wait; (echo $BASH_SUBSHELL) | cat; x=$(echo $BASH_SUBSHELL); echo $x",
    # BASH_LINENO
    'f() { echo "${BASH_LINENO[*]} ${FUNCNAME[*]}"; }\nf\ng() {\n  f\n  echo $LINENO\n}\ng\n'
    '(g)\nx=$(g); echo "$x"',
    'f() {\necho ${BASH_LINENO[0]} $BASH_LINENO\n}\nf a \\\nb\nf "\n"',
    'echo "[${BASH_LINENO[*]}]" ${#BASH_LINENO[@]}',
    # LINENO in commands of many lines
    "echo a \\\nb $LINENO\necho $LINENO",
    'echo "a\nb" $LINENO \\\nc\necho $LINENO',
    'x=1 \\\n  y=2 echo $LINENO "\n"',
    "f() {\n  echo $LINENO \\\n    $LINENO\n}\nf",
    "a=(1\n2 $LINENO)\necho ${a[2]}",
    "cat <<EOF2\nl $LINENO\nEOF2\necho $LINENO",
    'if true\nthen\n  echo $LINENO\nfi; echo "a\nb $LINENO"',
    'echo "$LINENO\nx" $(echo $LINENO\n)',
    # LINENO in an ERR trap: the failing command's line
    "trap 'echo err at $LINENO' ERR\nfalse\necho x\nf() {\n  false\n}\nf",
    "trap 'echo err $LINENO' ERR\nx=1\n[ a = b ]\necho \"$LINENO\"",
    'trap "echo t \\$LINENO" ERR\nfalse "\n" \n[[ a = \\\nb ]]',
    'trap "echo t \\$LINENO" ERR\n(( 0 +\n0 ))\n[[ a = b ||\n  a = c ]]\nfalse |\nfalse',
    "set -e\ntrap 'echo err $LINENO ${BASH_LINENO[*]}' ERR\nf() {\n  echo in\n  false\n}\nf",
    # an expansion error ends a `-c` string with 127, but a subshell of it with 1
    'set -u; (echo $nope); echo "rc=$?"; x=$(echo $nope2); echo "rc=$?"\n'
    'echo $nope3 | cat; echo "p=${PIPESTATUS[*]}"',
    'set -u; f() { echo $nope; }; (f); echo "rc=$?"',
    'x=1; (echo ${x@Z}); echo "rc=$?"',
    '(: ${x:?}); echo "rc=$?"; x=$(echo ${y:?}); echo "rc=$?"\n'
    '{ : ${z:?}; } | cat; echo "p=${PIPESTATUS[*]}"',
    'f() { echo "${1:?need arg}"; }; (f); echo "rc=$?"; f; echo "rc=$?"',
    # SHLVL is exported even when the environment had none
    "env | grep ^SHLVL=; echo $SHLVL",
    "export -p | grep -c SHLVL; unset SHLVL; env | grep -c SHLVL",
]


@pytest.mark.parametrize("source", TEXTS)
def test_as_bash(run: Runner, source: str) -> None:
    env = base_env()  # no SHLVL: bash makes it 1 and exports it
    ran = run(source, env=env)
    assert (ran.code, ran.out) == bash_result(source, env), ran.err


LIB = """\
lf() {
  echo "lf ${BASH_SOURCE[*]} | ${FUNCNAME[*]} | ${BASH_LINENO[*]} | $LINENO"
}
echo "lib ${BASH_SOURCE[*]} | ${FUNCNAME[*]} | ${#FUNCNAME[@]} | ${BASH_LINENO[*]}"
"""

SCRIPT = """\
. lib/l.sh
f() {
  lf
  . lib/l.sh
  echo "f ${BASH_SOURCE[*]} | ${FUNCNAME[*]} | ${BASH_LINENO[*]}"
}
f
lf
echo "top [${BASH_LINENO[*]}] [${BASH_SOURCE[*]}] [${FUNCNAME[*]}] $BASH_SUBSHELL"
trap 'echo "err $LINENO ${BASH_LINENO[*]}"' ERR
false
"""


@pytest.mark.parametrize("how", ["file", "-c"])
def test_a_function_from_a_sourced_lib_names_its_own_file(tmp_path: Path, how: str) -> None:
    """BASH_SOURCE[0] inside a function is the file it was defined in (the lib), and
    `source` is a frame of the stack as in bash: "source" in FUNCNAME (unset outside any
    function), the line it was run from in BASH_LINENO."""
    assert BASH is not None
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "l.sh").write_text(LIB)
    (tmp_path / "s.sh").write_text(SCRIPT)
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(tmp_path), "SHLVL": "1"}
    argv = ["s.sh"] if how == "file" else ["-c", SCRIPT]
    want = subprocess.run(
        [BASH, *argv], env=env, cwd=tmp_path, capture_output=True, timeout=30, check=False
    )
    command = "bash s.sh" if how == "file" else 'bash -c "$(cat s.sh)"'
    done = dispatch_run(command, cwd=str(tmp_path), env=env, shell="inprocess")
    assert done.route.startswith("inprocess")
    assert (done.exit_code, done.stdout.decode()) == (want.returncode, want.stdout.decode())
