"""The Oils spec-file reader: what a case's code and bash's expectation are."""

from __future__ import annotations

import pytest

from tests.conformance import oracle
from tests.conformance.specfile import Expect, SpecFormatError, parse_text

FILE = """\
## compare_shells: bash dash mksh
## legacy_tmp_dir: yes

#### one-line stdout
echo hi
## stdout: hi

#### multi-line STDOUT with a blank line, comments dropped, bash qualifier
# a comment line is not code
echo a; echo; echo b
## STDOUT:
a

b
## END
## OK bash status: 3
## N-I dash STDOUT:
dash
## END

#### stdout-json and status
printf x
exit 2
## stdout-json: "x"
## status: 2

#### qualified multi-line for a shell list that includes bash
echo q
## STDOUT:
q
## END
## BUG mksh/bash STDOUT:
bug
## END

#### broken code given as a key
## code: ls foo '
## status: 2
"""


def test_cases_keep_their_code_and_bash_expectation() -> None:
    cases = parse_text(FILE, "demo")
    assert [(c.key, c.name, c.line) for c in cases] == [
        ("demo#00", "one-line stdout", 4),
        ("demo#01", "multi-line STDOUT with a blank line, comments dropped, bash qualifier", 8),
        ("demo#02", "stdout-json and status", 21),
        ("demo#03", "qualified multi-line for a shell list that includes bash", 27),
        ("demo#04", "broken code given as a key", 36),
    ]
    assert [c.code for c in cases] == [
        "echo hi\n",
        "echo a; echo; echo b\n",
        "printf x\nexit 2\n",
        "echo q\n",
        "ls foo '\n",
    ]
    assert [c.bash for c in cases] == [
        Expect("hi\n", 0, None),
        Expect("a\n\nb\n", 3, "OK"),
        Expect("x", 2, None),
        Expect("bug\n", 0, "BUG"),
        Expect(None, 2, None),
    ]
    assert all(c.legacy_tmp_dir for c in cases)


def test_a_stray_double_hash_line_is_an_error() -> None:
    with pytest.raises(SpecFormatError, match=r"demo: line 3: invalid ## line '## oops'"):
        parse_text("#### x\necho\n## oops\n", "demo")


@pytest.mark.parametrize(
    ("name", "count"),
    [("quote", 35), ("arith", 74), ("builtin-read", 64), ("here-doc", 36), ("whitespace", 5)],
)
def test_vendored_files_have_as_many_cases_as_headers(name: str, count: int) -> None:
    # The count of "####" lines in the file, as `grep -c '^####'` gives it.
    text = (oracle.SPEC_DIR / f"{name}.test.sh").read_text(encoding="utf-8")
    assert text.count("\n#### ") + text.startswith("#### ") == count
    assert len(oracle.all_cases([name])) == count
