"""Namerefs and the declaration builtins' options — each line run by bash and in-process.

Namerefs (``declare -n``, ``local -n``) were not supported at all, silently: a hook
library returning a result through a nameref left the caller's variable as it was. And
``declare -F f`` printed ``declare -f f``, ``unset`` of a function's name did nothing,
``declare -Z`` was taken, ``declare -a`` turned an associative array into nothing.
"""

from __future__ import annotations

import shutil

import pytest

from tests.dispatch.shell.shellrun import Runner, base_env, bash_result

BASH = shutil.which("bash")
pytestmark = pytest.mark.skipif(BASH is None, reason="bash is the oracle")

NAMEREFS = [
    "f() { local -n ref=$1; ref=changed; }; v=orig; f v; echo $v",
    'declare -n r=arr; arr=(1 2); r[1]=9; echo "${arr[@]} ${!r} ${#r[@]}"',
    "declare -n r=x; declare r=5; echo $x; declare -p r x",
    "a=1;b=2; declare -n r1=a; declare -n r2=r1; echo ${!r2} ${!r1}",
    "declare -i x; f(){ local x=1+1; echo $x; declare -p x; }; f; declare -p x",
    "f(){ local -i y=2+2; }; f; y=3+3; echo $y",
    "declare -n r=x; export r; declare -p x r; env | grep ^x=",
    "x=1; declare -n r=x; readonly r; declare -p x r; r=3; echo $x",
    "arr=(1 2); declare -n r=arr; declare -p r; declare -an q=arr; echo $?; declare -n arr; echo $?; declare -p arr",  # noqa: E501
    "declare -n r=r; echo $?",
    "x=1; declare -n r=x; unset -n r; declare -p r x",
    "declare -n r=a[1]; r=5; declare -p a; unset r; declare -p a",
    "declare -n r; for r in a b; do r=1; done; declare -p a b r",
    "declare -n r=x; r+=abc; r+=d; echo $x; declare -n q=arr; q+=(1 2); declare -p arr",
    "x=v; declare -n r=x; set | grep ^r=; declare -n",
    "declare -n r=A; declare -A A=([k]=v); echo ${r[k]} ${!r[@]} ${#r[@]}; r[j]=w; declare -p A",
    "x=1; declare -n r=x; declare +n r; declare -p r",
    "declare -n r=nosuch; echo ${r:-def}; echo ${r:=set}; declare -p nosuch",
    "f(){ local -n ref=$1; ref=changed; }; v=orig; f v; echo $v; declare -p ref",
    "x=3;declare -n r=x; echo $((r+1)); ((r++)); echo $x; let r=r*2; echo $x",
    "declare -n r=x; read r <<< hello; echo $x; printf -v r %s pv; echo $x; mapfile r <<< m; declare -p x",  # noqa: E501
    "declare -n r=x; [[ -v r ]]; echo $?; x=1; [[ -v r ]]; echo $?",
    'x=abc; declare -n r=x; echo ${#r} ${r^^} ${r:1} ${r/b/B} "${r@Q}"',
    'arr=(a b c); declare -n r=arr; echo "${r[@]:1}" "${!r[*]}"; unset \'r[1]\'; declare -p arr; unset r; declare -p arr',  # noqa: E501
    'ret() { local -n _out=$1; _out=(x "y z"); }; ret res; declare -p res',
    "ret() { local -n _o=$1; _o[key]=val; }; declare -A m; ret m; declare -p m",
    "f() { local -n a=$1 b=$2; b=$a; }; s=src; f s d; echo $d",
    'declare -n r; echo "[${r}]"; declare -p r; r=x; declare -p r',
    "declare -rn r=x; x=1; r=2; echo $x; declare -p r",
    "declare -nx r=x; declare -p r",
    "declare -n r=x; x=1; r=; declare -p x",
    "x=1; f() { local -n r=x; local x=2; echo $r; }; f",
    "declare -n r=x; typeset -p r; typeset +n r; echo $r",
    "declare -n r=x; echo ${r-unset}; echo ${!r-none}",
    'declare -n r=x; x=(a b); echo ${r[1]}; for i in "${r[@]}"; do echo $i; done',
    "declare -n ref=v; v=1; f() { local ref=2; echo $ref $v; }; f; echo $ref $v",
    "declare -n r='bad name'; echo $?; declare -p r",
    "declare -n r=1; echo $?",
    "declare -n r=x; x=5; (r=6; echo $x); echo $x; echo $(r=7; echo $r)",
    "declare -n r=x; unset x; r=1; declare -p x",
    "set -u; declare -n r=x; echo ${r:-d}; echo $r",
    "declare -n r=x; declare -i r; r=1+1; echo $x; declare -p x",
    "declare -n r=x; declare -l r=ABC; echo $x",
    "x=1; declare -n r=x; declare -p r; local -n q=x",
    "declare -n a=b b=c c=a; echo ${a}x; a=1; echo $?",
]

DECLARATIONS = [
    'x=1; f(){ :; }; declare | grep -E "^(x|f)="',
    "f(){ :; }; g(){ :; }; declare -F; declare -F f; declare -F f nosuch; echo $?; declare +F f; echo $?",  # noqa: E501
    "foo() { echo bar; }; x=1; unset foo; foo; echo $?; unset -v x; echo ${x-u}",
    "foo() { echo bar; }; foo=1; unset foo; foo; echo ${foo-u}; unset foo; foo",
    "foo() { echo bar; }; unset -v foo; foo",
    "x=foo; typeset -n -x ref=x; env | grep -E '^(x|ref)='; echo ---; export x; env | grep -E '^(x|ref)='",  # noqa: E501
    "declare -l l=ABC; declare -u u=abc; declare -p l u; declare -ul b=XyZ; declare -p b; declare -lu c=XyZ; declare -p c",  # noqa: E501
    "declare -x e=1; declare -p e; declare +x e; declare -p e; declare -rx r=2; declare -p r",
    "declare -i i=2+3; declare -p i; declare +i i; i=1+1; declare -p i",
    "f() { declare -g G=1; declare L=2; }; f; declare -p G; declare -p L",
    "declare -t t=1; declare -p t",
    "declare -r ro=1; declare ro=2; echo $? $ro; declare +r ro; echo $?",
    "declare -f; echo $?",
    "declare -ir z=5; declare -p z; declare -xi q=3; declare -p q",
    "export -n PATH; declare -p PATH | cut -c1-12; export -f nosuch; echo $?",
    "local x=1; echo $?",
    "declare 1x=2; echo $?; declare -- -x; echo $?",
    "declare x=1 y; declare -p x y; y=; declare -p y",
    "declare -A m=([a]=1); declare -a m; echo $?; declare -p m",
    "declare -a m=(1); declare -A m; echo $?; declare -p m",
    "declare -Z x; echo $?",
    "declare -p -- x; x=1; declare -p -- x",
    "typeset -p HOME | cut -c1-20; typeset -F nofunc; echo $?",
    "x=1; declare +x x=2; declare -p x",
    "declare -c c=hello; declare -p c; echo $c",
]


@pytest.mark.parametrize("source", NAMEREFS)
def test_namerefs_as_bash(run: Runner, source: str) -> None:
    env = base_env()
    ran = run(source, env=env)
    assert (ran.code, ran.out) == bash_result(source, env), ran.err


@pytest.mark.parametrize("source", DECLARATIONS)
def test_declaration_options_as_bash(run: Runner, source: str) -> None:
    env = base_env()
    ran = run(source, env=env)
    assert (ran.code, ran.out) == bash_result(source, env), ran.err
