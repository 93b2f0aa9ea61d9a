"""What echo/printf print when their arguments are static."""

from __future__ import annotations

import pytest

from hookrun.hooks.shell_guard.printed import printed


@pytest.mark.parametrize(
    ("name", "args", "out"),
    [
        ("echo", ["rm", "-rf", "/"], "rm -rf /\n"),
        ("echo", ["-n", "rm"], "rm\n"),
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
