"""``git.read-email`` against what the real git prints.

The oracle is git itself: a home whose ``.gitconfig`` holds a user.email, each
``git config …`` call run there, and the call is a read of the email when git's output
(stdout or stderr: ``--type bool`` fails *quoting* the value) holds it. shell-guard must
deny exactly those calls (and its other rules none of these). Options that take a value
(``--file F``, ``--type T``, ``--default D``, ``--blob B``) must not be taken for the key.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.hooks.shell_guard.conftest import Judge

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is the oracle")

EMAIL = "ada@analytical-engines.co.uk"

CALLS = [
    "user.email",
    "--get user.email",
    "--global --get-all USER.EMAIL",
    "--type bool user.email",  # fails, quoting the value on stderr
    "--type=bool user.email",
    "--default x user.email",
    "--file .gitconfig user.email",
    "-f .gitconfig user.email",
    "--file user.email user.name",  # a file named user.email: the key is user.name
    "--get-regexp user\\..*",
    "--get-regexp EMAIL",
    "--get-regexp ^user.name",
    "--list",
    "-l",
    "user.name",
    "--get user.name",
    "core.editor",
    "--global user.email ada@elsewhere.org",  # a write
    "--unset user.email",
]


def _git_prints_the_email(home: Path, args: str) -> bool:
    env = {"HOME": str(home), "PATH": os.environ.get("PATH", ""), "GIT_CONFIG_NOSYSTEM": "1"}
    ran = subprocess.run(
        ["bash", "-c", f"git config {args}"],
        cwd=home,
        env=env,
        capture_output=True,
        timeout=30,
        check=False,
    )
    return EMAIL in (ran.stdout + ran.stderr).decode("utf-8", "replace")


@pytest.mark.parametrize("args", CALLS)
def test_git_config_is_denied_exactly_when_git_prints_the_email(
    tmp_path: Path, judge: Judge, args: str
) -> None:
    (tmp_path / ".gitconfig").write_text(f"[user]\n\temail = {EMAIL}\n\tname = Ada\n")
    reads = _git_prints_the_email(tmp_path, args)
    verdict = judge(f"git config {args}")
    assert (verdict.rule == "git.read-email") is reads, (args, reads, verdict)
    assert verdict.decision == ("deny" if reads else None), verdict


def test_a_key_pattern_python_cannot_read_is_judged_a_read(judge: Judge) -> None:
    """(git's regular expressions are not Python's: a pattern the rule cannot compile
    might match user.email in git, so it is denied; git refuses this one.)"""
    verdict = judge("git config --get-regexp '('")
    assert (verdict.decision, verdict.rule) == ("deny", "git.read-email")
