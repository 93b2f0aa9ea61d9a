from __future__ import annotations

import json
from typing import Any

import pytest

from hookrun.config import json_schema


def conforms(value: Any, schema: dict[str, Any], root: dict[str, Any]) -> bool:
    """A small JSON Schema check covering what the exported schema uses (no dependency)."""
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        return conforms(value, root["$defs"][name], root)
    if "anyOf" in schema:
        return any(conforms(value, option, root) for option in schema["anyOf"])
    kind = schema.get("type")
    if "const" in schema and value != schema["const"]:
        return False
    if "enum" in schema and value not in schema["enum"]:
        return False
    if kind == "null":
        return value is None
    if kind == "boolean":
        return isinstance(value, bool)
    if kind in ("number", "integer"):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return False
        return "exclusiveMinimum" not in schema or value > schema["exclusiveMinimum"]
    if kind == "string":
        return isinstance(value, str)
    if kind == "array":
        items = schema.get("items", {})
        return isinstance(value, list) and all(conforms(v, items, root) for v in value)
    if kind == "object":
        if not isinstance(value, dict):
            return False
        if any(key not in value for key in schema.get("required", [])):
            return False
        props = schema.get("properties", {})
        extra = schema.get("additionalProperties", True)
        for key, item in value.items():
            sub = props.get(key, extra if isinstance(extra, dict) else {})
            if not conforms(item, sub, root):
                return False
        return True
    return True


EXAMPLES = [
    {
        "version": 1,
        "include_sub_agents": False,
        "timeout": 30,
        "audit_log": ".hookrun/audit.jsonl",
        "hooks": {
            "PreToolUse": [
                {"name": "no-rm", "matcher": "^bash$", "command": "./hooks/no-rm.sh",
                 "timeout": 10, "on_error": "allow", "env": {"K": "V"}},
                {"name": "guard", "matcher": "^(bash|shell)$", "builtin": "shell-guard",
                 "with": {"allow_force_with_lease": True}},
                {"command": "./audit.sh", "include_sub_agents": True},
            ]
        },
    },
    {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "check.sh", "timeout": 60}]}]}},
    {"$schema": "https://charm.land/crush.json", "hooks": {"PreToolUse": [
        {"matcher": "^bash$", "command": "./no-haskell.sh"}]}},
    {"shell": "inprocess", "hooks": {"PreToolUse": [
        {"command": "bash guard.sh", "shell": "auto"}]}},
]  # fmt: skip


def test_schema_describes_the_hookrun_dialect() -> None:
    schema = json_schema()
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["type"] == "object"
    assert {"version", "include_sub_agents", "timeout", "audit_log", "shell", "hooks",
            "$schema"} <= set(schema["properties"])  # fmt: skip
    hook = schema["$defs"]["HookModel"]["properties"]
    assert {"name", "matcher", "command", "builtin", "with", "timeout", "on_error", "env",
            "include_sub_agents", "shell"} == set(hook)  # fmt: skip
    assert schema["$defs"]["ClaudeEntryModel"]["required"] == ["hooks"]
    json.dumps(schema)  # serialisable as is (`hookrun schema` prints it)


@pytest.mark.parametrize("example", EXAMPLES)
def test_example_configs_conform_to_the_schema(example: dict[str, Any]) -> None:
    schema = json_schema()
    assert conforms(example, schema, schema)


@pytest.mark.parametrize(
    "bad",
    [
        {"version": 2},
        {"timeout": 0},
        {"timeout": "10"},
        {"hooks": {"PreToolUse": [{"command": 1}]}},
        {"hooks": {"PreToolUse": [{"on_error": "block"}]}},
        {"hooks": {"PreToolUse": [{"command": "a", "shell": "bash"}]}},
        {"shell": "wsl"},
        {"hooks": {"PreToolUse": {"command": "a"}}},
    ],
)
def test_schema_rejects_wrong_types(bad: dict[str, Any]) -> None:
    schema = json_schema()
    assert not conforms(bad, schema, schema)


def test_package_exports_json_schema_lazily_and_check_lives_above_it() -> None:
    import hookrun.config as config
    from hookrun.checks import check

    assert config.json_schema is json_schema
    assert callable(check)  # issue 8: check needs dispatch, so it sits above config
    with pytest.raises(AttributeError):
        config.check  # noqa: B018
    with pytest.raises(AttributeError):
        config.no_such_name  # noqa: B018
