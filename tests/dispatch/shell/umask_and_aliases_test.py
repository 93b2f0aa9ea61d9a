"""``umask``, ``alias``/``unalias`` and ``hash`` as bash 5.2 runs them: each text run by
bash and by the in-process shell in fresh directories; status, stdout and stderr
compared (bash's ``bash: line N:`` read as ``hookrun:``).

``umask`` took only an octal mode: ``umask u=rwx,g=rx,o=`` or ``umask go=`` — how
scripts keep a secret file private — was refused as "octal number out of range" and
the script went on under the old mask (bash sets 0027 / 0077). ``umask 1777`` (bash
keeps 0777), ``umask -S MODE``, ``-pS`` and ``--`` differed too. The alias and hash rows
pin error paths no test ran (names not found, ``unalias -a``, ``hash -d``/``-t``).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.dispatch.shell.shellrun import Runner, agrees_with_bash

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="bash is the oracle")

UMASK = [
    "umask u=rwx,g=rx,o=; umask",
    "umask 022; umask go=; umask; touch f; stat -c %a f",
    "umask 077; umask +w; umask; umask a+r; umask; umask u-r; umask; umask =; umask",
    "umask 022; umask g+w,o-r; umask; umask a=rwx,g-w,o-wx; umask; umask uu=r; umask",
    "umask 022; umask =r,+w; umask; (umask u-w; umask); umask",
    "umask 1777; echo $?; umask; umask 7777; umask",
    "umask 0; umask 17777; echo $?; umask",
    "umask 08; echo $?; umask 9; echo $?; umask 0o17; echo $?; umask 1_7; echo $?; umask",
    "umask -S; umask -p -S; umask -pS; umask -Sp; umask -p",
    "umask -p 077; echo $?; umask; umask -pS 022; umask -S -- 077; umask -- 022; umask",
    "umask 022; umask -S u=rx; umask -S +x",
    "umask 022 077; echo $?; umask",
    "umask -x; echo $?",
    "umask u=rwxz; echo $?; umask u=X; echo $?; umask u=g; echo $?; umask",
    "umask 'u!r'; echo $?; umask abc; echo $?; umask -- -S; echo $?",
    "umask u=rw,; echo $?; umask ,u=rw; echo $?; umask ''; echo $?; umask",
    "umask u=r+w; echo $?; umask u+r-w; echo $?; umask",
    # what the mask reaches: programs, redirections, subshells, pipelines, jobs
    "umask 077; touch f; echo x > g; echo y >> h; stat -c '%n %a' f g h",
    "umask 0; touch f; echo x > g; stat -c '%n %a' f g; umask 027; : > k; stat -c %a k",
    "(umask 077; touch sub); umask 077 | cat; touch outer; stat -c '%n %a' sub outer",
    "umask 077; x=$(touch cs; echo y); touch bg & wait; stat -c '%n %a' cs bg",
    "umask 077; echo x > f; umask 0; echo y > f; stat -c %a f; umask 022; sh -c 'umask'",
]

ALIASES_AND_HASH = [
    'alias a=ls b="echo x"; alias; alias a; alias nosuch; echo $?',
    "alias a=1; unalias a; unalias a; echo $?; alias b=1 c=2; unalias -a; alias; echo $?",
    "hash -- ls; hash -t ls; hash -d nosuch; echo $?; hash -t nosuch; echo $?",
    "hash echo; echo $?; f(){ :; }; hash f; echo $?; hash nosuch-x; echo $?; hash -t ls",
]


@pytest.mark.parametrize("source", UMASK + ALIASES_AND_HASH)
def test_the_builtin_agrees_with_bash(run: Runner, tmp_path: Path, source: str) -> None:
    agrees_with_bash(run, tmp_path, source)
