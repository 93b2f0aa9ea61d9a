"""The interpreter's per-command plain argv (``expand.plain_words``, kept per parsed
command by ``interp.expand_args``) against the general path (``Expander.fields``).

A command whose words are all plain literals skips the expander: its fields are found
once per parsed command. Wherever the shortcut answers, it must give what expansion
gives — here in a directory where every pattern matches something and with a ``HOME``
of its own, so a word with a glob, a tilde, braces or a backslash taken as plain shows.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hookrun.dispatch.shell import interp
from hookrun.dispatch.shell.expand import FS, Expander, plain_words
from hookrun.dispatch.shell.state import ShellError, ShellState
from hookrun.shellsyntax import ShellSyntaxError, Unsupported, parse
from hookrun.shellsyntax.nodes import CallExpr
from tests.dispatch.shell.shellrun import Runner

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "bench"))
from shell_bench import ONE_LINERS  # noqa: E402

# Words the shortcut must not take (each expands to something else here), and plain
# ones it must.
CRAFTED = [
    "true",
    "echo ok done",
    "[ a = b ]",
    "[ -n x ]",
    "[[ a == b ]]",
    "echo ]",
    "echo a]",
    "echo *",
    "echo a*",
    "echo ?",
    "echo [ab]",
    "echo [",
    "echo ~",
    "echo ~/x",
    "echo x=~",
    "echo a:~",
    "echo {a,b}",
    "echo {1..3}",
    "echo a{b,c}d",
    "echo a\\ b",
    "echo \\*",
    "echo 'q'",
    'echo "q"',
    "echo $HOME",
    "export A=1",
    "A=1 true",
    "declare -a x=(1 2)",
    "echo !",
    "echo @ + %",
    "echo -- -x --long=v",
    "ls /tmp/*",
]


def _calls(node: Any) -> Iterator[CallExpr]:
    if isinstance(node, CallExpr):
        yield node
    if isinstance(node, tuple):
        for field in node:
            if isinstance(field, tuple):
                yield from _calls(field)


def _corpus() -> list[str]:
    texts = [*CRAFTED, *ONE_LINERS]
    for spec in sorted((ROOT / "tests/conformance/oils/spec").glob("*.test.sh")):
        texts.extend(spec.read_text("utf-8", "surrogateescape").splitlines())
    return texts


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    for name in ("a", "ab", "b", "c", "d", "x", "[", "a]", "q", "a b", "ok", "-x", "!"):
        (tmp_path / name).write_text("")
    (tmp_path / "home").mkdir()
    return tmp_path


def test_plain_words_are_what_expansion_gives(tree: Path) -> None:
    state = ShellState.create({"HOME": str(tree / "home"), "PWD": str(tree)}, str(tree))
    ex = Expander(state, FS)
    answered = refused = mixed = 0
    for text in _corpus():
        try:
            script = parse(text)
        except (ShellSyntaxError, Unsupported):
            continue
        for call in _calls(script.stmts):
            if not call.args:
                continue
            plan = plain_words(call.args)
            if plan is None:
                continue
            for word, got in zip(call.args, plan, strict=True):
                if got is None:
                    refused += 1
                    continue
                answered += 1
                assert [got] == ex.fields([word]), text  # type: ignore[list-item]
            if None in plan and any(t is not None for t in plan):
                mixed += 1
                # (each from the same start: `$((++a))`, `${x:=y}` change the state)
                fresh = [Expander(ShellState.create(state.vars, str(tree)), FS) for _ in "ab"]
                try:
                    expected = fresh[0].fields(call.args)  # type: ignore[arg-type]
                except ShellError:
                    continue
                got_all = fresh[1].fields(call.args, plan)  # type: ignore[arg-type]
                assert got_all == expected, text
    assert answered > 1000 and refused > 500 and mixed > 200, (answered, refused, mixed)


@pytest.mark.parametrize(
    "text",
    [
        *("echo *", "echo a*", "echo ?", "echo [ab]", "echo ~", "echo ~/x", "echo x=~"),
        *("echo a:~", "echo {a,b}", "echo {1..3}", "echo a{b,c}d", "echo a\\ b", "echo \\*"),
        *("echo 'q'", 'echo "q"', "echo $HOME", "export A=1", "declare -a x=(1 2)", "ls /tmp/*"),
    ],
)
def test_words_with_something_to_expand_are_not_plain(text: str) -> None:
    (call,) = _calls(parse(text).stmts)
    plan = plain_words(call.args)
    assert plan is None or plan[-1] is None


def test_a_stale_id_is_not_taken_for_the_words(run: Runner, tree: Path) -> None:
    # An entry under the id of the words it describes, but of other words (what a
    # reused id would look like): the words are expanded, not taken from the entry.
    (call,) = _calls(parse("echo *").stmts)
    assert next(_calls(parse("echo *").stmts)).args is call.args  # (what the run parses)
    interp._plain_argv[id(call.args)] = (("echo", "*"), ("echo", "stale"), None)
    try:
        ran = run("echo *", cwd=str(tree))
    finally:
        interp._plain_argv.pop(id(call.args), None)
    assert "stale" not in ran.out and {"a", "ab", "a]", "[", "ok"} <= set(ran.out.split())


def test_the_same_command_run_again_gives_the_same_fields(run: Runner, tree: Path) -> None:
    first = run("echo ok *; [ a = a ] && echo yes", cwd=str(tree))
    again = run("echo ok *; [ a = a ] && echo yes", cwd=str(tree))
    assert first.out == again.out
    assert first.out.startswith("ok ") and "ab" in first.out and first.out.endswith("yes\n")


def test_literal_text_without_backslash_quote_or_tilde_is_one_piece() -> None:
    # Expander.literal's shortcut against its own scan, over text made of the characters
    # the scan acts on and ordinary ones, with every combination of its flags.
    import itertools
    import random

    state = ShellState.create({"HOME": "/home/h", "OLDPWD": "/old"}, "/")
    ex = Expander(state, FS)
    rng = random.Random(11)
    alphabet = ["a", "b", "=", ":", "/", "~", "\\", "'", '"', "\n", " ", "*", "$", "-", "+"]
    texts = ["", "a", "~", "~/x", "a=~", "a:~/b", "x\\y", "'q'", '"q"', "a\\", "plain-text"]
    texts += ["".join(rng.choices(alphabet, k=rng.randint(1, 8))) for _ in range(3000)]
    shortcut_taken = 0
    for raw in texts:
        for tilde, assignment, eq_tilde in itertools.product((False, True), repeat=3):
            fast: list[Any] = []
            slow: list[Any] = []
            ex.literal(raw, fast, tilde, assignment, eq_tilde)
            ex.literal_scan(raw, slow, tilde, assignment, eq_tilde)
            assert fast == slow, (raw, tilde, assignment, eq_tilde)
            shortcut_taken += not any(c in raw for c in "\\'\"~")
    assert shortcut_taken > 1000
