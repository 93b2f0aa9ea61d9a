"""What flows down a pipe, and how nested code is judged."""

from __future__ import annotations

import pytest

from hookrun.hooks.shell_guard.engine import output_of
from hookrun.hooks.shell_guard.model import Stdin
from hookrun.hooks.shell_guard.parse import parse_script

TEXT = Stdin("text", "cm0gLXJmIC8=\n", "echo cm0gLXJmIC8=")
DOWNLOAD = Stdin("download", "", "curl x")


def _cmd(text: str):  # type: ignore[no-untyped-def]
    return parse_script(text).commands[-1]


@pytest.mark.parametrize(
    ("command", "stdin", "kind", "text"),
    [
        ("curl -s x", None, "download", ""),
        ("wget -qO- x", None, "download", ""),
        ("gunzip", DOWNLOAD, "download", ""),
        ("tee install.sh", DOWNLOAD, "download", ""),
        ("echo rm -rf /", None, "text", "rm -rf /\n"),
        ("printf 'a\\n'", None, "text", "a\n"),
        ("base64 -d", TEXT, "text", "rm -rf /"),
        ("cat", TEXT, "text", TEXT.text),
        ("head -n 1", TEXT, "text", TEXT.text),
    ],
)
def test_output_of_a_stage(command: str, stdin: Stdin | None, kind: str, text: str) -> None:
    out = output_of(_cmd(command), stdin)
    assert out is not None and out.kind == kind
    if kind == "text":
        assert out.text == text


@pytest.mark.parametrize(
    ("command", "stdin"),
    [
        ("echo $X", None),
        ("cat file.txt", TEXT),
        ("sort", TEXT),
        ("sh", DOWNLOAD),
        ("ls", None),
    ],
)
def test_stage_output_nobody_can_know_is_none(command: str, stdin: Stdin | None) -> None:
    assert output_of(_cmd(command), stdin) is None
