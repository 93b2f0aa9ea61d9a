"""``read -d`` and ``mapfile -d`` from the hook's payload and from here-strings — each line
run by bash and by the in-process shell, with the same bytes on stdin.

A delimiter other than newline was read one byte at a time, each byte a trip through
the character loop: ``read -r -d '' payload`` (the idiom for "all of stdin") took
1.5 s of CPU on a 1.2 MB tool payload, bash 0.02 s. From a buffer in memory the text
up to the delimiter is now one slice; a pipe is still read byte by byte, so the next
command gets the rest.
"""

from __future__ import annotations

import shutil

import pytest

from tests.dispatch.shell.shellrun import Runner, base_env, bash_result

BASH = shutil.which("bash")
pytestmark = pytest.mark.skipif(BASH is None, reason="bash is the oracle")

PAYLOAD = b'{"tool_input": {"command": "a\\\\b, c"}}\n' * 50 + b"tail,end"

LINES = [
    "read -r -d '' p; echo \"${#p} rc=$?\"",
    "read -d '' p; echo \"${#p} rc=$?\"",
    "IFS= read -r -d '' p; printf '%s' \"$p\" | wc -c",
    'read -d , x; echo "[$x] $?"; read -d , y; echo "${#y} $?"',
    'read -r -d , x y; echo "[$x][$y]"',
    'mapfile -d , -t a; echo "${#a[@]} [${a[1]:0:20}] [${a[-1]}]"',
    'read -r -d \'\' p <<< "a b"; echo "[$p] $?"',
    'read -d , x y <<< "1 2,3"; echo "[$x][$y] $?"',
    "read -d , x <<< 'a\\,b,c'; echo \"[$x]\"; read -r -d , x <<< 'a\\,b,c'; echo \"[$x]\"",
    'read -d é x <<< "abécd"; echo "[$x] $?"; read -d x y <<< "no delim"; echo "[$y] $?"',
    '{ read -d , a; read -d , b; cat; } <<< "one,two,rest"',
    'mapfile -d , -t arr <<< "a,b,,c"; declare -p arr',
    '{ read -r -d \';\' first; echo "first=$first"; read -r rest; echo "rest=$rest"; } <<< "1;2"',
    "read -d $'\\t' -r x <<< $'a\\\\b\\tc'; echo \"[$x]\"",
    "read -d $'\\t' x <<< $'a\\\\b\\tc'; echo \"[$x]\"",
    "read -d , x <<< $'a\\x01b,'; printf '%s' \"$x\" | od -An -tx1",
    'cat | { read -d , x; echo "[$x]"; cat | wc -c; }',
]


@pytest.mark.parametrize("source", LINES)
def test_read_to_a_delimiter_as_bash(run: Runner, source: str) -> None:
    env = base_env(LC_ALL="C.UTF-8")
    ran = run(source, env=env, stdin=PAYLOAD)
    assert (ran.code, ran.out) == bash_result(source, env, stdin=PAYLOAD), ran.err
