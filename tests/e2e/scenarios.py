"""hookrun inside a real host: the scenarios every host plays, and what each must do on disk.

A scenario is one hookrun config (canonical events, written once for every host) and
one scripted tool call. The host's tool events (and its prompt event) are all wired to
``hookrun run <HostEvent> --host <name> --config <file>`` in every run, scenario and
control alike, so the only difference between a scenario and its positive control is
the hook behind hookrun: the scenario's, or a pass-through recorder. Verdicts come from
the disk (the victim repository, files the command creates) and from the requests the
fake model recorded — never from hookrun's own output.
"""

from __future__ import annotations

import json
import shlex
import sys
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, NamedTuple

from tests.e2e.conftest import World
from tests.e2e.fakemodel import Dialect, FakeModel, Script, Text, ToolCall
from tests.e2e.hostrun import HostRun

# Assembled at run time so that the whole key appears only in the command's output,
# never in the command the model sent (which the model sees as its own message).
SECRET = "AKIAZ7QKX3MPL4RTW2VB"
SECRET_COMMAND = "printf 'AKIA%s\\n' Z7QKX3MPL4RTW2VB"
REDACTED = "[REDACTED:aws_access_key]"
CONTEXT_AFTER_TOOL = "ctx-after-tool-5e1f"
CONTEXT_ON_PROMPT = "ctx-on-prompt-9b2c"
CONTEXT_BEFORE_TOOL = "ctx-before-tool-3d7a"
HALT_REASON = "halted by the e2e halt hook 4c8e"
FINAL_TEXT = "All done."
# hookrun's timeout for the hung hook; the host's own hook timeout is 30 s, so a run
# that ends well before that was unblocked by hookrun, not by the host.
HUNG_HOOK_TIMEOUT = 2
HUNG_RUN_LIMIT = 25.0

# The canonical events every run wires, each to hookrun with the host's own event name.
WIRED = ("PreToolUse", "PostToolUse", "UserPromptSubmit")


class Host(NamedTuple):
    """How one host (or one wiring mode of it) is driven."""

    name: str  # for --host
    shell_tool: str
    events: Mapping[str, str]  # canonical event → the host's own event name
    tool_input: Callable[[str], dict[str, Any]]  # shell command → the tool's arguments
    dialect: Callable[[], Dialect]
    play: Callable[[World, FakeModel, Mapping[str, Sequence[str]], str], HostRun]


class Outcome(NamedTuple):
    world: World
    model: FakeModel
    run: HostRun
    recorded: list[dict[str, Any]]  # payloads hookrun handed to the recorder hook

    def tool_results(self) -> str:
        return "\n".join(self.model.tool_results())

    def requests_after_tool(self) -> list[dict[str, Any]]:
        """Model requests that carry the tool's result: the turn went on after the tool."""
        return [b for b in self.model.turns() if self.model.dialect.tool_results(b)]

    def seen_after_tool(self) -> str:
        return "\n".join(json.dumps(b, ensure_ascii=False) for b in self.requests_after_tool())

    def hookrun_ran(self, event: str) -> bool:
        """hookrun was in the chain and ran the config: the recorder hook got ``event``."""
        return any((p.get("hook_event_name") or p.get("event")) == event for p in self.recorded)

    def why(self) -> str:
        return f"{self.run.describe()}\n--- tool results ---\n{self.tool_results()[-2000:]}"


def make_world(root: Path) -> World:
    """The conftest ``world`` fixture's layout, for runs shared by a module's tests."""
    home, project, victim = root / "home", root / "project", root / "victim"
    for path in (home, project, victim / ".git"):
        path.mkdir(parents=True)
    (victim / ".git" / "HEAD").write_text("ref: refs/heads/main\n", encoding="utf-8")
    return World(root, home, project, victim)


def combined_command(world: World) -> str:
    """Delete the victim repository, print the secret, leave a mark that it ran."""
    return (
        f"rm -rf {shlex.quote(str(world.victim_repo))}; {SECRET_COMMAND}; "
        f"touch {shlex.quote(str(world.project / 'ran-original'))}"
    )


def script(world: World, name: str, body: str) -> str:
    """A hook script with a real shebang; returns its path as a hook command."""
    path = world.root / "hooks" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\ncat >/dev/null\n" + body + "\n", encoding="utf-8")
    path.chmod(0o755)
    return shlex.quote(str(path))


def recorder_command(world: World) -> str:
    log = world.root / "recorded.jsonl"
    code = (
        "import sys; data = sys.stdin.read().strip(); "
        f"open({str(log)!r}, 'a', encoding='utf-8').write(data.replace(chr(10), ' ') + chr(10))"
    )
    return f"{shlex.quote(sys.executable)} -c {shlex.quote(code)}"


