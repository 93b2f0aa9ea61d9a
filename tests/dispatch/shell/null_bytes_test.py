"""NUL bytes read into a value — each line run by bash and by the in-process shell.

bash drops the NULs of a ``$(…)``/backquote/``$(<f)`` value (with a warning) and ends a
``mapfile`` line at its first NUL. The in-process shell kept them: a value with a NUL
could not be an argument or an exported variable, so once a hook did
``payload=$(cat); export payload`` on a tool output holding a NUL, **every** program it
started after that failed with "embedded null byte" (126).
"""

from __future__ import annotations

import shutil

import pytest

from tests.dispatch.shell.shellrun import Runner, base_env, bash_result

BASH = shutil.which("bash")
pytestmark = pytest.mark.skipif(BASH is None, reason="bash is the oracle")

LINES = [
    'x=$(printf \'a\\0b\'); echo "${#x}"; /bin/echo "$x"',
    "x=$(printf 'a\\0b'); export x; env | grep -c '^x='",
    "x=`printf 'a\\0b\\0\\0c'`; echo \"${#x}\"",
    "cd \"$(mktemp -d)\"; printf 'x\\0y' > nulf; x=$(<nulf); echo ${#x}",
    "printf 'a\\0b\\nc\\n' | { mapfile a; echo ${#a[0]} ${#a[1]}; }",
    "printf 'a\\0b\\0c' | { mapfile -d '' a; echo ${#a[@]} ${a[1]}; }",
    "printf 'a\\0b\\nc\\n' | { mapfile -t a; echo ${#a[0]} \"${a[1]}\"; }",
    "y=$(printf '\\0'); echo \"[${y}]\"",
]


@pytest.mark.parametrize("source", LINES)
def test_null_bytes_as_bash(run: Runner, source: str) -> None:
    env = base_env()
    ran = run(source, env=env)
    assert (ran.code, ran.out) == bash_result(source, env), ran.err
    if "mapfile" not in source:
        assert "ignored null byte" in ran.err
