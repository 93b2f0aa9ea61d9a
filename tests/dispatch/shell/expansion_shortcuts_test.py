"""The expander's shortcuts against the general paths they stand for.

- ``Expander.expansion`` takes ``$x``/``${x}`` of a set variable under an ordinary name
  itself; ``Expander.param`` handles every form of ``${…}``.
- ``Expander.fields`` takes a word of one part that is no literal (``"$x"``, ``$i``)
  without brace expansion nor ``pieces()``, and reads ``IFS`` itself; the general path
  is brace expansion, ``pieces()``, field splitting and pathname expansion of each field.

Each is checked over every word of the Oils spec files, the bench's one-liners and
crafted ones, under shell states that would show a wrong answer: the special
parameters' names in the environment, a scalar beside ``${x[1]}``, values with IFS and
pattern characters, an IFS other than the default (and empty), ``set -u``, ``set -f``,
in a directory where patterns match.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from hookrun.dispatch.shell.expand import (
    FS,
    Expander,
    _looks_like_assignment,
    brace_expand,
    split_fields,
)
from hookrun.dispatch.shell.state import Array, ShellError, ShellState
from hookrun.shellsyntax import ShellSyntaxError, Unsupported, parse
from hookrun.shellsyntax.nodes import CallExpr, DblQuoted, ParamExp, Word
from tests.dispatch.shell.plain_argv_test import _corpus as _spec_texts

CRAFTED = [
    'echo $x "$x" ${x} "${x}" $c "$c" $g "$g" $y "$y" $unset "$unset"',
    'echo ${x[1]} "${x[0]}" ${a} ${a[1]} "${a[@]}" ${A} ${A[k]} $# $? $1 "$@" $* $- $$ $0',
    'echo ${#x} ${!r} ${x:-d} ${unset:-d} ${x#a} "${x%b}" ${x/a/z} ${x:1} ${x@Q} ${!x*}',
    "echo $n$x ${n}x x$n '$x' $'\\n' \"a $x b\" \"$x$y\" $((n+1)) {a,b}$x $x{a,b} a=$x",
    'echo $HOME ~ ~/$x $IFS "$IFS" $PWD $OPTIND $RANDOM_NOT $10 ${10} $_ $e1',
]
VALUES = {
    "x": "a b",
    "y": "",
    "c": "a,b",
    "g": "*",
    "n": "5",
    "r": "x",
    "e1": "p q,r",
    # Names of special parameters an environment may hold: never their values.
    "1": "env-one",
    "?": "env-status",
    "#": "env-count",
    "@": "env-at",
    "*": "env-star",
    "0": "env-zero",
    "-": "env-dash",
    "$": "env-pid",
    "10": "env-ten",
}


def _words(node: Any) -> Iterator[Word]:
    """The words of every simple command under ``node`` (what fields() is given)."""
    if isinstance(node, CallExpr):
        yield from (w for w in node.args if isinstance(w, Word))
    if isinstance(node, tuple):
        for field in node:
            if isinstance(field, tuple):
                yield from _words(field)


def _params(node: Any) -> Iterator[tuple[ParamExp, bool]]:
    """Every ``ParamExp`` under ``node``, with whether it is inside double quotes."""

    def walk(n: Any, quoted: bool) -> Iterator[tuple[ParamExp, bool]]:
        if isinstance(n, ParamExp):
            yield n, quoted
        if isinstance(n, tuple):
            inner = quoted or isinstance(n, DblQuoted)
            for field in n:
                if isinstance(field, tuple):
                    yield from walk(field, inner)

    yield from walk(node, False)


def _corpus() -> list[Any]:
    """The trees of the crafted lines, the bench's one-liners and the Oils spec lines."""
    texts = [*CRAFTED, *_spec_texts()]
    trees = []
    for text in texts:
        try:
            trees.append(parse(text).stmts)
        except (ShellSyntaxError, Unsupported):
            continue
    return trees


STATES = ["default", "comma-ifs", "empty-ifs", "nounset", "noglob"]


def _state(kind: str, cwd: Path) -> ShellState:
    state = ShellState.create({"HOME": str(cwd / "home"), "PWD": str(cwd), **VALUES}, str(cwd))
    state.argv0, state.params, state.status = "sh", ["p1", "p 2", ""], 3
    state.arrays["a"] = Array(False, {0: "one", 1: "t w o"})
    state.arrays["A"] = Array(True, {"k": "v", "0": "zero"})
    if kind == "comma-ifs":
        state.vars["IFS"] = ","
    elif kind == "empty-ifs":
        state.vars["IFS"] = ""
    elif kind == "nounset":
        state.nounset = True
    elif kind == "noglob":
        state.options.add("noglob")
    return state


def _outcome(fn: Callable[[], Any]) -> Any:
    try:
        return ("ok", fn())
    except ShellError as exc:
        return ("error", type(exc).__name__, exc.message, exc.status)
    except Exception as exc:  # (the same failure either way is what counts here)  # noqa: BLE001
        return ("exception", type(exc).__name__, str(exc))


def _both(
    kind: str, tree: Path, fast: Callable[[Expander], Any], slow: Callable[[Expander], Any]
) -> tuple[Any, Any]:
    """Each way's outcome, each with an expander over its own fresh state (`${x:=y}`,
    `$((a++))` in a subscript change the state)."""

    def outcome(fn: Callable[[Expander], Any]) -> Any:
        return _outcome(lambda: fn(Expander(_state(kind, tree), FS)))

    return outcome(fast), outcome(slow)


@pytest.fixture(scope="module")
def trees() -> list[Any]:
    return _corpus()


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    for name in ("a", "ab", "b", "a b", "env-one", "x", "[", "*", "p1"):
        (tmp_path / name).write_text("")
    (tmp_path / "home").mkdir()
    return tmp_path


