"""A temp variable the environment does not set, and keywords out of place, with bash as the oracle.

* ``$TMPDIR/x`` was read as a path in the temp dir whatever the environment held; with
  TMPDIR unset (most Linux machines) bash makes it ``/x``. Each row runs in bash — its
  environment without TMPDIR, TMP or TEMP — with the marker of :mod:`redteam` in ``rm``'s
  place, which must run with the row's arguments; shell-guard (given no TMPDIR either)
  must deny the line with ``rm`` by the row's rule. The look-alikes: bash deletes nothing
  outside a temp dir (the line sets the variable, a default applies, the word vanishes).
* The screen cleared ``then '$(rm -rf /)'``, a line bash refuses, which the full
  judgement (reading every substitution of a refused line, quoted or not) denies.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterator

import pytest

from hookrun.hooks.shell_guard import POLICY
from hookrun.hooks.shell_guard.screen import may_match

from .conftest import Judge
from .redteam import MARK, Oracle, judge
from .screen_test import _findings

# (line, the arguments bash runs `rm` with, rule); `{n}`: the program.
BLOCKS = [
    ("{n} -rf $TMPDIR/x", "-rf /x", "delete.recursive-force"),
    ('{n} -rf "$TMPDIR/build"', "-rf /build", "delete.recursive-force"),
    ("{n} -rf ${{TMPDIR}}/cache", "-rf /cache", "delete.recursive-force"),
    ("{n} -rf $TMPDIR/", "-rf /", "delete.catastrophic"),
    ("{n} -rf $TMPDIR/etc", "-rf /etc", "delete.catastrophic"),
    ('{n} -rf "$TMPDIR/usr/local"', "-rf /usr/local", "delete.catastrophic"),
    ('{n} -rf "$TMP/x"', "-rf /x", "delete.recursive-force"),
    ("{n} -rf $TEMP/x", "-rf /x", "delete.recursive-force"),
    ("{n} -rf $TMPDIR/../home", "-rf /../home", "delete.catastrophic"),
    ("cd /tmp && {n} -rf $TMPDIR/x", "-rf /x", "delete.recursive-force"),
    ("TMPDIR=/tmp {n} -rf $TMPDIR/x", "-rf /x", "delete.recursive-force"),  # (expanded first)
    ("{n} -rf $TMPDIR/x $TMPDIR/y", "-rf /x /y", "delete.recursive-force"),
]

# (line, the arguments bash runs `rm` with: none outside a temp dir)
LOOK_ALIKES = [
    ('{n} -rf "$TMPDIR"', "-rf ''"),  # (an empty name: nothing deleted)
    ("{n} -rf $TMPDIR", "-rf"),  # (no word at all)
    ("TMPDIR=/tmp/t; {n} -rf $TMPDIR/x", "-rf /tmp/t/x"),
    ('export TMPDIR=/tmp/t; {n} -rf "$TMPDIR/x"', "-rf /tmp/t/x"),
    ('{n} -rf "${{TMPDIR:-/tmp}}/x"', "-rf /tmp/x"),
    ("{n} -rf ${{TMP-/tmp}}/x", "-rf /tmp/x"),
    ("{n} -f $TMPDIR/x.log", "-f /x.log"),  # (one file: not a recursive delete)
    ("{n} -rf /tmp/x", "-rf /tmp/x"),
    ('TMPDIR=/var/tmp\n{n} -rf "$TMPDIR/x"', "-rf /var/tmp/x"),
    ("echo {n} -rf $TMPDIR/x", None),  # (only prints)
]


@pytest.fixture(scope="module")
def oracle() -> Iterator[Oracle]:
    made = Oracle()
    yield made
    made.close()


@pytest.mark.parametrize(("template", "args", "rule"), BLOCKS, ids=[r[0] for r in BLOCKS])
def test_bash_deletes_outside_the_temp_dir_and_shell_guard_denies_it(
    oracle: Oracle, template: str, args: str, rule: str
) -> None:
    assert shlex.split(args) in oracle.argvs(template.format(n=MARK))
    verdict = judge(template.format(n="rm"))
    assert verdict.decision == "deny", template
    assert f"[{rule}]" in (verdict.reason or ""), verdict.reason


@pytest.mark.parametrize(("template", "args"), LOOK_ALIKES, ids=[r[0] for r in LOOK_ALIKES])
def test_what_stays_in_the_temp_dir_is_allowed(
    oracle: Oracle, template: str, args: str | None
) -> None:
    ran = oracle.argvs(template.format(n=MARK))
    assert ran == ([] if args is None else [shlex.split(args)]), ran
    verdict = judge(template.format(n="rm"))
    assert verdict.decision is None, verdict.reason


def test_a_set_tmpdir_is_the_temp_dir(judge: Judge) -> None:
    """(the other side: a machine that sets it — macOS does, always)"""
    env = {"TMPDIR": "/var/folders/xy/T"}
    for line in ("rm -rf $TMPDIR/x", 'rm -rf "$TMPDIR/build"', "rm -rf ${TMPDIR}/cache"):
        assert judge(line, env=env).decision is None, line
    assert judge("rm -rf $TMPDIR/../../etc", env=env).decision == "deny"


# Lines bash refuses (a keyword out of place, an unclosed compound) holding a quoted
# substitution: the full judgement denies them (it reads every substitution of a line
# the front end refuses); the screen must not clear them.
REFUSED = [
    "then '$(rm -rf /)'",
    "do '$(rm -rf /)'",
    "else 'x $(rm -rf ~)'",
    "elif '`rm -rf /`'",
    "fi '$(git reset --hard)'",
    "done '$(rm -rf /)'",
    "esac '$(rm -rf /)'",
    "if '$(rm -rf /)'",
    "while '$(rm -rf /)'",
    "echo ok; then '$(rm -rf /)'",
    "ls && fi '$(rm -rf /)'",
]


@pytest.mark.parametrize("line", REFUSED)
def test_the_screen_does_not_clear_a_refused_line_the_judgement_denies(line: str) -> None:
    assert _findings(line), line  # (the full judgement denies it)
    assert may_match(line), line
    assert (
        POLICY.decide(
            {"tool_name": "Bash", "tool_input": {"command": line}, "cwd": "/home/user/project"},
            POLICY.bind({}),
            _ctx(),
        ).decision
        == "deny"
    )


def test_bash_runs_none_of_a_refused_line(oracle: Oracle) -> None:
    for line in REFUSED:
        line = line.replace("rm ", f"{MARK} ").replace("git ", f"{MARK} ")
        assert oracle.argvs(line) == [], line


@pytest.mark.parametrize(
    "line",
    [
        "echo '$(rm -rf /)'",
        "git commit -m 'fix: if x then y'",
        "grep -n 'done' log.txt",
        "git commit -m \"$(cat <<'EOF'\nfix: case 3 is done\nEOF\n)\"",
        "echo 'then $(date)'",
        "printf '%s\\n' 'if $(x) then'",
        "git log --grep 'fi $(x)'",
        "echo done; echo '$(ls)'",
        "ls && echo 'do $(x)'",
        "echo 'while $(true)'; echo ok",
        "git commit -m 'else branch: $(x) fixed'",
    ],
)
def test_the_screen_still_clears_a_quoted_mention(line: str) -> None:
    assert not may_match(line)
    assert not _findings(line)


def _ctx() -> object:
    from hookrun.hooks.base import PolicyContext

    return PolicyContext("/home/user/project", "/home/user/project", "/x", {"HOME": "/home/user"})
