"""A name a compound command sets to one of a few literals: each value is judged.

``if …; then d=/; else d=build; fi; rm -rf "$d"`` was allowed: the walk kept the last
value it read (``build``) once the ``if`` was over. A name a compound may set is now, after
it, one of a few literals — when every mention of it there that may set it is a plain
assignment of a literal, and the value before it is known or every path sets it (an
``else``, a ``*)``, ``c && d=a || d=b``) — and a command using it is judged with each.
Otherwise it stays unknown (``delete.unresolved``, and each value the line assigns).

Each row runs in bash (``redteam.Oracle``: a marker in ``rm``'s place records its
arguments) once per prefix setting ``X``, so every path runs: a block row's dangerous
arguments reach the marker on some path, a look-alike's never do. Then shell-guard, given
the line with ``rm``, must deny the block rows by the rule and allow the look-alikes.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterator

import pytest

from .redteam import MARK, Oracle, judge

PATHS = ("", "X=1; ", "X=a; ", "X=b; ")

# (line, the arguments bash runs rm with on some path, rule)
BLOCKED = [
    ('if [ -n "$X" ]; then d=/; else d=build; fi; {r} -rf "$d"', "-rf /", "delete.catastrophic"),
    ('[ -n "$X" ] && d=/ || d=build; {r} -rf "$d"', "-rf /", "delete.catastrophic"),
    ('x=build; [ -n "$X" ] && x=/; {r} -rf $x', "-rf /", "delete.catastrophic"),
    ('if [ -n "$X" ]; then T=/usr; else T=/tmp/x; fi; {r} -rf "$T"', "-rf /usr",
     "delete.catastrophic"),
    ('if [ "$X" = a ]; then d=/; elif [ "$X" = b ]; then d=/etc; else d=build; fi; {r} -rf "$d"',
     "-rf /etc", "delete.catastrophic"),
    ('if [ -n "$X" ]; then if [ "$X" = a ]; then d=/; else d=x; fi; else d=build; fi; {r} -rf $d',
     "-rf /", "delete.catastrophic"),
    ('{{ d=/; }}; {r} -rf $d', "-rf /", "delete.catastrophic"),
    ('if [ -n "$X" ]; then o=-rf; else o=-i; fi; {r} $o /', "-rf /", "delete.catastrophic"),
    ('if [ -n "$X" ]; then d=/; else d=build; fi && {r} -rf "$d"', "-rf /",
     "delete.catastrophic"),
    ('if [ -n "$X" ]; then d=/; else d=build; fi\n{r} -rf "$d"', "-rf /", "delete.catastrophic"),
    ('case "$X" in a) d=/;; *) d=build;; esac; {r} -rf "$d"', "-rf /", "delete.catastrophic"),
    ('d=build; if [ -n "$X" ]; then d=/home; fi; {r} -rf "$d"', "-rf /home",
     "delete.catastrophic"),
    # not every path sets it, before or after: unknown, and each value the line assigns
    ('if [ -n "$X" ]; then d=/; fi; {r} -rf "$d"', "-rf /", "delete.catastrophic"),
    ('case "$X" in a) d=/;; b) d=build;; esac; {r} -rf "$d"', "-rf /", "delete.catastrophic"),
]  # fmt: skip

# (line, the arguments bash must never run rm with)
ALLOWED = [
    ('if [ -n "$X" ]; then d=dist; else d=build; fi; {r} -rf "$d"', "-rf /"),
    ('[ -n "$X" ] && d=dist || d=build; {r} -rf "$d"', "-rf /"),
    ('d=build; [ -n "$X" ] && d=dist; {r} -rf $d', "-rf /"),
    ('if [ -n "$X" ]; then T=/tmp/a; else T=/tmp/b; fi; {r} -rf $T/x', "-rf /"),
    ('if [ -n "$X" ]; then d=node_modules; else d=.venv; fi; {r} -rf "$d"', "-rf /"),
    ('d=dist; if [ -n "$X" ]; then d=build; fi; {r} -rf "$d"', "-rf /"),
    ('if [ "$X" = a ]; then d=dist; elif [ "$X" = b ]; then d=out; else d=build; fi; '
     '{r} -rf "$d"', "-rf /"),
    ('if [ -n "$X" ]; then d=/; else d=build; fi; echo {r} -rf "$d"', "-rf /"),
    ('if [ -n "$X" ]; then d=/; fi; d=build; {r} -rf "$d"', "-rf /"),
    ('if [ -n "$X" ]; then d=/; else d=build; fi; ( d=dist; {r} -rf "$d" )', "-rf /"),
    ('case "$X" in a) d=dist;; *) d=build;; esac; {r} -rf "$d"', "-rf /"),
    ('case "$X" in a) d=dist;; *) d=build;; esac && {r} -rf "./$d"', "-rf /"),
]  # fmt: skip


@pytest.fixture(scope="module")
def oracle() -> Iterator[Oracle]:
    made = Oracle()
    yield made
    made.close()


def _runs(oracle: Oracle, template: str) -> list[list[str]]:
    line = template.format(r=MARK)
    return [run for prefix in PATHS for run in oracle.argvs(prefix + line)]


@pytest.mark.parametrize(("template", "args", "rule"), BLOCKED, ids=[r[0] for r in BLOCKED])
def test_a_value_some_path_gives_is_judged(
    oracle: Oracle, template: str, args: str, rule: str
) -> None:
    assert shlex.split(args) in _runs(oracle, template)
    verdict = judge(template.format(r="rm"))
    assert verdict.decision == "deny", template
    assert f"[{rule}]" in (verdict.reason or ""), verdict.reason


@pytest.mark.parametrize(("template", "args"), ALLOWED, ids=[r[0] for r in ALLOWED])
def test_values_no_path_makes_dangerous_are_allowed(
    oracle: Oracle, template: str, args: str
) -> None:
    ran = _runs(oracle, template)
    assert shlex.split(args) not in ran, ran
    verdict = judge(template.format(r="rm"))
    assert verdict.decision is None, verdict.reason


def test_too_many_values_stay_unknown() -> None:
    """Five values (or over eight combinations) are not each judged: the name is unknown."""
    names = ["dist", "out", "target", "node_modules"]
    five = "; ".join(f'[ "$X" = {k} ] && d={n}' for k, n in enumerate(names))
    verdict = judge(f'd=build; {five}; rm -rf "$d"')
    assert verdict.decision == "deny" and "[delete.unresolved]" in (verdict.reason or "")
    four = "; ".join(f'[ "$X" = {k} ] && d={n}' for k, n in enumerate(names[:3]))
    assert judge(f'd=build; {four}; rm -rf "$d"').decision is None
    # (three names of two values each: eight commands; a fourth name is one too many)
    three = 'if [ -n "$X" ]; then a=dist; b=out; c=build; else a=out; b=dist; c=target; fi'
    assert judge(f'{three}; rm -rf "$a" "$b" "$c"').decision is None
    four_names = three.replace("c=target;", "c=target; e=out;").replace(
        "c=build;", "c=build; e=dist;"
    )
    verdict = judge(f'{four_names}; rm -rf "$a" "$b" "$c" "$e"')
    assert verdict.decision == "deny" and "[delete.unresolved]" in (verdict.reason or "")