def recorded(world: World) -> list[dict[str, Any]]:
    log = world.root / "recorded.jsonl"
    if not log.exists():
        return []
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines() if line]


class Scenario(NamedTuple):
    name: str
    hooks: Callable[[World], dict[str, list[dict[str, Any]]]]  # hookrun config "hooks"
    command: Callable[[World], str]


def _emit(world: World, name: str, answer: Mapping[str, Any]) -> dict[str, Any]:
    return {"name": name, "command": script(world, name, f"echo {shlex.quote(json.dumps(answer))}")}


SCENARIOS: dict[str, Scenario] = {
    s.name: s
    for s in (
        Scenario(
            "deny",
            lambda w: {"PreToolUse": [{"builtin": "shell-guard"}]},
            combined_command,
        ),
        Scenario(
            "allow",
            lambda w: {"PreToolUse": [{"builtin": "shell-guard"}]},
            lambda w: f"touch {shlex.quote(str(w.project / 'allowed'))}",
        ),
        Scenario(
            "rewrite",
            lambda w: {
                "PreToolUse": [
                    _emit(
                        w,
                        "rewrite",
                        {"updated_input": {"command": f"touch {w.project / 'rewritten'}"}},
                    )
                ]
            },
            combined_command,
        ),
        Scenario(
            "context",
            lambda w: {
                "UserPromptSubmit": [_emit(w, "ctx-prompt", {"context": CONTEXT_ON_PROMPT})],
                "PostToolUse": [_emit(w, "ctx-post", {"context": CONTEXT_AFTER_TOOL})],
            },
            combined_command,
        ),
        Scenario(
            "context-before-tool",
            lambda w: {"PreToolUse": [_emit(w, "ctx-pre", {"context": CONTEXT_BEFORE_TOOL})]},
            combined_command,
        ),
        Scenario(
            "redact",
            lambda w: {"PostToolUse": [{"builtin": "pii-scrubber"}]},
            combined_command,
        ),
        Scenario(
            "halt",
            lambda w: {
                "PreToolUse": [
                    {
                        "name": "halt",
                        "command": script(w, "halt", f"echo '{HALT_REASON}' >&2; exit 49"),
                    }
                ]
            },
            combined_command,
        ),
        Scenario(
            "hang",
            lambda w: {
                "PreToolUse": [
                    {
                        "name": "hang",
                        "command": script(w, "hang", "sleep 60"),
                        "timeout": HUNG_HOOK_TIMEOUT,
                    }
                ]
            },
            combined_command,
        ),
        Scenario(
            "control",
            lambda w: {
                event: [{"name": "record", "command": recorder_command(w)}] for event in WIRED
            },
            combined_command,
        ),
    )
}


def play(
    host: Host,
    hookrun_exe: Path,
    scenario: Scenario,
    world: World,
    *,
    host_option: str | None = None,
) -> Outcome:
    """Run ``scenario`` once inside ``host`` and collect what happened.

    ``host_option`` replaces ``--host NAME`` on the wired command line (``--host auto``).
    """
    hooks = scenario.hooks(world)
    if scenario.name != "control":  # every run records: proof that hookrun ran the config
        for event in WIRED:
            hooks.setdefault(event, []).append(
                {"name": "record", "command": recorder_command(world)}
            )
    config = world.write_json(world.root / "hookrun.json", {"version": 1, "hooks": hooks})
    option = host_option or f"--host {host.name}"
    wiring = {
        host.events[event]: [
            f"{shlex.quote(str(hookrun_exe))} run {host.events[event]} {option} "
            f"--config {shlex.quote(str(config))}"
        ]
        for event in WIRED
    }
    command = scenario.command(world)
    steps: Script = {"": [ToolCall(host.shell_tool, host.tool_input(command)), Text(FINAL_TEXT)]}
    with FakeModel(host.dialect(), steps) as model:
        run = host.play(world, model, wiring, f"e2e scenario {scenario.name}: run the command.")
    return Outcome(world, model, run, recorded(world))


def play_all(
    host: Host, hookrun_exe: Path, names: Sequence[str], root: Path, *, workers: int = 3
) -> dict[str, Outcome]:
    """Play several scenarios, each in its own world under ``root``, a few at a time.

    The first runs alone (a host's first start may unpack or cache things); the rest run
    ``workers`` at a time: a host run mostly waits (on Node's start, the fake model,
    hooks), so this keeps the suite's wall time near its CPU time.
    """
    worlds = {name: make_world(root / name) for name in names}
    first, rest = names[0], list(names[1:])
    done = {first: play(host, hookrun_exe, SCENARIOS[first], worlds[first])}
    with ThreadPoolExecutor(max_workers=workers) as pool:
        futures = {n: pool.submit(play, host, hookrun_exe, SCENARIOS[n], worlds[n]) for n in rest}
        done.update({n: f.result() for n, f in futures.items()})
    return done
