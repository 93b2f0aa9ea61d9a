"""No command line, however malformed, makes the policy raise."""

from __future__ import annotations

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from hookrun.hooks.shell_guard import POLICY

from .conftest import bash_payload, context

_PIECES = [
    "rm", "-rf", "/", "~", "git", "push", "-f", "+main", "curl", "x", "|", "sh", "bash", "-c",
    "'", '"', "$(", ")", "`", "${", "}", "{", "(", ";", "&&", "||", "&", "<<", "EOF", "\n",
    "<<<", "<(", ">", "/dev/sda", "$IFS", "$'\\x72'", "\\", "eval", "ssh", "h", "find", "-exec",
    "{}", "+", "xargs", "sudo", "-u", "env", "-i", "for", "in", "do", "done", "case", "esac",
    "[[", "]]", "$((", "))", "=", "a", " ", "*", "..", ".git", "dd", "of=/dev/sdb", ":", "()",
]  # fmt: skip

lines = st.lists(st.sampled_from(_PIECES), max_size=30).map(" ".join) | st.text(max_size=80)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines)
@example("` << rm `")  # a here-document without its end line, in a fallback's word
@example("` << rm ` '")
@example("0000`\x80\U00010000`")  # the tree's offsets cut a character: judged on its words
def test_any_command_line_gets_a_verdict_not_an_exception(command: str) -> None:
    verdict = POLICY.decide(bash_payload(command), POLICY.bind({}), context())
    assert verdict.decision in (None, "deny")
    if verdict.decision == "deny":
        assert verdict.rule and (verdict.reason or "").startswith("shell-guard [")


def test_a_line_whose_tree_cuts_a_character_is_judged_on_its_words() -> None:
    verdict = POLICY.decide(
        bash_payload("0000`\x80\U00010000`; rm -rf /"), POLICY.bind({}), context()
    )
    assert verdict.decision == "deny"
    assert verdict.rule == "delete.catastrophic"
