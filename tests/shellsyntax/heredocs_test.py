"""Here-documents are read in a number of parses that does not grow with how many
there are (heredocs.py once parsed the whole text twice per here-document: a line with
2,000 of them took 46 s). Counted, not timed: the grammar's parse calls at n and 4n."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hookrun.shellsyntax.heredocs import MAX_HEREDOCS, prepare
from hookrun.shellsyntax.parser import _ts_parse

_SHAPES = {
    "one line": lambda n: "cat" + " <<E" * n + "\n" + "x\nE\n" * n,
    "one a line": lambda n: "cat <<E\nx\nE\n" * n,
    "in substitutions": lambda n: "echo " + " ".join(["$(cat <<E\nx\nE\n)"] * n) + "\n",
}


def _read(source: str) -> tuple[int, list[bytes]]:
    calls = 0

    def counting(text: bytes) -> object:
        nonlocal calls
        calls += 1
        return _ts_parse(text)

    src = source.encode()
    _, docs = prepare(src, counting)
    return calls, [src[d.body_start : d.body_end] for _, d in sorted(docs.items())]


@pytest.mark.parametrize("shape", sorted(_SHAPES))
def test_parses_do_not_grow_with_the_number_of_here_documents(shape: str) -> None:
    n = MAX_HEREDOCS // 4
    few_calls, few = _read(_SHAPES[shape](n))
    many_calls, many = _read(_SHAPES[shape](4 * n))
    assert few == [b"x\n"] * n
    assert many == [b"x\n"] * (4 * n)
    assert many_calls == few_calls <= 6


_DISTINCT = {
    "one a line": lambda n: "".join(f"cat <<E{i}\nb{i}\nE{i}\n" for i in range(n)),
    # A body read but not yet blanked must not change how the next line is read.
    "quotes in bodies": lambda n: "".join(f"cat <<E{i}\n'b{i}\nE{i}\n" for i in range(n)),
    "in substitutions": lambda n: (
        "echo " + " ".join(f"$(cat <<'E{i}'\nb{i}\nE{i}\n)" for i in range(n)) + "\n"
    ),
}


@pytest.mark.parametrize("shape", sorted(_DISTINCT))
def test_each_body_is_the_one_bash_reads(shape: str) -> None:
    bash = shutil.which("bash")
    if bash is None:
        pytest.skip("no bash")
    source = _DISTINCT[shape](MAX_HEREDOCS)
    ran = subprocess.run([bash, "-c", source], capture_output=True, text=True, check=True)
    _, bodies = _read(source)
    assert [b.decode().strip() for b in bodies] == ran.stdout.split()
    assert len(bodies) == MAX_HEREDOCS


def _heredoc_texts() -> list[str]:
    """Texts with a here-document: the Oils here-doc and redirect spec cases (and each
    of their lines), hook-style ones, and shapes the one-parse guess must refuse."""
    from pathlib import Path

    from tests.conformance.specfile import parse_file

    spec = Path(__file__).resolve().parent.parent / "conformance/oils/spec"
    texts: list[str] = []
    for name in ("here-doc", "redirect", "redirect-multi", "posix", "command-sub"):
        for case in parse_file(spec / f"{name}.test.sh"):
            texts.append(case.code)
            texts.extend(case.code.splitlines())
    texts += [
        'while read -r l; do echo "$l"; done <<EOF\n{"decision":"allow"}\nEOF',
        "cat <<'EOF' | jq -r .x\n{\"x\": 1}\nEOF\n",
        'cat <<"EOF" >&2\nblocked: $x\nEOF\nexit 2\n',
        "cat <<-EOF\n\tindented\n\tEOF\necho after\n",
        'cat <<EOF; echo "a\nb"\nbody\nEOF\n',  # the line goes on in a string
        'cat <<EOF; echo "a\nbody\nEOF\nb"\nreal\nEOF\n',
        "cat <<EOF\nno end line",
        "cat <<EOF",
        'x=$(cat <<EOF\n$HOME\nEOF\n)\necho "$x"\n',
        "cat <<E;\nx\nE;\nE\n",
        'cat <<E"2"\nx\nE2\n',
        "echo $((1<<2))\n",
        "cat <<A | cat <<B\na\nA\nb\nB\n",
    ]
    return [t for t in dict.fromkeys(texts) if "<<" in t]


def test_one_here_document_read_in_one_parse_is_the_general_reading(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # heredocs._one_guessed reads a text's only here-document in one parse instead of
    # two; the text and spans it hands on must be the general round's, to the byte.
    from hookrun.shellsyntax import heredocs

    guess = heredocs._one_guessed
    taken = 0

    def counted(*args: object) -> object:
        nonlocal taken
        found = guess(*args)  # type: ignore[arg-type]
        taken += found is not None
        return found

    for text in _heredoc_texts():
        src = text.encode("utf-8", "surrogateescape")
        monkeypatch.setattr(heredocs, "_one_guessed", counted)
        found = prepare(src, _ts_parse)
        monkeypatch.setattr(heredocs, "_one_guessed", lambda *_: None)
        assert found == prepare(src, _ts_parse), text
    assert taken >= 20  # the shortcut is taken, not only refused


_PIECES = [
    *("cat", " ", "<<", "<<-", "<<<", "EOF", "'EOF'", '"EOF"', "E", "\n", "\t", ";", "&&"),
    *("|", "$(", ")", "`", '"', "'", "\\", "$x", "{", "}", "((", "))", "done", "echo", "#"),
    *("for ((i=0;i<1;i++)); do ", "EOF\n", "\nEOF", "1<<2", "[[", "]]", "fi", "2>&1", ">f"),
    *("if true; then ", "while read l; do ", "$((", "${", "é", " \\\n", '"a\nb"', "$(\n"),
]
_HEADS = ["cat <<EOF", "cat <<'E'", "x <<-EOF", "while read l; do echo; done <<EOF", ""]
_TAILS = ["\nEOF", "\nE\n", "\n\tEOF\nx", ""]


@settings(max_examples=400, deadline=None, derandomize=True)
@given(
    st.sampled_from(_HEADS),
    st.lists(st.sampled_from(_PIECES), min_size=1, max_size=8),
    st.sampled_from(_TAILS),
)
def test_the_one_parse_reading_agrees_with_the_general_one_on_generated_text(
    head: str, pieces: list[str], tail: str
) -> None:
    # As above, on text drawn from the pieces here-documents are written with (an
    # offline run of 20,000 such texts, 1,937 of them read by the guess: none differed).
    from hookrun.shellsyntax import heredocs

    src = (head + "".join(pieces) + tail).encode()
    found = prepare(src, _ts_parse)
    guess = heredocs._one_guessed
    try:
        heredocs._one_guessed = lambda *_: None
        assert found == prepare(src, _ts_parse)
    finally:
        heredocs._one_guessed = guess
