#!/usr/bin/env python3
"""What telemetry costs ``hookrun run``: a collector that is down or silent vs one that answers.

Issue 13's promise: an unreachable collector, or one that accepts the connection and
never answers, adds at most 100 ms to the time until hookrun exits. Measured as wall
time of the whole ``hookrun run`` process, the four settings interleaved round by
round so that they see the same machine load; the figures are differences of medians
against the same run with a collector that answers. The cost of telemetry being on at
all (importing the OpenTelemetry SDK) is printed for reference: it is paid only by
those who turn it on.

    python bench/telemetry_bench.py [--quick]
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from childenv import child_env  # noqa: E402

from tests.telemetry.receiver import closed_port, otlp_receiver, silent_collector  # noqa: E402

CONFIG = {
    "hooks": {
        "PreToolUse": [
            {"name": "guard", "matcher": "^Bash$", "builtin": "shell-guard"},
            {"name": "note", "command": 'echo \'{"context": "logged"}\''},
        ]
    }
}
PAYLOAD = json.dumps({"tool_name": "Bash", "tool_input": {"command": "rm -rf /"}}).encode()


def main(quick: bool) -> list[dict[str, Any]]:
    rounds = 5 if quick else 15
    exe = Path(sys.executable).with_name("hookrun")
    hookrun = [str(exe)] if exe.exists() else [sys.executable, "-m", "hookrun"]
    times: dict[str, list[float]] = {"answering": [], "silent": [], "refused": [], "off": []}
    with tempfile.TemporaryDirectory() as tmp:
        # Bytecode under tmp (bench/childenv.py): the first round writes it, not into the tree.
        base_env = child_env(
            os.path.join(tmp, "pycache"),
            {k: v for k, v in os.environ.items() if not k.startswith("OTEL_")},
        )
        config = Path(tmp) / "hooks.json"
        config.write_text(json.dumps(CONFIG))
        argv = [*hookrun, "run", "PreToolUse", "--config", str(config), "--cwd", tmp]
        with otlp_receiver() as (good, got), silent_collector() as silent:
            urls = {"answering": good, "silent": silent, "refused": closed_port(), "off": None}
            for i in range(rounds + 1):
                for name, url in urls.items():
                    env = dict(base_env)
                    if url is not None:
                        env["OTEL_EXPORTER_OTLP_ENDPOINT"] = url
                    started = time.perf_counter()
                    subprocess.run(argv, input=PAYLOAD, env=env, capture_output=True, check=False)
                    if i:  # the first round writes bytecode
                        times[name].append((time.perf_counter() - started) * 1000)
            received = len(got.spans())
    med = {name: statistics.median(values) for name, values in times.items()}
    rows = [
        {
            "case": case,
            "added_ms": round(med[case] - med["answering"], 1),
            "median_ms": round(med[case], 1),
            "answering_ms": round(med["answering"], 1),
        }
        for case in ("silent", "refused")
    ]
    rows.append(
        {
            "case": "on (collector answering) vs off",
            "added_ms": round(med["answering"] - med["off"], 1),
            "median_ms": round(med["answering"], 1),
            "answering_ms": round(med["off"], 1),
            "spans_received": received,
        }
    )
    return rows


if __name__ == "__main__":
    for row in main("--quick" in sys.argv):
        print(row)
