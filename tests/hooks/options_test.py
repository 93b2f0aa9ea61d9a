"""Policy options: the plain path accepts exactly what the explaining model accepts, same values.

:func:`hookrun.hooks.options.bind` checks the exact JSON types of a valid config
without pydantic; anything else goes to a pydantic model built from the same
annotations. These tests hold the two paths to one meaning over the documented
examples, every default, hand-picked edge cases and hypothesis-generated inputs.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, NamedTuple

import pydantic
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hookrun.hooks import option_types as options
from hookrun.hooks import registry
from tests.hooks.policies_doc_test import EXAMPLES

REPO = Path(__file__).resolve().parents[2]
POLICIES = [registry.get(name) for name in registry.names()]


def _by_model(cls: type, raw: dict[str, Any]) -> Any:
    """What the pydantic model makes of ``raw``, as the options class holds it."""
    return options._from_model(cls, options.model_for(cls).model_validate(raw))


def _by_plain(cls: type, raw: dict[str, Any]) -> Any:
    return options._plain_options(cls, raw)


# Valid inputs the plain path takes; each must mean the same to the model.
ACCEPTED: list[tuple[str, dict[str, Any]]] = [
    *[(str(e["builtin"]), dict(e.get("with", {}))) for e in EXAMPLES],
    *[(name, {}) for name in registry.names()],
    ("shell-guard", {"deny": ["terraform destroy"], "rules": {"git.rebase": False}}),
    ("shell-guard", {"workspace": None, "allow": [], "artifact_dirs": ["gen"]}),
    ("write-guard", {"roles": {"dev": {"allow": ["src/**"], "hint": "ask"}}, "agents": {}}),
    ("read-guard", {"agents": {"x": {"also_allow": ["a"]}}, "private_readers": []}),
    ("pii-scrubber", {"patterns": [{"name": "ticket", "regex": r"TCK-\d{6}"}]}),
    ("pii-write-guard", {"kinds": ["email"], "workspace": "/w"}),
    ("ask-user-limit", {"max_per_session": 0, "keep_sessions": 1, "per_agent": True}),
    ("reviewer-lockout", {"escalate_after": None, "ignore_case": False}),
    ("reviewer-lockout", {"escalate_after": 0}),
    ("audit-ledger", {"kind": "denials", "max_arg_chars": 0, "path": None}),
    ("secret-guard", {"secret_keys": "(?i)key", "min_length": 3}),
]


@pytest.mark.parametrize(("name", "raw"), ACCEPTED, ids=lambda v: str(v)[:40])
def test_what_the_plain_path_accepts_the_model_accepts_with_the_same_value(
    name: str, raw: dict[str, Any]
) -> None:
    cls = registry.get(name).options
    fast = _by_plain(cls, raw)
    assert fast == _by_model(cls, raw)
    assert registry.get(name).bind(raw) == fast


# Inputs the plain path declines but the model accepts (it coerces them, as before).
COERCED: list[tuple[str, dict[str, Any], str, Any]] = [
    ("ask-user-limit", {"max_per_session": "3"}, "max_per_session", 3),
    ("ask-user-limit", {"per_agent": "true"}, "per_agent", True),
    ("ask-user-limit", {"max_per_session": 3.0}, "max_per_session", 3),
    ("shell-guard", {"block_rebase": 0}, "block_rebase", False),
]


@pytest.mark.parametrize(("name", "raw", "field", "value"), COERCED)
def test_a_value_pydantic_coerces_still_binds_to_the_coerced_value(
    name: str, raw: dict[str, Any], field: str, value: Any
) -> None:
    cls = registry.get(name).options
    with pytest.raises(options._Decline):
        _by_plain(cls, raw)
    bound = registry.get(name).bind(raw)
    assert getattr(bound, field) == value
    assert type(getattr(bound, field)) is type(value)


REJECTED: list[tuple[str, dict[str, Any], str]] = [
    ("shell-guard", {"rules": {"git.rebse": False}}, 'did you mean "git.rebase"'),
    ("shell-guard", {"allow": [""]}, "would match every command"),
    ("shell-guard", {"unknown": 1}, "Extra inputs are not permitted"),
    ("ask-user-limit", {"keep_sessions": 0}, "greater than or equal to 1"),
    ("reviewer-lockout", {"escalate_after": -1}, "greater than or equal to 0"),
    ("audit-ledger", {"kind": "everything"}, "'tools' or 'denials'"),
    ("pii-scrubber", {"kinds": ["nope"]}, "unknown kinds"),
    ("pii-scrubber", {"patterns": [{"name": "Bad Name", "regex": "x"}]}, "pattern name"),
    ("pii-scrubber", {"patterns": [{"name": "ok"}]}, "patterns.0.regex"),
    ("write-guard", {"roles": {"dev": {"alow": []}}}, "roles.dev.alow"),
    ("secret-guard", {"secret_keys": "(token"}, "invalid regex"),
]


@pytest.mark.parametrize(("name", "raw", "message"), REJECTED)
def test_a_bad_option_is_a_pydantic_error_that_names_it(
    name: str, raw: dict[str, Any], message: str
) -> None:
    with pytest.raises(pydantic.ValidationError) as err:
        registry.get(name).bind(raw)
    assert message in str(err.value)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 600) | st.floats(-2, 2) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=6,
)


@settings(max_examples=300, deadline=None)
@given(policy=st.sampled_from(POLICIES), data=st.data())
def test_on_any_json_the_plain_path_never_disagrees_with_the_model(
    policy: Any, data: st.DataObject
) -> None:
    fields = list(policy.options._fields)
    keys = st.sampled_from(fields) if fields else st.text(max_size=4)
    raw = data.draw(st.dictionaries(keys, JSON, max_size=3))
    try:
        fast = _by_plain(policy.options, raw)
    except options._Decline:
        return
    assert fast == _by_model(policy.options, raw)


def test_every_policy_defaults_to_what_its_model_defaults_to() -> None:
    for policy in POLICIES:
        assert policy.options() == _by_model(policy.options, {}), policy.name


def test_binding_valid_options_never_imports_pydantic() -> None:
    code = (
        "import sys\n"
        "from hookrun.hooks import registry\n"
        "for name in registry.names():\n"
        "    registry.get(name).bind({})\n"
        "registry.get('shell-guard').bind({'deny': ['x y'], 'rules': {'git.rebase': False}})\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pydantic', 'pydantic_core')))"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60
    )
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout.replace("'", '"')) == []


def test_options_of_a_class_whose_module_is_not_registered_still_bind() -> None:
    """A policy defined in a file run by path (bench/runner_bench.py under bench/run_all.py)
    has a __module__ missing from sys.modules: its options bind all the same."""

    class Loose(NamedTuple):
        n: int = 0

    Loose.__module__ = "hookrun_not_a_registered_module"
    assert options.bind_checked(Loose, {"n": 3}) == Loose(n=3)
