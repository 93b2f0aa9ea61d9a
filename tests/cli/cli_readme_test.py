"""The README shows what the code does: configs load, outputs are real, nothing is missing."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from hookrun.hooks import registry

if TYPE_CHECKING:
    from conftest import Project

README = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
BLOCKS = [(m.group(1), m.group(2)) for m in re.finditer(r"```(\w*)\n(.*?)```", README, flags=re.S)]
CHECK_OUTPUT = next(text for lang, text in BLOCKS if text.startswith("$ hookrun check\n"))
BROKEN_CONFIG = BLOCKS[[text for _, text in BLOCKS].index(CHECK_OUTPUT) - 1][1]
CONFIGS = [
    text
    for lang, text in BLOCKS
    if lang in ("json", "jsonc")
    and '"hooks"' in text
    and text is not BROKEN_CONFIG
    and not text.startswith('{"version": 1, "event"')  # the answer, not a config
]


def test_the_readme_has_config_examples() -> None:
    assert len(CONFIGS) >= 4


@pytest.mark.parametrize("text", CONFIGS, ids=lambda t: t.split("\n", 1)[0][:40])
def test_every_config_in_the_readme_loads(text: str, tmp_path: Path) -> None:
    from hookrun.config import load

    path = tmp_path / "hooks.json"
    path.write_text(text, encoding="utf-8")
    config = load([path], cwd=tmp_path)
    assert sum(len(specs) for specs in config.hooks.values()) >= 1


def test_the_check_example_is_what_check_prints(project: Project) -> None:
    project.config(BROKEN_CONFIG)
    ran = project.run("check")
    shown = CHECK_OUTPUT.split("\n", 1)[1].replace("/tmp/chk/", f"{project.root}/")
    assert ran.code == 1
    assert ran.out == shown


def test_the_answer_example_has_the_real_fields(project: Project) -> None:
    example = next(json.loads(t) for _, t in BLOCKS if t.startswith('{"version": 1, "event"'))
    project.hooks("PreToolUse", {"name": "no-rm-rf-root", "command": "echo x >&2; exit 2"})
    real = project.run("run", "PreToolUse", payload=project.tool("bash")).json
    assert list(example) == list(real)
    assert list(example["hooks"][0]) == list(real["hooks"][0])


def test_every_builtin_policy_is_in_the_readme() -> None:
    table = README[README.index("## Built-in policies") : README.index("## How hooks are run")]
    for name in registry.names():
        assert f"`{name}`" in table, name


@pytest.mark.parametrize(
    "command", ["run", "check", "list", "schema", "policy", "policies", "lockout"]
)
def test_every_command_is_documented(command: str) -> None:
    assert re.search(rf"^### `hookrun {command}\b", README, flags=re.M), command


def test_the_quick_start_is_the_two_dev_commands() -> None:
    quick = README[README.index("## Quick start") : README.index("## Contents")]
    first = next(text for _, text in BLOCKS if "dev.py" in text)
    assert first in quick
    assert [line.split("#")[0].strip() for line in first.strip().splitlines()] == [
        "python3 dev.py demo",
        "python3 dev.py test",
    ]


def test_the_licence_line_is_there() -> None:
    assert "MIT" in README and "[LICENSE](LICENSE)" in README
