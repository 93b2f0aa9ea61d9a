"""``getopts``: grouped letters, arguments, ``--``, silent mode, OPTIND resets, usage.

Every row was run through bash 5 (``bash -c SOURCE hookrun`` in an empty directory, the
shell tests' environment) and agrees with it; ``bash_confirm_test.py`` runs them through
bash again. stderr is hookrun's own wording and is not compared.
"""

from __future__ import annotations

import pytest

from tests.dispatch.shell.shellrun import Runner


@pytest.mark.parametrize(
    ("source", "code", "stdout"),
    [
        ("getopts; echo $?", 0, "2\n"),
        ("getopts ab; echo $?", 0, "2\n"),
        (
            'while getopts ab: o -a -b x -c rest; do echo "$o ${OPTARG-unset}"; done; '
            'echo "ind=$OPTIND"',
            0,
            "a unset\nb x\n? unset\nind=5\n",
        ),
        (
            'while getopts :ab: o -a -c -b; do echo "$o ${OPTARG-unset}"; done; echo "ind=$OPTIND"',
            0,
            "a unset\n? c\n: b\nind=4\n",
        ),
        (
            'while getopts ab o -ab -- -a; do echo "$o"; done; echo "ind=$OPTIND"',
            0,
            "a\nb\nind=3\n",
        ),
        ('while getopts ab o -a - -b; do echo "$o"; done; echo "ind=$OPTIND"', 0, "a\nind=2\n"),
        ('OPTIND=x; getopts a o -a; echo "$? $o $OPTIND"', 0, "0 a 2\n"),
        ('OPTIND=0; getopts a o -a; echo "$? $o $OPTIND"', 0, "0 a 2\n"),
        ('getopts a o; echo "$? $o $OPTIND"', 0, "1 ? 1\n"),
        ('getopts b: o -bval; echo "$o $OPTARG $OPTIND"', 0, "b val 2\n"),
        ('getopts b: o -b; echo "$? $o ${OPTARG-unset} $OPTIND"', 0, "0 ? unset 2\n"),
        ('getopts a: o -x; echo "$? $o ${OPTARG-unset}"', 0, "0 ? unset\n"),
        ('getopts :a o -:; echo "$? $o ${OPTARG-unset}"', 0, "0 ? :\n"),
        ("set -- -a -b; while getopts ab o; do echo $o; done", 0, "a\nb\n"),
        # An invalid NAME: the option is parsed (OPTARG, OPTIND move on), storing fails.
        (
            "set -- -c foo -h; getopts 'hc:' opt-; echo \"$? [$opt] $OPTARG $OPTIND\"",
            0,
            "1 [] foo 3\n",
        ),
        # OPTIND past a new, shorter argument list ends just after its last argument.
        (
            "set -- -h -c foo x; while getopts hc: o; do :; done; set --; getopts hc: o; "
            'echo "$? $OPTIND"',
            0,
            "1 1\n",
        ),
        (
            "set -- -a; while getopts ab: o; do :; done; set -- -c -d -e foo; "
            "while getopts cde: o; do :; done; echo $OPTIND; set -- -f; getopts f: o; "
            'echo "$? $OPTIND"',
            0,
            "5\n1 2\n",
        ),
        ('set -- a b; OPTIND=7; getopts a o; echo "$? $OPTIND"', 0, "1 3\n"),
    ],
)
def test_getopts_agrees_with_bash(run: Runner, source: str, code: int, stdout: str) -> None:
    got = run(source)
    assert (got.code, got.out) == (code, stdout), got.err
