"""What echo/printf print when their arguments are static."""

from __future__ import annotations

import pytest

from hookrun.hooks.shell_guard.printed import printed
from tests.hooks.shell_guard.conftest import Judge


@pytest.mark.parametrize(
    ("name", "args", "out"),
    [
        ("echo", ["rm", "-rf", "/"], "rm -rf /\n"),
        ("echo", ["-n", "rm"], "rm"),  # (as bash: -n drops the newline)
        ("echo", ["-e", "\\x72m"], "rm\n"),
        ("echo", ["\\x72m"], "\\x72m\n"),
        ("printf", ["rm -rf /\\n"], "rm -rf /\n"),
        ("printf", ["%s -rf %s", "rm", "/"], "rm -rf /"),
        ("printf", ["--", "-rf"], "-rf"),
        ("printf", ["\\162\\155"], "rm"),
        ("printf", ["100%%"], "100%"),
        ("printf", [], ""),
    ],
)
def test_printed_text(name: str, args: list[str], out: str) -> None:
    assert printed(name, args) == out


def test_a_huge_field_width_is_padded_to_a_bound() -> None:
    # `%300000000d` made a 300 MB string, then every rule read it: 900 MB and the
    # policy's 30 s timeout. The blanks beyond the bound are the same to a shell.
    out = printed("printf", ["%300000000s%s\\n", "", "rm -rf /"])
    assert out == " " * 4096 + "rm -rf /\n"
    assert printed("printf", ["%-300000000s|", "x"]) == "x" + " " * 4095 + "|"
    assert printed("printf", ["%5s|", "x"]) == "    x|"


def test_text_after_a_huge_field_is_still_judged(judge: Judge) -> None:
    verdict = judge('printf "%300000000s%s\\n" "" "rm -rf /" | sh')
    assert verdict.decision == "deny"
    assert "delete.catastrophic" in (verdict.reason or "")
