"""`hookrun run` with telemetry on, through the real command, into a real OTLP receiver."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from tests.telemetry.receiver import attributes, otlp_receiver, silent_collector

REPO = Path(__file__).resolve().parents[2]
CONFIG: dict[str, Any] = {
    "hooks": {
        "PreToolUse": [
            {"name": "guard", "matcher": "^Bash$", "builtin": "shell-guard"},
            {"name": "note", "command": 'echo \'{"context": "logged"}\''},
        ]
    }
}
RM = {"session_id": "s-9", "tool_name": "Bash", "tool_input": {"command": "rm -rf /"}}


def _env(tmp: Path, extra: dict[str, str]) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("OTEL_")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    env["XDG_CONFIG_HOME"] = str(tmp / "xdg")
    env.update(extra)
    return env


def _run(
    tmp: Path, config: dict[str, Any], env: dict[str, str], *args: str
) -> subprocess.CompletedProcess[str]:
    path = tmp / "hooks.json"
    path.write_text(json.dumps(config))
    return subprocess.run(
        [sys.executable, "-m", "hookrun", "run", "PreToolUse", "--config", str(path), *args],
        input=json.dumps(RM),
        capture_output=True,
        text=True,
        cwd=tmp,
        env=_env(tmp, env),
        timeout=60,
    )


def test_otel_variables_send_the_event_and_its_hooks_and_the_deny_is_answered_as_ever(
    tmp_path: Path,
) -> None:
    with otlp_receiver() as (url, got):
        ran = _run(
            tmp_path,
            CONFIG,
            {"OTEL_EXPORTER_OTLP_ENDPOINT": url, "OTEL_SERVICE_NAME": "agents-ci"},
        )
        spans = {span.name: span for span in got.spans()}
        records = got.log_records()
        resources = got.resources()
    assert ran.returncode == 2
    assert json.loads(ran.stdout)["decision"] == "deny"
    assert "telemetry" not in ran.stderr  # stderr is the deny reason, nothing else
    assert sorted(spans) == ["hook guard", "hook note", "hookrun PreToolUse"]
    root = attributes(spans["hookrun PreToolUse"].attributes)
    assert (root["hookrun.decision"], root["hookrun.session_id"]) == ("deny", "s-9")
    assert attributes(spans["hook guard"].attributes)["hookrun.hook.route"] == (
        "builtin:shell-guard"
    )
    assert [attributes(r.attributes)["hookrun.verdict"] for r in records] == ["deny"]
    assert resources[0]["service.name"] == "agents-ci"


def test_the_config_key_alone_turns_it_on(tmp_path: Path) -> None:
    with otlp_receiver() as (url, got):
        config = {**CONFIG, "telemetry": {"endpoint": url, "resource_attributes": {"team": "a"}}}
        ran = _run(tmp_path, config, {})
        spans = got.spans()
        resources = got.resources()
    assert ran.returncode == 2
    assert len(spans) == 3
    assert resources[0]["team"] == "a"


def test_telemetry_false_in_the_config_wins_over_the_environment(tmp_path: Path) -> None:
    with otlp_receiver() as (url, got):
        ran = _run(tmp_path, {**CONFIG, "telemetry": False}, {"OTEL_EXPORTER_OTLP_ENDPOINT": url})
        assert ran.returncode == 2
        assert got.spans() == []


def test_a_silent_collector_is_reported_with_trace_and_costs_about_the_budget(
    tmp_path: Path,
) -> None:
    with silent_collector() as url:
        started = time.monotonic()
        ran = _run(tmp_path, CONFIG, {"OTEL_EXPORTER_OTLP_ENDPOINT": url}, "--trace")
        spent = time.monotonic() - started
    assert ran.returncode == 2
    assert "telemetry: traces not sent within 80 ms" in ran.stderr
    assert spent < 30  # the budget itself is measured side by side in bench/


def test_with_telemetry_off_no_opentelemetry_module_is_imported(tmp_path: Path) -> None:
    probe = (
        "import sys, runpy\n"
        "sys.argv = ['hookrun', 'run', 'PreToolUse', '--config', sys.argv[1]]\n"
        "import atexit\n"
        "atexit.register(lambda: sys.stderr.write('MODULES ' + ' '.join(sorted(sys.modules))))\n"
        "runpy.run_module('hookrun', run_name='__main__')\n"
    )
    (tmp_path / "hooks.json").write_text(json.dumps(CONFIG))
    ran = subprocess.run(
        [sys.executable, "-c", probe, str(tmp_path / "hooks.json")],
        input=json.dumps(RM),
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=_env(tmp_path, {}),
        timeout=60,
    )
    modules = ran.stderr.split("MODULES ", 1)[1].split()
    assert ran.returncode == 2
    assert "hookrun.telemetry" not in modules  # no key, no OTEL_*: not even the settings
    assert not [
        m for m in modules if m.startswith(("opentelemetry", "requests", "google.protobuf"))
    ]
