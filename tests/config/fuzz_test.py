"""Whatever the file holds, load() and check() answer with a Config or ConfigErrors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hookrun.checks import check
from hookrun.config import ConfigError, load

KEYS = [
    "version", "include_sub_agents", "timeout", "audit_log", "hooks", "matcher", "command",
    "builtin", "with", "on_error", "env", "name", "type", "PreToolUse", "pre-tool-use", "Stop",
    "SessionStart", "X", "", "with_",
]  # fmt: skip
leaves = (
    st.none() | st.booleans() | st.integers(-10, 10**6) | st.floats()
    | st.sampled_from(["allow", "deny", "^bash$", "(bash", "Edit|Write", "*", "echo hi",
                       "./missing.sh", "write-guard", "shel-guard", "command", ""])
    | st.text(max_size=6)
)  # fmt: skip
documents = st.recursive(
    leaves,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(KEYS), inner,
                                                                 max_size=4),
    max_leaves=25,
)  # fmt: skip
settings_ = settings(max_examples=150, suppress_health_check=[HealthCheck.function_scoped_fixture])


def _load_or_error(path: Path) -> None:
    try:
        load([path.name], cwd=path.parent)
    except ConfigError as exc:
        assert exc.errors and all(str(issue).startswith("config ") for issue in exc.issues)
        str(exc).encode("utf-8")  # printable as is
    issues = check([path.name], cwd=path.parent, env={"PATH": ""})
    assert all(issue.severity in ("error", "warning") for issue in issues)


@settings_
@given(st.dictionaries(st.just("hooks"), documents) | documents)
def test_any_json_document_loads_or_raises_config_error(tmp_path: Path, doc: Any) -> None:
    path = tmp_path / "h.json"
    path.write_text(json.dumps(doc, allow_nan=True))
    _load_or_error(path)


@settings_
@given(st.binary(max_size=80))
def test_any_bytes_load_or_raise_config_error(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "h.json"
    path.write_bytes(data)
    _load_or_error(path)


@settings_
@given(st.text(alphabet='{}[]:,"/*\n tnrufalse0123-.e\\', max_size=60))
def test_any_jsonc_like_text_loads_or_raises_config_error(tmp_path: Path, text: str) -> None:
    path = tmp_path / "h.json"
    path.write_text(text)
    _load_or_error(path)
