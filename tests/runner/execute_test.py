"""HookExecutor edges that the Runner tests cannot reach with real hooks."""

from __future__ import annotations

import sys
import types
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from hookrun.config.spec import HookSpec
from hookrun.dispatch.result import Completed
from hookrun.hooks import registry
from hookrun.hooks.base import Policy, PolicyContext, Verdict
from hookrun.hooks.options import NoOptions
from hookrun.runner.execute import HookExecutor, prepare_hook
from hookrun.runner.payload import prepare


def spec(
    command: str | None = None, builtin: str | None = None, on_error: str = "allow"
) -> HookSpec:
    return HookSpec(
        event="PreToolUse",
        source="h.json#PreToolUse[0]",
        name="h",
        command=command,
        builtin=builtin,
        on_error=on_error,  # type: ignore[arg-type]
    )


def test_a_dispatch_that_raises_fails_only_that_hook(tmp_path: Path) -> None:
    def dispatch(command: str, **kw: Any) -> Completed:
        if command == "./bad":
            raise OSError("no fork")
        return Completed(0, b'{"decision": "allow"}', b"", "binary", 0.001)

    inp = prepare("PreToolUse", {}, cwd=str(tmp_path), project_dir=str(tmp_path))
    executor = HookExecutor(host_env={}, max_output=1024, dispatch=dispatch)
    hooks = [prepare_hook(spec("./bad", on_error="deny")), prepare_hook(spec("./good"))]
    bad, good = executor.run_all(hooks, inp, None)
    assert (bad.route, bad.error, bad.decision) == (
        "error",
        "dispatch error: OSError: no fork",
        "deny",
    )
    assert good.decision == "allow"
    executor.close()


def _nonsense(payload: Mapping[str, Any], options: NoOptions, ctx: PolicyContext) -> Verdict:
    return Verdict(decision="perhaps")  # type: ignore[arg-type]


@pytest.fixture
def odd_policies(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    module = types.ModuleType("hookrun_test_odd_policies")
    module.NONSENSE = Policy(  # type: ignore[attr-defined]
        name="test-nonsense", options=NoOptions, decide=_nonsense
    )
    monkeypatch.setitem(sys.modules, module.__name__, module)
    monkeypatch.setitem(
        registry.ENTRIES,
        "test-nonsense",
        registry.Entry("test-nonsense", f"{module.__name__}:NONSENSE", "", ""),
    )
    monkeypatch.setitem(
        registry.ENTRIES,
        "test-missing",
        registry.Entry("test-missing", "hookrun_no_such_module_x:POLICY", "", ""),
    )
    yield


def test_a_policy_module_that_does_not_import_is_that_hooks_setup_error(odd_policies: None) -> None:
    hook = prepare_hook(spec(builtin="test-missing"))
    assert hook.setup_error is not None
    assert hook.setup_error.startswith('builtin "test-missing" failed to load: ModuleNotFoundError')


def test_a_verdict_that_is_not_a_valid_answer_is_an_error_with_on_error(
    tmp_path: Path, odd_policies: None
) -> None:
    inp = prepare("PreToolUse", {}, cwd=str(tmp_path), project_dir=str(tmp_path))
    executor = HookExecutor(host_env={}, max_output=1024)
    (result,) = executor.run_all(
        [prepare_hook(spec(builtin="test-nonsense", on_error="deny"))], inp, None
    )
    assert (result.error or "").startswith('bad envelope: field "decision" must be one of')
    assert result.decision == "deny"
