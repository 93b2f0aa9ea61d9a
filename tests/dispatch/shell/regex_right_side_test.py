"""The right side of ``[[ … =~ … ]]`` (and of ``=``/``==``/``!=``) with expansions in it
(gap 36 in hookrun.shellsyntax.gaps) — each template run by bash and by the in-process
shell over the same values and subjects.

tree-sitter-bash reads ``^${x}$``, ``a$x(b|c)``, ``^a"$x"$`` after ``=~`` (and ``${x}``
after ``=``) as one regex leaf with nothing expanded, so the in-process shell compared
with the text ``${x}`` itself: ``[[ $tool =~ ^${allowed}$ ]]`` never matched (bash:
it does) and ``[[ a = ${x} ]]`` was false for x=a.

Also a lone ``*`` or ``?`` as a ``[[ ]]`` operand (``[[ -n * ]]``), which the grammar read
as multiplication or a ternary: a syntax error (exit 2, a hook's false block) where bash
says true.
"""

from __future__ import annotations

import shutil

import pytest

from tests.dispatch.shell.shellrun import Runner, base_env, bash_result

BASH = shutil.which("bash")
pytestmark = pytest.mark.skipif(BASH is None, reason="bash is the oracle")

# Right sides that hold an expansion; the first group only after =~ (parentheses and
# bars are regex syntax there, a syntax error in a pattern without extglob).
REGEX_ONLY = [
    "a$x(b|c)", "^(a|c)${x}$", "^(a $x)$", "^a${x}{2,3}$", "^a${x:-(c)}$", "${x}|z",
    "^(${x})+$", "a\\(${x}", "^[${x}]+$", "^a${x}\\$$", "^$x'$'", "(^|/)${x}(/|$)",
]  # fmt: skip
ANY_OP = [
    "${x}", "^${x}$", "a${x}c", "^a\"$x\"$", "a\"${x}\"", "$x$", "${x}b",
    "^a$(echo \"$x\")$", "a${x}*", "${x:-q}'*'", "*${x}", "a${x}${x}",
]  # fmt: skip
VALUES = ["b", "(b|c)", "b*", ".", "a.c", "", "[ab]", "(", "a", "bc", "*", "?"]
# For =~, values whose regex means the same to glibc's ERE and to Python's re (what
# bash and hookrun match with), and only whether it matches: glibc takes ``a**`` and an
# unmatched ``)``, and picks the leftmost-longest match (BASH_REMATCH differs).
REGEX_VALUES = ["b", "(b|c)", ".", "a.c", "", "[ab]", "(", "a", "bc", "/"]
SUBJECTS = ["ab", "abc", "a(b", "ac", "abbb", "ab$", "a", "b", "/b/", "aa", "a.c", "q*"]


def _script(op: str, right: str) -> str:
    values = " ".join(f"'{v}'" for v in (REGEX_VALUES if op == "=~" else VALUES))
    subjects = " ".join(f"'{s}'" for s in SUBJECTS)
    return (
        f"for x in {values}; do for s in {subjects}; do "
        f'if [[ $s {op} {right} ]]; then echo "y [$x] [$s]"; '
        f'else echo "n$? [$x] [$s]"; fi; done; done'
    )


CASES = [(op, right) for right in ANY_OP for op in ("=~", "=", "==", "!=")] + [
    ("=~", right) for right in REGEX_ONLY
]


@pytest.mark.parametrize(("op", "right"), CASES)
def test_expansions_in_the_right_side_as_bash(run: Runner, op: str, right: str) -> None:
    source = _script(op, right)
    env = base_env()
    ran = run(source, env=env)
    assert (ran.code, ran.out) == bash_result(source, env), ran.err


LONE = [
    "[[ -n * ]] && echo yes", "[[ -z * ]] || echo no", "[[ -n ? ]] && echo yes",
    "[[ -f * ]] || echo no", "[[ * == * ]] && echo y", "[[ -n * && -z ? ]] || echo n",
    "[[ ( -n * ) ]] && echo y", "[[ ? ]] && echo y", "x='*'; [[ $x = * ]] && echo y",
    "[[ -d * || -e ? ]] || echo none", "[[ ! -n * ]] || echo no",
]  # fmt: skip


@pytest.mark.parametrize("source", LONE)
def test_a_lone_star_or_question_mark_as_bash(run: Runner, source: str) -> None:
    env = base_env()
    ran = run(source, env=env)
    assert (ran.code, ran.out) == bash_result(source, env), ran.err


# Gap 38: a quoted blank after a single `=` (the grammar's regex token ended at it: a
# syntax error, exit 2 — a guard hook that blocked every call).
QUOTED_BLANK = [
    'c="rm -rf /"; [[ $c = *"rm -rf"* ]] && echo hit',
    '[[ "xa bx" = *"a b"* ]] && echo yes',
    'x="a b"; [[ $x = "a b" ]] && echo eq',
    "x='a b'; [[ $x = a' 'b ]] && echo eq",
    'x=a; [[ a = ${x} && "c d" = *" "* ]] && echo both',
    'x=b; [[ "a b" = "a "$x ]] && echo cat',
    'echo $(( 1 == 1 )); [[ q = *"x y"* ]] || echo nomatch',
    'f() { [[ $1 = *"--force"* ]] && return 2; return 0; }; f "git push --force"; echo $?',
    'case x in x) [[ "a b" = *\\ * ]] && echo esc;; esac',
]


@pytest.mark.parametrize("source", QUOTED_BLANK)
def test_a_quoted_blank_after_a_single_equals_as_bash(run: Runner, source: str) -> None:
    env = base_env()
    ran = run(source, env=env)
    assert (ran.code, ran.out) == bash_result(source, env), ran.err
