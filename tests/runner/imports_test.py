"""hookrun is started once per agent tool call: the runner's hot path stays light."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

PROBE = r"""
import json, sys
from hookrun import Runner
from hookrun.config.spec import Config, HookSpec
cwd = sys.argv[1]
hooks = (HookSpec(event="PreToolUse", source="x", name="t", command=sys.argv[2], builtin=None),)
result = Runner(Config(hooks={"PreToolUse": hooks}), cwd=cwd, project_dir=cwd).run(
    "PreToolUse", {"tool_name": "bash", "tool_input": {"command": "ls"}}
)
assert result.hooks[0].error is None, result.hooks[0].error
heavy = ["pydantic", "tree_sitter", "typer", "concurrent.futures", "asyncio", "logging", "datetime"]
print(json.dumps(sorted(m for m in heavy if m in sys.modules)))
"""


def test_running_a_file_hook_imports_no_heavy_module(tmp_path: Path) -> None:
    root = Path(__file__).resolve().parents[2]
    true = tmp_path / "t.sh"
    true.write_text(f"#!{sys.executable}\n")
    true.chmod(0o755)
    out = subprocess.run(
        [sys.executable, "-c", PROBE, str(tmp_path), "./t.sh"],
        capture_output=True,
        text=True,
        cwd=root,
        check=True,
    )
    assert json.loads(out.stdout) == []


def test_the_runner_package_names_its_classes_lazily_and_nothing_else() -> None:
    # hookrun.runner re-exports Runner, RunResult and HookResult without importing
    # hookrun.runner.api until asked (the CLI's fast path imports the package only).
    import hookrun.runner as package
    from hookrun.runner import api

    assert (package.Runner, package.RunResult, package.HookResult) == (
        api.Runner,
        api.RunResult,
        api.HookResult,
    )
    with pytest.raises(AttributeError, match="has no attribute 'Runer'"):
        package.Runer  # noqa: B018 — the typo must fail as for any module
