"""docs/policies.md says true things: every example binds, every built-in has a section."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path
from typing import Any

import pytest

from hookrun.hooks import registry

DOC = Path(__file__).resolve().parents[2] / "docs" / "policies.md"
TEXT = DOC.read_text(encoding="utf-8")


def _builtin_entries(value: Any) -> list[dict[str, Any]]:
    if isinstance(value, dict):
        found = [value] if "builtin" in value else []
        return found + [e for v in value.values() for e in _builtin_entries(v)]
    if isinstance(value, list):
        return [e for v in value for e in _builtin_entries(v)]
    return []


def _config_examples() -> list[dict[str, Any]]:
    entries = []
    for block in re.findall(r"```jsonc\n(.*?)```", TEXT, re.S):
        text = re.sub(r"//[^\n]*", "", block)
        try:
            data = json.loads(text)
        except json.JSONDecodeError:
            continue
        entries += _builtin_entries(data)
    return entries


EXAMPLES = _config_examples()
COMMANDS = re.findall(r"^`?(hookrun policy [^`\n]+?)`?$", TEXT, re.M) + re.findall(
    r"^(hookrun policy .+?)(?:\s+#.*)?$", TEXT, re.M
)


def test_the_doc_has_config_examples_for_most_builtins() -> None:
    assert len({e["builtin"] for e in EXAMPLES}) >= 15


@pytest.mark.parametrize("entry", EXAMPLES, ids=lambda e: str(e["builtin"]))
def test_every_config_example_binds(entry: dict[str, Any]) -> None:
    policy = registry.get(entry["builtin"])
    policy.bind(entry.get("with", {}))


@pytest.mark.parametrize("command", sorted(set(COMMANDS)))
def test_every_standalone_example_names_a_policy_and_valid_options(command: str) -> None:
    words = shlex.split(command.split(" < ")[0])
    name = words[2]
    options: dict[str, Any] = {}
    i = 3
    while i < len(words):
        if words[i] == "--with":
            key, _, raw = words[i + 1].partition("=")
            try:
                options[key] = json.loads(raw)
            except json.JSONDecodeError:
                options[key] = raw
            i += 2
        elif words[i] == "--with-json":
            options.update(json.loads(words[i + 1]))
            i += 2
        else:
            i += 2 if words[i] == "--event" else 1
    registry.get(name).bind(options)


@pytest.mark.parametrize("name", registry.names())
def test_every_builtin_has_a_section(name: str) -> None:
    assert f"\n### {name}" in TEXT


@pytest.mark.parametrize(
    "item",
    [f"| P{i} |" for i in range(1, 19)]
    + [f"| B{i} |" for i in range(1, 18)]
    + [f"| H{i} |" for i in range(1, 6)]
    + [f"| {i} |" for i in range(1, 34)],
)
def test_every_seed_policy_is_mapped(item: str) -> None:
    assert item in TEXT