@pytest.mark.parametrize("kind", STATES)
def test_a_plain_parameter_expands_as_param_expands_it(
    kind: str, trees: list[Any], tree: Path
) -> None:
    taken = 0
    for stmts in trees:
        for p, quoted in _params(stmts):
            fast: list[Any] = []
            slow: list[Any] = []
            got, expected = _both(
                kind,
                tree,
                lambda ex: ex.expansion(p, fast, quoted),  # noqa: B023
                lambda ex: ex.param(p, slow, quoted),  # noqa: B023
            )
            assert (got, fast) == (expected, slow), (p, quoted)
            taken += not (p.op or p.prefix or p.indirect or p.length) and p.key is None
    assert taken > 1000


def _general_fields(ex: Expander, word: Word) -> list[str]:
    """What fields() gives one word, by the general path alone."""
    out: list[str] = []
    for variant in brace_expand(word):
        like = _looks_like_assignment(variant)
        pieces = ex.pieces(variant.parts, True, like, False, like)
        for field in split_fields(pieces, ex.ifs()):
            out.extend(ex.glob(field))
    return out


@pytest.mark.parametrize("kind", STATES)
def test_fields_of_a_word_are_what_the_general_path_gives(
    kind: str, trees: list[Any], tree: Path
) -> None:
    one_part = 0
    for stmts in trees:
        for word in _words(stmts):
            # A word may glob a directory the test does not own (`/tmp/*` in the corpus),
            # which other processes change while it runs: the general path reads it before
            # and after the fast one, and the three are taken again while those two differ.
            for _ in range(5):
                before = _both(kind, tree, lambda ex: None, lambda ex: _general_fields(ex, word))  # noqa: B023
                got, expected = _both(
                    kind,
                    tree,
                    lambda ex: ex.fields([word]),  # noqa: B023
                    lambda ex: _general_fields(ex, word),  # noqa: B023
                )
                if before[1] == expected:
                    break
            assert got == expected, word
            one_part += len(word.parts) == 1 and got[0] == "ok"
    assert one_part > 1000


def test_case_conversion_of_every_character_is_per_character_matching() -> None:
    # ${v,,} and ${v^^} with no pattern: each character converted alone, as the
    # general path does after matching it against `?` (final sigma stays σ, as in bash).
    # The one-character conversions themselves are checked against bash in
    # ranges_and_case_test.py.
    import random

    from hookrun.dispatch.shell.expand import _lower1, _upper1, case_convert, match

    rng = random.Random(3)
    alphabet = "aZß ΣσςİıǅΟΔ\n\t*?[1é"
    texts = ["", "Hello World", "ΟΔΟΣ ΣΑΣ", "straße"]
    texts += ["".join(rng.choices(alphabet, k=rng.randint(1, 9))) for _ in range(2000)]
    for text in texts:
        for op, fn in (("^^", _upper1), (",,", _lower1), ("^", _upper1), (",", _lower1)):
            if len(op) == 1:
                expected = fn(text[:1]) + text[1:] if text[:1] and match(text[:1], "?") else text
            else:
                expected = "".join(fn(c) if match(c, "?") else c for c in text)
            assert case_convert(text, op, "?") == expected, (text, op)


def _all_words(node: Any) -> Iterator[Word]:
    if isinstance(node, Word):
        yield node
    if isinstance(node, tuple):
        for field in node:
            if isinstance(field, tuple):
                yield from _all_words(field)


@pytest.mark.parametrize("kind", ["default", "nounset"])
def test_a_string_is_what_plain_or_the_pieces_give(kind: str, trees: list[Any], tree: Path) -> None:
    # Expander.string has _plain's test written out; the general path joins the pieces.
    from hookrun.dispatch.shell.expand import _join, _plain

    def general(ex: Expander, word: Word) -> str:
        plain = _plain(word)
        return plain if plain is not None else _join(ex.pieces(word.parts, True, False))

    plain_taken = 0
    for stmts in trees:
        for word in _all_words(stmts):
            got, expected = _both(
                kind,
                tree,
                lambda ex: ex.string(word),  # noqa: B023
                lambda ex: general(ex, word),  # noqa: B023
            )
            assert got == expected, word
            plain_taken += _plain(word) is not None
    assert plain_taken > 1000


def test_trimming_a_star_and_a_literal_is_what_trying_each_cut_gives() -> None:
    # trim()'s find/rfind for `*LIT` (#, ##) and `LIT*` (%, %%) against trim_scan, over
    # values and patterns made of pattern characters, extglob and ordinary ones.
    import random

    from hookrun.dispatch.shell.expand import trim, trim_scan

    rng = random.Random(7)
    alphabet = ["a", "b", "/", ".", "*", "?", "[", "]", "\\", "(", ")", "@", "+", "!", "\n"]
    patterns = ["*/", "*.", "*", "", "*a", "*ab", "*a/b", "a*", "/*", ".*", "ab*", "*a*"]
    patterns += ["*[a]", "*\\*", "*\\", "*(a)", "*?", "?*", "+(a)*", "*@(a)", "*!(a)", "a"]
    short = 0
    for _ in range(20000):
        value = "".join(rng.choices(alphabet, k=rng.randint(0, 8)))
        if rng.random() < 0.5:
            pat = rng.choice(patterns)
        else:
            pat = "".join(rng.choices(alphabet, k=rng.randint(0, 4)))
        for op in ("#", "##", "%", "%%"):
            assert trim(value, pat, op) == trim_scan(value, pat, op), (value, pat, op)
        short += pat in ("*/", "*.", "*a", "*ab", "a*", ".*", "ab*", "/*")
    assert short > 3000
