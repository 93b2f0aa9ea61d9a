"""A host's own hook contract, pinned by running it with plain hook scripts (no hookrun).

These runs are the oracle hookrun/hosts/ is mapped from: what the real program does with
an exit code, with stderr, with each JSON field, per event. When a pinned host version
is bumped and one of them fails, the host changed its contract, and hookrun's host
module, FINDINGS and the README table must follow.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, NamedTuple

from tests.e2e.conftest import World, make_world
from tests.e2e.driver import Driver, Run
from tests.e2e.fakemodel import FakeModel, Script, Text

FINAL_TEXT = "All done."
# Assembled at run time, so that the whole key is only in the command's output, never in
# the command itself (which the model sees as its own tool call).
SECRET = "AKIAZ7QKX3MPL4RTW2VB"
SECRET_COMMAND = "printf 'AKIA%s\\n' Z7QKX3MPL4RTW2VB"


class Outcome(NamedTuple):
    world: World
    model: FakeModel
    run: Run

    def tool_results(self) -> str:
        return "\n".join(self.model.tool_results())

    def requests_after_tool(self) -> list[dict[str, Any]]:
        """Model requests that carry the tool's result: the turn went on after the tool."""
        return [b for b in self.model.turns() if self.model.dialect.tool_results(b)]

    def why(self) -> str:
        return f"{self.run.describe()}\n--- tool results\n{self.tool_results()[-2000:]}"


class Case(NamedTuple):
    """One raw-hook run: a sh body per event, the command the model runs, what must hold."""

    hooks: Callable[[World], Mapping[str, str]]  # event (host's own name) → sh body
    command: Callable[[World], str]
    check: Callable[[Outcome], None]


def destroy_and_print(world: World) -> str:
    """Delete the victim repository, print the secret, leave a mark that it ran."""
    ran = shlex.quote(str(world.project / "ran-original"))
    return f"{world.rm_git()}; {SECRET_COMMAND}; touch {ran}"


def json_answer(value: Mapping[str, Any], *, exit_code: int = 0, stderr: str = "") -> str:
    """A hook body that prints ``value`` as JSON (and ``stderr``) and exits ``exit_code``."""
    body = f"echo {shlex.quote(json.dumps(value))}"
    if stderr:
        body += f"\necho {shlex.quote(stderr)} >&2"
    return body + f"\nexit {exit_code}"


def run_case(driver: Driver, exe: Path, world: World, case: Case) -> Outcome:
    hooks = {}
    for index, (event, body) in enumerate(case.hooks(world).items()):
        path = world.root / "hooks" / f"h{index}-{event}.sh"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("#!/bin/sh\ncat >/dev/null\n" + body + "\n", encoding="utf-8")
        path.chmod(0o755)
        hooks[event] = [shlex.quote(str(path))]
    driver.wire(world, hooks)
    script: Script = {"": [driver.shell(case.command(world)), Text(FINAL_TEXT)]}
    with FakeModel(driver.dialect, script) as model:
        run = driver.run(exe, world, model.url, "contract check: run the command.", 120)
    return Outcome(world, model, run)


def run_all(
    cases: Mapping[str, tuple[Driver, Case]], exe: Path, root: Path, *, workers: int = 3
) -> dict[str, Outcome]:
    """Every case in its own world under ``root``: the first alone (a host's first start
    may unpack or cache things), then ``workers`` at a time — a host run mostly waits
    (on Node's start, the fake model, the hooks), so this keeps wall time near CPU time."""
    names = list(cases)
    worlds = {name: make_world(root / f"case{i}") for i, name in enumerate(names)}

    def one(name: str) -> Outcome:
        driver, case = cases[name]
        return run_case(driver, exe, worlds[name], case)

    done = {names[0]: one(names[0])}
    with ThreadPoolExecutor(max_workers=workers) as pool:
        futures = {name: pool.submit(one, name) for name in names[1:]}
        done.update({name: future.result() for name, future in futures.items()})
    return done
