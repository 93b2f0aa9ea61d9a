"""Issue 9: a property of the whole answer path of ``hookrun run`` — payload in, hooks,
aggregation, the host's shape, the encoder, stdout. Whatever JSON value (lone
surrogates, NUL, huge and non-finite numbers, deep nesting, wrong types) sits in any
envelope field of any hook or in a payload field, for every host shape, the process
answers with exactly the decision the hooks made in that shape: its exit code (never
1) and a stdout that is UTF-8 JSON holding that shape's answer.

The command runs in-process (``run_command`` with its streams) so that hypothesis can
try hundreds of cases; the hooks are inline commands of the in-process shell.
"""

from __future__ import annotations

import io
import json
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hookrun import exitcodes
from hookrun.cli.commands.run import RunOptions, Streams, run_command
from hookrun.cli.payload import PayloadFlags
from hookrun.config.spec import Config, HookSpec
from hookrun.hosts import NAMES, bridge
from hookrun.runner import Runner, wire

ENVELOPE_FIELDS = [
    "decision", "halt", "reason", "context", "context_files", "updated_input",
    "updated_prompt", "updated_output", "system_message", "version", "continue",
    "stopReason", "systemMessage", "hookSpecificOutput", "additionalContext",
]  # fmt: skip


def _deep(depth: int) -> Any:
    value: Any = "bottom"
    for _ in range(depth):
        value = [value]
    return value


HUGE = "<5000 digits>"

HOSTILE_TEXT = st.text(
    alphabet=st.characters(min_codepoint=0, max_codepoint=0x10FFFF, exclude_categories=()),
    max_size=12,
) | st.sampled_from(["\ud800", "a\udfffb", "\x00", "x\x00\ud83d", "'", "\\", "$(x)"])
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.just(HUGE)  # becomes an integer past Python's int-string limit (_json_text)
    | st.floats(allow_nan=False, allow_infinity=False)
    | HOSTILE_TEXT
)
JSON_VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(HOSTILE_TEXT, inner, max_size=3),
    max_leaves=8,
) | st.sampled_from([_deep(200), {"permissionDecision": "deny"}, ["a\x00b"], "deny", "block"])

DECIDERS = {
    "deny": "exit 2",
    "halt": "echo stop >&2; exit 49",
    "ask": 'echo \'{"decision": "ask"}\'',
    "allow": 'echo \'{"decision": "allow"}\'',
    "none": "true",
}


def _json_text(value: Any) -> str:
    """JSON text as a hook would print it: \\u escapes for what UTF-8 cannot carry, and
    :data:`HUGE` as a 5,000-digit integer."""
    text = json.dumps(value, ensure_ascii=True, allow_nan=False)
    return text.replace(json.dumps(HUGE), "9" * 5000)


def _echo(text: str) -> str:
    return "printf '%s\\n' '" + text.replace("'", "'\\''") + "'"


def _timeless(value: Any) -> Any:
    """``value`` without the hooks' ``duration_ms`` (two runs never take the same time)."""
    if isinstance(value, dict):
        return {k: _timeless(v) for k, v in value.items() if k != "duration_ms"}
    if isinstance(value, list):
        return [_timeless(v) for v in value]
    return value


def _spec(index: int, command: str) -> HookSpec:
    return HookSpec(
        event="PreToolUse", source=f"prop#PreToolUse[{index}]", name=f"h{index}",
        command=command, builtin=None,
    )  # fmt: skip


@pytest.mark.nocov
@pytest.mark.timeout(900)
@settings(
    max_examples=int(os.environ.get("HOOKRUN_PROPERTY_EXAMPLES", "150")),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    field=st.sampled_from(ENVELOPE_FIELDS),
    value=JSON_VALUES,
    decider=st.sampled_from(sorted(DECIDERS)),
    payload_key=st.sampled_from(["command", "nested", "extra"]),
    payload_value=JSON_VALUES,
    host=st.sampled_from(NAMES),
)
def test_the_answer_is_the_hooks_decision_in_the_hosts_shape_whatever_the_bytes(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    field: str,
    value: Any,
    decider: str,
    payload_key: str,
    payload_value: Any,
    host: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    # Each host's detection reads these: keep the test's own host environment out.
    for name in list(os.environ):
        if name.startswith(("CLAUDE", "GEMINI", "CODEX", "COPILOT", "CURSOR", "CRUSH")):
            monkeypatch.delenv(name)
    tool_input: dict[str, Any] = {"command": "ls"}
    payload: dict[str, Any] = {"tool_name": "Bash", "tool_input": tool_input}
    if payload_key == "extra":
        payload["extra"] = payload_value
    elif payload_key == "nested":
        tool_input["nested"] = payload_value
    else:
        tool_input["command"] = payload_value
    hooks = (
        _spec(0, _echo(_json_text({field: value}))),
        _spec(1, DECIDERS[decider]),
    )
    config = Config(hooks={"PreToolUse": hooks})
    stdin = _json_text(payload).encode()

    # The oracle: what the runner decided, in the host's shape (no process, no encoder).
    inbound = bridge.map_in(host, "PreToolUse", wire.loads(stdin), os.environ)
    with Runner(config, cwd=str(tmp_path), project_dir=str(tmp_path)) as runner:
        result = runner.run(inbound.event, inbound.payload)
    expected = bridge.map_out(inbound, result)

    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", write_through=True)
    err = io.StringIO()
    streams = Streams(stdin=io.BytesIO(stdin), stdin_isatty=False, stdout=out, stderr=err)
    monkeypatch.setattr("hookrun.cli.configfiles.load_config", lambda paths, cwd: config)
    code = run_command(RunOptions(event="PreToolUse", flags=PayloadFlags(), format=host), streams)

    assert code != exitcodes.ERROR, err.getvalue()
    assert code == expected.exit_code, (code, expected, err.getvalue())
    raw = out.buffer.getvalue()  # type: ignore[attr-defined]
    if expected.stdout is None:
        assert raw == b""
        return
    answer = json.loads(raw.decode("utf-8"), parse_constant=pytest.fail)  # strict UTF-8 JSON
    assert _timeless(answer) == _timeless(json.loads(wire.dumps(expected.stdout)))
    if host == "hookrun":
        decision = "deny" if decider == "deny" else answer["decision"]
        assert answer["decision"] == decision
