"""Line continuations (a backslash at a line's end) wherever bash removes them, each text
run by bash and by the in-process shell: status and output must be bash's (gap 43).

bash removes each backslash-newline as it reads its input — inside a word, a reserved
word, an operator, ``$NAME``, ``${…}``, ``$(( ))``, double quotes, an unquoted
here-document's body and delimiter — and keeps it inside single quotes, ``$'…'``, a
comment and a quoted here-document's body. The front end read most of the first kind as
a break between words or a syntax error: ``loc\\⏎al x=1`` ran ``loc``, ``x=a\\⏎b`` ran
``b``, ``$H\\⏎OME`` was ``$H`` then ``OME``, ``i\\⏎f …`` and ``&\\⏎&`` were syntax errors
(exit 2: a hook's block on every call).
"""

from __future__ import annotations

import random
import shutil

import pytest

from hookrun.shellsyntax import ShellSyntaxError, parse
from hookrun.shellsyntax import continuations as cont
from hookrun.shellsyntax.parser import parse_tree
from tests.dispatch.shell.shellrun import Runner, base_env, bash_result

BASH = shutil.which("bash")

C = "\\\n"  # a line continuation

REMOVED = [
    # inside words, reserved words, builtins' names, assignments
    f"loc{C}al x=1",
    f"f() {{ loc{C}al x=1; echo $x; }}; f",
    f"ec{C}ho hi",
    f"e{C}cho hi | c{C}at",
    f"x=a{C}b; echo $x",
    f"f{C}oo=1; echo $foo",
    f"ex{C}port X=1; env | grep ^X=",
    f"decl{C}are -a a=(1 2); echo ${{a[1]}}",
    f"i{C}f true; then echo y; fi",
    f"if true; th{C}en echo y; fi",
    f"for i in 1 2; d{C}o echo $i; done",
    f"case a in a) echo yes;{C}; esac",
    # expansions
    f"echo ${C}{{HOME}}",
    f"echo ${{HO{C}ME}}",
    f"echo $H{C}OME",
    f"x=1; echo $x{C}$x",
    f"echo ${{x:-a{C}b}}",
    f"echo $((1{C}+2)) $(({C}3 * 4))",
    f"echo $({C}( 1 + 2 ))",
    f"x=$(echo a{C}b); echo $x",
    f"echo `echo a{C}b`",
    f'echo "a{C}b" "$(echo c{C}d)"',
    # operators and redirections
    f"echo a &{C}& echo b",
    f"false |{C}| echo b",
    f"echo a >{C}> /dev/null; echo ok",
    f"echo a |{C} tr a b",
    f"[{C}[ a == a ]] && echo y",
    f"[[ a ={C}= a ]] && echo y",
    # here-documents: the delimiter word, an unquoted body
    f"cat <<E{C}OF\nhi\nEOF",
    f"cat <<E\na{C}b\n${C}HOME\nE",
    f"cat <<E; echo after\nx{C}\nE\nE",
    # at the end, and after an escaped backslash (which is none)
    f"echo hi {C}",
    f"echo $((){C})x$(( ){C}) $({C}( 1 + 2 ){C})",
    f"(( 1 <{C}< 2 )); echo $?; ({C}( 3 )); echo $?",
    f"cat <{C}<E\nx\nE",
    "echo a\\\\\necho b",
    'echo "a\\\\\nb"',
]

KEPT = [
    f"echo 'a{C}b'",
    f"echo $'a{C}b'",
    f"echo a # a comment {C}echo b",
    f"cat <<'E'\na{C}b\nE",
    f'cat <<"E"\na{C}b\nE',
    f"cat <<\\E\na{C}b\nE",
    f"echo \"it's a{C}b\" 'c{C}d'",
    f"x='{C}'; echo \"[$x]\"",
]


@pytest.mark.skipif(BASH is None, reason="bash is the oracle")
@pytest.mark.parametrize("source", REMOVED + KEPT)
def test_continuations_are_read_as_bash_reads_them(run: Runner, source: str) -> None:
    env = base_env()
    ran = run(source, env=env)
    assert (ran.code, ran.out) == bash_result(source, env), ran.err


def _generated(count: int, seed: int = 19) -> list[str]:
    """Texts of the bash-run tables with a continuation put at a random place (bash
    decides what it is there: removed, kept in quotes, an error)."""
    from tests.dispatch.shell import front_gaps_s19_test, front_misreads_test

    tables = [
        *front_misreads_test.LINES,
        *front_misreads_test.CONTROLS,
        *front_gaps_s19_test.CONTROLS,
        *(x for x in front_gaps_s19_test.LINES if isinstance(x, str)),
        *REMOVED,
        *KEPT,
    ]
    rnd = random.Random(seed)
    out = []
    for _ in range(count):
        line = rnd.choice(tables)
        at = rnd.randrange(1, len(line))
        if line[at - 1] == "\\":
            at -= 1  # (after a backslash it would be an escaped one and a newline)
        out.append(line[:at] + C + line[at:])
    return out


@pytest.mark.skipif(BASH is None, reason="bash is the oracle")
@pytest.mark.parametrize("source", _generated(80))
def test_a_continuation_anywhere_is_read_as_bash_reads_it(run: Runner, source: str) -> None:
    env = base_env()
    ran = run(source, env=env)
    assert (ran.code, ran.out) == bash_result(source, env), ran.err


def test_offsets_are_the_users() -> None:
    source = f"echo a{C}b $H{C}OME\nec{C}ho c"
    script = parse_tree(source)
    first, second = script.stmts
    word = first.cmd.args[1]  # type: ignore[union-attr]
    assert (word.pos, word.end) == (5, 9)  # `a\⏎b` as written
    assert script.source[word.pos : word.end] == f"a{C}b".encode()
    param = first.cmd.args[2].parts[0]  # type: ignore[union-attr]
    assert param.name == "HOME"
    assert script.source[param.pos : param.end] == f"$H{C}OME".encode()
    assert (second.pos, second.end) == (source.index("\nec") + 1, len(source))
    assert second.cmd.args[0].parts[0].text == "echo"  # type: ignore[union-attr]


def test_a_syntax_error_is_placed_on_the_users_line() -> None:
    with pytest.raises(ShellSyntaxError) as caught:
        parse(f"echo a{C}b{C}c\necho (")
    assert caught.value.line == 4


@pytest.mark.parametrize(
    ("source", "joined"),
    [
        (b"ec\\\nho", b"echo"),
        (b"echo 'a\\\nb' c\\\nd", b"echo 'a\\\nb' cd"),
        (b"echo $'\\'\\\n' x\\\ny", b"echo $'\\'\\\n' xy"),
        (b"a # b\\\nc\\\nd", b"a # b\\\ncd"),
        (b"a#b\\\nc", b"a#bc"),
        (b"cat <<'E'\na\\\nb\nE\nc\\\nd", b"cat <<'E'\na\\\nb\nE\ncd"),
        (b"echo \"$(echo 'a\\\nb')\"", b"echo \"$(echo 'a\\\nb')\""),
        (b"echo \"${x:-'a\\\nb'}\"", b"echo \"${x:-'ab'}\""),
        (b"(( 1 << 2 ))\na\\\nb", b"(( 1 << 2 ))\nab"),
    ],
)
def test_joined_removes_what_bash_removes(source: bytes, joined: bytes) -> None:
    found = cont.joined(source)
    assert (found[0] if found else source) == joined
