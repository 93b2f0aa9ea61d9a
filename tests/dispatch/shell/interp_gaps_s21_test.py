"""Interpreter gaps found against bash in session 21, each text run by bash and by the
in-process shell in fresh directories (status, stdout, and whether anything went to
stderr). Every row prints the same in any run: no clock, PID or scheduling in it.

- a ``case`` pattern taken from a variable (``p='+(a)b'; case $x in $p)``) was matched
  as an extended glob with extglob off; bash matches its text (``*(a)`` is ``*`` then
  ``(a)``);
- ``RANDOM=N`` stored N, so every ``$RANDOM`` after it was N; bash seeds its generator
  (variables.c ``brand``): a seeded sequence is bash's, number for number. A subshell
  not seeded itself, the environment's RANDOM, stay unseeded (those rows print no value);
- ``SECONDS=N`` (``RANDOM=N``) after ``unset SECONDS`` or in a ``local`` still acted as
  the special variable: an ordinary name then, as in bash;
- ``trap``: ``--`` before an action starting with ``-`` (``trap -- -y INT``), a lone
  action that is no signal (``trap x``: usage, 2), ``trap -p -- INT``;
- ``kill -l ERR`` (``DEBUG``, ``RETURN``): bash's numbers 66, 65, 67, not an error;
- ``hash -l`` (lines bash reads back), ``hash -t`` of several names, ``-t``/``-d``
  with none, ``hash -p P`` alone (prints the table);
- ``a[@]``/``a[*]`` in arithmetic (``r='a[@]'; echo $((r))``, ``$(( a[@] ))``) was a
  syntax error that discarded the rest of the line (the script, at top level); bash
  prints "bad array subscript" and goes on with 0 (an associative array's key "@").
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.dispatch.shell.interp_gaps_s20_test import BASH, _agree
from tests.dispatch.shell.shellrun import Runner, base_env, bash_result

pytestmark = pytest.mark.skipif(BASH is None, reason="bash is the oracle")

CASE_FROM_A_VARIABLE = [
    'p="+(a)b"; case aab in $p) echo m;; *) echo n;; esac; case "+(a)b" in $p) echo lit;; esac',
    'q="*(a)"; case "x(a)" in $q) echo star;; esac; case "xa" in $q) echo ext;; esac',
    'p="(a)"; case "+(a)" in +$p) echo lit;; esac; case aa in +$p) echo ext;; esac',
    'p="+(a|b)"; case "+(a|b)" in $p|x) echo lit;; esac; case b in $p|x) echo e;; *) echo n;; esac',
    'p="@(x)"; case "@(x)" in "$p") echo q;; esac; case x in $p) echo e;; *) echo n;; esac',
    'p="!(x)"; case "y" in $p) echo e;; *) echo n;; esac; case "!(x)" in $p) echo l;; esac',
    'p="a|b"; case a in $p) echo alt;; *) echo n;; esac; '
    'p="?(a)"; case "b(a)" in $p) echo q;; esac',
    'p="\\+(a)"; case "+(a)" in $p) echo esc;; *) echo n;; esac',
    # a hook's own shape: a list of patterns to refuse, one at a time
    'for p in "rm -rf *" "+(x)" "*--force*"; do case "git push --force" in $p) echo "hit $p";; '
    "esac; done",
    # and with extglob on, the value is an extended glob, as in bash
    'shopt -s extglob; p="+(a)b"; case aab in $p) echo m;; esac',
    'shopt -s extglob; p="@(rm|mv) *"; case "rm x" in $p) echo hit;; esac',
    # written in the script (not from a value): unchanged
    'case aab in *b) echo m;; esac; case "(a)" in "("*) echo paren;; esac',
]


@pytest.mark.parametrize("source", CASE_FROM_A_VARIABLE)
def test_a_case_pattern_from_a_variable_is_matched_as_bash_matches_it(
    run: Runner, tmp_path: Path, source: str
) -> None:
    _agree(run, tmp_path, source)


SEEDED = [
    "RANDOM=42; echo $RANDOM $RANDOM $RANDOM; RANDOM=0; echo $RANDOM $RANDOM",
    "RANDOM=-1; echo $RANDOM $RANDOM $RANDOM; RANDOM=$((2**40+5)); echo $RANDOM $RANDOM",
    'RANDOM=" 7"; echo $RANDOM; RANDOM=7; echo $RANDOM; RANDOM=0x10; echo $RANDOM; '
    "RANDOM=16; echo $RANDOM; RANDOM=+3; echo $RANDOM; RANDOM=3; echo $RANDOM",
    "RANDOM=5; x=$RANDOM; RANDOM=5; y=$RANDOM; echo $((x==y)); echo ${RANDOM}",
    "RANDOM=5; a=$RANDOM; (RANDOM=5; echo $RANDOM $a); echo $(RANDOM=5; echo $RANDOM)",
    "RANDOM=x; echo $RANDOM; RANDOM=2+3; echo $RANDOM",
    'RANDOM=1; for i in 1 2 3 4 5 6 7 8 9 10; do echo -n "$((RANDOM % 6)) "; done; echo; '
    "echo $(( RANDOM )); RANDOM=9; echo $((RANDOM)) $[RANDOM] ${RANDOM:0:3}",
    # many draws: bash skips a value equal to the last one given
    "RANDOM=12345; s=0; for ((i = 0; i < 2000; i++)); do s=$(( (s * 31 + RANDOM) % 1000003 )); "
    "done; echo $s",
    # an ordinary name once unset or local, as in bash
    "unset RANDOM; RANDOM=5; echo $RANDOM $RANDOM",
    "f(){ local RANDOM=5; echo $RANDOM $RANDOM; }; f; RANDOM=5; echo $RANDOM",
    "unset SECONDS; SECONDS=5; echo $SECONDS",
    "f(){ local SECONDS=7; echo $SECONDS; }; f",
    # a subshell not seeded itself is not seeded (its values are the OS's: not printed)
    "RANDOM=5; x=$(echo $RANDOM); y=$(echo $RANDOM); [[ $x =~ ^[0-9]+$ ]] && echo num; "
    'echo "$RANDOM"',
]


@pytest.mark.parametrize("source", SEEDED)
def test_a_seeded_random_gives_bashs_sequence(run: Runner, tmp_path: Path, source: str) -> None:
    _agree(run, tmp_path, source)


def test_an_inherited_random_neither_seeds_nor_is_kept(run: Runner) -> None:
    # (bash: `env RANDOM=5 bash -c 'echo $RANDOM'` prints a random value; it is not
    # passed on to children either)
    from tests.dispatch.shell.shellrun import base_env

    seen = set()
    for _ in range(3):
        ran = run('echo $RANDOM; env | grep -c "^RANDOM=" || :', env=base_env(RANDOM="5"))
        value, count = ran.out.split()
        assert count == "0"
        seen.add(value)
    assert seen != {"5"}  # (three draws of 0-32767 all 5: 1 in 35 trillion)


BUILTINS = [
    # trap: `--` ends the options; a lone action that is no signal is a usage error
    "trap -- -y; echo $?",
    "trap -y; echo $?",
    "trap -- -y INT; echo $?; trap -p INT",
    "trap x; echo $?; trap -- x; echo $?; trap -; echo $?; trap -- -; echo $?",
    'trap ""; echo $?; trap -- "" INT; trap',
    "trap -- INT; echo $?; trap 2; echo $?; trap -- 2 3; echo $?",
    "trap -p -- INT; echo $?; trap --; echo $?; trap -x -- a; echo $?",
    "trap 99 INT; trap -p; trap 0x2 INT; trap",
    'trap "echo hi" INT TERM; trap -p; trap - INT; trap; trap INT; trap TERM; trap -p; echo $?',
    "trap -lp | head -1; trap -pl | head -1; trap -l -- | head -2",
    "trap -p INT X; echo $?; trap SIGINT; echo $?; trap sigterm; echo $?; trap 0; echo $?",
    # kill -l: bash numbers its trap-only names past the signals
    "kill -l ERR; echo $?; kill -l EXIT; echo $?; kill -l DEBUG; echo $?; kill -l RETURN; "
    "echo $?; kill -l 0; echo $?; kill -l HUP; kill -l 129",
    "kill -l sigerr; echo $?; kill -l SIGDEBUG; echo $?; kill -l err; echo $?",
    "kill -l ERR INT x return; echo $?; kill -s ERR $$; echo $?",
    # hash -l and -t
    "hash -l; echo $?; hash; echo $?; hash ls; hash -l; echo $?",
    "hash ls cat; hash -t ls cat; echo $?; hash -t ls",
    "hash -t; echo $?; hash -d; echo $?; hash -dt; echo $?",
    "hash -p /bin/ls; echo $?; hash -r; echo $?; hash --; echo $?",
    'hash -p "/a b/x" y; hash -l; hash -lt y; hash -p /x/y "a b"; hash -l',
    "hash -p /x/y a; hash -p /x/z b; hash -l; hash -t a b nope; echo $?",
    "hash -rl; echo $?; hash -lr ls; hash -l",
]


@pytest.mark.parametrize("source", BUILTINS)
def test_builtins_answer_as_bash_does(run: Runner, tmp_path: Path, source: str) -> None:
    _agree(run, tmp_path, source)


ALL_ELEMENTS_IN_ARITHMETIC = [
    'a=(1 2); r="a[@]"; echo $(( r )); echo after $?',
    "a=(1 2); echo $(( a[@] )); echo $?",
    'a=(1 2); r="a[@]"; (( r )); echo $?; let r; echo $?',
    'a=(1 2); r="a[*]"; echo $(( r + 1 )); echo $?',
    'declare -A A=([k]=1); r="A[@]"; echo $((r))',
    'a=(1 2); r="a[@]"; [[ r -eq 0 ]]; echo $?',
    'a=(1 2); r="a[@]"; x=$(( r )); echo "x=$x" $?',
    "a=(1 2); echo $(( a[@] = 3 )); echo $? ${a[@]}",
    "a=(1 2); echo $(( a[@]++ )); echo $? ${a[@]}",
    'r="b[@]"; echo $(( r )); echo $?',
    "x=(5); echo $(( x[@] + x ))",
    # next to them, errors that stay errors
    'a=(1 2); r="a[x@]"; echo $(( r )); echo no',
    "echo $(( @ )); echo $?; echo $(( 1@2 )); echo $?",
]


@pytest.mark.parametrize("source", ALL_ELEMENTS_IN_ARITHMETIC)
def test_all_elements_in_arithmetic_are_a_message_and_zero_as_in_bash(
    run: Runner, tmp_path: Path, source: str
) -> None:
    _agree(run, tmp_path, source)


SLASH_PATTERNS = [
    "x=/_/; echo ${x////c}",
    'p=/foo/bar; echo "${p////_}"; n=${p////-}; echo "$n"',
    "HOST_PATH=/foo/bar/baz; echo ${HOST_PATH////\\\\/}",
    'x="slash / brace } hi"; echo ${x///}; echo "${x///}"',
    "x=//a; echo ${x/////} ${x//\\/\\//-}",
    'x=/a/b; echo "${x////\\\\}"',
    'a=(/x /y/z); echo "${a[@]////_}"; set -- /p/q; echo ${@////.}',
    # next to them, what was read right
    "x=/a/b; echo ${x//\\//_} ${x/#//_} ${x/%b//} ${x/#/} ${x/\\//-}",
    "x=a/b; echo ${x//'/'/_} ${x/'/'} ${x//a/}",
]


@pytest.mark.parametrize("prefix", ["", ': "${x/a/b}"\n'])
@pytest.mark.parametrize("line", SLASH_PATTERNS)
def test_a_pattern_starting_with_a_slash_is_read_as_bash_reads_it(
    run: Runner, line: str, prefix: str
) -> None:
    source = prefix + line
    env = base_env()
    ran = run(source, env=env)
    assert (ran.code, ran.out) == bash_result(source, env), ran.err


P = 'p(){ printf "<%s>" "$@"; echo; }; '
WHOLE_VARIABLE_TRANSFORMS = [
    P
    + (
        'a=(x "y z"); p "${a[@]@K}"; p "${a[*]@K}"; p ${a[@]@K}; p "${a[@]@k}"; '
        'p "${a[*]@k}"; p ${a[@]@k}'
    ),
    P
    + (
        'declare -A h=([k]="v w" [j]=1); p "${h[@]@K}"; p "${h[*]@K}"; p "${h[@]@k}"; '
        'p ${h[@]@k}; p "${h[@]@A}"; p "${h[k]@K}"; p "${h[k]@A}"'
    ),
    P
    + (
        'a=(x "y z"); p "${a[@]@A}"; p "${a[*]@A}"; p ${a[@]@A}; p "${a[0]@A}"; '
        'p "${a[1]@A}"; p "${a@K}"; p "${a[1]@K}"'
    ),
    P
    + (
        "b=q; declare -i n=3; export X=1; readonly R=2; "
        'p "${b@A}" "${n@A}" "${b@K}" "${b@k}" "${X@A}" "${R@A}" "${u@A}" "${u@K}"'
    ),
    (
        'e=(); set -- "${e[@]@K}"; echo $#; set -- "${e[@]@k}"; echo $#; '
        'set -- "${e[@]@A}"; echo $# "$@"'
    ),
    P + 'set -- 1 "2 3"; p "${@@K}" "${@@A}" "${1@A}" "${*@A}" "${@@k}"',
    (
        'declare -A h=(["a b"]=1 [\'$x\']=2 [c]=3); echo "${h[@]@K}"; '
        'printf "<%s>" "${h[@]@k}"; echo'
    ),
    ('a=([3]=x); declare -ir q=4; echo "${a[@]@A}" "${q@A}"; declare -ax L=(A); echo "${L[@]@A}"'),
    ('declare -a s=("it\'s" \'a"b$c\'); printf "<%s>" "${s[@]@K}" "${s[@]@A}" "${s[@]@k}"; echo'),
    (
        'a=(x y); eval "$(echo "${a[@]@A}")"; declare -p a; v=\'p q\'; eval "w=${v@Q}"; '
        'echo "$w"; echo "${v@A}"'
    ),
    'f(){ local -a la=(1 2); local s=x; echo "${la[@]@A}" "${s@A}"; }; f',
    P + 'b=q; p "${b[@]@A}" "${b[@]@K}" "${b[*]@k}"',
]


@pytest.mark.parametrize("source", WHOLE_VARIABLE_TRANSFORMS)
def test_the_a_k_transformations_are_bashs(run: Runner, tmp_path: Path, source: str) -> None:
    _agree(run, tmp_path, source)


D = "trap 'echo \"D:$BASH_COMMAND\"' DEBUG; "
DEBUG_BEFORE_HEADERS = [
    D + "for i in 1 2; do :; done; case a in a) :;; esac",
    "trap 'echo \"D:$BASH_COMMAND:$LINENO\"' DEBUG; for ((i=0;i<2;i++)); do :; done; "
    'set -- p q; for x\ndo :; done; for y in "$@" $(echo z) *.none; do :; done; '
    'for z in; do :; done; case "$1"x in p*) :;; esac\necho end',
    D + "for (( i = 0 ;  i < 1 ; i++ )); do :; done; for ((;;)); do break; done; "
    "for ((j=0;;)); do break; done; case  x  in x) ;; esac",
    "f(){ for i in 1; do :; done; case y in y) :;; esac; }; " + D + "f; set -T; f",
    D + "for i in a b; do for j in 1; do echo $i$j; done; done | cat",
    'trap "echo D" DEBUG; trap - DEBUG; for i in 1; do :; done; case a in *) echo x;; esac',
    D + "while false; do :; done; until true; do :; done; if true; then :; fi; { :; }; (:)",
    "trap 'echo $LINENO' DEBUG\necho a\n\necho b\nfor i in 1\ndo\n  :\ndone",
    "trap 'echo \"[$BASH_COMMAND]\"' DEBUG; x=ab; case ${x%b} in a) echo hit;; esac; "
    'for w in $x "$x"; do echo $w; done',
    "trap 'echo \"$BASH_COMMAND\" >&2' DEBUG; for i in 1 2; do :; done; echo $?",
]


@pytest.mark.parametrize("source", DEBUG_BEFORE_HEADERS)
def test_the_debug_trap_runs_before_headers_as_in_bash(
    run: Runner, tmp_path: Path, source: str
) -> None:
    _agree(run, tmp_path, source)


BASH_NAMES = [
    "echo ${!BASH*}",
    "f(){ echo ${!BASH*}; }; f; echo ${!BASH_A*} ${!BASH_E*}",
    "unset BASH_ALIASES BASH_CMDS BASH_EXECUTION_STRING; echo ${!BASH_*}",
    'echo "$BASH_EXECUTION_STRING"; echo $BASH_LOADABLES_PATH',
    "set -- x y; echo ${#BASH_ARGV[@]} ${BASH_ARGC[0]}; set -- z; echo ${BASH_ARGV[@]} "
    '${BASH_ARGC[@]}; echo "$BASH_ARGV0"; BASH_ARGV0=new; echo $0; unset BASH_ARGV0; '
    "echo ${BASH_ARGV0-unset} $0",
    'f(){ echo "[${BASH_ARGC[@]}]" ${#BASH_ARGV[@]}; }; f a b; echo "[${BASH_ARGC[@]}]"; f',
    "f(){ echo ${BASH_ARGC[0]}; }; (echo ${BASH_ARGC[0]}; f)",
    "f(){ set -- q; echo ${BASH_ARGC[0]}; }; f; set -- a b c; echo ${BASH_ARGV[@]}",
    'alias x=y; hash -p /bin/ls ls; echo "${BASH_ALIASES[x]} ${BASH_CMDS[ls]}" '
    '${#BASH_ALIASES[@]} "${!BASH_CMDS[@]}" "${!BASH_ALIASES[@]}"',
    # a script file: no execution string; its arguments
    "printf 'echo ${!BASH*}; echo \"[$BASH_EXECUTION_STRING]\" ${BASH_ARGV[@]} $BASH_ARGC\\n' "
    "> f.sh; chmod +x f.sh; ./f.sh a b",
]


@pytest.mark.parametrize("source", BASH_NAMES)
def test_bashs_own_names_are_all_made(run: Runner, tmp_path: Path, source: str) -> None:
    _agree(run, tmp_path, source)


def test_the_arguments_of_the_run_are_bash_argv(run: Runner) -> None:
    source = "echo ${BASH_ARGV[@]} ${BASH_ARGC[@]}; set -- q; echo ${BASH_ARGV[@]}"
    env = base_env()
    ran = run(source, env=env, args=["a", "b c"])
    assert (
        (ran.code, ran.out)
        == bash_result(source, env, args=["hookrun", "a", "b c"])
        == (
            0,
            "b c a 2\nb c a\n",
        )
    )


@pytest.mark.parametrize(
    "source",
    [
        'RANDOM=1+; echo $?; RANDOM=5; echo $RANDOM; RANDOM="2 +"; echo $? $RANDOM',
        "RANDOM=5; RANDOM=1+; echo $RANDOM",
    ],
)
def test_a_random_seed_that_is_no_expression_seeds_nothing_and_goes_on(
    run: Runner, source: str
) -> None:
    # (bash also prints the expression's error, which hookrun does not: no stream there)
    env = base_env()
    ran = run(source, env=env)
    assert (ran.code, ran.out) == bash_result(source, env)
