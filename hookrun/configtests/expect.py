"""What a case expected against what the run answered: one line per difference. Pure."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from hookrun.runner.result import RunResult


def _show(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)


def _texts(value: str | Sequence[str]) -> list[str]:
    return [value] if isinstance(value, str) else list(value)


def differences(expect: Mapping[str, Any], result: RunResult) -> list[str]:
    """Every way ``result`` differs from ``expect``; empty when the case passes.

    Only what the case names is compared: a case about the decision passes whatever
    context the hooks add.
    """
    out: list[str] = []
    if "decision" in expect:
        want = expect["decision"] or "none"
        got = result.decision or "none"
        if want != got:
            out.append(f"decision: expected {want}, got {got}")
    if "halt" in expect and bool(expect["halt"]) != result.halt:
        out.append(f"halt: expected {_show(expect['halt'])}, got {_show(result.halt)}")
    if "exit_code" in expect and expect["exit_code"] != result.exit_code:
        out.append(f"exit_code: expected {expect['exit_code']}, got {result.exit_code}")
    for key, text in (
        ("reason_contains", result.reason or ""),
        ("context_contains", "\n".join(result.context)),
        ("system_message_contains", result.system_message or ""),
    ):
        for needle in _texts(expect.get(key, [])):
            if needle not in text:
                field = key.removesuffix("_contains")
                out.append(f"{field}: expected to contain {_show(needle)}, got {_show(text)}")
    for key, actual in (
        ("updated_input", None if result.updated_input is None else dict(result.updated_input)),
        ("updated_prompt", result.updated_prompt),
        ("updated_output", result.updated_output),
        ("context_files", list(result.context_files)),
    ):
        if key in expect and expect[key] != actual:
            out.append(f"{key}: expected {_show(expect[key])}, got {_show(actual)}")
    ran = [hook.name for hook in result.hooks]
    if "hooks_ran" in expect and list(expect["hooks_ran"]) != ran:
        out.append(f"hooks_ran: expected {_show(expect['hooks_ran'])}, got {_show(ran)}")
    for name in expect.get("hooks_not_ran", []):
        if name in ran:
            out.append(f"hooks_not_ran: {_show(name)} ran")
    if expect.get("no_errors"):
        for hook in result.hooks:
            if hook.error:
                out.append(f"no_errors: hook {_show(hook.name)} failed: {hook.error}")
    return out
