"""tree-sitter-bash's scanner must never see a code point past 255 (it crashed the process).

Its external scanner passes the lookahead to C's isdigit()/isalpha(), whose table has 256
entries: `{` followed by a CJK letter read far outside it (valgrind: invalid read in
scan(), scanner.c:1158) and killed hookrun about one run in three under the fuzz test.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from hookrun.shellsyntax import parse, parser

REPO = Path(__file__).resolve().parents[2]


class _Recorder:
    def __init__(self, seen: list[bytes]) -> None:
        self.seen = seen

    def parse(self, src: bytes) -> Any:
        self.seen.append(src)
        return parser.new_parser().parse(src)


@pytest.mark.parametrize(
    "source",
    ["echo {é}", "cat <<ÉOF\n日本\nÉOF\n", "x=$'\\u00e9' ; echo ${x} 😀{1..2}", "\udcff{\udcfe"],
)
def test_the_grammar_only_ever_gets_ascii_of_the_same_length(
    source: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[bytes] = []
    monkeypatch.setattr(parser, "_parser", lambda: _Recorder(seen))
    parser.parse.cache_clear()
    try:
        parse(source)
    except Exception:  # noqa: BLE001 - a refusal is fine; what reached the grammar is the point
        pass
    finally:
        parser.parse.cache_clear()
    src = source.encode("utf-8", "surrogateescape")
    assert seen and all(max(given, default=0) < 0x80 for given in seen)
    assert len(seen[0]) == len(src)


def test_words_keep_the_users_own_non_ascii_text() -> None:
    script = parse("echo héllo 'wörld' \"日本\"")
    words = script.source.decode()
    assert "héllo" in words  # positions index the user's bytes, not the grammar's


@pytest.mark.nocov
@pytest.mark.timeout(300)
def test_thousands_of_braces_before_high_code_points_do_not_crash_the_process() -> None:
    # Before the fix this crashed (SIGSEGV) in about one run in three.
    code = textwrap.dedent(
        """
        import random
        from hookrun.shellsyntax.parser import parse_bytes
        rng = random.Random(7)
        for i in range(6000):
            cp = rng.choice([0x100, 0x3000, 0x4E00, 0x1F600, 0x97F9E, 0xAE9B3])
            text = "echo {" + chr(cp + rng.randrange(50)) + "} ${" + chr(cp) + "}"
            try:
                parse_bytes(text.encode("utf-8"))
            except Exception:
                pass
        print("ok")
        """
    )
    for _ in range(3):
        done = subprocess.run(
            [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=280
        )
        assert (done.returncode, done.stdout.strip()) == (0, "ok"), done.stderr[-2000:]
