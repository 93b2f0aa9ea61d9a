"""The broken-config corpus of ``tests/config/broken_configs_test.py`` through the command line:
``hookrun check`` and ``hookrun run`` print each exact message, exit 1, never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.config.broken_configs_test import CASES
from tests.reliability.helpers import assert_clean_failure, hookrun, hookrun_env


def _write(root: Path, text: str | bytes) -> None:
    root.mkdir()
    path = root / "hooks.json"
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")


@pytest.mark.parametrize(
    ("text", "expected"), [case[1:] for case in CASES], ids=[case[0] for case in CASES]
)
def test_check_and_run_print_the_corpus_message_and_exit_1(
    tmp_path: Path, text: str | bytes, expected: list[str]
) -> None:
    root = tmp_path / "proj"
    _write(root, text)
    env = hookrun_env(tmp_path)
    errors = [line for line in expected if line.startswith("config error: ")]
    assert errors, "every corpus case has at least one error"

    checked = hookrun("check", "--config", "hooks.json", cwd=root, env=env)
    assert checked.code == 1, checked
    assert "Traceback" not in checked.out + checked.err
    printed = (checked.out + checked.err).splitlines()
    for line in expected:  # errors and warnings alike, word for word
        assert line in printed, f"{line!r} missing from:\n{checked.out}{checked.err}"

    ran = hookrun("run", "PreToolUse", "--config", "hooks.json", cwd=root, stdin=b"{}", env=env)
    assert_clean_failure(ran)
    lines = ran.err.splitlines()
    for line in errors:
        assert f"hookrun: {line}" in lines, f"{line!r} missing from:\n{ran.err}"
    assert all(line.startswith("hookrun: ") for line in lines), ran.err
