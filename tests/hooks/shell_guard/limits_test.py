"""What shell-guard does with a command past what it reads: it denies, naming the limit.

Real payloads as a host sends them: a 300 KiB line (over MAX_COMMAND_CHARS, denied
unread: padding must not be a way around the guard), a line with more here-documents
than the front end reads in a hook's time, a line with a lone surrogate (JSON
``"\\ud800"``: judged as the host would send it), and a payload without a cwd (the
context's is used). Each rule can be turned off like any other.
"""

from __future__ import annotations

from typing import Any

from hookrun.hooks.shell_guard import MAX_COMMAND_CHARS, MAX_HEREDOCS, POLICY
from tests.hooks.shell_guard.conftest import Judge, bash_payload, context


def test_a_command_over_the_size_limit_is_denied_unread(judge: Judge) -> None:
    text = "echo ok; " + "#" * MAX_COMMAND_CHARS
    verdict = judge(text)
    assert (verdict.decision, verdict.rule) == ("deny", "misc.too-long")
    assert f"over the {MAX_COMMAND_CHARS // 1024} KiB shell-guard judges" in (verdict.reason or "")
    off = judge(text, {"rules": {"misc.too-long": False}})
    assert off.decision is None


def test_a_command_with_too_many_here_documents_is_denied(judge: Judge) -> None:
    text = "rm -f x " + "<<E\nE\n" * (MAX_HEREDOCS + 1)
    verdict = judge(text)
    assert (verdict.decision, verdict.rule) == ("deny", "misc.too-deep")
    assert f"over {MAX_HEREDOCS} here-documents" in (verdict.reason or "")


# (made at run time: a literal in this file would join the corpus other tests parse
# from the suite's strings, and the front end takes text a host can encode)
LONE = chr(0xD800)


def test_a_lone_surrogate_is_judged_as_a_replacement_character(judge: Judge) -> None:
    assert judge(f"rm -rf / # {LONE}").decision == "deny"
    assert judge(f"echo {LONE} && rm -rf /").rule == "delete.catastrophic"
    assert judge(f"echo '{LONE}'").decision is None


def test_a_payload_without_a_cwd_is_judged_in_the_contexts(judge: Judge) -> None:
    payload: dict[str, Any] = bash_payload("rm -rf ../..")
    del payload["cwd"]
    verdict = POLICY.decide(payload, POLICY.bind({}), context())
    assert verdict.decision == "deny", verdict
