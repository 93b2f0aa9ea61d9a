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


class _PlainBind(Policy[NoOptions]):
    """A policy whose options check raises a plain exception, not pydantic's."""

    def bind(self, raw: Mapping[str, Any]) -> NoOptions:
        raise ValueError("word:\n    must be\tone of a, b")


class _ErrorsThatFail(Exception):
    def errors(self) -> list[dict[str, Any]]:  # looks like pydantic's, is not
        raise TypeError("not a ValidationError")


class _OddBind(Policy[NoOptions]):
    def bind(self, raw: Mapping[str, Any]) -> NoOptions:
        raise _ErrorsThatFail("options  are\nwrong")


@pytest.fixture
def odd_policies(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    module = types.ModuleType("hookrun_test_odd_policies")
    module.NONSENSE = Policy(  # type: ignore[attr-defined]
        name="test-nonsense", options=NoOptions, decide=_nonsense
    )
    module.PLAIN = _PlainBind(  # type: ignore[attr-defined]
        name="test-plain-bind", options=NoOptions, decide=_nonsense
    )
    module.ODD = _OddBind(  # type: ignore[attr-defined]
        name="test-odd-bind", options=NoOptions, decide=_nonsense
    )
    monkeypatch.setitem(sys.modules, module.__name__, module)
    for name, attr in (("test-plain-bind", "PLAIN"), ("test-odd-bind", "ODD")):
        monkeypatch.setitem(
            registry.ENTRIES, name, registry.Entry(name, f"{module.__name__}:{attr}", "", "")
        )
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


@pytest.mark.parametrize(
    ("builtin", "why"),
    [
        ("test-plain-bind", "word: must be one of a, b"),
        ("test-odd-bind", "options are wrong"),  # its errors() raised: the plain text
    ],
)
def test_options_refused_by_a_check_that_is_not_pydantics_say_why_on_one_line(
    tmp_path: Path, odd_policies: None, builtin: str, why: str
) -> None:
    # A policy may check its options itself; what it raises is the hook's error, on
    # one line (the trace and the deny reason are one line each), and on_error holds.
    inp = prepare("PreToolUse", {}, cwd=str(tmp_path), project_dir=str(tmp_path))
    executor = HookExecutor(host_env={}, max_output=1024)
    (result,) = executor.run_all([prepare_hook(spec(builtin=builtin, on_error="deny"))], inp, None)
    assert result.error == f'builtin "{builtin}": invalid options: {why}'
    assert result.decision == "deny"
    executor.close()
