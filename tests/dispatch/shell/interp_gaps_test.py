"""Interpreter gaps found against bash, each text run by bash and by the in-process
shell (status, stdout, and whether anything went to stderr):

- ``$_`` (the last word of the command before) was never set: `mkdir -p d && cd "$_"`
  went to ``$HOME``; a program is handed ``_`` naming itself;
- ``BASH_COMMAND`` was empty — `trap 'echo "failed: $BASH_COMMAND"' ERR` printed
  nothing of the command; the DEBUG trap never ran, the RETURN trap never ran;
- ``type -t if`` (keywords), ``type -P``/``-p``/``-a``/``-f``, aliases and hashed
  commands in ``type``/``command -v``; ``enable`` and ``times`` were "command not found";
- ``BASHPID`` was unset; ``BASH_SUBSHELL`` in a function run as a pipeline stage was 0;
- ``~"/x"`` was expanded (a tilde prefix running into quotes is not), ``~+``/``~-``
  were not; ``{Z..a}`` kept the backslash it makes;
- namerefs: ``r=1 cmd`` through a ref left the value behind, a subscript with ``$(…)``
  or ``$k`` in the target was not expanded, ``test -R``/``[[ -R ]]`` and ``-o OPTION``
  were "unary operator expected".
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.dispatch.shell.shellrun import Runner, agrees_in_fresh_dirs, base_env

BASH = shutil.which("bash")
pytestmark = pytest.mark.skipif(BASH is None, reason="bash is the oracle")


def _agree(run: Runner, tmp_path: Path, source: str, stdin: bytes = b"") -> None:
    """Run ``source`` in two fresh directories, by bash and in-process: the same."""
    agrees_in_fresh_dirs(run, tmp_path, source, stdin=stdin)


LAST_WORD = [
    'echo a b; x=1; echo "[$_]"',
    'echo a b; [[ x == y ]]; echo "[$_]"; (( 1+2 )); echo "[$_]"',
    'echo a b; for i in 1 2; do :; done; echo "[$_]"',
    'echo a "b c" >/dev/null; echo "[$_]"',
    'f(){ echo in "$_"; }; echo 1 2; f x y; echo "[$_]"',
    'echo p q; echo a b | cat; echo "[$_]"',
    'echo a $(echo q z) ; echo "[$_]"',
    'set -- 1 2; echo "[$_]"',
    'ls >/dev/null; echo "[$_]"; x=1 true foo; echo "[$_]"',
    'echo a; x=$(echo q; echo "in[$_]"); echo "[$x][$_]"',
    'echo p q; ( echo "sub[$_]" ); echo "[$_]"',
    'echo a; declare -a arr=(1 2); echo "[$_]"; export Z=1; echo "[$_]"',
    "echo x; echo $_ $_",
    'echo a b; unset -v _; echo "[$_]"',
    'echo a b; nosuchcmd x y 2>/dev/null; echo "[$_]"; echo a b; $nothing; echo "[$_]"',
    'mkdir -p sub/dir && cd "$_" && pwd',
    'f(){ echo a b; return 3; }; f; echo "[$_]"',
    'shopt -s lastpipe; echo a b | read q; echo "[$_]"',
    # a program gets `_` naming itself, whatever $_ holds
    'echo p q; env | grep "^_="; x=1 env | grep "^_="',
    "printf '#!/bin/sh\\nenv | grep ^_=\\n' > s.sh; chmod +x s.sh; ./s.sh; \"$PWD/s.sh\"",
]


@pytest.mark.parametrize("source", LAST_WORD)
def test_last_word_of_the_command_before(run: Runner, tmp_path: Path, source: str) -> None:
    _agree(run, tmp_path, source)


TYPES = [
    "type if; type -t then; command -v if; command -V if; echo $?",
    'type -P ls echo nosuch; echo $?; type -p echo; echo "p=$?"; type -p ls',
    "type -a echo; type -a ls",
    'alias ll="ls -l"; type ll; type -t ll; command -v ll; shopt -s expand_aliases; '
    'alias ll="ls -l"; type ll; type -t ll; command -v ll; command -V ll',
    "f(){ :; }; type -P f; echo $?; type -t f; type -f f; echo $?",
    'type "[[" "]]" "{" "}" "!" time coproc function select until while do done in esac elif fi',
    "type -P /bin/ls; type -t /bin/ls; type -p /bin/ls",
    "ls >/dev/null; type ls; type -t ls; type -p ls; type -P ls; command -V ls; command -v ls; "
    "hash -p /bin/echo ec; type ec; type -P ec; type -t ec",
    "type -a if; type -a nosuch; echo $?; type -tP ls echo; f(){ :; }; type -a f | head -1; "
    "type -af f; echo $?; type -fp echo; echo $?; type -- -x; echo $?; type; echo $?",
    "type -Z ls; echo $?",
    "type -t echo ls if nosuch; echo $?; type -a true; type -at true",
    "type ls nosuch echo; echo $?; command -v if then ls; echo $?",
]


@pytest.mark.parametrize("source", TYPES)
def test_type_and_command_name_what_bash_names(run: Runner, tmp_path: Path, source: str) -> None:
    _agree(run, tmp_path, source)


ENABLE_TIMES = [
    'enable -n echo; echo $?; enable -n | head; type -t echo; enable -a | grep -E "enable( -n)? '
    '(echo|test)$"; enable nosuch; echo $?; enable -n nosuch; echo $?; enable echo; type -t echo; '
    'enable -p | grep -c "enable echo"; builtin echo hi; echo $?; command -v echo',
    "enable -f /x.so foo; echo $?; enable -d foo; echo $?; enable -q; echo $?",
    'enable -n test; [ 1 = 1 ] && echo yes; test 1 = 1 && echo t; enable -n "["; '
    "[ 1 = 1 ] && echo yes2",
    "enable -n echo; ( echo sub ); f() { echo fn; }; f; echo a | cat; command echo c; type echo; "
    'x=$(echo subst); echo "$x"',
    'enable -s | grep -c "enable times"; enable | grep -c "enable echo"; enable -n echo; '
    "enable -n | wc -l",
    "times >/dev/null; echo $?; times | wc -l; "
    "times | grep -cE '^[0-9]+m[0-9]+\\.[0-9]{3}s [0-9]+m[0-9]+\\.[0-9]{3}s$'",
]


@pytest.mark.parametrize("source", ENABLE_TIMES)
def test_enable_and_times_as_bash(run: Runner, tmp_path: Path, source: str) -> None:
    _agree(run, tmp_path, source)


SHELL_VARIABLES = [
    'echo $BASHPID | grep -q \'^[0-9][0-9]*$\' && echo ok; [ "$BASHPID" = "$$" ] && echo same; '
    '(  [ "$BASHPID" != "$$" ] && echo sub )',
    'f() { echo $BASHPID; }; [ "$(f)" != $$ ] && echo differ; a=$(echo $BASHPID); '
    'b=$(echo $BASHPID); [ "$a" != "$b" ] && echo two; '
    "( x=$BASHPID; [ $x = $BASHPID ] && echo same )",
    'echo $BASHPID | cat | grep -qv "^$$\\$" && echo stage',
    'f() { echo $BASH_SUBSHELL; }; f | cat; echo x | f; eval "echo \\$BASH_SUBSHELL" | cat; '
    'echo $BASH_SUBSHELL | cat; x=$(f); echo "$x"; f | f; (f) | cat; g() { f; }; g | cat',
    "echo $BASH_SUBSHELL $(echo $BASH_SUBSHELL) | cat; ( echo $BASH_SUBSHELL | cat ); "
    "{ echo $BASH_SUBSHELL; } | cat",
]


@pytest.mark.parametrize("source", SHELL_VARIABLES)
def test_bashpid_and_bash_subshell(run: Runner, tmp_path: Path, source: str) -> None:
    _agree(run, tmp_path, source)


TRAPS = [
    "trap 'echo DBG $BASH_COMMAND' DEBUG; x=1; echo hi",
    "f() { trap 'echo RET' RETURN; echo in; }; f; echo out",
    'f() { trap "echo RET \\$FUNCNAME \\$?" RETURN; echo in; return 3; }; f; echo "st=$?"; '
    "g() { echo g; }; g; f; trap -p RETURN",
    'trap "echo RET" RETURN; g() { echo g; }; g; echo end',
    'f() { local t=$(mktemp); trap "rm -f $t; echo cleaned" RETURN; echo work; }; f; f; echo done',
    'f() { trap "echo R1" RETURN; g; echo back; }; g() { echo ing; }; f',
    'f() { trap "echo R; trap - RETURN" RETURN; echo in; }; f; f',
    'f() { trap "echo R \\$?; (exit 9)" RETURN; return 4; }; f; echo $?',
    'set -T; trap "echo R" RETURN; g() { echo g; }; g',
    'f() { trap "echo R \\$?" RETURN; false; }; f; echo $?',
    'f() { trap "echo R \\$? \\$1" RETURN; echo x; return 6; }; f a; echo $?',
    'f() { trap "false" RETURN; true; }; f a; echo $?',
    'f() { trap "echo R" RETURN; exit 3; }; f; echo no',
    'trap "echo R" RETURN; f() { :; }; x=$(f); echo "[$x]"',
    'f() { trap "echo R" RETURN; }; f | cat; echo; f >/dev/null; echo ok',
    "trap 'echo \"failed: $BASH_COMMAND ($?)\"' ERR; false; ls /nonexist 2>/dev/null; echo done",
    "set -e; trap 'echo \"error on line $LINENO: $BASH_COMMAND\"' ERR; x=$(false); echo no",
    "trap 'echo \"exit: $BASH_COMMAND\"' EXIT; echo a; true foo",
    'echo "$BASH_COMMAND"',
    'f() { echo "$BASH_COMMAND"; }; f x "y z"',
    "trap 'echo \"failed: $BASH_COMMAND\"' ERR; ! true; true && false; "
    "ls /x 2>&1 | grep -q nothing; echo done",
    'trap "echo \\"T:\\$BASH_COMMAND\\"" DEBUG; echo $(echo sub)  "a"   b; x=1; (( 1 )); '
    "if true; then :; fi; f() { echo inf; }; f; ( echo sub ); y=$(echo q)",
    'trap "echo \\"T:\\$BASH_COMMAND\\"" DEBUG; i=0; while [ $i -lt 3 ]; do i=$((i+1)); done; '
    "echo a >/dev/null 2>&1; x=1 y=2 env >/dev/null; ! true; true && false || :; { echo g; }; "
    'echo "$(echo z)"; [ 1 ]; cat <<EOF\nhi\nEOF',
    "trap 'echo T' DEBUG; trap - DEBUG; echo a; trap -p",
    "set -T; trap 'echo \"T:$BASH_COMMAND\"' DEBUG; f() { echo inf; }; f",
    "trap 'echo \"T:$BASH_COMMAND\"' DEBUG; [[ a == b ]]; [[ -n $x ]] || echo e",
    "trap 'echo \"T:$BASH_COMMAND\" >&2' DEBUG; echo a | tr a b",
    "trap 'echo \"T\"; trap - DEBUG' DEBUG; echo a; echo b",
    "f() { trap 'echo \"in-f:$BASH_COMMAND\"' DEBUG; echo x; }; f; echo y",
]


@pytest.mark.parametrize("source", TRAPS)
def test_debug_return_traps_and_bash_command(run: Runner, tmp_path: Path, source: str) -> None:
    _agree(run, tmp_path, source)


WORDS = [
    'printf "[%s]" {Z..a}; echo',
    'printf "[%s]" {a..Z}; echo',
    'printf "[%s]" x{Z..a}; echo',
    'printf "[%s]" {Z..a..3}; echo',
    'echo ~"/x"; echo ~/x; echo ~\'/x\' ~\\/x; x=~"/y"; echo "$x"',
    'u=root; echo ~$u ~"" ~"x"/y ~/"x" ~root"/x" ~root/"x"',
    'x=~"/y":~/z; echo "$x"; y=a:~:~"q"; echo "$y"',
    'cd /tmp; cd /; echo ~- ~+ ~-/x ~+/y ~-"/q" ~+/"z"',
    'echo a=~"/x" b=~/x c=~:~"/y"',
    'f=~; g=~/"a b"; echo "$f|$g"; case ~ in "$HOME") echo home;; esac',
]


@pytest.mark.parametrize("source", WORDS)
def test_tilde_prefixes_and_letter_ranges(run: Runner, tmp_path: Path, source: str) -> None:
    _agree(run, tmp_path, source)


NAMEREFS = [
    'declare -n r=v; r=1 env | grep -E "^(r|v)="; echo "[$v]"; '
    'f() { echo "in v=$v r=$r"; env | grep -E "^(r|v)="; }; r=2 f; echo "after [$v]"; '
    'v=old; r=3 f; echo "after [$v]"; r=4 :; echo "[$v]"',
    'f() { echo "v=$v"; }; declare -n r=v; r=1 f; echo "after=$v"',
    "a=(1 2 3); declare -n r='a[$(echo 1)]'; echo $r",
    "typeset -n ref='a[$(echo 2) + 1]'; a=(zero one two three); echo ref=$ref; ref=THREE; "
    "echo \"${a[@]}\"; i=0; declare -n q='a[$i]'; echo $q; i=2; echo $q",
    "declare -n r='a[$(echo 1)]'; a=(x y); unset r; echo \"${#a[@]} ${a[@]}\"",
    'declare -A m=([a]=1 [b]=2); k=b; declare -n r=\'m[$k]\'; echo "$r"; k=a; echo "$r"; '
    'r=9; echo "${m[a]}"',
    "declare -A m=(['a*']=1 [b]=2); k='a*'; declare -n r='m[$k]'; echo \"$r\"; k='\\b'; "
    'echo "[$r]"',
    "x=1; declare -n r=x; test -R r && echo ref; test -R x || echo notref; "
    "[[ -R r ]] && echo ref2; "
    '[ -R nosuch ]; echo $?; declare -n u; [[ -R u ]]; echo "u=$?"',
    "[ ! -R x ]; echo $?; [ -R ]; echo $?; test -R a b; echo $?",
    "set -e; [[ -o errexit ]] && echo on; test -o pipefail || echo off; [ -o nosuchopt ]; "
    "echo $?; [[ -o nounset ]]; echo $?",
    "set -o pipefail; [ -o pipefail ] && echo pf; shopt -s nullglob; [[ -o nullglob ]]; echo $?",
    "[ -o errexit -o -n x ]; echo $?; [ ! -o errexit ]; echo $?; [ -v HOME -a -o nounset ]; "
    "echo $?; set -u; [ -v HOME -a -o nounset ]; echo $?",
    '[ -o ]; echo $?; [ -o a b ]; echo $?; test -o; echo $?; [ x -o y ]; echo $?; [ "" -o "" ]; '
    "echo $?",
]


@pytest.mark.parametrize("source", NAMEREFS)
def test_namerefs_and_shell_tests(run: Runner, tmp_path: Path, source: str) -> None:
    _agree(run, tmp_path, source)


def test_bashpid_of_a_subshell_is_never_a_real_pid(run: Runner, tmp_path: Path) -> None:
    # A `kill $BASHPID` in a subshell must not reach another process: its number is above
    # any pid Linux hands out, and unique per subshell.
    ran = run("( echo $BASHPID ); ( echo $BASHPID ); echo $BASHPID", env=base_env())
    first, second, own = (int(x) for x in ran.out.split())
    assert own == os.getpid()
    assert first != second
    assert min(first, second) > 1 << 22


NOUNSET_ARRAYS = [
    "set -u; declare -a a; echo ${#a[@]}; echo after",
    "set -u; declare -a a; x=$(echo ${#a[@]}); echo after $?",
    'set -u; declare -a a; a+=(1); echo ${#a[@]}; declare -a b; b[3]=x; unset "b[3]"; '
    "echo ${#b[@]}; declare -p b",
    "set -u; declare -A m; echo ${#m[@]}",
    "set -u; f() { local -a a; echo ${#a[@]}; }; f",
    "declare -a a; echo ${#a[@]}",
    'set -u; declare -a a; echo "${#a[*]}"; echo more',
    "set -u; a=(x); declare -a a; echo ${#a[@]}; a=(); echo ${#a[@]}",
    "set -u; declare -a a; mapfile -t a < /dev/null; echo ${#a[@]}",
    'set -u; declare -a a; read -ra a <<< ""; echo ${#a[@]}; echo "${a[@]}" "${!a[@]}" end',
    'set -u; declare -a a; for x in "${a[@]}"; do :; done; echo ok',
]


@pytest.mark.parametrize("source", NOUNSET_ARRAYS)
def test_length_of_an_array_never_assigned_under_nounset(
    run: Runner, tmp_path: Path, source: str
) -> None:
    _agree(run, tmp_path, source)


def test_length_of_an_array_never_assigned_in_a_script_file(tmp_path: Path) -> None:
    # In a file the error ends its line only: the next line runs (bash 5.2).
    from hookrun.dispatch import run as dispatch_run

    script = tmp_path / "hook"
    script.write_text("set -u; declare -a a; echo ${#a[@]}; echo same-line\necho next-line\n")
    script.chmod(0o755)
    env = base_env()
    assert BASH is not None
    want = subprocess.run([BASH, str(script)], env=env, capture_output=True, timeout=30)
    got = dispatch_run(str(script), cwd=str(tmp_path), env=env, timeout=30)
    assert (got.exit_code, got.stdout) == (want.returncode, want.stdout), got.stderr


MORE_BUILTINS = [
    # `local -`: the `set` options come back when the function returns (not `shopt`'s)
    'f() { local -; set -e; false; echo not; }; f; echo "after $?"; echo $-',
    "f() { local -; set -u +e -o pipefail; shopt -s nullglob; echo $-; }; set -e; f; echo $-; "
    "shopt nullglob; set -o | grep pipefail",
    'f() { local - y; set -f; echo "$-"; }; f; echo $-',
    "local -; echo $?",
    # jobs
    # (jobs that outlive the test's commands by far: a finished one leaves the table once
    # the shell has waited for a pipeline, in bash too, and a loaded machine is slow)
    "sleep 2 & sleep 3 & jobs; jobs -p | wc -l; jobs -l | wc -l; jobs %1; echo $?; "
    'jobs %5; echo $?; kill %1 %2; wait; echo "[$(jobs)]"',
    'sleep 2 & jobs -p | grep -c "^$!\\$"; kill $(jobs -p); wait; echo $?',
    "jobs; echo $?; jobs -z; echo $?",
    "sleep 2 & (sleep 3 & jobs | wc -l; kill $!); jobs | wc -l; kill %1; wait",
    # shift's errors
    "shift -1; echo $?; shift x; echo $?; set -- a; shift 2; echo $?; shopt -s shift_verbose; "
    "shift 2; echo $?; shift 1 2; echo $?",
    "f() { shift 1 2; echo in; }; f; echo after",
    'x=$(shift 1 2; echo in); echo "after [$x]"',
    # SHELLOPTS, BASHOPTS
    "echo $SHELLOPTS; set -euo pipefail; echo $SHELLOPTS; set +B; echo $SHELLOPTS",
    'echo $BASHOPTS; shopt -s nullglob extglob; shopt -u sourcepath; echo "$BASHOPTS"',
]


@pytest.mark.parametrize("source", MORE_BUILTINS)
def test_local_dash_jobs_shift_and_option_lists(run: Runner, tmp_path: Path, source: str) -> None:
    _agree(run, tmp_path, source)


# The usual `set -euo pipefail` hook: an unbound variable (or ${x:?}, a bad ${x@Z}) ends
# it with 1 in bash 5.2 once -e is on — it was 127 here.
ERREXIT_FATAL = [
    'set -eu; echo "$u"',
    'set -e; set -u; echo "$u"',
    "set -e; echo ${u?msg}",
    "set -e; echo ${u:?}",
    "set -eu; x=$u",
    "set -eu; f() { echo $u; }; f",
    'set -eu; echo "${a[1]}"',
    "set -e; if echo ${u?m}; then :; fi",
    "set -e; echo ${u?m} || true",
    "set -e; set +e; echo ${u?m}",
    "x=1; set -e; echo ${x@Z}",
    'set -euo pipefail; input=$(cat); echo "${#input}"; echo "$TOOL"',
    'set -u; echo "$u"',
]


@pytest.mark.parametrize("source", ERREXIT_FATAL)
def test_fatal_expansion_errors_end_with_bash_status(
    run: Runner, tmp_path: Path, source: str
) -> None:
    _agree(run, tmp_path, source, stdin=b'{"tool_name":"Bash"}')


SOURCE_RETURN = [
    'echo "echo in-src; return 4" > r.sh; echo "echo plain" > p.sh; '
    'trap "echo RET \\$?" RETURN; . ./p.sh; echo "st=$?"; . ./r.sh; echo "st=$?"',
    'echo "echo plain" > p.sh; f() { trap "echo FRET" RETURN; . ./p.sh; echo back; }; f',
    'echo "echo plain" > p.sh; trap "echo R" RETURN; f() { . ./p.sh; }; f; echo done',
    'echo "echo plain" > p.sh; trap "echo R" RETURN; eval "echo ev"; x=$(. ./p.sh); echo "[$x]"',
]


@pytest.mark.parametrize("source", SOURCE_RETURN)
def test_return_trap_as_a_sourced_file_ends(run: Runner, tmp_path: Path, source: str) -> None:
    _agree(run, tmp_path, source)
