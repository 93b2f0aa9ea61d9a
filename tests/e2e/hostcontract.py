"""The host's own hook contract, pinned by running it with plain hook scripts (no hookrun).

These runs are the oracle the host modules in hookrun/hosts/ are mapped from: what the
real program does with an exit code, with stderr, with each JSON field, per event.
When a pinned host version is bumped and one of them fails, the host changed its
contract, and hookrun's mapping (and /work's FINDINGS, the README table) must follow.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, NamedTuple

from tests.e2e.conftest import World
from tests.e2e.fakemodel import FakeModel, Script, Text, ToolCall
from tests.e2e.scenarios import Host, Outcome, make_world, recorded

FINAL_TEXT = "All done."


class Case(NamedTuple):
    """One raw-hook run: a shell body per host event, the command, and what must hold."""

    hooks: Callable[[World], Mapping[str, str]]  # host event → sh body (stdin drained first)
    command: Callable[[World], str]
    check: Callable[[Outcome], None]


def json_answer(value: Mapping[str, Any], *, exit_code: int = 0, stderr: str = "") -> str:
    """A hook body that prints ``value`` as JSON (and ``stderr``) and exits ``exit_code``."""
    body = f"echo {shlex.quote(json.dumps(value))}"
    if stderr:
        body += f"\necho {shlex.quote(stderr)} >&2"
    return body + f"\nexit {exit_code}"


def run_case(host: Host, world: World, case: Case) -> Outcome:
    hooks = {}
    for index, (event, body) in enumerate(case.hooks(world).items()):
        path = world.root / "hooks" / f"h{index}-{event}.sh"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("#!/bin/sh\ncat >/dev/null\n" + body + "\n", encoding="utf-8")
        path.chmod(0o755)
        hooks[event] = [shlex.quote(str(path))]
    steps: Script = {
        "": [ToolCall(host.shell_tool, host.tool_input(case.command(world))), Text(FINAL_TEXT)]
    }
    with FakeModel(host.dialect(), steps) as model:
        run = host.play(world, model, hooks, "contract check: run the command.")
    return Outcome(world, model, run, recorded(world))


def run_all(
    host: Host, cases: Mapping[str, Case], root: Path, *, workers: int = 3
) -> dict[str, Outcome]:
    """Every case in its own world under ``root``, ``workers`` at a time (after the first)."""
    names = list(cases)
    worlds = {name: make_world(root / name) for name in names}
    done = {names[0]: run_case(host, worlds[names[0]], cases[names[0]])}
    with ThreadPoolExecutor(max_workers=workers) as pool:
        futures = {n: pool.submit(run_case, host, worlds[n], cases[n]) for n in names[1:]}
        done.update({n: f.result() for n, f in futures.items()})
    return done
