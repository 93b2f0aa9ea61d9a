"""A function printed back as bash prints it: ``declare -f f``, ``type f``, ``command -V
f`` — each text run by bash and by the in-process shell, stdout and status compared.

Before: ``type f`` printed "f is a function" and no body, ``declare -f f`` printed the
name only and ``declare -f`` the ``declare -F`` listing — so ``eval "$(declare -f f)"``
(how a script hands a function to ``bash -c`` or ``ssh``) defined nothing.
"""

from __future__ import annotations

import shutil

import pytest

from tests.dispatch.shell.shellrun import Runner, base_env, bash_result

BASH = shutil.which("bash")
pytestmark = pytest.mark.skipif(BASH is None, reason="bash is the oracle")

TEXTS = [
    "f() { echo hi; local x=1; }; type f; declare -f f",
    ("f() { echo hi; }; declare -f; declare -F; declare -F f; declare -f nope; echo $?"),
    "f(){ :; }; type -t f; command -V f",
    (
        "g() {\n"
        '  if [ -n "$1" ]; then echo "a $1"; elif true; then :; else echo b >&2'
        "; fi\n"
        "  for i in 1 2; do echo $i; done\n"
        "  while read -r l; do break; done < /dev/null\n"
        "  case $1 in a|b) echo ab;; *) echo other;; esac\n"
        "  x=$(echo y) && echo ok || echo no\n"
        "  ! true | cat\n"
        "  { echo grp; }\n"
        "  ( echo sub )\n"
        "  [[ -n $x && $x == y* ]]\n"
        "  (( x += 1 ))\n"
        '  arr=(1 "2 3")\n'
        '  echo "${arr[@]}" 2>&1 > /dev/null\n'
        "  cat <<EOF\n"
        "body $x\n"
        "EOF\n"
        "  return 0\n"
        "}\n"
        "h() ( echo subshell-body )\n"
        "declare -f g h"
    ),
    (
        "f() {\n"
        "  if a; then\n"
        "    if b; then c; fi\n"
        "    while x; do\n"
        "      case y in z) for k in 1; do :; done;; esac\n"
        "    done\n"
        "  fi\n"
        "}\n"
        "declare -f f\n"
        "eval \"$(declare -f f | sed 's/^f /g /')\"; declare -F"
    ),
    (
        "f() {\n"
        '  echo "$(echo hi)" `echo bt`\n'
        "  cat <<-EOF > out\n"
        "\ttabbed\n"
        "\tEOF\n"
        "  echo after\n"
        "}\n"
        "declare -f f"
    ),
    ("f() {\n  cat <<-EOF > out\n\ttabbed\n\tEOF\n  echo after\n}\ndeclare -f f"),
    ('f() {\n  echo "$(echo hi)" `echo bt`\n}\ndeclare -f f'),
    (
        "f() {\n"
        "  cat <<EOF\n"
        "x\n"
        "EOF\n"
        "}\n"
        "declare -f f; g() { cat <<'E' | sort\n"
        "y $z\n"
        "E\n"
        "}; declare -f g"
    ),
    (
        "f() {\n"
        '  a >&2; b 2>&1; c <&3; d 2> err; e &> f; g >> h; i <<< "s"; l >| m\n'
        "  sleep 1 & echo x\n"
        "  a |& b\n"
        "  for i; do :; done\n"
        "  for ((i=0; i<3; i++)); do echo $i; done\n"
        "  until false; do :; done\n"
        "  ( a; b )\n"
        "  (( x+=1 ))\n"
        "  [[ ! -n $x || ( a == b ) ]]\n"
        "}\n"
        "declare -f f"
    ),
    (
        "f() {\n"
        "  case x in\n"
        "    a) ;;\n"
        "    b) echo 1; echo 2;;\n"
        "  esac\n"
        "  inner() { echo in; }\n"
        "  if a; b; then c; fi\n"
        "  x=1 y=2 cmd arg\n"
        "  local -a z=(1 2)\n"
        "}\n"
        "declare -f f"
    ),
    # handed on and defined again from the listing
    'f() { echo "hi $1"; }; bash_f=$(declare -f f); unset -f f; eval "$bash_f"; f there',
    'f() { printf "%s\\n" "$@" | sort; }; eval "$(declare -f f | sed \'1s/^f/g/\')"; g b a',
]


@pytest.mark.parametrize("source", TEXTS)
def test_a_function_is_listed_as_bash_lists_it(run: Runner, source: str) -> None:
    env = base_env()
    ran = run(source, env=env)
    assert (ran.code, ran.out) == bash_result(source, env), ran.err
