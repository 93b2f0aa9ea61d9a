"""The screen clears only lines no rule can match."""

from __future__ import annotations

import pytest

from hookrun.hooks.shell_guard import POLICY
from hookrun.hooks.shell_guard.engine import judge
from hookrun.hooks.shell_guard.screen import may_match

from .cases import COMMIT_HEREDOC, PR_HEREDOC, all_cases
from .conftest import bash_payload, context

CASES = all_cases()


@pytest.mark.parametrize(("command", "rule"), CASES, ids=[repr(c)[:60] for c, _ in CASES])
def test_screen_never_clears_a_line_the_full_analysis_would_deny(
    command: str, rule: str | None
) -> None:
    from hookrun.hooks.shell_guard import where_for

    where = where_for(bash_payload(command), POLICY.bind({}), context())
    findings = judge(command, where)
    if findings:
        assert may_match(command)


@pytest.mark.parametrize(
    "command",
    [
        "ls -la",
        "npm test",
        "git status",
        "git log -n 5",
        COMMIT_HEREDOC,
        PR_HEREDOC.replace("Guard rm", "Guard"),
        'echo "$HOME"',
        "for f in *.py; do echo $f; done",
        "bash script.sh",
    ],
)
def test_everyday_commands_are_cleared_without_parsing(command: str) -> None:
    assert not may_match(command)


def test_a_word_naming_a_rule_sends_the_line_to_the_full_analysis() -> None:
    assert may_match(PR_HEREDOC)  # its title says "rm": parsed, then allowed


def test_a_deny_shape_head_keeps_its_commands_from_being_cleared() -> None:
    assert not may_match("terraform destroy")
    assert may_match("terraform destroy", frozenset({"terraform"}))


def test_a_heredoc_line_naming_nothing_is_cleared_before_any_parse(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from hookrun.hooks.shell_guard import screen

    def no_parse(text: str) -> str:
        raise AssertionError("parsed")

    monkeypatch.setattr(screen, "without_inert_heredocs", no_parse)
    assert not may_match("git commit -m \"$(cat <<'EOF'\nfeat: add handler 7\nEOF\n)\"")
    with pytest.raises(AssertionError):  # a body naming a rule's word: the tree is asked
        may_match(COMMIT_HEREDOC)
