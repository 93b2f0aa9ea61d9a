"""The variables bash gives a script, and integer variables — each text run by bash and
by the in-process shell, stdout and status compared.

- ``BASH_VERSION``/``BASH_VERSINFO`` were empty: a script that checks it runs under
  bash (``[ -n "$BASH_VERSION" ] || exit 1``, ``(( BASH_VERSINFO[0] >= 4 ))`` before
  ``declare -A``) took its "not bash" exit — a guard that fails open. The in-process
  shell follows bash 5.2 (its conformance oracle) and says so.
- ``LINENO``, ``FUNCNAME``, ``BASH_SOURCE``, ``SHLVL``, ``SECONDS`` were empty.
- ``declare -i``/``local -i``: ``n=2+3`` stored ``2+3`` and ``n+=3`` concatenated.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from hookrun.dispatch import run as dispatch_run
from tests.dispatch.shell.shellrun import Runner, base_env, bash_result, bash_run

BASH = shutil.which("bash")
pytestmark = pytest.mark.skipif(BASH is None, reason="bash is the oracle")

TEXTS = [
    # the version bash 5.2 reports (major and minor: what scripts test)
    'echo "${BASH_VERSION%%.*}" "${BASH_VERSION:0:3}" ${BASH_VERSINFO[0]} ${BASH_VERSINFO[1]}',
    "echo ${#BASH_VERSINFO[@]} $BASH_VERSINFO ${BASH_VERSINFO[4]}",
    '[ -n "$BASH_VERSION" ] || { echo "needs bash" >&2; exit 1; }; echo bash',
    "(( BASH_VERSINFO[0] >= 4 )) && declare -A m=([k]=v) && echo ${m[k]}",
    '[[ ${BASH_VERSINFO[0]} -ge 5 ]] && echo five; echo "${BASH_VERSION+set}"',
    'f() { echo "${BASH_VERSION%%(*}"; }; f; echo "$(echo ${BASH_VERSINFO[1]})"',
    '[ -n "$BASH" ] && echo has-bash',
    # LINENO: the line in the text run (in functions, $( ), subshells, loops)
    "echo $LINENO\necho ${LINENO}\n\necho $LINENO",
    'f() {\n  echo "f $LINENO"\n}\nf\nx=$(echo "s $LINENO")\necho "$x"\n( echo "p $LINENO" )',
    "for i in 1 2; do\n  echo $LINENO\ndone",
    # FUNCNAME: the call stack, innermost first; unset at the top level (under -c)
    'f() { echo "${FUNCNAME[*]}|${#FUNCNAME[@]}|$FUNCNAME|${FUNCNAME[1]}"; }; g() { f; }; g; f',
    'echo "[${FUNCNAME[*]}]" ${#FUNCNAME[@]} "${FUNCNAME-unset}"',
    'f() { echo "$(echo $FUNCNAME)"; ( echo ${FUNCNAME[0]} ); }; f',
    'f() { echo ${#BASH_SOURCE[@]} "${BASH_SOURCE[*]}"; }; f; echo ${#BASH_SOURCE[@]}',
    # SHLVL: one deeper than the environment's (exported)
    "echo $SHLVL",
    "env | grep ^SHLVL=",
    # SECONDS: seconds since the start, counting on from an assigned value. Its exact
    # value depends on where in a second each shell started (bash printed 1 where hookrun
    # printed 0 in CI), so the rows print what holds in any run; the clock is checked by
    # test_seconds_counts_second_boundaries_as_bash below.
    "(( SECONDS <= 1 )) && echo fresh; SECONDS=10; (( SECONDS > 9 && SECONDS < 12 )) && echo 10",
    "SECONDS=-5; (( SECONDS <= -4 )) && echo neg; SECONDS=abc; (( SECONDS <= 1 )) && echo zero",
    # integer variables
    "declare -i n; n=2+3; echo $n; n=n*2; echo $n",
    "declare -i n=5; n+=3; echo $n; n+=2*3; echo $n",
    "f() { local -i k=2; k+=k; echo $k; local -i j; j=7/2; echo $j; }; f",
    "x=abc; declare -i x; echo $x; x+=1; echo $x",
    'declare -i e=" 3 "; echo "[$e]"; e=; echo "[$e]"',
    'declare -i n; read n <<< "2*8"; echo $n; for n in 1+1; do echo $n; done',
    'a=(1 2); declare -ia a; a[0]+=5; a[2]=3*3; echo "${a[*]}"',
    "declare -i n; n=1+; echo after $n",
    "declare -i n=3; declare +i n; n=1+1; echo $n",
    "declare -i n; (( n = 4 * 2 )); echo $n; let n=n+1; echo $n",
    # -l / -u (kept)
    "declare -l lo=ABC; declare -u up=abc; echo $lo $up; lo+=XY; up+=z; echo $lo $up",
]


@pytest.mark.parametrize("source", TEXTS)
def test_bash_variables_as_bash(run: Runner, source: str) -> None:
    env = base_env(HOME="/home/someone", SHLVL="3")
    want = bash_result(source, env)
    ran = run(source, env=env)
    assert (ran.code, ran.out) == want, ran.err


# Both reads of each line happen within microseconds; the sleep crosses a second
# boundary without a whole second passing (the start is put at 0.3 s into a second).
CLOCK = (
    "a=$(( EPOCHSECONDS - SECONDS )); sleep 0.8; b=$(( EPOCHSECONDS - SECONDS ))\n"
    "[ $a = $b ] && echo same-start || echo moved\n"
    "SECONDS=7; a=$(( EPOCHSECONDS - SECONDS )); sleep 0.8; b=$(( EPOCHSECONDS - SECONDS ))\n"
    "[ $a = $b ] && echo same-after-assign || echo moved-after-assign"
)


def _at_three_tenths() -> None:
    time.sleep((1.3 - time.time() % 1.0) % 1.0)


def test_seconds_counts_second_boundaries_as_bash(run: Runner) -> None:
    """bash's SECONDS is the wall clock's whole seconds now less those at the start (or at
    the last assignment), so ``EPOCHSECONDS - SECONDS`` stays put while the shell runs. A
    count of whole seconds elapsed (what hookrun did) moves it by one when a boundary is
    crossed less than a second after the start."""
    env = base_env()
    _at_three_tenths()
    want = bash_result(CLOCK, env)
    assert want == (0, "same-start\nsame-after-assign\n")
    _at_three_tenths()
    ran = run(CLOCK, env=env)
    assert (ran.code, ran.out) == want, ran.err


SCRIPT = """\
f() {
  echo "f ${FUNCNAME[*]} ${#FUNCNAME[@]} $LINENO"
  echo "src ${#BASH_SOURCE[@]} $(basename "${BASH_SOURCE[0]}") $(basename "${BASH_SOURCE[1]}")"
}
g() { f; }
g
echo "top ${#FUNCNAME[@]} $(basename "${BASH_SOURCE[0]}") ${#BASH_SOURCE[@]} $LINENO"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
[ "$here" = "$(pwd)/sub" ] && echo found-own-dir
bash -c 'echo "nested $SHLVL"'
echo "level $SHLVL"
"""


def test_a_script_file_sees_what_bash_gives_a_script(tmp_path: Path) -> None:
    """``bash FILE`` through the stand-in against bash itself: FUNCNAME ends in
    ``main``, BASH_SOURCE names the file (the usual way to find a script's own
    directory), a nested ``bash -c`` is one level deeper."""
    assert BASH is not None
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "s.sh").write_text(SCRIPT)
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(tmp_path), "SHLVL": "1"}
    want = subprocess.run(
        [BASH, "sub/s.sh"], env=env, cwd=tmp_path, capture_output=True, timeout=30, check=False
    )
    done = dispatch_run("bash sub/s.sh", cwd=str(tmp_path), env=env, shell="inprocess")
    assert done.route == "inprocess:bash"
    assert (done.exit_code, done.stdout.decode()) == (want.returncode, want.stdout.decode())
    assert "found-own-dir" in want.stdout.decode()


@pytest.mark.parametrize("inherited", [None, "", "0", "1", "7", "abc", "-5", "998", "999"])
def test_shlvl_from_what_the_environment_says(run: Runner, inherited: str | None) -> None:
    assert BASH is not None
    env = base_env()
    if inherited is not None:
        env["SHLVL"] = inherited
    source = "echo $SHLVL"
    assert run(source, env=env).out == bash_run(source, env).out
