"""The registry is a static table: listing, checking names and fail modes import no policy."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hookrun.hooks import registry
from hookrun.hooks.write_guard import READ_TOOLS, WRITE_TOOLS

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", registry.names())
def test_each_entry_points_at_the_policy_of_that_name(name: str) -> None:
    policy = registry.get(name)
    assert policy.name == name
    assert policy.entry is registry.ENTRIES[name]
    assert policy.options._fields is not None  # a NamedTuple of options


def test_aliases_resolve_to_their_policy_and_unknown_names_to_nothing() -> None:
    assert registry.canonical("file-restriction") == "write-guard"
    assert registry.get("file-restriction") is registry.get("write-guard")
    assert registry.canonical("shell-gaurd") is None
    with pytest.raises(KeyError):
        registry.entry("shell-gaurd")


def test_the_file_guards_default_matchers_are_their_tool_lists() -> None:
    assert registry.entry("write-guard").default_matcher == "|".join(WRITE_TOOLS)
    assert registry.entry("read-guard").default_matcher == "|".join(READ_TOOLS)
    assert registry.entry("pii-write-guard").default_matcher == "|".join(WRITE_TOOLS)
    assert registry.entry("secret-guard").default_matcher == "|".join(WRITE_TOOLS)


def _modules_after(code: str, tmp_path: Path) -> set[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run(
        [sys.executable, "-c", code + "\nimport sys, json; print(json.dumps(sorted(sys.modules)))"],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return set(json.loads(done.stdout.splitlines()[-1]))


def _policy_modules(modules: set[str]) -> list[str]:
    owned = {entry.module for entry in registry.ENTRIES.values()}
    return sorted(m for m in modules if m in owned or m.startswith("pydantic"))


def test_listing_the_policies_imports_none_of_them(tmp_path: Path) -> None:
    code = "from hookrun.cli.commands.policies import policy_rows\nrows = policy_rows()"
    assert _policy_modules(_modules_after(code, tmp_path)) == []


def test_loading_a_config_naming_builtins_imports_none_of_them(tmp_path: Path) -> None:
    config = {
        "hooks": {
            "PreToolUse": [
                {"builtin": "shell-guard"},
                {"builtin": "file-restriction"},
                {"builtin": "ssot-guard", "with": {"tools": ["Write"]}},
            ]
        }
    }
    (tmp_path / "h.json").write_text(json.dumps(config))
    code = (
        "from hookrun.config import load\n"
        "c = load(['h.json'])\n"
        "assert [h.on_error for h in c.for_event('PreToolUse')] == ['deny', 'deny', 'deny']"
    )
    assert _policy_modules(_modules_after(code, tmp_path)) == []
