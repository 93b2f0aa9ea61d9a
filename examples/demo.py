#!/usr/bin/env python3
"""hookrun's quick-start demo: ``python3 dev.py demo``.

Sets up a throw-away project (``examples/hooks.json`` as its
``.hookrun/hooks.json``, the scripts of ``examples/hooks/`` under ``hooks/``)
and sends agent events through the real ``hookrun run … --trace`` command, the
way Claude Code or Crush would: payload JSON on stdin, answer JSON on stdout,
decision in the exit code. Shows each answer and trace, checks each one, and
exits 1 if anything did not behave as shown.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"

Check = Callable[[dict[str, Any], str], bool]


@dataclass(frozen=True)
class Step:
    title: str
    args: list[str]
    payload: dict[str, Any] | None
    exit_code: int
    checks: list[tuple[str, Check]] = field(default_factory=list)


def _tool(name: str, **tool_input: Any) -> dict[str, Any]:
    return {"session_id": "demo-1", "tool_name": name, "tool_input": tool_input}


STEPS = [
    Step(
        "rm -rf / is blocked: the script and shell-guard both deny",
        ["run", "PreToolUse", "--trace"],
        _tool("bash", command="rm -rf /"),
        2,
        [("decision is deny", lambda a, err: a.get("decision") == "deny")],
    ),
    Step(
        "rm -r -f / slips past the regex script, not past shell-guard (it parses the command)",
        ["run", "PreToolUse", "--trace"],
        _tool("bash", command="sudo /bin/rm -r -f /"),
        2,
        [
            ("decision is deny", lambda a, err: a.get("decision") == "deny"),
            (
                "only shell-guard denied",
                lambda a, err: (
                    [h["name"] for h in a["hooks"] if h.get("decision") == "deny"]
                    == ["shell-guard"]
                ),
            ),
        ],
    ),
    Step(
        "Mentioning rm -rf / is harmless: no hook objects",
        ["run", "PreToolUse", "--trace"],
        _tool("bash", command='echo "never run rm -rf /"'),
        0,
        [("no deny", lambda a, err: a.get("decision") != "deny")],
    ),
    Step(
        "rsync --delete is rewritten into a dry run (updated_input) with context",
        ["run", "PreToolUse", "--trace"],
        _tool("bash", command="rsync -a --delete build/ www:/srv/site", timeout=60),
        0,
        [
            (
                "command rewritten, other fields kept",
                lambda a, err: (
                    a.get("updated_input")
                    == {
                        "command": "rsync --dry-run -a --delete build/ www:/srv/site",
                        "timeout": 60,
                    }
                ),
            ),
            ("context says why", lambda a, err: "dry run" in " ".join(a.get("context") or [])),
        ],
    ),
    Step(
        "Writing a Python file adds a reminder for the model (context)",
        ["run", "PreToolUse", "--trace"],
        _tool("Write", file_path="src/app.py", content="print('hi')\n"),
        0,
        [("context added", lambda a, err: "ruff format" in " ".join(a.get("context") or []))],
    ),
    Step(
        "A prompt gets the house rules as context (plain text on stdout)",
        ["run", "UserPromptSubmit", "--trace"],
        {"session_id": "demo-1", "prompt": "fix the login bug"},
        0,
        [("context added", lambda a, err: "House rule" in " ".join(a.get("context") or []))],
    ),
    Step(
        "The same deny in Claude Code's shape, for a .claude/settings.json hook",
        ["run", "PreToolUse", "--format", "claude"],
        _tool("Bash", command="rm -rf /"),
        2,
        [("reason on stderr", lambda a, err: "root directory" in err)],
    ),
]


def hookrun(args: list[str], payload: dict[str, Any] | None, cwd: Path) -> tuple[int, str, str]:
    """Run the real command line, the way a host does: JSON in, JSON + exit code out."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    proc = subprocess.run(
        [sys.executable, "-m", "hookrun", *args],
        input=json.dumps(payload) if payload is not None else "",
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=cwd,
        env=env,
        timeout=120,
    )
    return proc.returncode, proc.stdout, proc.stderr


def make_project(base: Path) -> Path:
    project = base / "demo-project"
    (project / ".hookrun").mkdir(parents=True)
    shutil.copy(EXAMPLES / "hooks.json", project / ".hookrun" / "hooks.json")
    shutil.copytree(EXAMPLES / "hooks", project / "hooks")  # keeps the exec bits
    shutil.copytree(EXAMPLES / "tests", project / ".hookrun" / "tests")
    return project


def heading(text: str) -> None:
    print(f"\n\033[1m== {text}\033[0m" if sys.stdout.isatty() else f"\n== {text}")


def show_command(args: list[str], payload: dict[str, Any] | None) -> None:
    line = "hookrun " + " ".join(shlex.quote(a) for a in args)
    if payload is not None:
        line = f"echo {shlex.quote(json.dumps(payload))} | {line}"
    print(f"$ {line}")


def run_step(i: int, step: Step, project: Path) -> list[str]:
    """Run and show one step; return what did not behave as expected."""
    heading(f"{i}. {step.title}")
    show_command(step.args, step.payload)
    code, out, err = hookrun(step.args, step.payload, project)
    if err:
        print(err.rstrip())
    try:
        answer = json.loads(out)
    except ValueError:
        answer = {}
    shown = {k: v for k, v in answer.items() if k != "hooks" and v not in (None, [], False)}
    print(f"stdout (hooks elided): {json.dumps(shown, ensure_ascii=False)}")
    print(f"exit code: {code}")
    failures = []
    if code != step.exit_code:
        failures.append(f"exit code {code}, expected {step.exit_code}")
    if not answer:
        failures.append(f"stdout is not a JSON answer: {out!r}")
    for label, check in step.checks:
        try:
            ok = bool(answer) and check(answer, err)
        except (KeyError, TypeError):
            ok = False
        if not ok:
            failures.append(f"expected: {label}")
    print("ok" if not failures else "NOT AS EXPECTED: " + "; ".join(failures))
    return failures


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="hookrun-demo-") as tmp:
        project = make_project(Path(tmp))
        print(f"demo project: {project} (config: .hookrun/hooks.json, scripts: hooks/)")
        heading("0. What would run: hookrun check, hookrun list")
        failures: list[str] = []
        for args in (["check"], ["list"]):
            show_command(args, None)
            code, out, err = hookrun(args, None, project)
            print((out + err).rstrip())
            if code != 0:
                failures.append(f"hookrun {args[0]} exited {code}")
        for i, step in enumerate(STEPS, 1):
            failures += run_step(i, step, project)
        log = project / ".hookrun" / "tools.log"
        heading("Every tool call was logged by the inline hook (.hookrun/tools.log)")
        lines = log.read_text().splitlines() if log.exists() else []
        print("\n".join(lines) or "(empty)")
        tool_steps = sum(1 for s in STEPS if s.args[1] == "PreToolUse")
        if len(lines) != tool_steps:
            failures.append(f"tools.log has {len(lines)} lines, expected {tool_steps}")
        heading("The config's own tests: hookrun test (.hookrun/tests/demo.yaml)")
        show_command(["test"], None)
        code, out, err = hookrun(["test"], None, project)
        print((out + err).rstrip())
        if code != 0:
            failures.append(f"hookrun test exited {code}")
    print()
    if failures:
        print(f"demo: {len(failures)} thing(s) did not behave as shown:", file=sys.stderr)
        for failure in failures:
            print(f"  - {failure}", file=sys.stderr)
        return 1
    print(f"demo: all {len(STEPS)} events behaved as shown.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
