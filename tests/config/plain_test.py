"""The plain fast path must agree with the pydantic models on everything it accepts."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hookrun.config import models, plain

scalars = (
    st.none() | st.booleans() | st.integers(-5, 10**12) | st.text(max_size=5)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.sampled_from(["allow", "deny", "x", "auto", "inprocess"])
)  # fmt: skip
values = scalars | st.lists(scalars, max_size=2) | st.dictionaries(st.text(max_size=3), scalars)
hook_dicts = st.dictionaries(st.sampled_from(sorted(plain.CLAUDE_HOOK_KEYS | {"matcher"})), values)


@given(hook_dicts)
def test_plain_hook_accepts_only_what_the_model_accepts_with_the_same_values(
    raw: dict[str, Any],
) -> None:
    fast = plain.hook(raw)
    if fast is not None:
        slow = plain.from_model(models.HookModel.model_validate(raw), plain.Hook)
        assert fast == slow


@given(hook_dicts, st.one_of(st.none(), st.text(max_size=4), st.integers()))
def test_plain_claude_entry_agrees_with_the_model(raw: dict[str, Any], matcher: Any) -> None:
    entry = {"matcher": matcher, "hooks": [raw]}
    fast = plain.claude_entry(entry)
    if fast is not None:
        slow = models.ClaudeEntryModel.model_validate(entry)
        assert fast.matcher == slow.matcher
        assert fast.hooks == [plain.from_model(h, plain.Hook) for h in slow.hooks]


# "telemetry" is read on its own (loader.read_telemetry), like "hooks".
@given(st.dictionaries(st.sampled_from(sorted(plain.FILE_KEYS - {"hooks", "telemetry"})), values))
def test_plain_settings_agree_with_the_model(raw: dict[str, Any]) -> None:
    fast = plain.settings(raw)
    if fast is not None:
        assert fast == plain.from_model(models.FileSettings.model_validate(raw), plain.Settings)


telemetry_values = st.one_of(
    values,
    st.integers(min_value=-2, max_value=70_000),
    st.dictionaries(st.text(max_size=3), st.one_of(st.text(max_size=3), st.integers())),
)


@given(st.dictionaries(st.sampled_from(sorted(plain.TELEMETRY_KEYS)), telemetry_values))
def test_plain_telemetry_accepts_only_what_the_model_accepts_with_the_same_values(
    raw: dict[str, Any],
) -> None:
    fast = plain.telemetry(raw)
    if fast is not None:
        slow = models.TelemetryModel.model_validate(raw).model_dump(exclude_none=True)
        assert fast == slow


@pytest.mark.parametrize(
    "raw",
    [
        {"command": "a", "timeout": 10, "on_error": "deny", "env": {"A": "b"}, "with": {}},
        {"builtin": "x", "include_sub_agents": True, "matcher": "^bash$", "name": "n"},
        {"command": "a", "timeout": 0.5},
    ],
)
def test_plain_hook_accepts_the_usual_valid_entries(raw: dict[str, Any]) -> None:
    assert plain.hook(raw) is not None


def test_loading_a_valid_inline_config_does_not_import_pydantic(tmp_path: Path) -> None:
    (tmp_path / "h.json").write_text(
        '{"timeout": 5, "hooks": {"PreToolUse": [{"matcher": "^bash$", "command": "echo"}],'
        ' "Stop": [{"hooks": [{"type": "command", "command": "true", "timeout": 3}]}]}}'
    )
    code = "import sys, hookrun.config as c; c.load(['h.json']); print('pydantic' in sys.modules)"
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env,
        cwd=tmp_path,
    )  # fmt: skip
    assert out.stdout.strip() == "False"
