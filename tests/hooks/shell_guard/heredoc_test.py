"""Heredoc bodies are taken out so bashlex parses the line, and kept for the rules."""

from __future__ import annotations

import pytest

from hookrun.hooks.shell_guard.heredoc import body_of, strip_heredocs


@pytest.mark.parametrize(
    ("text", "stripped", "bodies"),
    [
        (
            "git commit -m \"$(cat <<'EOF'\nfix: it's done\nEOF\n)\"",
            'git commit -m "$(cat < __hookrun_heredoc_0__\n)"',
            ("fix: it's done\n",),
        ),
        ("sh <<EOF\nrm -rf /\nEOF", "sh < __hookrun_heredoc_0__\n", ("rm -rf /\n",)),
        (
            'cat <<"X" | bash\necho hi\nX\nls',
            "cat < __hookrun_heredoc_0__ | bash\nls",
            ("echo hi\n",),
        ),
        ("cat <<-X\n\techo hi\n\tX\nls", "cat < __hookrun_heredoc_0__\nls", ("echo hi\n",)),
        (
            "a <<A; b <<B\n1\nA\n2\nB\n",
            "a < __hookrun_heredoc_0__; b < __hookrun_heredoc_1__\n",
            ("1\n", "2\n"),
        ),
    ],
)
def test_heredoc_body_is_replaced_by_a_placeholder_redirect(
    text: str, stripped: str, bodies: tuple[str, ...]
) -> None:
    result = strip_heredocs(text)
    assert (result.text, result.bodies) == (stripped, bodies)


@pytest.mark.parametrize(
    "text",
    [
        "echo 'a << b'",
        'echo "a << b"',
        "cat <<<'here string'",
        "echo $((1 << 2))",
        "# comment << X\nls",
        "cat <<EOF\nno terminator",
    ],
)
def test_text_that_is_not_a_terminated_heredoc_is_left_alone(text: str) -> None:
    assert strip_heredocs(text).text == text


def test_placeholder_maps_back_to_its_body() -> None:
    assert body_of("__hookrun_heredoc_1__", ("a", "b")) == "b"
    assert body_of("__hookrun_heredoc_7__", ("a",)) is None
    assert body_of("file.txt", ("a",)) is None
