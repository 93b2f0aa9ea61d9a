"""Ralph's YAML files (signals, metadata.yaml), read with PyYAML as YAML 1.2 reads them.

PyYAML implements YAML 1.1, whose plain scalars mean more than agents expect:
``yes``/``no``/``on``/``off`` are booleans, ``0755`` is octal 493, ``1:30`` is 90 and
``2026-02-15`` a date. Ralph's files and the checks on them (``iteration`` must be a
positive integer, timestamps are validated as ISO 8601 text) were written for YAML
1.2's core schema, which is what the loader here resolves: ``true``/``false``
(three spellings each), ``null``/``~``/empty, decimal integers, decimal and
scientific floats; everything else is a string. Anchors, aliases, tags the safe
loader knows, nested flow collections and every other YAML construct are read as
YAML reads them. Only the Ralph policies import this module (and PyYAML with it).
"""

from __future__ import annotations

import re
from typing import Any

import yaml

_Base: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's parser when built


class _Loader(_Base):  # type: ignore[misc]
    """SafeLoader with YAML 1.2's core-schema resolvers instead of YAML 1.1's."""

    yaml_implicit_resolvers: dict[str, list[tuple[str, re.Pattern[str]]]] = {}


def _resolve(tag: str, pattern: str, first: str) -> None:
    _Loader.add_implicit_resolver(tag, re.compile(pattern, re.X), list(first))


_resolve("tag:yaml.org,2002:null", r"^(?:~|null|Null|NULL|)$", "~nN\0")
_Loader.yaml_implicit_resolvers.setdefault("", []).append(
    ("tag:yaml.org,2002:null", re.compile(r"^$"))
)
_resolve("tag:yaml.org,2002:bool", r"^(?:true|True|TRUE|false|False|FALSE)$", "tTfF")
_resolve("tag:yaml.org,2002:int", r"^[-+]?[0-9]+$", "-+0123456789")
_resolve(
    "tag:yaml.org,2002:float",
    r"^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$",
    "-+.0123456789",
)
_resolve("tag:yaml.org,2002:merge", r"^(?:<<)$", "<")


def _int(loader: Any, node: yaml.ScalarNode) -> int:
    return int(loader.construct_scalar(node), 10)  # decimal: "0755" is 755, as in YAML 1.2


def _float(loader: Any, node: yaml.ScalarNode) -> float:
    return float(loader.construct_scalar(node))


def _mapping(loader: Any, node: yaml.MappingNode) -> dict[Any, Any]:
    """A mapping; a key written twice is an error (YAML says keys are unique; PyYAML
    would keep the last one, and a guard must not judge a file by half of it)."""
    loader.flatten_mapping(node)
    seen: dict[Any, Any] = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        if not isinstance(key, (str, int, float, bool, type(None))):
            raise yaml.constructor.ConstructorError(
                None, None, "a mapping key must be a plain value", key_node.start_mark
            )
        if key in seen:
            raise yaml.constructor.ConstructorError(
                None, None, f"duplicate key {key!r}", key_node.start_mark
            )
        seen[key] = loader.construct_object(value_node, deep=True)
    return seen


_Loader.add_constructor("tag:yaml.org,2002:int", _int)
_Loader.add_constructor("tag:yaml.org,2002:float", _float)
_Loader.add_constructor("tag:yaml.org,2002:map", _mapping)


class YamlError(ValueError):
    """The text is not YAML; ``line`` is 1-based (0 when the parser could not tell)."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}" if line else message)
        self.line = line


def parse(text: str) -> Any:
    """The value of the single YAML document in ``text`` (None when it is empty)."""
    try:
        return yaml.load(text, Loader=_Loader)  # noqa: S506 - a safe loader
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context or "not valid YAML"
        raise YamlError(mark.line + 1 if mark is not None else 0, problem) from None
    except (yaml.YAMLError, ValueError, RecursionError) as exc:
        raise YamlError(0, str(exc) or type(exc).__name__) from None


def dig(data: Any, dotted: str) -> tuple[bool, Any]:
    """(found, value) of ``a.b.c`` in nested mappings."""
    for part in dotted.split("."):
        if not isinstance(data, dict) or part not in data:
            return False, None
        data = data[part]
    return True, data
